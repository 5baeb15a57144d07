// A trap under a thread-dependent predicate before a barrier: the convergence pass must make only
// the threads that take the branch trap (the others reach the barrier and finish).
import { afterAll, describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

const ptx = (trapTid: number): string => `.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>; .reg .b32 %r<6>; .reg .b64 %rd<6>;
  .shared .align 4 .b32 sh[64];
  ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, ${trapTid};
  @%p1 trap;
  shl.b32 %r2, %r1, 2; mov.u32 %r3, sh; add.u32 %r3, %r3, %r2;
  st.shared.u32 [%r3], %r1;
  bar.sync 0;
  xor.b32 %r4, %r1, 1; shl.b32 %r4, %r4, 2; mov.u32 %r3, sh; add.u32 %r3, %r3, %r4;
  ld.shared.u32 %r5, [%r3];
  mul.wide.u32 %rd4, %r1, 4; add.s64 %rd5, %rd1, %rd4;
  st.global.u32 [%rd5], %r5;
  ret;
}`;

describe('@p trap before bar.sync', () => {
  it('traps no thread when the predicate is false everywhere', async () => {
    const out = new Uint32Array(64).fill(0xdeadbeef);
    await runPtx(ptx(1000), [out], { block: 64 });
    expect([...out]).toEqual(Array.from({ length: 64 }, (_, t) => t ^ 1));
  });

  it('reports the trap of one thread, and only that thread stops', async () => {
    const out = new Uint32Array(64).fill(0xdeadbeef);
    await expect(runPtx(ptx(5), [out], { block: 64 })).rejects.toThrow(/trapped at kernel\.ptx:11:\d+ \(1 thread executed a trap\)/);
  });
});

// The trap record's read-back buffers are reused across launches (runtime/launch.ts): a launch
// that does not trap must not report an earlier launch's trap, and every trap is still seen.
describe('trap read-backs reused across launches', () => {
  const byParam = `.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u32 trapTid)
{
  .reg .pred %p<2>; .reg .b32 %r<3>;
  ld.param.u32 %r2, [trapTid];
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, %r2;
  @%p1 trap;
  ret;
}`;

  it('reports exactly the synchronisations whose launches trapped', async () => {
    const { createContext } = await import('../../src/index.js');
    const ctx = await createContext();
    try {
      const fn = ctx.loadModule(byParam).getFunction('k');
      const pattern = [false, true, false, false, true, true, false, false, false, true, false];
      const seen: boolean[] = [];
      for (const traps of pattern) {
        // several launches per synchronisation, so several read-backs are in flight at once
        for (let i = 0; i < 3; i++) fn.launch({ block: 32 }, [traps && i === 1 ? 7 : 1000]);
        seen.push(await ctx.synchronize().then(() => false, (e: Error) => /1 thread executed a trap/.test(e.message)));
      }
      expect(seen).toEqual(pattern);
    } finally {
      ctx.destroy();
    }
  });
});
