// Warp-level PTX on WebGPU (Dawn + lavapipe, subgroups of 8: the emulated path), compared with
// the JS reference and with native CUDA results recorded on an NVIDIA GPU.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getDefaultDevice, releaseDefaultDevice } from '../../runtime/device.js';
import { probeSubgroups, reliableSubgroups } from '../../runtime/probe-subgroups.js';
import { WARP_CASES, expected, outputWords } from './cases.js';
import { kernelSource, nativeCases, runWarpKernel } from './harness.js';
import { compile } from '../../src/compile.js';
import { warpInput } from './reference.js';

afterAll(() => releaseDefaultDevice());

const convergence = existsSync(join(import.meta.dirname, '..', '..', 'lowering', 'converge.ts'));
const native = nativeCases();

// tests/warps/subgroup-widths.gpu.test.ts reruns this file with lavapipe's subgroups of 4 and 16,
// and with a configuration that reports 32 lanes but runs 16 (WARP_EXPECT_CONSECUTIVE=0).
const expectedSubgroup = process.env['WARP_EXPECT_SUBGROUP'];
const expectedConsecutive = process.env['WARP_EXPECT_CONSECUTIVE'] !== '0';

it('probes the device subgroups', async () => {
  const probe = await probeSubgroups(await getDefaultDevice());
  if (expectedSubgroup !== undefined) expect(probe).toEqual({ size: Number(expectedSubgroup), consecutive: expectedConsecutive });
  else expect(probe.size === undefined || probe.size > 0).toBe(true);
});

describe('the JS reference agrees with native CUDA', () => {
  it.skipIf(native.length === 0).each(WARP_CASES.map((c) => [c.kernel, c] as const))('%s', (_n, c) => {
    const rec = native.find((n) => n.kernel === c.kernel);
    expect(rec, `no native recording of ${c.kernel}`).toBeDefined();
    if (!rec) return;
    expect([rec.grid, rec.block]).toEqual([c.grid, c.block]);
    expect(rec.input).toEqual([...warpInput(c.grid * c.block)]);
    expected(c).forEach((e, k) => expect([...e], `output ${k}`).toEqual(rec.outputs[k]));
  });
});

// WARP_PATHS=auto,emulated,subgroups on a device with 32-lane subgroups (the GPU machine).
const paths = (process.env['WARP_PATHS'] ?? 'auto,emulated').split(',') as ('auto' | 'emulated' | 'subgroups')[];

describe.each(paths)('warp kernels on WebGPU, warpPath %s', (warpPath) => {
  for (const c of WARP_CASES) {
    const skip = (c.divergent === true && !convergence) || (warpPath === 'subgroups' && c.kernel === 'warp_syncwarp');
    it.skipIf(skip)(c.kernel, async () => {
      const run = await runWarpKernel(c.ptx, c.kernel, c.grid, c.block, outputWords(c), warpPath);
      const size = (await reliableSubgroups(await getDefaultDevice()))?.size;
      const auto = size === 32 && c.kernel !== 'warp_syncwarp' ? 'subgroups' : 'emulated';
      expect(run.path).toBe(warpPath === 'auto' ? auto : warpPath);
      const want = expected(c);
      const rec = native.find((n) => n.kernel === c.kernel);
      run.outputs.forEach((o, k) => {
        expect([...o], `output ${k} vs JS reference`).toEqual([...(want[k] as Uint32Array)]);
        if (rec) expect([...o], `output ${k} vs native CUDA`).toEqual(rec.outputs[k]);
      });
    });
  }
});

// The subgroups path needs 32-lane subgroups to be right (the GPU machine runs it); here its
// WGSL must at least compile wherever the device has the subgroups feature.
describe('the subgroups path emits valid WGSL', () => {
  for (const c of WARP_CASES.filter((w) => w.kernel !== 'warp_syncwarp')) {
    it(c.kernel, async () => {
      const device = await getDefaultDevice();
      const [k] = compile(kernelSource(c.ptx), { entry: c.kernel, warpPath: 'subgroups' }).kernels;
      expect(k?.layout.warp.path).toBe('subgroups');
      expect(k?.layout.features).toEqual(['subgroups']);
      expect(k?.wgsl).toMatch(/subgroup(Shuffle|Ballot|Add|Min|Max|And|Or|Xor)/);
      if (!device.features.has('subgroups')) return;
      const info = await device.createShaderModule({ code: k?.wgsl ?? '' }).getCompilationInfo();
      expect(info.messages.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([]);
    });
  }
  it('bar.warp.sync is reported on the subgroups path, and picks the emulation when automatic', () => {
    expect(() => compile(kernelSource('warp_vote'), { entry: 'warp_syncwarp', warpPath: 'subgroups' })).toThrow(/bar\.warp\.sync on the subgroups warp path/);
    const [k] = compile(kernelSource('warp_vote'), { entry: 'warp_syncwarp', warpPath: 'auto', subgroupSize: 32 }).kernels;
    expect(k?.layout.warp.path).toBe('emulated');
    const [r] = compile(kernelSource('warp_vote'), { entry: 'warp_redux', warpPath: 'auto', subgroupSize: 32 }).kernels;
    expect(r?.layout.warp).toEqual({ path: 'subgroups', reason: expect.stringMatching(/32-lane/) });
    const [e] = compile(kernelSource('warp_vote'), { entry: 'warp_redux', warpPath: 'auto', subgroupSize: 8 }).kernels;
    expect(e?.layout.warp.reason).toMatch(/8 lanes/);
  });
});
