// GEMMs written with inline-asm mma.sync (tests/matrix/kernels/gemm_mma.cu): an int8 GEMM on
// m16n8k32 through shared memory, and a binarized GEMM on m16n8k256 .xor.popc, run on WebGPU on
// both warp paths against JS references, and against native CUDA where
// tests/matrix/native/mma_native.json has them.
import { describe, expect, it } from 'vitest';
import { runMatrixKernel, type WarpPath } from './harness.js';
import { GEMM_CASES } from './gemm-cases.js';
import { hasRecording, nativeOutputs } from './native.js';

const paths: WarpPath[] = ['auto', 'emulated'];

describe.each(paths)('mma GEMMs, warpPath %s', (warpPath) => {
  it.each(GEMM_CASES.map((c) => [c.kernel, c] as const))('%s', async (_k, c) => {
    const { run } = c;
    const out = await runMatrixKernel(run.ptx, run.kernel, { grid: run.grid as number | [number, number], block: run.block }, run.inputs, run.outputWords, warpPath, run.scalars);
    expect([...(out.outputs[0] as Uint32Array)]).toEqual([...c.expected()]);
  });
});

describe.skipIf(!hasRecording())('the GEMM references agree with native CUDA', () => {
  it.each(GEMM_CASES.map((c) => [c.kernel, c] as const))('%s', (kernel, c) => {
    const native = nativeOutputs(kernel);
    expect(native, `no native recording of ${kernel}`).toBeDefined();
    expect([...((native as Uint32Array[])[0] as Uint32Array)]).toEqual([...c.expected()]);
  });
});
