// Block-wide reductions (tests/kernels/block_reduce.cu: shuffle trees, two-level reductions
// through shared memory, layernorm, rmsnorm, softmax, a reduction per loop iteration, blocks
// that are not a multiple of 32, bar.red after a reduction) on each warp path the device runs,
// against JS references that add in the kernel's order. subgroup-widths.gpu.test.ts reruns this
// file with lavapipe's subgroups of 4 (its default, 8, runs it directly); the GPU machine runs
// the same cases through scripts/gpu/warps-entry.ts. The block scan is an e2e case
// (tests/e2e/cases-realcode.ts, block_scan).
import { afterAll, describe, expect, it } from 'vitest';
import { getDefaultDevice, releaseDefaultDevice } from '../../runtime/device.js';
import { reliableSubgroups } from '../../runtime/probe-subgroups.js';
import { compile } from '../../src/compile.js';
import { BLOCK_REDUCE_CASES, mismatch } from './block-reduce-cases.js';
import { kernelSource, runBlockReduce } from './harness.js';

afterAll(() => releaseDefaultDevice());

const paths = (process.env['WARP_PATHS'] ?? 'auto,emulated,subgroups').split(',') as ('auto' | 'emulated' | 'subgroups')[];
const lanes = async (): Promise<number | undefined> => (await reliableSubgroups(await getDefaultDevice()))?.size;

describe.each(paths)('block reductions, warpPath %s', (warpPath) => {
  for (const c of BLOCK_REDUCE_CASES) {
    it(c.name, async (t) => {
      const size = await lanes();
      // The subgroups path is exact only with 32-lane subgroups in thread order; elsewhere the
      // automatic choice is the emulation, which the emulated runs test.
      if (warpPath === 'subgroups' && size !== 32) { t.skip(); return; }
      if (warpPath === 'auto' && size !== 32) {
        const [k] = compile(kernelSource('block_reduce'), { entry: c.kernel, ...(size === undefined ? {} : { subgroupSize: size }) }).kernels;
        expect(k?.layout.warp.path).toBe('emulated');
        return;
      }
      const run = await runBlockReduce(c, warpPath);
      expect(run.path).toBe(warpPath === 'auto' ? 'subgroups' : warpPath);
      const want = c.reference(run.args);
      run.outputs.forEach((o, k) => expect(mismatch(o, want[k] as Float32Array | Int32Array, c.tolerance?.[k]), `output ${k}`).toBeNull());
    });
  }
});

// Without 32-lane subgroups the subgroups path cannot run here; its WGSL must still validate.
describe('the subgroups path emits valid WGSL', () => {
  for (const kernel of [...new Set(BLOCK_REDUCE_CASES.map((c) => c.kernel))]) {
    it(kernel, async () => {
      const device = await getDefaultDevice();
      const [k] = compile(kernelSource('block_reduce'), { entry: kernel, warpPath: 'subgroups' }).kernels;
      expect(k?.layout.warp.path).toBe('subgroups');
      if (!device.features.has('subgroups')) return;
      const info = await device.createShaderModule({ code: k?.wgsl ?? '' }).getCompilationInfo();
      expect(info.messages.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([]);
    });
  }
});
