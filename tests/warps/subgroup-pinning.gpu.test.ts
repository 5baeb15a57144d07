// `@subgroup_size(32)` (WGSL subgroup_size_control) for devices whose subgroup size varies: the
// compiler emits it when told the size must be pinned, the runtime relies on a pinned size only
// where a probe run with the attribute sees 32 consecutive lanes, and a launch whose block x size
// is not a multiple of 32 (which WebGPU refuses for pinned pipelines) takes the emulated path.
// lavapipe's size is fixed (8), so the pinned path's results are checked on the GPU machine
// (scripts/gpu/warps-entry.ts, mode `pinned`); here the decisions and the fallback are.
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { compileModule } from '../../src/compile-module.js';
import { getDefaultDevice, releaseDefaultDevice } from '../../runtime/device.js';
import { Context } from '../../runtime/context.js';
import { probePinnedSubgroups, reliableSubgroups } from '../../runtime/probe-subgroups.js';
import { WARP_CASES, expected, outputWords } from './cases.js';
import { kernelSource, nativeCases } from './harness.js';
import { POISON, warpInput } from './reference.js';

afterAll(() => releaseDefaultDevice());

describe('the compiler pins the subgroup size when asked', () => {
  const src = kernelSource('warp_shfl');
  it('emits enable subgroup_size_control and @subgroup_size(32) on the subgroups path', async () => {
    const [k] = compile(src, { entry: 'warp_reduce_down', subgroupSize: 32, pinSubgroupSize: true }).kernels;
    expect(k?.layout.warp).toEqual({ path: 'subgroups', reason: expect.stringMatching(/pinned with @subgroup_size\(32\)/), pinnedSubgroupSize: 32 });
    expect(k?.layout.features).toEqual(['subgroups', 'subgroup-size-control']);
    expect(k?.wgsl).toMatch(/^enable subgroup_size_control;$/m);
    expect(k?.wgsl).toMatch(/@compute @workgroup_size\(ptx_ntid_x, ptx_ntid_y, ptx_ntid_z\) @subgroup_size\(32\)\nfn /);
    // Dawn parses and validates the module (the size range is checked only at pipeline creation).
    const device = await getDefaultDevice();
    if (!device.features.has('subgroup-size-control')) return;
    const info = await device.createShaderModule({ code: k?.wgsl ?? '' }).getCompilationInfo();
    expect(info.messages.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([]);
  });
  it('emits no attribute without pinning, on the emulated path, or for kernels without warp ops', () => {
    const plain = compile(src, { entry: 'warp_reduce_down', subgroupSize: 32 }).kernels[0];
    expect(plain?.layout.warp.pinnedSubgroupSize).toBeUndefined();
    expect(plain?.wgsl).not.toMatch(/subgroup_size/);
    const emulated = compile(src, { entry: 'warp_reduce_down', subgroupSize: 32, pinSubgroupSize: true, warpPath: 'emulated' }).kernels[0];
    expect(emulated?.layout.warp).toEqual({ path: 'emulated', reason: expect.stringMatching(/forced/) });
    expect(emulated?.wgsl).not.toMatch(/subgroup_size/);
    const none = compile('.version 9.0\n.target sm_80\n.address_size 64\n.visible .entry k() { ret; }', { subgroupSize: 32, pinSubgroupSize: true }).kernels[0];
    expect(none?.layout.warp.path).toBe('none');
    expect(none?.wgsl).not.toMatch(/subgroup/);
  });
});

describe('which subgroup size the runtime relies on (lavapipe: fixed 8 lanes)', () => {
  it('relies on the unpinned size of a fixed-size device, and cannot pin 32 outside its range', async () => {
    const device = await getDefaultDevice();
    if (!device.features.has('subgroups')) return;
    const size = device.adapterInfo.subgroupMinSize;
    expect(size).toBe(device.adapterInfo.subgroupMaxSize);
    expect(await reliableSubgroups(device)).toEqual({ size, pinned: false });
    expect(await reliableSubgroups(device, 'never')).toEqual({ size, pinned: false });
    if (size === 32) return; // a device where 32 can be pinned: the GPU machine checks that
    expect(await probePinnedSubgroups(device)).toEqual({ size: undefined, consecutive: false });
    expect(await reliableSubgroups(device, 'always')).toBeUndefined();
  });
});

describe('a pinned context launches blocks that are not a multiple of 32 on the emulated path', () => {
  const native = nativeCases();
  // A context that believes the device pins 32-lane subgroups, as on a varying-size device.
  const pinnedContext = async (): Promise<Context> => new Context(await getDefaultDevice(), compileModule, { subgroups: { size: 32, pinned: true } });
  for (const c of WARP_CASES.filter((w) => w.block % 32 !== 0)) {
    it(`${c.kernel} (block ${c.block})`, async () => {
      const ctx = await pinnedContext();
      try {
        const fn = ctx.loadModule(kernelSource(c.ptx), { fileName: `${c.ptx}.ptx` }).getFunction(c.kernel);
        expect(fn.layout.warp.pinnedSubgroupSize).toBe(32);
        const input = warpInput(c.grid * c.block);
        const inBuf = ctx.malloc(input.byteLength);
        ctx.memcpyHtoD(inBuf, input);
        const words = outputWords(c);
        const outs = words.map((w) => { const b = ctx.malloc(4 * w); ctx.memcpyHtoD(b, new Uint32Array(w).fill(POISON)); return b; });
        const launched = await fn.prepareAsync({ grid: c.grid, block: c.block }, [inBuf, ...outs]);
        expect(launched.layout.warp).toEqual({ path: 'emulated', reason: expect.stringMatching(/block's x size is not a multiple of 32/) });
        expect(launched.wgsl).not.toMatch(/subgroup_size/);
        fn.launch({ grid: c.grid, block: c.block }, [inBuf, ...outs]);
        const want = expected(c);
        const rec = native.find((n) => n.kernel === c.kernel);
        for (let k = 0; k < outs.length; k++) {
          const got = new Uint32Array(words[k] as number);
          await ctx.memcpyDtoH(got, outs[k] as never);
          expect([...got], `output ${k} vs JS reference`).toEqual([...(want[k] as Uint32Array)]);
          if (rec) expect([...got], `output ${k} vs native CUDA`).toEqual(rec.outputs[k]);
        }
        // The same kernel reuses its variant: a second launch compiles nothing new.
        expect(await fn.prepareAsync({ grid: c.grid, block: c.block }, [inBuf, ...outs])).toBe(launched);
      } finally {
        ctx.destroy();
      }
    });
  }
  it('a block whose x size is a multiple of 32 keeps the pinned pipeline, which this device refuses', async () => {
    const ctx = await pinnedContext();
    try {
      const c = WARP_CASES.find((w) => w.kernel === 'warp_reduce_down')!;
      const fn = ctx.loadModule(kernelSource(c.ptx)).getFunction(c.kernel);
      const bufs = [ctx.malloc(4 * c.grid * c.block), ctx.malloc(4 * c.grid * c.block)];
      const device = await getDefaultDevice();
      const range = [device.adapterInfo.subgroupMinSize, device.adapterInfo.subgroupMaxSize];
      const run = fn.prepareAsync({ grid: c.grid, block: c.block }, bufs);
      if (range[0] as number <= 32 && 32 <= (range[1] as number)) expect((await run).layout.warp.pinnedSubgroupSize).toBe(32);
      else await expect(run).rejects.toThrow(/subgroup_size/);
    } finally {
      ctx.destroy();
    }
  });
});
