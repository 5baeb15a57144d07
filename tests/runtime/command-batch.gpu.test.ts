// Launches are recorded into shared command encoders and submitted in batches
// (runtime/command-batch.ts): results must be those of launching one at a time, in call order.
import { afterAll, describe, expect, it } from 'vitest';
import { createContext, type Context } from '../../src/api.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

const HEAD = '.version 8.0\n.target sm_80\n.address_size 64\n';

/** a[tid] += 1 */
const INCREMENT = `${HEAD}
.visible .entry inc(.param .u64 pa) {
  .reg .b32 %r<4>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pa]; mov.u32 %r1, %tid.x; mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r2, [%rd3]; add.s32 %r3, %r2, 1; st.global.u32 [%rd3], %r3; ret;
}`;

/** a[k] = a[k - 1] * 3 + k: each launch reads the previous launch's store and its own parameter. */
const CHAIN = `${HEAD}
.visible .entry chain(.param .u64 pa, .param .u32 pk) {
  .reg .b32 %r<6>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pa]; ld.param.u32 %r1, [pk];
  mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r2, [%rd3+-4]; mad.lo.s32 %r3, %r2, 3, %r1; st.global.u32 [%rd3], %r3; ret;
}`;

/** Traps when the parameter is nonzero, otherwise stores 7. */
const MAYBE_TRAP = `${HEAD}
.visible .entry maybe_trap(.param .u64 pa, .param .u32 pt) {
  .reg .b32 %r<3>; .reg .b64 %rd<2>; .reg .pred %p;
  ld.param.u64 %rd1, [pa]; ld.param.u32 %r1, [pt];
  setp.ne.u32 %p, %r1, 0; @%p trap; mov.u32 %r2, 7; st.global.u32 [%rd1], %r2; ret;
}`;

async function withContext(f: (c: Context) => Promise<void>): Promise<void> {
  const c = await createContext();
  try { await f(c); } finally { c.destroy(); }
}

describe('batched launches', () => {
  it('run in call order within a batch (each reads the previous result)', () => withContext(async (c) => {
    const fn = c.loadModule(INCREMENT).getFunction('inc');
    const a = c.malloc(4 * 64);
    c.memcpyHtoD(a, new Uint32Array(64).fill(5));
    for (let i = 0; i < 100; i++) fn.launch({ grid: 1, block: 64 }, [a]);
    const out = new Uint32Array(64);
    await c.memcpyDtoH(out, a);
    expect([...out]).toEqual(new Array(64).fill(105));
  }));

  it('give every launch its own parameters, even when they change between launches', () => withContext(async (c) => {
    const fn = c.loadModule(CHAIN).getFunction('chain');
    const n = 40;
    const a = c.malloc(4 * (n + 1));
    c.memcpyHtoD(a, new Uint32Array(n + 1).fill(0xdeadbeef).fill(1, 0, 1));
    for (let k = 1; k <= n; k++) fn.launch({ grid: 1, block: 1 }, [a, k]);
    const want = [1];
    for (let k = 1; k <= n; k++) want.push((Math.imul(want[k - 1] as number, 3) + k) >>> 0);
    const out = new Uint32Array(n + 1);
    await c.memcpyDtoH(out, a);
    expect([...out]).toEqual(want);
  }));

  it('are ordered with host writes, device copies and frees issued between them', () => withContext(async (c) => {
    const fn = c.loadModule(INCREMENT).getFunction('inc');
    const a = c.malloc(16);
    const b = c.malloc(16);
    c.memcpyHtoD(a, new Uint32Array([10, 20, 30, 40]));
    fn.launch({ grid: 1, block: 4 }, [a]);
    c.memcpyDtoD(b, a, 16); // sees the launch: 11 21 31 41
    c.memcpyHtoD(a, new Uint32Array([100, 200, 300, 400])); // after the launch read a
    fn.launch({ grid: 1, block: 4 }, [a]);
    fn.launch({ grid: 1, block: 4 }, [b]);
    const gone = c.malloc(16);
    fn.launch({ grid: 1, block: 4 }, [gone]);
    c.free(gone); // submits the launch that uses it before destroying it
    const outA = new Uint32Array(4);
    const outB = new Uint32Array(4);
    await c.memcpyDtoH(outA, a);
    await c.memcpyDtoH(outB, b);
    expect([...outA]).toEqual([101, 201, 301, 401]);
    expect([...outB]).toEqual([12, 22, 32, 42]);
    await c.synchronize(); // no device error from the freed buffer
  }));

  it('report a trap inside a batch at the next synchronising call, and later launches still run', () => withContext(async (c) => {
    const fn = c.loadModule(MAYBE_TRAP, { fileName: 'trap.ptx' }).getFunction('maybe_trap');
    const a = c.malloc(16);
    const b = c.malloc(16);
    fn.launch({ grid: 1, block: 1 }, [a, 0]);
    fn.launch({ grid: 1, block: 1 }, [a, 1]);
    fn.launch({ grid: 1, block: 1 }, [a, 0]);
    await expect(c.synchronize()).rejects.toThrow(/R004.*trap/s);
    fn.launch({ grid: 1, block: 1 }, [b, 0]);
    const out = new Uint32Array(1);
    await c.memcpyDtoH(out, b);
    expect(out[0]).toBe(7);
  }));
});
