// A launch with the same configuration and arguments as the function's previous launch reuses
// that launch's preparation (runtime/launch.ts, LaunchMemo). Each test here changes one thing
// the memo must notice and checks that the kernel sees the change: a freed allocation (which
// must fail to resolve), -0 against 0, a pointer object whose address changed, a by-value
// aggregate whose bytes changed, another block size. Results against values computed here.
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/api.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

/** probe: out[tid] = bits of x + ntid.x (as an integer); probe_agg: out[tid] = agg word tid % 4. */
const PTX = `.version 8.0
.target sm_80
.address_size 64
.visible .entry probe(.param .u64 pout, .param .f32 px)
{
  .reg .b32 %r<8>; .reg .f32 %f<2>; .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [pout]; ld.param.f32 %f1, [px];
  mov.u32 %r1, %tid.x; mov.u32 %r2, %ntid.x;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  mov.b32 %r3, %f1;
  add.u32 %r4, %r3, %r2;
  st.global.u32 [%rd4], %r4;
  ret;
}
.visible .entry probe_agg(.param .u64 pout, .param .align 4 .b8 pagg[16])
{
  .reg .b32 %r<8>; .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [pout];
  mov.u32 %r1, %tid.x;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  and.b32 %r4, %r1, 3;
  shl.b32 %r5, %r4, 2;
  mov.u32 %r6, pagg;
  add.u32 %r7, %r6, %r5;
  ld.param.u32 %r3, [%r7];
  st.global.u32 [%rd4], %r3;
  ret;
}`;

describe('launch memo', () => {
  it('sees what changed between two launches with otherwise equal arguments', async () => {
    const ctx = await createContext();
    try {
      const mod = ctx.loadModule(PTX);
      const fn = mod.getFunction('probe');
      const out = ctx.malloc(64 * 4);
      const read = async (from = out): Promise<Uint32Array> => { const h = new Uint32Array(64); await ctx.memcpyDtoH(h, from); return h; };
      const poison = (): void => ctx.memcpyHtoD(out, new Uint32Array(64).fill(0xdeadbeef));
      const cfg = { grid: 1, block: 32 };

      poison(); fn.launch(cfg, [out, 0]);
      expect((await read())[0]).toBe(32);
      poison(); fn.launch(cfg, [out, 0]);
      expect((await read())[0]).toBe(32);
      poison(); fn.launch(cfg, [out, -0]);
      expect((await read())[0]).toBe(0x80000020);

      poison(); fn.launch({ grid: 1, block: 16 }, [out, -0]);
      const h = await read();
      expect([h[0], h[16]]).toEqual([0x80000010, 0xdeadbeef]);

      // a pointer object reused with another address
      const other = ctx.malloc(64 * 4);
      const p = { address: out.address };
      poison(); fn.launch(cfg, [p, 0]);
      expect((await read())[0]).toBe(32);
      p.address = other.address;
      poison(); fn.launch(cfg, [p, 0]);
      expect((await read())[0]).toBe(0xdeadbeef);
      expect((await read(other))[0]).toBe(32);

      // an allocation freed since the last launch no longer resolves
      fn.launch(cfg, [other, 0]);
      ctx.free(other);
      expect(() => fn.launch(cfg, [other, 0])).toThrow(/does not point into a live allocation/);

      // a by-value aggregate's bytes are read at every launch
      const agg = mod.getFunction('probe_agg');
      const words = new Uint32Array([1, 2, 3, 4]);
      poison(); agg.launch(cfg, [out, words]);
      expect([...(await read()).slice(0, 4)]).toEqual([1, 2, 3, 4]);
      words[2] = 77;
      poison(); agg.launch(cfg, [out, words]);
      expect([...(await read()).slice(0, 4)]).toEqual([1, 2, 77, 4]);
      await ctx.synchronize();
    } finally {
      ctx.destroy();
    }
  });
});
