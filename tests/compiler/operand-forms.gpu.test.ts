// Operand forms of the ISA that nvcc's own output rarely shows but inline asm and hand-written
// PTX use (each accepted by ptxas 13 for sm_80): registers declared without `%`, also in their
// parameterized form (`.reg .u32 a<4>; ld.u32 a0, [p];`); vector registers and their elements
// `.x .y .z .w` / `.r .g .b .a` (ISA "Vectors as Operands"); the predefined constant `WARP_SZ`
// and constant expressions as operands; `var+imm` addresses and array elements `a[i]`. Run on
// WebGPU against a JS reference of the ISA's meaning.
import { afterAll, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

const WORDS = 18;

const PTX = `.version 8.0
.target sm_80
.address_size 64
.global .align 4 .u32 table[4] = {100, 200, 300, 400};
.visible .entry forms(.param .u64 pin, .param .u64 pout)
{
  .reg .u32 %r<8>;
  .reg .u64 %rd<8>;
  .reg .u32 a<4>;
  .reg .u64 q, o;
  .reg .pred p;
  .reg .v4 .u32 V;
  .reg .v2 .u32 %w;
  .reg .v2 .b16 x16;
  .reg .v4 .f32 F;
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 q, %rd1, %rd3;
  mul.wide.u32 %rd4, %r1, ${WORDS * 4};
  add.s64 o, %rd2, %rd4;
  // registers without %: a parameterized family and plain names as address bases
  ld.global.u32 a0, [q];
  ld.global.u32 a3, [q+12];
  add.u32 a1, a0, a3;
  st.global.u32 [o], a1;
  // a whole vector register, its elements read by position and by color name
  ld.global.v4.u32 V, [q];
  sub.u32 %r2, V.w, V.x;
  st.global.u32 [o+4], %r2;
  add.u32 %r3, V.g, V.b;
  st.global.u32 [o+8], %r3;
  // elements written one at a time: the others keep their values
  mov.u32 V.y, 7;
  mov.u32 V.a, %r1;
  st.global.v4.u32 [o+12], V;
  // elements as members of a brace list, and a %-named vector
  ld.global.v2.u32 {%w.y, %w.x}, [q];
  st.global.v2.u32 [o+28], %w;
  // a .b16 vector filled by unpacking, one element stored (st.b16 [p], x16.x)
  mov.b32 {x16.x, x16.y}, a3;
  st.global.b16 [o+36], x16.y;
  st.global.b16 [o+38], x16.x;
  // an f32 vector element as an instruction operand
  cvt.rn.f32.u32 F.z, %r1;
  add.f32 F.x, F.z, 0f3FC00000;
  cvt.rzi.u32.f32 %r4, F.x;
  st.global.u32 [o+40], %r4;
  // WARP_SZ and constant expressions
  add.u32 %r5, %r1, WARP_SZ;
  st.global.u32 [o+44], %r5;
  and.b32 %r6, a0, WARP_SZ-1;
  st.global.u32 [o+48], %r6;
  mul.lo.u32 %r7, a0, (4+1)*2;
  st.global.u32 [o+52], %r7;
  // var+imm: the address of a variable plus an offset
  mov.u64 %rd5, table+8;
  ld.global.u32 %r2, [%rd5];
  add.u32 %r2, %r2, %r1;
  st.global.u32 [o+56], %r2;
  // a predicate named without %
  setp.gt.u32 p, a0, a3;
  selp.u32 %r3, 1, 2, p;
  st.global.u32 [o+60], %r3;
  // array elements as operands (ISA "Arrays as Operands"): a[3], a[%r], a[%r-1]
  and.b32 %r4, %r1, 3;
  ld.global.u32 %r5, table[3];
  ld.global.u32 %r6, table[%r4];
  add.u32 %r5, %r5, %r6;
  st.global.u32 [o+64], %r5;
  add.u32 %r4, %r4, 1;
  mov.u64 %rd6, table[%r4-1];
  ld.global.u32 %r6, [%rd6];
  st.global.u32 [o+68], %r6;
  ret;
}
`;

function reference(t: number, x: readonly number[]): number[] {
  const [x0, x1, x2, x3] = x as [number, number, number, number];
  const u = (v: number): number => v >>> 0;
  return [
    u(x0 + x3), u(x3 - x0), u(x1 + x2),
    x0, 7, x2, t,
    x1, x0,
    // .b16 halves of x3, high half first, then low half, in one word
    u(((x3 & 0xffff) << 16) | (x3 >>> 16)),
    // (float)t + 1.5 truncated
    t + 1,
    t + 32, x0 & 31, u(Math.imul(x0, 10)),
    300 + t, x0 > x3 ? 1 : 2,
    400 + 100 * ((t & 3) + 1), 100 * ((t & 3) + 1),
  ];
}

it('reads and writes registers without %, vector elements, WARP_SZ and constant expressions', async () => {
  const threads = 8;
  const input = new Uint32Array(4 * threads);
  for (let i = 0; i < input.length; i++) input[i] = (Math.imul(i + 1, 2654435761) >>> 8) & 0xffffff;
  const out = new Uint32Array(WORDS * threads).fill(0xdeadbeef);
  await runPtx(PTX, [input, out], { grid: 1, block: threads });
  for (let t = 0; t < threads; t++) {
    const got = [...out.subarray(WORDS * t, WORDS * (t + 1))];
    expect(got, `thread ${t}`).toEqual(reference(t, [...input.subarray(4 * t, 4 * t + 4)]));
  }
});

// A kernel parameter's address (`mov.u64 %rd, param;`, ISA "Kernel Function Parameters": in the
// .param space, read with ld.param), at fixed and run-time offsets, through 64- and 32-bit
// registers, and its generic address (`cvta.param`, PTX 7.7) read by generic loads.
const PARAMS_PTX = `.version 8.0
.target sm_80
.address_size 64
.visible .entry params(.param .u64 pout, .param .align 8 .b8 blob[24], .param .u32 n)
{
  .reg .u32 %r<12>;
  .reg .u64 %rd<9>;
  .reg .f32 %f<3>;
  ld.param.u64 %rd1, [pout];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd6, %r1, 32;
  add.s64 %rd7, %rd1, %rd6;
  mov.u64 %rd2, blob;
  ld.param.u8 %r2, [%rd2];
  ld.param.u16 %r3, [%rd2+2];
  and.b32 %r4, %r1, 3;
  mul.wide.u32 %rd4, %r4, 4;
  add.s64 %rd3, %rd2, %rd4;
  ld.param.u32 %r5, [%rd3];
  ld.param.u64 %rd5, [%rd2+8];
  ld.param.v2.f32 {%f1, %f2}, [%rd2+16];
  add.f32 %f1, %f1, %f2;
  mov.u32 %r6, n;
  ld.param.u32 %r7, [%r6];
  cvta.param.u64 %rd8, %rd2;
  ld.v2.u32 {%r10, %r11}, [%rd8+4];
  ld.u8 %r9, [%rd8+1];
  add.u32 %r10, %r10, %r11;
  add.u32 %r10, %r10, %r9;
  mov.u32 %r8, %r10;
  st.global.v4.u32 [%rd7], {%r2, %r3, %r5, %r7};
  st.global.u64 [%rd7+16], %rd5;
  st.global.f32 [%rd7+24], %f1;
  st.global.u32 [%rd7+28], %r8;
  ret;
}
`;

it('reads kernel parameters through their address and generic address', async () => {
  const blob = new Uint8Array(24);
  const view = new DataView(blob.buffer);
  [0x12345678, 0x9abcdef0, 0x0badf00d, 0xfeedface].forEach((w, k) => view.setUint32(4 * k, w, true));
  view.setFloat32(16, 1.25, true);
  view.setFloat32(20, 2.5, true);
  const threads = 6;
  const out = new Uint32Array(8 * threads).fill(0xdeadbeef);
  await runPtx(PARAMS_PTX, [out, blob, 4242], { grid: 1, block: threads });
  for (let t = 0; t < threads; t++) {
    expect([...out.subarray(8 * t, 8 * t + 8)], `thread ${t}`).toEqual([
      blob[0], view.getUint16(2, true), view.getUint32(4 * (t & 3), true), 4242,
      view.getUint32(8, true), view.getUint32(12, true), 0x40700000 /* 3.75f */,
      (view.getUint32(4, true) + view.getUint32(8, true) + blob[1]!) >>> 0,
    ]);
  }
});

// WARP_SZ and constant expressions where declarations take constants: an array dimension and
// initializers (ptxas accepts both).
const DECL_PTX = `.version 8.0
.target sm_80
.address_size 64
.global .align 4 .u32 consts[3] = {WARP_SZ, WARP_SZ*2, (3+4)<<1};
.visible .entry decls(.param .u64 pout)
{
  .reg .u32 %r<6>;
  .reg .u64 %rd<3>;
  .shared .align 4 .u32 s[WARP_SZ];
  ld.param.u64 %rd1, [pout];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.u32 %r3, %r3, %r2;
  st.shared.u32 [%r3], %r1;
  bar.sync 0;
  ld.global.u32 %r4, [consts+8];
  ld.shared.u32 %r5, [s+124];
  add.u32 %r4, %r4, %r5;
  mov.u32 %r5, %total_smem_size;
  ld.global.u32 %r2, [consts];
  ld.global.u32 %r3, [consts+4];
  st.global.v4.u32 [%rd1], {%r2, %r3, %r4, %r5};
  ret;
}
`;

it('takes WARP_SZ and constant expressions in array dimensions and initializers', async () => {
  const out = new Uint32Array(4).fill(0xdeadbeef);
  await runPtx(DECL_PTX, [out], { grid: 1, block: 32 });
  // the last thread's word of s is 31; s is 32 words, all the shared memory
  expect([...out]).toEqual([32, 64, 14 + 31, 128]);
});
