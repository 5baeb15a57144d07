// .f64 values through every state space: ld/st global,
// shared and local, ld.param, mov/selp of doubles and immediates, on WebGPU against a JS reference.
import { readFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';
import * as R from './ref/f64.js';

afterAll(() => releaseDefaultDevice());

const PTX = `
.version 8.0
.target sm_80
.address_size 64
.visible .entry f64_memory(.param .u64 pin, .param .u64 pout, .param .f64 k)
{
  .shared .align 16 .b8 sh[1024];
  .local .align 8 .b8 depot[16];
  .reg .b64 %rd<8>; .reg .b32 %r<6>; .reg .f64 %fd<10>; .reg .pred %p<2>;
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  ld.param.f64 %fd9, [k];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f64 %fd1, [%rd4];
  ld.global.f64 %fd2, [%rd4+8];
  // through shared memory, read back by the neighbouring thread
  mov.u32 %r2, sh;
  shl.b32 %r3, %r1, 3;
  add.s32 %r4, %r2, %r3;
  st.shared.f64 [%r4], %fd1;
  bar.sync 0;
  add.u32 %r5, %r1, 1;
  and.b32 %r5, %r5, 63;
  shl.b32 %r5, %r5, 3;
  add.s32 %r5, %r2, %r5;
  ld.shared.f64 %fd3, [%r5];
  // through local memory
  mov.u64 %rd5, depot;
  st.local.f64 [%rd5+8], %fd2;
  ld.local.f64 %fd4, [%rd5+8];
  // immediates, selp, bit moves
  add.rn.f64 %fd5, %fd4, %fd9;
  setp.lt.f64 %p1, %fd1, %fd2;
  selp.f64 %fd6, %fd1, 0d7FF0000000000000, %p1;
  mov.b64 %rd6, %fd2;
  xor.b64 %rd6, %rd6, -9223372036854775808;
  mov.b64 %fd7, %rd6;
  mul.wide.u32 %rd3, %r1, 48;
  add.s64 %rd7, %rd2, %rd3;
  st.global.f64 [%rd7], %fd3;
  st.global.f64 [%rd7+8], %fd4;
  st.global.f64 [%rd7+16], %fd5;
  st.global.f64 [%rd7+24], %fd6;
  st.global.f64 [%rd7+32], %fd7;
  st.global.f64 [%rd7+40], 0d3FF8000000000001;
  ret;
}`;

it('moves doubles through global, shared, local and param space', async () => {
  const n = 64;
  const input = new BigUint64Array(2 * n);
  const r = [0n, 0x8000000000000000n, 1n, 0x7ff8000000001234n, 0x7ff0000000000000n, R.fromNumber(1.5), R.fromNumber(-3.25)];
  for (let i = 0; i < 2 * n; i++) input[i] = r[i % r.length]! ^ (BigInt(i) << 20n);
  const out = new BigUint64Array(6 * n).fill(0xdeadbeefdeadbeefn);
  const k = 0.1;
  await runPtx(PTX, [input, out, k], { block: n });
  const want: bigint[] = [];
  for (let i = 0; i < n; i++) {
    const a = input[2 * i]!; const b = input[2 * i + 1]!;
    want.push(input[2 * ((i + 1) % n)]!, b, R.add(b, R.fromNumber(k), 'rn'), R.setp('lt', a, b) ? a : 0x7ff0000000000000n, b ^ (1n << 63n), 0x3ff8000000000001n);
  }
  expect([...out].map((v) => v.toString(16))).toEqual(want.map((v) => v.toString(16)));
});

it('reads an initialised .const table of doubles', async () => {
  const ptx = `
.version 8.0
.target sm_80
.address_size 64
.const .align 8 .f64 tbl[3] = {0d3FF8000000000000, 0dC000000000000000, 0d0000000000000001};
.visible .entry k(.param .u64 pout)
{
  .reg .b64 %rd<2>; .reg .f64 %fd<4>;
  ld.param.u64 %rd1, [pout];
  cvta.to.global.u64 %rd1, %rd1;
  ld.const.f64 %fd1, [tbl+8];
  ld.const.f64 %fd2, [tbl+16];
  add.rm.f64 %fd3, %fd1, %fd2;
  st.global.f64 [%rd1], %fd3;
  ld.const.f64 %fd1, [tbl];
  st.global.f64 [%rd1+8], %fd1;
  ret;
}`;
  const out = new BigUint64Array(2).fill(0xdeadbeefdeadbeefn);
  await runPtx(ptx, [out], { block: 1 });
  expect([...out]).toEqual([R.add(0xc000000000000000n, 1n, 'rm'), 0x3ff8000000000000n]);
});

// ld/st .v2.f64 and .v2.u64 (double2, ulonglong2) through global and shared memory: one 16-byte
// access split into two 64-bit values (tests/kernels/f64_vec2.cu).
it('ld/st .v2.f64 and .v2.u64 in global and shared memory', async () => {
  const ptx = readFileSync(new URL('../kernels/f64_vec2.ptx', import.meta.url), 'utf8');
  const n = 300;
  const a = Float64Array.from({ length: 2 * n }, (_, i) => (i % 7 === 0 ? -0 : Math.sin(i) * 2 ** ((i % 40) - 20)));
  const k = BigUint64Array.from({ length: 2 * n }, (_, i) => (BigInt(i) * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn);
  const out = new Float64Array(2 * n).fill(Number.NaN);
  const keys = new BigUint64Array(2 * n).fill(0xdeadbeefdeadbeefn);
  await runPtx(ptx, [a, out, k, keys, n], { grid: Math.ceil(n / 128), block: 128 });
  const bits = (x: number) => new BigUint64Array(new Float64Array([x]).buffer)[0];
  for (let i = 0; i < n; i++) {
    const [x, y] = [a[2 * i]!, a[2 * i + 1]!];
    expect([bits(out[2 * i]!), bits(out[2 * i + 1]!)], `out[${i}]`).toEqual([bits(x * 2 + y), bits(y - x)]);
    expect([keys[2 * i], keys[2 * i + 1]], `keys[${i}]`).toEqual([k[2 * i + 1], k[2 * i]! ^ k[2 * i + 1]!]);
  }
});
