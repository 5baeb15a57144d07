// f32 .approx instructions on the real WebGPU (and natively recorded on NVIDIA, where committed):
// within the ISA's error bounds on their stated ranges, and exact on the ISA's special-value tables.
import { afterAll, describe, expect, it } from 'vitest';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { loadNative, runForms } from './harness.js';
import { APPROX, SPECIALS, approxCases } from './float-approx.forms.js';
import { f32Value } from './ref/float.js';

afterAll(() => releaseDefaultDevice());

function check(outs: readonly (readonly (readonly bigint[])[])[], cases: ReturnType<typeof approxCases>): string[] {
  const bad: string[] = [];
  APPROX.forEach((f, k) => {
    const c = cases[k];
    const got = outs[k]?.[0] ?? [];
    const specials = SPECIALS[f.body] ?? [];
    got.forEach((g, i) => {
      const x = c?.inputs[0]?.[i] as bigint;
      if (i < specials.length && (specials[i]?.[1] as bigint) >= 0n) {
        const want = specials[i]?.[1] as bigint;
        const okNan = want === 0x7fffffffn && (g & 0x7fffffffn) > 0x7f800000n;
        if (g !== want && !okNan) bad.push(`${f.body} special 0x${x.toString(16)} -> 0x${g.toString(16)}, want 0x${want.toString(16)}`);
        return;
      }
      const xv = f32Value(x);
      const yv = f.ins === 2 ? f32Value(c?.inputs[1]?.[i] as bigint) : 0;
      const exact = f.exact(xv, yv);
      if (Math.abs(exact) > 3.4e38 || (Math.abs(exact) < 2 ** -126 && exact !== 0)) return; // outside the stated range
      if (!f.ok(f32Value(g), exact, xv, yv)) bad.push(`${f.body} ${xv}${f.ins === 2 ? `, ${yv}` : ''} -> ${f32Value(g)}, exact ${exact}`);
    });
  });
  return bad.slice(0, 20);
}

describe('f32 .approx instructions', () => {
  const cases = approxCases();
  it(`are within the ISA error bounds on WebGPU (${cases.length} forms)`, async () => {
    expect(check(await runForms(cases), cases)).toEqual([]);
  }, 120_000);
  it('the bounds hold for the native NVIDIA recording', () => {
    const native = loadNative('float-approx', cases);
    if (!native) return;
    expect(check(native, cases)).toEqual([]);
  });
});
