/**
 * `compile()`: PTX text -> per-kernel WGSL and binding/parameter layout, without a GPU.
 * parse -> SSA IR -> passes (src/pipeline.ts) -> WGSL emitter. Throws PtxError with every
 * diagnostic found.
 */
import { emitKernel } from '../lowering/wgsl/emit-module.js';
import { DiagnosticCode, type Diagnostic } from './diagnostics/diagnostic.js';
import { PtxError } from './diagnostics/ptx-error.js';
import { SourceFile } from './diagnostics/source.js';
import type { CompileOptions, CompileResult } from './compile-types.js';
import { buildModule } from './translate/build-module.js';
import { parsePtx } from './ptx/parse.js';
import { runPasses } from './pipeline.js';
import type { CompiledKernel } from '../lowering/layout.js';
import { chooseWarpPath } from '../lowering/warp-path.js';
import { paramExtents } from '../lowering/param-extents.js';

export type { CompileOptions, CompileResult } from './compile-types.js';

export function compile(ptxSource: string, options: CompileOptions = {}): CompileResult {
  const fileName = options.fileName ?? 'kernel.ptx';
  const source = new SourceFile(fileName, ptxSource);
  const module = parsePtx(ptxSource, fileName);
  const entries = module.items.filter((i) => i.kind === 'function' && i.isEntry && i.body);
  const diagnostics: Diagnostic[] = [];
  if (options.entry !== undefined && !entries.some((e) => e.kind === 'function' && e.name === options.entry)) {
    const names = entries.map((e) => (e.kind === 'function' ? `\`${e.name}\`` : '')).join(', ') || 'none';
    diagnostics.push({ code: DiagnosticCode.SemaNoEntry, severity: 'error', message: `no kernel \`${options.entry}\` in this module (entries: ${names})` });
    throw new PtxError(diagnostics, source);
  }
  const ir = buildModule(module, source, diagnostics, options.entry);
  fail(diagnostics, source);
  const kernels: CompiledKernel[] = [];
  for (const fn of ir.functions) {
    if (!fn.isEntry) continue;
    // Decided before the passes so the convergence pass and the emitter see the same path.
    const warp = chooseWarpPath(fn, options, ir.functions.filter((f) => !f.isEntry));
    const passOptions = warp.path === 'none' ? options : { ...options, warpPath: warp.path };
    const extents = paramExtents(fn, source); // on the IR as built: the passes change the accesses
    runPasses(fn, { module: ir, options: passOptions, diagnostics });
    fail(diagnostics, source);
    const decl = module.items.find((i) => i.kind === 'function' && i.name === fn.name);
    const d = decl?.kind === 'function' ? decl.directives : {};
    const kernel = emitKernel(fn, fileName, diagnostics, {
      ...(d.reqntid ? { reqntid: d.reqntid } : {}),
      ...(d.maxntid ? { maxntid: d.maxntid } : {}),
      nativeFma: options.fusedFma === true,
      ...(options.nativeFloat ? { nativeFloat: options.nativeFloat } : {}),
      ...(options.subgroupOps ? { subgroupOps: true } : {}),
      ...(options.replayRegions ? { replayRegions: options.replayRegions } : {}),
      warp,
      lineOf: (offset) => source.position(offset).line,
    });
    kernels.push(extents.length > 0 ? { ...kernel, layout: { ...kernel.layout, extents } } : kernel);
    fail(diagnostics, source);
  }
  return { module, kernels };
}

function fail(diagnostics: readonly Diagnostic[], source: SourceFile): void {
  if (diagnostics.some((d) => d.severity === 'error')) throw new PtxError(dedupe(diagnostics), source);
}

function dedupe(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.code}:${d.span?.start}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
