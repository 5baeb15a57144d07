// Float forms without a lowering yet are L002 errors naming the instruction, never silently
// wrong code (stochastic rounding, narrow-float cvt forms outside the ISA's syntax).
import { describe, expect, it } from 'vitest';
import type { PtxError } from '../../src/diagnostics/ptx-error.js';
import { compileErrorOf } from '../helpers/ptx-errors.js';

const kernel = (body: string): string => `.version 8.6
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b16 %h<4>;
  .reg .f32 %f<4>;
  .reg .pred %p<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
${body}
  st.global.b32 [%rd1], %r1;
  ret;
}
`;

const errorOf = (src: string): PtxError | null => compileErrorOf(src, 'f.ptx');

describe('unsupported float forms', () => {
  it.each([
    // stochastic rounding (.rs, sm_100a) is not lowered yet
    ['cvt.rs.f16x2.f32 %r1, %f1, %f2, %r2;', 'cvt.rs'],
    // narrow-float forms outside the ISA's syntax (ptxas rejects them too)
    ['cvt.rz.satfinite.e2m3x2.f32 %h1, %f1, %f2;', 'cvt.rz.e2m3x2.f32'],
    ['cvt.rn.e3m2x2.f32 %h1, %f1, %f2;', 'cvt.rn.e3m2x2.f32'],
    ['cvt.rn.satfinite.e2m3x2.f16x2 %h1, %r1;', 'cvt.rn.e2m3x2.f16x2'],
    ['cvt.rn.ue8m0x2.f32 %h1, %f1, %f2;', 'cvt.rn.ue8m0x2.f32'],
    ['cvt.rz.relu.ue8m0x2.f32 %h1, %f1, %f2;', 'cvt.rz.ue8m0x2.f32'],
    ['cvt.rn.f16x2.ue8m0x2 %r1, %h1;', 'cvt.rn.f16x2.ue8m0x2'],
    ['cvt.rn.bf16x2.e2m3x2 %r1, %h1;', 'cvt.rn.bf16x2.e2m3x2'],
  ])('%s is an L002 error', (line, name) => {
    const e = errorOf(kernel(`  ${line}`));
    expect(e, line).not.toBeNull();
    expect(e?.message).toMatch(new RegExp(`^f\\.ptx:\\d+:\\d+: error\\[L00[12]\\]: .*${name}`, 'm'));
  });

  it.each([
    ['cvt.rs.satfinite.e2m1x4.f32 %h1, {%f0, %f1, %f2, %f3}, %r1;', 'e2m1x4'],
    ['cvt.rs.relu.satfinite.e4m3x4.f32 %r1, {%f0, %f1, %f2, %f3}, %r1;', 'e4m3x4'],
  ])('%s (.rs with x4 types) is an L002 error naming the form', (line, type) => {
    const e = errorOf(kernel(`  ${line}`));
    expect(e?.message).toMatch(new RegExp(`^f\\.ptx:\\d+:\\d+: error\\[L002\\]: cvt\\.rs\\.${type}\\.f32: stochastic rounding`, 'm'));
  });

  it('the supported neighbours compile', () => {
    expect(errorOf(kernel('  cvt.rn.relu.f16x2.f32 %r1, %f1, %f2;\n  add.rn.bf16x2 %r1, %r1, %r2;\n  fma.rn.ftz.f32 %f1, %f1, %f2, %f3;\n  cvt.rzi.s64.f32 %rd0, %f1;'))).toBeNull();
    // lowered since (tests/conformance/float-extra.gpu.test.ts)
    expect(errorOf(kernel('  cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;\n  cvt.rna.tf32.f32 %r1, %f1;\n  setp.lt.f16x2 %p0|%p1, %r1, %r2;\n  ex2.approx.f16 %h1, %h2;\n  cvt.u32.u16 %r1, %h1;\n  cvt.pack.sat.s8.s32.b32 %r1, %r1, %r2, %r3;'))).toBeNull();
    // the sm_100a narrow-float forms (tests/conformance/float-narrow.gpu.test.ts)
    expect(errorOf(kernel([
      '{ .reg .b8 %c<2>;', 'cvt.rn.satfinite.relu.e2m1x2.f32 %c0, %f1, %f2;', 'cvt.rn.satfinite.e2m1x2.f16x2 %c1, %r1;',
      'cvt.rn.f16x2.e2m1x2 %r1, %c0;', '}', 'cvt.rn.satfinite.e3m2x2.f32 %h1, %f1, %f2;', 'cvt.rn.relu.f16x2.e2m3x2 %r1, %h1;',
      'cvt.rz.satfinite.ue8m0x2.f32 %h1, %f1, %f2;', 'cvt.rp.ue8m0x2.bf16x2 %h1, %r1;', 'cvt.rn.bf16x2.ue8m0x2 %r1, %h1;',
    ].map((l) => `  ${l}`).join('\n')))).toBeNull();
  });
});
