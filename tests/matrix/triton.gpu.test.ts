// Matmuls that Triton 3.6 generates (tests/matrix/triton/*.ptx, from gen.py: cp.async pipelines,
// swizzled ldmatrix, mma.sync m16n8k16 f16 and m16n8k32 s8, masked edge tiles) run through our
// runtime on WebGPU on both warp paths, portable matrix path, against exact JS references, and
// against native CUDA where tests/matrix/native/mma_native.json has them.
import { describe, expect, it } from 'vitest';
import { argsOf, firstDifference, runKernel, type WarpPath } from './harness.js';
import { nativeOutputs } from './native.js';
import { TRITON_CASES } from './triton-cases.js';

const paths: WarpPath[] = ['auto', 'emulated'];
/**
 * The kernels with Triton's usual tiles (4 warps, 64x64 and up) take lavapipe minutes each (its
 * compile time grows steeply with the workgroup barriers of the emulated warp exchanges), so on
 * a CPU device they run only with PTXW_TRITON_FULL=1; the small-tile kernels always run.
 */
const full = process.env['PTXW_TRITON_FULL'] === '1';

describe.each(paths)('Triton matmuls, warpPath %s', (warpPath) => {
  it.for(TRITON_CASES.map((c) => [c.kernel, c] as const))('%s', { timeout: 900_000 }, async ([, c], t) => {
    if (c.large && !full) { t.skip(); return; }
    const { run } = c;
    const launch = { grid: run.grid as number | [number, number], block: run.block, sharedBytes: run.sharedBytes ?? 0 };
    const out = await runKernel(run.ptx, run.kernel, launch, argsOf(run), warpPath, run.dir);
    const got = out.outputs[0] as Uint32Array;
    const want = c.expected();
    expect(firstDifference(got, want)).toBe('none');
    expect(out.matrix).toBe('portable');
  });
});

describe('the Triton references agree with native CUDA', () => {
  it.for(TRITON_CASES.map((c) => [c.kernel, c] as const))('%s', ([kernel, c], t) => {
    const native = nativeOutputs(kernel);
    if (!native) { t.skip(); return; }
    expect(firstDifference(native[0] as Uint32Array, c.expected())).toBe('none');
  });
});
