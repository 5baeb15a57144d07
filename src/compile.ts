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
import { MatrixFallback } from '../lowering/matrix-path.js';
import type { WarpReport } from '../lowering/layout.js';
import type { IrFunction, IrModule } from './ir/function.js';
import { chooseMatrixPaths } from './translate/matrix-paths.js';

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
  const matrix = chooseMatrixPaths(module, options, source.text);
  const ir = buildModule(module, source, diagnostics, options.entry, matrix.plans, matrix.staged);
  fail(diagnostics, source);
  const kernels: CompiledKernel[] = [];
  for (const built of ir.functions) {
    if (!built.isEntry) continue;
    let fn = built;
    let report = matrix.reports.get(fn.name);
    let passed = passKernel(fn, ir, options, diagnostics, source);
    if (passed instanceof MatrixFallback) {
      // the tensor-core lowering cannot be emitted after all: the portable one from scratch
      const again = buildModule(module, source, diagnostics, fn.name);
      fn = again.functions.find((f) => f.isEntry && f.name === built.name) as typeof fn;
      report = { path: 'portable', reason: passed.reason };
      passed = passKernel(fn, again, options, diagnostics, source);
      if (passed instanceof MatrixFallback) throw passed;
    }
    const { warp, extents } = passed;
    const decl = module.items.find((i) => i.kind === 'function' && i.name === fn.name);
    const d = decl?.kind === 'function' ? decl.directives : {};
    const kernel = emitKernel(fn, fileName, diagnostics, {
      reqntid: d.reqntid || undefined,
      maxntid: d.maxntid || undefined,
      nativeFma: options.fusedFma === true,
      nativeFloat: options.nativeFloat || undefined,
      warp,
      matrix: report || undefined,
      subgroupOps: options.subgroupOps ? true : undefined,
      replayRegions: options.replayRegions || undefined,
      lineOf: (offset) => source.position(offset).line,
    });
    kernels.push(extents.length > 0 ? { ...kernel, layout: { ...kernel.layout, extents } } : kernel);
    fail(diagnostics, source);
  }
  return { module, kernels };
}

/** The passes on one kernel, or the reason its tensor-core lowering must give way (MatrixFallback). */
function passKernel(fn: IrFunction, ir: IrModule, options: CompileOptions, diagnostics: Diagnostic[], source: SourceFile): { warp: WarpReport; extents: ReturnType<typeof paramExtents> } | MatrixFallback {
  // Decided before the passes so the convergence pass and the emitter see the same path.
  const warp = chooseWarpPath(fn, options, ir.functions.filter((f) => !f.isEntry));
  const passOptions = warp.path === 'none' ? options : { ...options, warpPath: warp.path };
  const extents = paramExtents(fn, source); // on the IR as built: the passes change the accesses
  try {
    runPasses(fn, { module: ir, options: passOptions, diagnostics });
  } catch (e) {
    if (e instanceof MatrixFallback) return e;
    throw e;
  }
  fail(diagnostics, source);
  return { warp, extents };
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
