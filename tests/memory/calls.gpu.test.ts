// Device-function calls and local memory (issue 4) on a real WebGPU, against JS references
// written from the CUDA sources in tests/kernels/mem_*.cu. Outputs are poisoned before runs.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

const kernel = (name: string): string => readFileSync(new URL(`../kernels/${name}.ptx`, import.meta.url), 'utf8');
const f32 = (x: number): number => Math.fround(x);

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s; };
}

describe('mem_calls: __noinline__ functions, struct arguments and returns', () => {
  it('matches the JS reference', async () => {
    const n = 200;
    const next = rng(7);
    const input = Int32Array.from({ length: n }, () => next() | 0);
    const out = new Int32Array(n * 4 + 8).fill(0xdeadbeef | 0);
    const fout = new Float32Array(n + 4);
    new Uint32Array(fout.buffer).fill(0xdeadbeef);
    const scale = 1.75; const bias = -12345; const k = 7;
    const params = new Uint8Array(12);
    const view = new DataView(params.buffer);
    view.setFloat32(0, scale, true); view.setInt32(4, bias, true); view.setInt32(8, k, true);
    await runPtx(kernel('mem_calls'), [[...params], input, out, fout, n], { entry: 'mem_calls', grid: 4, block: 64 });
    const expOut = new Int32Array(n * 4 + 8).fill(0xdeadbeef | 0);
    const expF = new Float32Array(n + 4);
    new Uint32Array(expF.buffer).fill(0xdeadbeef);
    for (let i = 0; i < n; i++) {
      const v = input[i] as number;
      expOut[i * 4] = Math.imul(v, 3) + i;
      expOut[i * 4 + 1] = (v & 0xffff) + bias;
      expOut[i * 4 + 2] = Math.imul(v >> 16, k);
      expOut[i * 4 + 3] = Math.imul(v, 3) ^ 0x5a5a;
      expF[i] = f32(f32(scale) * (v & 0xff));
    }
    expect([...out]).toEqual([...expOut]);
    expect([...new Uint32Array(fout.buffer)]).toEqual([...new Uint32Array(expF.buffer)]);
  });
});

describe('mem_local: local arrays indexed by data, generic pointers to shared/local/global', () => {
  it('matches the JS reference', async () => {
    const n = 100;
    const next = rng(11);
    const idx = Int32Array.from({ length: n * 4 }, () => next() & 0x7fffffff);
    const vals = Float32Array.from({ length: n }, () => (next() % 1000) / 8);
    const out = new Float32Array(n + 4);
    new Uint32Array(out.buffer).fill(0xdeadbeef);
    const kinds = new Int32Array(n + 4).fill(0xdeadbeef | 0);
    await runPtx(kernel('mem_local'), [idx, vals, out, kinds, n], { entry: 'mem_local', grid: 2, block: 64 });
    const expOut = new Float32Array(n + 4);
    new Uint32Array(expOut.buffer).fill(0xdeadbeef);
    const expKinds = new Int32Array(n + 4).fill(0xdeadbeef | 0);
    for (let i = 0; i < n; i++) {
      const tid = i % 64;
      const buf = Array.from({ length: 32 }, (_, k) => vals[(i + k) % n] as number);
      let acc = 0;
      for (let k = 0; k < 4; k++) acc = f32(acc + (buf[(idx[i * 4 + k] as number) & 31] as number));
      buf[(idx[i * 4] as number) & 31] = acc;
      const sel = (idx[i * 4 + 1] as number) % 3;
      const p = sel === 0 ? f32(tid * 0.5) : sel === 1 ? (buf[(idx[i * 4 + 2] as number) & 31] as number) : (vals[i] as number);
      expKinds[i] = sel === 0 ? 1 : sel === 1 ? 2 : 4;
      expOut[i] = f32(acc + p);
    }
    expect([...kinds]).toEqual([...expKinds]);
    expect([...new Uint32Array(out.buffer)]).toEqual([...new Uint32Array(expOut.buffer)]);
  });
});

/**
 * Hand-written PTX (PTX ISA "Function declarations and definitions", "call", "exit"): a .weak
 * function with two return values, a guarded call, a .noreturn function that exits the
 * thread from inside the callee, and a call whose second return value is not taken.
 */
