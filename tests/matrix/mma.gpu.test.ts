// mma.sync.aligned on WebGPU (src/translate/handlers-mma.ts), one kernel per form
// (tests/matrix/kernels/mma_forms.cu): random A, B, C per warp, packed into the lanes' fragment
// registers by the ISA's layouts (reference.ts), D unpacked the same way and compared bit for bit
// with the JS reference. Lavapipe's subgroups of 8 give the emulated warp path; both `auto` and
// a forced `emulated` run, and the subgroups path's WGSL must at least compile here (the GPU
// machine runs it: scripts/gpu/matrix-entry.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { getDefaultDevice, releaseDefaultDevice } from '../../runtime/device.js';
import { compile } from '../../src/compile.js';
import { kernelSource, runMatrixKernel, type WarpPath } from './harness.js';
import { MMA_CASES, mmaInputs, referenceMma, unpack, wordsPerLane, type MmaCase } from './reference.js';

afterAll(() => releaseDefaultDevice());

export const MMA_LAUNCH = { grid: 2, block: 64 } as const;
const WARPS = (MMA_LAUNCH.grid * MMA_LAUNCH.block) / 32;
export const mmaSeed = (c: MmaCase): number => 0x9e3779b9 ^ MMA_CASES.indexOf(c);

/** The D words the reference expects, lane-major per warp as the kernels write them. */
export function expectedD(c: MmaCase): { inputs: [Uint32Array, Uint32Array, Uint32Array]; d: bigint[][][] } {
  const { A, B, C, words } = mmaInputs(c, WARPS, mmaSeed(c));
  return { inputs: words, d: A.map((a, w) => referenceMma(c, a, B[w] as bigint[][], C[w] as bigint[][])) };
}

function check(c: MmaCase, out: Uint32Array, want: bigint[][][]): void {
  const per = 32 * wordsPerLane(c.cCount, c.d);
  want.forEach((d, w) => {
    const got = unpack(out.subarray(w * per, (w + 1) * per), c.m, c.n, c.cAt, c.cCount, c.d);
    const hex = (m: bigint[][]): string[] => m.map((r) => r.map((v) => v.toString(16)).join(' '));
    expect(hex(got), `warp ${w}`).toEqual(hex(d));
  });
}

const paths: WarpPath[] = ['auto', 'emulated'];

describe.each(paths)('mma forms, warpPath %s', (warpPath) => {
  it.each(MMA_CASES.map((c) => [c.kernel, c] as const))('%s', async (_name, c) => {
    const { inputs, d } = expectedD(c);
    const words = WARPS * 32 * wordsPerLane(c.cCount, c.d);
    const run = await runMatrixKernel('mma_forms', c.kernel, MMA_LAUNCH, inputs, [words], warpPath);
    // auto: the emulation on lavapipe (subgroups of 8), native subgroups where they have 32 lanes (the GPU machine)
    expect(warpPath === 'emulated' ? ['emulated'] : ['emulated', 'subgroups']).toContain(run.path);
    check(c, run.outputs[0] as Uint32Array, d);
  });
});

describe('the subgroups path of every mma form is valid WGSL', () => {
  it.each(MMA_CASES.map((c) => [c.kernel] as const))('%s', async (kernel) => {
    const [k] = compile(kernelSource('mma_forms'), { entry: kernel, warpPath: 'subgroups' }).kernels;
    expect(k?.wgsl).toMatch(/subgroupShuffle\(/);
    const device = await getDefaultDevice();
    if (!device.features.has('subgroups')) return;
    const info = await device.createShaderModule({ code: k?.wgsl ?? '' }).getCompilationInfo();
    expect(info.messages.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([]);
  });
});
