// The realistic mma.sync kernels on the tensor-core path: our f16 GEMM fed by ldmatrix and
// double-buffered cp.async and our flash-attention forward (kernels/realistic_tc.cu), and the f16
// matmuls Triton generates (triton/*.ptx), with matrixPath 'auto' wherever the device offers f16
// 16x8x16 subgroup matrices (the H100/H200 with PTX_WGSL_DAWN_FLAGS, README), against the same
// JS references as the portable runs (realistic-tc.gpu.test.ts, triton.gpu.test.ts): the GEMMs'
// inputs make every f32 sum exact in any order, so they compare word for word; attention within
// its stated bound. Skipped, saying so, elsewhere.
import { afterAll, describe, expect, it } from 'vitest';
import { getDefaultDevice, releaseDefaultDevice, subgroupMatrixConfigs } from '../../runtime/device.js';
import { argsOf, firstDifference, runKernel } from './harness.js';
import type { NativeRun } from './native.js';
import { realisticCase, violations } from './realistic-tc-cases.js';
import { TRITON_CASES } from './triton-cases.js';

const device = await getDefaultDevice().catch(() => undefined);
const offered = device ? subgroupMatrixConfigs(device).some((c) => c.componentType === 'f16' && c.M === 16 && c.N === 8 && c.K === 16) : false;
afterAll(() => releaseDefaultDevice());

const launchOf = (run: NativeRun) => ({ grid: run.grid as number | [number, number], block: run.block, sharedBytes: run.sharedBytes ?? 0 });

describe.skipIf(!offered)('realistic mma kernels on tensor cores', () => {
  it('gemm_f16_mma_pipelined matches its exact reference', async () => {
    const c = realisticCase('gemm_f16_mma_pipelined');
    if (c.kind !== 'exact') throw new Error('exact case expected');
    const out = await runKernel(c.run.ptx, c.run.kernel, launchOf(c.run), argsOf(c.run), 'auto', undefined, 'auto');
    expect(out.matrix).toBe('tensor-core');
    expect(firstDifference(out.outputs[0] as Uint32Array, c.expected())).toBe('none');
  });
  it('flash_attn_f16 is within its bound of the float64 reference', async () => {
    const c = realisticCase('flash_attn_f16');
    if (c.kind !== 'bounded') throw new Error('bounded case expected');
    const out = await runKernel(c.run.ptx, c.run.kernel, launchOf(c.run), argsOf(c.run), 'auto', undefined, 'auto');
    expect(out.matrix).toBe('tensor-core');
    const { value, bound } = c.reference();
    expect(violations(c.values(out.outputs[0] as Uint32Array), value, bound).slice(0, 8)).toEqual([]);
  });
  it.for(TRITON_CASES.filter((c) => !c.kernel.includes('s8')).map((c) => [c.kernel, c] as const))('Triton %s matches its exact reference', async ([, c]) => {
    const out = await runKernel(c.run.ptx, c.run.kernel, launchOf(c.run), argsOf(c.run), 'auto', c.run.dir, 'auto');
    expect(out.matrix).toBe('tensor-core');
    expect(firstDifference(out.outputs[0] as Uint32Array, c.expected())).toBe('none');
  });
});

it.runIf(!offered)('the tensor-core kernel tests are skipped: this device offers no f16 16x8x16 subgroup matrices', () => {
  expect(offered).toBe(false);
});
