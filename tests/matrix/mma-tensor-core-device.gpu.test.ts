// mma.sync on tensor cores (src/translate/mma-tensor-core.ts: fragments staged through
// workgroup memory into WGSL subgroup matrices), wherever the device offers f16 16x8x16
// subgroup matrices (the H100/H200 with PTX_WGSL_DAWN_FLAGS, README). Each f16 form of
// kernels/mma_forms.cu runs on the same inputs as mma.gpu.test.ts and its D must equal the
// native CUDA recording (tests/matrix/native/mma_native.json) bit for bit: the same tensor
// cores compute both, so a difference means a misplaced element, not a rounding. Skipped,
// saying so, elsewhere (lavapipe has no subgroup matrices).
import { afterAll, describe, expect, it } from 'vitest';
import { getDefaultDevice, releaseDefaultDevice, subgroupMatrixConfigs } from '../../runtime/device.js';
import { runMatrixKernel } from './harness.js';
import { ALL_MMA_CASES, MMA_LAUNCH, dWords, expectedD } from './mma-cases.js';
import { hasRecording, nativeOutputs } from './native.js';

const device = await getDefaultDevice().catch(() => undefined);
const offered = device ? subgroupMatrixConfigs(device).some((c) => c.componentType === 'f16' && c.M === 16 && c.N === 8 && c.K === 16) : false;
afterAll(() => releaseDefaultDevice());

const STAGED = ['mma_m16n8k16_f32_f16', 'mma_m16n8k16_f16_f16', 'mma_m16n8k8_f32_f16', 'mma_m16n8k8_f16_f16'];
const cases = ALL_MMA_CASES.filter(([, c]) => STAGED.includes(c.kernel));

describe.skipIf(!offered || !hasRecording())('mma on tensor cores matches native CUDA bit for bit', () => {
  it('covers every staged form', () => expect(cases.map(([, c]) => c.kernel).sort()).toEqual([...STAGED].sort()));
  it.each(cases.map(([ptx, c]) => [c.kernel, ptx, c] as const))('%s', async (kernel, ptx, c) => {
    const { inputs } = expectedD(c);
    const run = await runMatrixKernel(ptx, kernel, MMA_LAUNCH, inputs, [dWords(c)], 'auto', [], {}, 'auto');
    expect(run.matrix).toBe('tensor-core');
    const native = (nativeOutputs(kernel) as Uint32Array[])[0] as Uint32Array;
    const got = run.outputs[0] as Uint32Array;
    const differ = [...got.keys()].filter((i) => got[i] !== native[i]);
    expect(differ.slice(0, 8).map((i) => `word ${i}: ${got[i]?.toString(16)} native ${native[i]?.toString(16)}`), `${differ.length} of ${got.length} words differ`).toEqual([]);
  });
});

it.runIf(!offered)('the staged-mma tests are skipped: this device offers no f16 16x8x16 subgroup matrices', () => {
  expect(offered).toBe(false);
});
