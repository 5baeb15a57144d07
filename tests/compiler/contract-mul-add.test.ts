// Pass contract-mul-add fuses exactly what ptxas was measured to fuse on the H100
// (bench/contraction/probe.ptx): plain mul feeding plain add/sub in one block, including the
// subtrahend and a product with other uses; never an explicit .rn, never across blocks.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';

function afterPass(body: string, regs = '.reg .f32 %f<12>; .reg .b16 %h<6>; .reg .pred %p<2>;'): string {
  const src = `.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n ${regs} .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [out];\n ${body}\n ret;\n}\n`;
  let ir = '';
  compile(src, { dumpAfter: { pass: 'contract-mul-add', sink: (t: string) => { ir += t; } } });
  return ir;
}

const load = 'ld.global.f32 %f1, [%rd1]; ld.global.f32 %f2, [%rd1+4]; ld.global.f32 %f3, [%rd1+8];';

describe('contract-mul-add', () => {
  it('fuses a plain mul into the plain add that uses it', () => {
    const ir = afterPass(`${load} mul.f32 %f4, %f1, %f2; add.f32 %f5, %f4, %f3; st.global.f32 [%rd1], %f5;`);
    expect(ir).toMatch(/fma f32 v\d+, v\d+, v\d+ \[rounding=rn/);
    expect(ir).not.toMatch(/fbinary\.add/);
  });
  it('fuses a subtracted product as fma(-a, b, c)', () => {
    const ir = afterPass(`${load} mul.f32 %f4, %f1, %f2; sub.f32 %f5, %f3, %f4; st.global.f32 [%rd1], %f5;`);
    expect(ir).toMatch(/funary\.neg f32/);
    expect(ir).toMatch(/fma f32/);
  });
  it('keeps the mul for its other uses', () => {
    const ir = afterPass(`${load} mul.f32 %f4, %f1, %f2; add.f32 %f5, %f4, %f3; st.global.f32 [%rd1], %f5; st.global.f32 [%rd1+4], %f4;`);
    expect(ir).toMatch(/fma f32/);
    expect(ir).toMatch(/fbinary\.mul f32/);
  });
  it('leaves .rn on either side alone', () => {
    expect(afterPass(`${load} mul.rn.f32 %f4, %f1, %f2; add.f32 %f5, %f4, %f3; st.global.f32 [%rd1], %f5;`)).not.toMatch(/fma f32/);
    expect(afterPass(`${load} mul.f32 %f4, %f1, %f2; add.rn.f32 %f5, %f4, %f3; st.global.f32 [%rd1], %f5;`)).not.toMatch(/fma f32/);
  });
  it('does not fuse across blocks', () => {
    const ir = afterPass(`${load} mul.f32 %f4, %f1, %f2; setp.gt.f32 %p1, %f3, 0f00000000; @%p1 bra L1; add.f32 %f4, %f4, %f3; L1: st.global.f32 [%rd1], %f4;`);
    expect(ir).not.toMatch(/fma f32/);
  });
  it('follows a half through .b16 registers', () => {
    const ir = afterPass('ld.global.b16 %h1, [%rd1]; ld.global.b16 %h2, [%rd1+2]; ld.global.b16 %h3, [%rd1+4]; mul.f16 %h4, %h1, %h2; add.f16 %h5, %h4, %h3; st.global.b16 [%rd1], %h5;');
    expect(ir).toMatch(/fma f16/);
  });
});
