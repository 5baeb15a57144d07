// f32 .approx instructions on the real WebGPU (and natively recorded on NVIDIA, where committed):
// within the ISA's error bounds on their stated ranges, and exact on the ISA's special-value tables.
import { afterAll, describe, expect, it } from 'vitest';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { loadNative, runForms } from './harness.js';
import { APPROX, SPECIALS, TINY, approxCases, isZeroOrSubnormal, tinyCases } from './float-approx.forms.js';
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

/** Tiny arguments: exact ISA table results for ±0/±subnormals, the function's bound for normals. */
function checkTiny(outs: readonly (readonly (readonly bigint[])[])[], cases: ReturnType<typeof tinyCases>): string[] {
  const bad: string[] = [];
  const hex = (v: bigint): string => `0x${v.toString(16)}`;
  TINY.forEach((f, k) => {
    const xs = cases[k]?.inputs[0] ?? [];
    const got = outs[k]?.[0] ?? [];
    if (got.length !== xs.length) bad.push(`${f.body}: ${got.length} results for ${xs.length} inputs`);
    got.forEach((g, i) => {
      const x = xs[i] as bigint;
      if (isZeroOrSubnormal(x)) {
        const want = f.zeroOrSubnormal(x);
        if (g !== want) bad.push(`${f.body} ${hex(x)} -> ${hex(g)}, want ${hex(want)}`);
        return;
      }
      const xv = f32Value(x);
      const exact = f.like.exact(xv, 0);
      if (!f.like.ok(f32Value(g), exact, xv, 0)) bad.push(`${f.body} ${xv} (${hex(x)}) -> ${f32Value(g)} (${hex(g)}), exact ${exact}`);
    });
  });
  return bad.slice(0, 20);
}

describe('f32 .approx instructions on tiny arguments (float-approx-tiny)', () => {
  const cases = tinyCases();
  let got: bigint[][][] = [];
  it(`are exact on zeros and subnormals and within the bounds on normals, on WebGPU (${cases.length} forms, ${cases[0]?.inputs[0]?.length} inputs each)`, async () => {
    got = await runForms(cases);
    expect(checkTiny(got, cases)).toEqual([]);
  }, 120_000);
  it('rejects what a tanh built-in gives near 0 (about 2^-25 for every |x| < 1e-8)', () => {
    const k = TINY.findIndex((f) => f.body === 'tanh.approx.f32');
    const fake = got.map((outs, f) => (f !== k ? outs : [(cases[k]?.inputs[0] ?? []).map((x, i) => ((x & 0x7fffffffn) < 0x32000000n ? 0x33000000n | (x & 0x80000000n) : (outs[0]?.[i] ?? 0n)))]));
    const bad = checkTiny(fake, cases);
    expect(bad.length).toBeGreaterThan(0);
    expect(bad.filter((b) => !b.startsWith('tanh.approx.f32'))).toEqual([]);
  });
  it('the same holds for the native NVIDIA recording', () => {
    const native = loadNative('float-approx-tiny', cases);
    expect(native, 'tests/conformance/native/float-approx-tiny.bin.gz is missing').not.toBeNull();
    expect(checkTiny(native ?? [], cases)).toEqual([]);
  });
});