const MULTI = `
.version 7.8
.target sm_80
.address_size 64
.weak .func (.param .b32 q, .param .b32 r) divmod(.param .b32 a, .param .b32 b)
{
  .reg .b32 %r<5>;
  ld.param.b32 %r1, [a];
  ld.param.b32 %r2, [b];
  div.u32 %r3, %r1, %r2;
  rem.u32 %r4, %r1, %r2;
  st.param.b32 [q], %r3;
  st.param.b32 [r], %r4;
  ret;
}
.func quit(.param .b64 out, .param .b32 code) .noreturn
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.b64 %rd1, [out];
  ld.param.b32 %r1, [code];
  st.global.u32 [%rd1], %r1;
  exit;
}
.visible .entry multi(.param .u64 out_p, .param .u64 in_p)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<6>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out_p];
  ld.param.u64 %rd2, [in_p];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.u32 %r2, [%rd5];
  setp.eq.u32 %p1, %r2, 0;
  {
    .param .b64 o;
    st.param.b64 [o], %rd4;
    .param .b32 c;
    st.param.b32 [c], 0x0bad;
    @%p1 call.uni quit, (o, c);
  }
  {
    .param .b32 a;
    st.param.b32 [a], 1000003;
    .param .b32 b;
    st.param.b32 [b], %r2;
    .param .b32 q;
    .param .b32 r;
    call.uni (q, r), divmod, (a, b);
    ld.param.b32 %r3, [q];
    ld.param.b32 %r4, [r];
  }
  {
    .param .b32 a;
    st.param.b32 [a], %r1;
    .param .b32 b;
    st.param.b32 [b], 7;
    .param .b32 q;
    call.uni (q), divmod, (a, b);
    ld.param.b32 %r5, [q];
  }
  add.u32 %r6, %r4, %r5;
  st.global.v2.u32 [%rd4], {%r3, %r6};
  ret;
}`;

describe('multiple return values, .weak, .noreturn and exit inside a callee', () => {
  it('matches the JS reference', async () => {
    const input = Uint32Array.from({ length: 64 }, (_, i) => (i % 9 === 4 ? 0 : (i * 7919) % 1000 + 1));
    const out = new Uint32Array(128).fill(0xdeadbeef);
    await runPtx(MULTI, [out, input], { block: 64 });
    const exp: number[] = [];
    for (let t = 0; t < 64; t++) {
      const v = input[t] as number;
      if (v === 0) exp.push(0x0bad, 0xdeadbeef);
      else exp.push(Math.floor(1000003 / v), (1000003 % v) + Math.floor(t / 7));
    }
    expect([...out]).toEqual(exp);
  });
});

/** A call in a loop, of a function with two `ret`s (the return value merges at the call). */
const LOOPCALL = `
.version 7.8
.target sm_80
.address_size 64
.func (.param .b32 r) clampadd(.param .b32 a, .param .b32 b)
{
  .reg .b32 %r<4>;
  .reg .pred %p;
  ld.param.b32 %r1, [a];
  ld.param.b32 %r2, [b];
  add.u32 %r3, %r1, %r2;
  setp.gt.u32 %p, %r3, 1000;
  @%p bra BIG;
  st.param.b32 [r], %r3;
  ret;
BIG:
  st.param.b32 [r], 1000;
  ret;
}
.visible .entry loopcall(.param .u64 out_p)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .pred %p;
  ld.param.u64 %rd1, [out_p];
  mov.u32 %r3, %tid.x;
  mul.lo.u32 %r1, %r3, 9;
  mov.u32 %r2, 0;
LOOP:
  {
    .param .b32 a;
    st.param.b32 [a], %r1;
    .param .b32 b;
    st.param.b32 [b], %r2;
    .param .b32 r;
    call.uni (r), clampadd, (a, b);
    ld.param.b32 %r1, [r];
  }
  add.u32 %r2, %r2, 7;
  setp.lt.u32 %p, %r2, 100;
  @%p bra LOOP;
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}`;

describe('a call in a loop, of a function with two returns', () => {
  it('matches the JS reference', async () => {
    const out = new Uint32Array(64).fill(0xdeadbeef);
    await runPtx(LOOPCALL, [out], { block: 64 });
    const exp = Array.from({ length: 64 }, (_, t) => {
      let acc = t * 9;
      for (let k = 0; k < 100; k += 7) acc = acc + k > 1000 ? 1000 : acc + k;
      return acc;
    });
    expect([...out]).toEqual(exp);
  });
});

describe('mem_local_call: a pointer to a local array passed to a function with its own local array', () => {
  it('matches the JS reference', async () => {
    const next = rng(5);
    const input = Float32Array.from({ length: 64 }, () => (next() % 4096) / 16);
    const ks = Int32Array.from({ length: 64 }, () => next() & 0x7fff);
    const out = new Float32Array(64 + 2);
    new Uint32Array(out.buffer).fill(0xdeadbeef);
    await runPtx(kernel('mem_local'), [input, ks, out], { entry: 'mem_local_call', block: 64 });
    const exp = new Float32Array(64 + 2);
    new Uint32Array(exp.buffer).fill(0xdeadbeef);
    for (let i = 0; i < 64; i++) {
      const k = ks[i] as number;
      exp[i] = input[(i + ((((k & 7) * 3) + k) & 15)) % 64] as number;
    }
    expect([...new Uint32Array(out.buffer)]).toEqual([...new Uint32Array(exp.buffer)]);
  });
});
