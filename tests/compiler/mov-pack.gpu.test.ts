// mov packing and unpacking of 8- and 16-bit lanes (`mov.b32 {%c0..%c3}, %r`, `mov.b16 {b8, b8}`,
// `mov.b64 {4 x b16}`), and registers declared without `%` (`.reg .b8 __$temp1;`, as nvcc's inline
// asm from cuda_fp4.h writes), on WebGPU against a JS reference of the ISA's mov: the first
// element of a vector is the least significant part.
import { afterAll, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

const PTX = `.version 8.0
.target sm_80
.address_size 64
.visible .entry movpack(.param .u64 pin, .param .u64 pout)
{
  .reg .b8 %c<8>;
  .reg .b16 %h<8>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .reg .b8 __$temp1, $t2;
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.b64 %rd5, [%rd4];
  mul.wide.u32 %rd3, %r1, 64;
  add.s64 %rd6, %rd2, %rd3;
  mov.b64 {%r2, %r3}, %rd5;
  // b32 -> 4 x b8 -> permuted b32
  mov.b32 {%c0, %c1, %c2, %c3}, %r2;
  mov.b32 %r4, {%c3, %c1, %c0, %c2};
  st.global.b32 [%rd6], %r4;
  // b16 <-> 2 x b8
  mov.b32 {%h0, %h1}, %r3;
  mov.b16 {%c4, %c5}, %h0;
  mov.b16 %h2, {%c5, %c4};
  cvt.u32.u16 %r5, %h2;
  st.global.b32 [%rd6+4], %r5;
  // b64 <-> 4 x b16
  mov.b64 {%h3, %h4, %h5, %h6}, %rd5;
  mov.b64 %rd7, {%h6, %h3, %h5, %h4};
  st.global.b64 [%rd6+8], %rd7;
  // each byte alone, zero-extended
  cvt.u32.u8 %r6, %c1;
  st.global.b32 [%rd6+16], %r6;
  cvt.s32.s8 %r7, %c3;
  st.global.b32 [%rd6+20], %r7;
  // b32 <-> 2 x b16, swapped
  mov.b32 %r8, {%h1, %h0};
  st.global.b32 [%rd6+24], %r8;
  // registers named without %, as nvcc's inline asm from cuda_fp4.h writes them
  mov.b16 {__$temp1, $t2}, %h1;
  mov.b16 %h7, {$t2, __$temp1};
  cvt.u32.u16 %r9, %h7;
  st.global.b32 [%rd6+28], %r9;
  ret;
}
`;

const byte = (x: bigint, k: number): bigint => (x >> BigInt(8 * k)) & 0xffn;
const half = (x: bigint, k: number): bigint => (x >> BigInt(16 * k)) & 0xffffn;
/** Packs parts of `bits` each, first part least significant. */
const pack = (parts: readonly bigint[], bits: number): bigint => parts.reduceRight((acc, p) => (acc << BigInt(bits)) | p, 0n);

function reference(x: bigint): bigint[] {
  const lo = x & 0xffffffffn;
  const hi = x >> 32n;
  const c = [0, 1, 2, 3].map((k) => byte(lo, k));
  const h0 = half(hi, 0);
  const h1 = half(hi, 1);
  const h = [0, 1, 2, 3].map((k) => half(x, k));
  const swapped = pack([h[3] as bigint, h[0] as bigint, h[2] as bigint, h[1] as bigint], 16);
  const s8 = (v: bigint): bigint => BigInt.asUintN(32, BigInt.asIntN(8, v));
  return [
    pack([c[3] as bigint, c[1] as bigint, c[0] as bigint, c[2] as bigint], 8),
    pack([byte(h0, 1), byte(h0, 0)], 8),
    swapped & 0xffffffffn, swapped >> 32n,
    c[1] as bigint, s8(c[3] as bigint),
    pack([h1, h0], 16),
    pack([byte(h1, 1), byte(h1, 0)], 8),
  ];
}

it('packs and unpacks 8- and 16-bit lanes, and reads registers named without %', async () => {
  const inputs = [0x0123456789abcdefn, 0xfedcba9876543210n, 0x80ff7f0180ff7f01n, 0n, 0xffffffffffffffffn, 0x00ff00ff80008000n];
  const out = new Uint32Array(16 * inputs.length).fill(0xdeadbeef);
  await runPtx(PTX, [new BigUint64Array(inputs), out], { grid: 1, block: inputs.length });
  inputs.forEach((x, t) => {
    const got = [...out.subarray(16 * t, 16 * t + 8)].map(BigInt);
    expect(got.map((v) => v.toString(16)), `input 0x${x.toString(16)}`).toEqual(reference(x).map((v) => v.toString(16)));
  });
});
