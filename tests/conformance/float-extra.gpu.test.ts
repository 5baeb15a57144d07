// cvt.pack, fp8/tf32 conversions, cvt f64<->f16/bf16, lane-wise setp/set on f16x2/bf16x2 (exact,
// against ref/float.ts and the native H100 recording), and ex2/tanh.approx on halves (within bounds,
// exact on special values). sm_100a forms are checked against the JS reference only.
import { afterAll, describe, expect, it } from 'vitest';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { loadNative, mismatches, runForms, type FormCase } from './harness.js';
import { exactForms, halfApproxForms, sm100Forms, type ExactForm, type HalfApprox } from './float-extra.forms.js';
import * as R from './ref/float.js';

afterAll(() => releaseDefaultDevice());

const cases = (fs: readonly ExactForm[]): FormCase[] => fs.map((f) => ({ form: f.form, inputs: f.inputs }));
const want = (fs: readonly ExactForm[]) => (f: number, ins: bigint[]): readonly bigint[] => (fs[f] as ExactForm).want(ins);

/** Mismatches of `got` against a recording: every case the recording has. */
function againstNative(cs: readonly FormCase[], got: bigint[][][], native: bigint[][][]): string[] {
  const bad: string[] = [];
  cs.forEach((c, f) => native[f]?.forEach((col, m) => col.forEach((v, i) => {
    const g = got[f]?.[m]?.[i];
    if (g !== v && bad.length < 12) bad.push(`${c.form.body}: (${c.inputs.map((a) => `0x${(a[i] as bigint).toString(16)}`).join(', ')}) -> 0x${g?.toString(16)}, native 0x${v.toString(16)}`);
  })));
  return bad;
}

describe('cvt.pack, fp8/tf32, f64<->half, f16x2/bf16x2 compares', () => {
  const forms = exactForms();
  const cs = cases(forms);
  let got: bigint[][][] = [];
  it(`match the ISA reference on WebGPU (${forms.length} forms)`, async () => {
    got = await runForms(cs);
    expect(mismatches(cs, got, want(forms))).toEqual([]);
  }, 600_000);
  it('the reference and WebGPU match the native H100 recording', () => {
    const native = loadNative('float-extra', cs);
    expect(native).not.toBeNull();
    if (!native) return;
    expect(mismatches(cs, native, want(forms))).toEqual([]);
    expect(againstNative(cs, got, native)).toEqual([]);
  });
  it('unrecorded forms (sm_100a tf32, .ftz compares) match the ISA reference on WebGPU', async () => {
    const fs = sm100Forms();
    const c = cases(fs);
    expect(mismatches(c, await runForms(c), want(fs))).toEqual([]);
  }, 120_000);
});

/** Relative bound per format (ISA: f16 results of the .approx forms within about 2^-10, bf16 2^-7), plus half an ulp of rounding. */
function checkApprox(fs: readonly HalfApprox[], outs: bigint[][][]): string[] {
  const bad: string[] = [];
  fs.forEach((h, k) => {
    const bits = h.f === R.F16 ? 10 : 7;
    outs[k]?.[0]?.forEach((g, i) => {
      const x = h.inputs[0]?.[i] as bigint;
      for (const sh of h.packed ? [0n, 16n] : [0n]) {
        const xin = (x >> sh) & 0xffffn;
        const gv = (g >> sh) & 0xffffn;
        const xv = R.valueOf(h.f, xin);
        const exact = h.fn === 'ex2' ? 2 ** xv : Math.tanh(xv);
        const gotV = R.valueOf(h.f, gv);
        if (Number.isNaN(xv)) { if (!R.isNan(h.f, gv)) bad.push(`${h.form.body} NaN -> 0x${gv.toString(16)}`); continue; }
        if (Number.isNaN(gotV)) { bad.push(`${h.form.body} ${xv} -> NaN`); continue; }
        if (!Number.isFinite(exact) || Math.abs(exact) > (h.f === R.F16 ? 65504 : 3.3e38)) { if (gotV !== Infinity) bad.push(`${h.form.body} ${xv} -> ${gotV}, want inf`); continue; }
        const minNormal = h.f === R.F16 ? 2 ** -14 : 2 ** -126;
        const subUlp = minNormal * 2 ** -bits;
        const tol = 2 ** -(bits - 1) * Math.abs(exact) + subUlp + (h.fn === 'ex2' ? 2 * minNormal : 2 ** -(bits + 1) * Math.min(1, Math.abs(xv)));
        if (Math.abs(gotV - exact) > tol) bad.push(`${h.form.body} 0x${xin.toString(16)} (${xv}) -> ${gotV}, exact ${exact}`);
        if (xv === 0 && h.fn === 'tanh' && gv !== xin) bad.push(`${h.form.body} tanh(±0) -> 0x${gv.toString(16)}`);
        if (xv === -Infinity && gotV !== (h.fn === 'ex2' ? 0 : -1)) bad.push(`${h.form.body} -inf -> ${gotV}`);
      }
    });
  });
  return bad.slice(0, 20);
}

describe('ex2/tanh.approx on f16/bf16 (scalar and x2)', () => {
  const fs = halfApproxForms();
  it(`are within bounds on WebGPU (${fs.length} forms, every scalar input)`, async () => {
    expect(checkApprox(fs, await runForms(cases(fs as unknown as ExactForm[])))).toEqual([]);
  }, 600_000);
  it('the bounds hold for the native H100 recording', () => {
    const native = loadNative('float-extra-approx', cases(fs as unknown as ExactForm[]));
    expect(native).not.toBeNull();
    if (!native) return;
    expect(checkApprox(fs, native)).toEqual([]);
  });
});
