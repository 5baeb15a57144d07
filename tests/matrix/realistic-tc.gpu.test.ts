// Kernels written as CUDA programmers write them (kernels/realistic_tc.cu): an f16 mma.sync GEMM
// fed by ldmatrix and double-buffered cp.async, an int8 dp4a GEMM, a half softmax on warp
// shuffles, and a flash-attention forward pass on mma.sync with an online softmax. Each runs on
// WebGPU on both warp paths (matrixPath 'portable') against the JS references of
// realistic-tc-cases.ts (words for the GEMMs, the stated bounds for the float kernels), and
// against native CUDA where native/mma_native.json has a recording of the kernel.
//
// Cost: the portable mma lowering unrolls every mma.sync into per-element shuffles and f32
// arithmetic, so the two mma.sync kernels are large WGSL (0.4-0.7 MB) that lavapipe takes about
// 1.5 (GEMM) and 9 (attention) minutes to compile on two shared cores: they run only with
// PTXW_REALISTIC_SLOW=1 (set it on the GPU machine and before merging compiler changes that
// touch mma, ldmatrix or cp.async). Where warpPath 'auto' resolves to the emulated path
// (lavapipe: subgroups of 8 or 4), its WGSL is the emulated path's, so that run is made once and
// checked for both.
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/api.js';
import { SUBGROUP_MATRIX_FEATURE, releaseDefaultDevice } from '../../runtime/device.js';
import { POISON, kernelSource, type WarpPath } from './harness.js';
import { nativeOutputs } from './native.js';
import { REALISTIC_CASES, realisticCase, violations, type RealisticCase } from './realistic-tc-cases.js';

afterAll(() => releaseDefaultDevice());

const paths: WarpPath[] = ['auto', 'emulated'];
const SLOW = new Set(['gemm_f16_mma_pipelined', 'flash_attn_f16']);
const skipped = (c: RealisticCase): boolean => SLOW.has(c.kernel) && process.env['PTXW_REALISTIC_SLOW'] !== '1';

interface Run { readonly output: Uint32Array; readonly warpPath: string }
const runs = new Map<string, Promise<Run>>();

/** Runs the case on `warpPath` (portable matrices), once per kernel and resolved warp path. */
async function launch(c: RealisticCase, warpPath: WarpPath): Promise<Run> {
  const { run } = c;
  const ctx = await createContext({});
  const fn = ctx.loadModule(kernelSource(run.ptx), { fileName: `${run.ptx}.ptx`, warpPath, matrixPath: 'portable' }).getFunction(run.kernel);
  const key = `${run.kernel}|${fn.layout.warp.path}`;
  const known = runs.get(key);
  if (known) { ctx.destroy(); return known; }
  const result = (async (): Promise<Run> => {
    try {
      const ins = run.inputs.map((w) => { const b = ctx.malloc(Math.max(4, w.byteLength)); ctx.memcpyHtoD(b, w); return b; });
      const outs = run.outputWords.map((w) => { const b = ctx.malloc(4 * w); ctx.memcpyHtoD(b, new Uint32Array(w).fill(POISON)); return b; });
      const args = [...ins, ...outs, ...run.scalars.map((s) => ('u32' in s ? s.u32 : s.f32))];
      const config = { grid: run.grid as number | [number, number], block: run.block };
      const compiled = await fn.prepareAsync(config, args);
      fn.launch(config, args);
      const output = new Uint32Array(run.outputWords[0] as number);
      await ctx.memcpyDtoH(output, outs[0] as never);
      return { output, warpPath: compiled.layout.warp.path };
    } finally {
      ctx.destroy();
    }
  })();
  runs.set(key, result);
  return result;
}

const hex = (w: Uint32Array): string[] => Array.from(w, (v) => v.toString(16));

/** Checks one output against the case's reference: words, or values within the bound. */
function expectReference(c: RealisticCase, out: Uint32Array): void {
  if (c.kind === 'exact') {
    expect(hex(out)).toEqual(hex(c.expected()));
    return;
  }
  const { value, bound } = c.reference();
  expect(violations(c.values(out), value, bound).slice(0, 8)).toEqual([]);
}

describe.each(paths)('realistic kernels, warpPath %s', (warpPath) => {
  for (const c of REALISTIC_CASES) it.skipIf(skipped(c))(`${c.kernel} matches the reference`, async () => {
    const out = await launch(c, warpPath);
    // 'none' where the kernel has no warp-level instruction (the dp4a GEMM)
    if (warpPath === 'emulated') expect(['emulated', 'none']).toContain(out.warpPath);
    expectReference(c, out.output);
  }, 600_000);
});

// What the selection says for the mma kernels with matrixPath 'auto' (the compile on this device,
// without a launch): the mma.sync kernels take the tensor-core path only where the device offers
// subgroup matrices; on lavapipe, which does not, they stay portable and the reason says so.
describe('matrixPath auto picks a path', () => {
  it.each(['gemm_f16_mma_pipelined', 'flash_attn_f16'])('%s', async (kernel) => {
    const c = realisticCase(kernel);
    const ctx = await createContext({});
    try {
      const fn = ctx.loadModule(kernelSource(c.run.ptx), { fileName: `${c.run.ptx}.ptx`, matrixPath: 'auto' }).getFunction(kernel);
      const report = fn.layout.matrix;
      expect(report).toBeDefined();
      if (!ctx.device.features.has(SUBGROUP_MATRIX_FEATURE)) expect(report).toEqual({ path: 'portable', reason: expect.stringContaining('subgroup matri') });
      else expect(['portable', 'tensor-core']).toContain(report?.path);
    } finally {
      ctx.destroy();
    }
  });
});

// Native recordings (the lead records them on the GPU machine). The references must agree with
// them (exactly for the GEMMs, within the same bound for the float kernels), and so must WebGPU's
// outputs: exactly, or within twice the bound, the two sides' errors being independent.
describe('against native CUDA', () => {
  for (const c of REALISTIC_CASES) {
    const native = nativeOutputs(c.kernel)?.[0];
    it.skipIf(!native)(`${c.kernel}: the reference agrees with native`, () => {
      expectReference(c, native as Uint32Array);
    });
    it.skipIf(!native || skipped(c))(`${c.kernel}: WebGPU agrees with native`, async () => {
      const out = (await launch(c, 'auto')).output;
      if (c.kind === 'exact') return void expect(hex(out)).toEqual(hex(native as Uint32Array));
      const { bound } = c.reference();
      expect(violations(c.values(out), c.values(native as Uint32Array), bound.map((b) => 2 * b)).slice(0, 8)).toEqual([]);
    }, 600_000);
  }
});
