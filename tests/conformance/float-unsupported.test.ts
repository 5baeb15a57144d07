// Float forms without a lowering yet are L002 errors naming the instruction, never silently
// wrong code (fp8/tf32 cvt, stochastic rounding, packed compares, half-precision .approx).
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { PtxError } from '../../src/diagnostics/ptx-error.js';

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

function errorOf(src: string): PtxError | null {
  try {
    compile(src, { fileName: 'f.ptx' });
  } catch (e) {
    if (e instanceof PtxError) return e;
    throw e;
  }
  return null;
}

describe('unsupported float forms', () => {
  it.each([
    ['cvt.rz.satfinite.ue8m0x2.f32 %h1, %f1, %f2;', 'cvt.rz.ue8m0x2'],
    ['cvt.rn.satfinite.e3m2x2.f32 %h1, %f1, %f2;', 'cvt.rn.e3m2x2'],
    ['cvt.rs.f16x2.f32 %r1, %f1, %f2, %r2;', 'cvt.rs'],
  ])('%s is an L002 error', (line, name) => {
    const e = errorOf(kernel(`  ${line}`));
    expect(e, line).not.toBeNull();
    expect(e?.message).toMatch(new RegExp(`^f\\.ptx:\\d+:\\d+: error\\[L00[12]\\]: .*${name}`, 'm'));
  });

  it('the supported neighbours compile', () => {
    expect(errorOf(kernel('  cvt.rn.relu.f16x2.f32 %r1, %f1, %f2;\n  add.rn.bf16x2 %r1, %r1, %r2;\n  fma.rn.ftz.f32 %f1, %f1, %f2, %f3;\n  cvt.rzi.s64.f32 %rd0, %f1;'))).toBeNull();
    // lowered since (tests/conformance/float-extra.gpu.test.ts)
    expect(errorOf(kernel('  cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;\n  cvt.rna.tf32.f32 %r1, %f1;\n  setp.lt.f16x2 %p0|%p1, %r1, %r2;\n  ex2.approx.f16 %h1, %h2;\n  cvt.u32.u16 %r1, %h1;\n  cvt.pack.sat.s8.s32.b32 %r1, %r1, %r2, %r3;'))).toBeNull();
  });
});
