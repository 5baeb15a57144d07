// mma.sync.aligned on WebGPU (src/translate/handlers-mma.ts), one kernel per form
// (tests/matrix/kernels/mma_forms.cu, mma_forms_sm89.cu): random A, B, C per warp, packed into the
// lanes' fragment registers by the ISA's layouts (reference.ts), D unpacked the same way and
// compared bit for bit with the JS reference. Lavapipe's subgroups of 8 (4 with
// LP_NATIVE_VECTOR_WIDTH=128) give the emulated warp path; both `auto` and a forced `emulated`
// run, and the subgroups path's WGSL must at least compile here (on a device with 32-lane
// subgroups `auto` runs it). Where tests/matrix/native/mma_native.json exists (record_mma_native.py
// on an NVIDIA GPU), the JS reference is also compared with the native results.
import { afterAll, describe, expect, it } from 'vitest';
import { getDefaultDevice, releaseDefaultDevice } from '../../runtime/device.js';
import { compile } from '../../src/compile.js';
import { kernelSource, runMatrixKernel, type WarpPath } from './harness.js';
import { ALL_MMA_CASES, MMA_LAUNCH, dPlace, dWords, expectedD } from './mma-cases.js';
import { disagreements } from './native-compare.js';
import { hasRecording, nativeOutputs, recordedDevice } from './native.js';
import { unpack, wordsPerLane, type MmaCase } from './reference.js';

afterAll(() => releaseDefaultDevice());

/** D per warp from the lanes' words. */
function warpsOf(c: MmaCase, out: Uint32Array, warps: number): bigint[][][] {
  const per = 32 * wordsPerLane(c.cCount, c.d);
  const { at, rows } = dPlace(c);
  return Array.from({ length: warps }, (_, w) => unpack(out.subarray(w * per, (w + 1) * per), rows, c.n, at, c.cCount, c.d));
}

const hex = (m: bigint[][]): string[] => m.map((r) => r.map((v) => v.toString(16)).join(' '));

const paths: WarpPath[] = ['auto', 'emulated'];

describe.each(paths)('mma forms, warpPath %s', (warpPath) => {
  it.each(ALL_MMA_CASES.map(([ptx, c]) => [c.kernel, ptx, c] as const))('%s', async (_name, ptx, c) => {
    const { inputs, d } = expectedD(c);
    const run = await runMatrixKernel(ptx, c.kernel, MMA_LAUNCH, inputs, [dWords(c)], warpPath);
    // auto: the emulation on lavapipe (subgroups of 8), native subgroups where they have 32 lanes (the GPU machine)
    expect(warpPath === 'emulated' ? ['emulated'] : ['emulated', 'subgroups']).toContain(run.path);
    warpsOf(c, run.outputs[0] as Uint32Array, d.length).forEach((got, w) => expect(hex(got), `warp ${w}`).toEqual(hex(d[w] as bigint[][])));
  });
});

describe('the subgroups path of every mma form is valid WGSL', () => {
  it.each(ALL_MMA_CASES.map(([ptx, c]) => [c.kernel, ptx] as const))('%s', async (kernel, ptx) => {
    const [k] = compile(kernelSource(ptx), { entry: kernel, warpPath: 'subgroups' }).kernels;
    expect(k?.wgsl).toMatch(/subgroupShuffle\(/);
    const device = await getDefaultDevice();
    if (!device.features.has('subgroups')) return;
    const info = await device.createShaderModule({ code: k?.wgsl ?? '' }).getCompilationInfo();
    expect(info.messages.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([]);
  });
});

describe.skipIf(!hasRecording())(`the JS reference agrees with native CUDA (${recordedDevice()})`, () => {
  it.each(ALL_MMA_CASES.map(([, c]) => [c.kernel, c] as const))('%s', (kernel, c) => {
    const native = nativeOutputs(kernel);
    expect(native, `no native recording of ${kernel}`).toBeDefined();
    const { A, B, C, d } = expectedD(c);
    warpsOf(c, (native as Uint32Array[])[0] as Uint32Array, d.length).forEach((got, w) => {
      expect(disagreements(c, A[w] as bigint[][], B[w] as bigint[][], C[w] as bigint[][], d[w] as bigint[][], got), `warp ${w}`).toEqual([]);
    });
  });
});
