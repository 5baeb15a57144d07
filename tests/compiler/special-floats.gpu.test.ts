// Infinite and NaN float constants (`0fFF800000` is nvcc's -INFINITY) as operands of mov, setp,
// min/max, selp, add, fma, cvt and the approximate functions, in f32, f64 (`0dFFF0...`), and
// f16/bf16 (their bits through mov.b16). WGSL evaluates constant expressions when the shader is
// created and rejects non-finite values there, so each must reach the shader as a run-time
// value; instructions whose operands are all constants (`add.f32 %f, 0f7F7FFFFF, 0f7F7FFFFF`)
// must not become constant expressions either. Expected bits follow the ISA: NaN results are
// the canonical NaN (0x7fffffff, f16 0x7fff), min/max ignore a NaN operand, cvt to an integer
// saturates infinities and turns NaN into 0.
import { afterAll, expect, it } from 'vitest';
import { compile, getDefaultDevice, runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

const PTX = `.version 8.0
.target sm_80
.address_size 64
.visible .entry special_floats(.param .u64 pout, .param .f32 pone)
{
  .reg .pred %p<4>;
  .reg .b16 %h<6>;
  .reg .f32 %f<20>;
  .reg .f64 %fd<6>;
  .reg .b32 %r<24>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];
  ld.param.f32 %f19, [pone];
  mov.f32 %f1, 0fFF800000;
  max.f32 %f2, %f1, 0f7F800000;
  min.f32 %f3, 0f7FC00001, %f19;
  setp.lt.f32 %p1, 0fFF800000, 0f7F800000;
  selp.u32 %r1, 1, 2, %p1;
  selp.f32 %f4, 0f7F800000, 0fFF800000, %p1;
  add.f32 %f5, 0f7F7FFFFF, 0f7F7FFFFF;
  fma.rn.f32 %f6, 0f7F800000, 0f00000000, %f19;
  lg2.approx.f32 %f7, 0f00000000;
  sqrt.rn.f32 %f8, 0fBF800000;
  div.rn.f32 %f9, %f19, 0f00000000;
  cvt.rzi.s32.f32 %r2, 0f7F800000;
  cvt.rzi.s32.f32 %r3, 0fFFC00000;
  ex2.approx.f32 %f10, 0f43480000;
  mov.f32 %f11, 0dFFF0000000000000;
  mov.b32 %f12, 0x7F800000;
  add.f32 %f13, %f12, %f1;
  setp.eq.f32 %p2, %f2, 0f7F800000;
  selp.u32 %r4, 1, 2, %p2;
  mov.f32 %f14, 0f7FC00001;
  mul.f32 %f15, %f19, 0fFF800000;
  st.global.f32 [%rd1], %f1;
  st.global.f32 [%rd1+4], %f2;
  st.global.f32 [%rd1+8], %f3;
  st.global.u32 [%rd1+12], %r1;
  st.global.f32 [%rd1+16], %f4;
  st.global.f32 [%rd1+20], %f5;
  st.global.f32 [%rd1+24], %f6;
  st.global.f32 [%rd1+28], %f7;
  st.global.f32 [%rd1+32], %f8;
  st.global.f32 [%rd1+36], %f9;
  st.global.u32 [%rd1+40], %r2;
  st.global.u32 [%rd1+44], %r3;
  st.global.f32 [%rd1+48], %f10;
  st.global.f32 [%rd1+52], %f11;
  st.global.f32 [%rd1+56], %f13;
  st.global.u32 [%rd1+60], %r4;
  st.global.f32 [%rd1+64], %f14;
  st.global.f32 [%rd1+68], %f15;
  // f64
  mov.f64 %fd1, 0dFFF0000000000000;
  max.f64 %fd2, %fd1, 0d7FF0000000000000;
  setp.gtu.f64 %p3, %fd1, 0d7FF8000000000001;
  selp.u32 %r5, 1, 2, %p3;
  add.f64 %fd3, 0d7FEFFFFFFFFFFFFF, 0d7FEFFFFFFFFFFFFF;
  st.global.f64 [%rd1+72], %fd1;
  st.global.f64 [%rd1+80], %fd2;
  st.global.u32 [%rd1+88], %r5;
  st.global.f64 [%rd1+96], %fd3;
  // f16 and bf16 special values travel as their bits
  mov.b16 %h1, 0xFC00;
  mov.b16 %h2, 0x7C00;
  add.f16 %h3, %h1, %h2;
  max.f16 %h4, %h1, %h2;
  mov.b16 %h5, 0xFF80;
  max.bf16 %h5, %h5, %h5;
  st.global.b16 [%rd1+104], %h3;
  st.global.b16 [%rd1+106], %h4;
  st.global.b16 [%rd1+108], %h5;
  ret;
}
`;

const F32 = (bits: number): number => bits >>> 0;
const EXPECTED_WORDS: readonly (readonly [string, number, number])[] = [
  ['mov -INFINITY', 0, F32(0xff800000)],
  ['max(-inf, +inf)', 1, F32(0x7f800000)],
  ['min(NaN payload, 1)', 2, F32(0x3f800000)],
  ['setp.lt -inf < +inf (all constants)', 3, 1],
  ['selp +inf', 4, F32(0x7f800000)],
  ['FLT_MAX + FLT_MAX (all constants)', 5, F32(0x7f800000)],
  ['fma(inf, 0, 1)', 6, F32(0x7fffffff)],
  ['lg2.approx(0) (all constants)', 7, F32(0xff800000)],
  ['sqrt(-1) (all constants)', 8, F32(0x7fffffff)],
  ['1 / 0', 9, F32(0x7f800000)],
  ['cvt.rzi.s32 +inf', 10, 0x7fffffff],
  ['cvt.rzi.s32 NaN', 11, 0],
  ['ex2.approx(200) (all constants)', 12, F32(0x7f800000)],
  ['mov.f32 of 0dFFF0000000000000', 13, F32(0xff800000)],
  ['mov.b32 0x7F800000 + -inf', 14, F32(0x7fffffff)],
  ['setp.eq +inf', 15, 1],
  ['mov NaN payload', 16, F32(0x7fc00001)],
  ['1 * -inf', 17, F32(0xff800000)],
  ['f64 -INFINITY lo', 18, 0], ['f64 -INFINITY hi', 19, F32(0xfff00000)],
  ['f64 max(-inf, +inf) lo', 20, 0], ['f64 max(-inf, +inf) hi', 21, F32(0x7ff00000)],
  ['f64 setp.gtu with NaN', 22, 1],
  ['f64 DBL_MAX + DBL_MAX lo', 24, 0], ['f64 DBL_MAX + DBL_MAX hi', 25, F32(0x7ff00000)],
  // f16 -inf + +inf, max(-inf, +inf); bf16 max(-inf, -inf)
  ['f16 add and max', 26, F32(0x7c007fff)],
  ['bf16 max (the high half keeps its poison)', 27, F32(0xdeadff80)],
];

it('compiles every special float constant to WGSL that WebGPU accepts', async () => {
  const device = await getDefaultDevice();
  const [k] = compile(PTX).kernels;
  const info = await device.createShaderModule({ code: k?.wgsl ?? '' }).getCompilationInfo();
  expect(info.messages.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([]);
});

it('computes with infinite and NaN constants as the ISA says', async () => {
  const out = new Uint32Array(28).fill(0xdeadbeef);
  await runPtx(PTX, [out, 1], { grid: 1, block: 1 });
  for (const [what, at, bits] of EXPECTED_WORDS) {
    expect(`${what}: 0x${(out[at] as number).toString(16)}`).toBe(`${what}: 0x${bits.toString(16)}`);
  }
});
