// The method of f32r_div_rn (shaders/round32.wgsl), step for step in JS with an exact f32 fma,
// against the correctly rounded quotient: for every reciprocal the WGSL built-in may give (within
// its 2.5-ulp bound), the result is exact, and inside the fast path's range no intermediate is
// subnormal (so a device that flushes them, as NVIDIA's does, computes each step exactly). The
// device runs of the same helpers are in f32-div-sqrt.gpu.test.ts.
import { describe, expect, it } from 'vitest';
import { bitsOf, divCase, divRef, inFastRange, inSqrtRange, rand32, sqrtCase, sqrtRef, valueOf } from './div-sqrt-cases.js';

const MIN_NORMAL = 2 ** -126;

/** RN to f32 of s + err, where s = RN53(x) and err = x - s exactly. */
function roundF32(s: number, err: number): number {
  const f = Math.fround(s);
  if (f === s || err === 0) return f;
  const other = f < s ? valueOf(bitsOf(f) + (f >= 0 ? 1 : -1)) : valueOf(bitsOf(f) + (f >= 0 ? -1 : 1));
  const [lo, hi] = f < other ? [f, other] : [other, f];
  if (s - lo !== hi - s) return f; // not a midpoint: fround(s) is RN of x
  return err > 0 ? hi : lo;
}

/** f32 fma, exact: the product of two f32 values is exact in f64, the sum's error by TwoSum. */
function fma(a: number, b: number, c: number): number {
  const p = a * b;
  const s = p + c;
  const bb = s - p;
  const err = (p - (s - bb)) + (c - bb);
  return roundF32(s, err);
}

const mul = (a: number, b: number): number => Math.fround(a * b);
const div = (a: number, b: number): number => Math.fround(a / b);

/** f32r_div_rn's fast path with the reciprocal y0 `skew` ulps off; undefined where it is left. */
function method(a: number, b: number, skew: number, intermediates: number[]): number | undefined {
  if (!inFastRange(a, b)) return undefined;
  const fa = valueOf(a & 0x7fffffff); const fb = valueOf(b & 0x7fffffff);
  const y0 = valueOf(bitsOf(div(1, fb)) + skew);
  const e0 = fma(-fb, y0, 1);
  const y = fma(y0, e0, y0);
  const q0 = mul(fa, y);
  const r0 = fma(-fb, q0, fa);
  const q = fma(r0, y, q0);
  const r = fma(-fb, q, fa);
  const qb = bitsOf(q);
  const up = mul(fb, Math.fround(Math.fround(valueOf(qb + 1) - q) * 0.5));
  const down = mul(fb, Math.fround(Math.fround(q - valueOf(qb - 1)) * 0.5));
  intermediates.push(y0, e0, y, q0, r0, q, r, up, down);
  const c = r > up ? qb + 1 : -r > down ? qb - 1 : qb;
  return (c | ((a ^ b) & 0x80000000)) >>> 0;
}

describe('f32r_div_rn: the method', () => {
  it('gives the correctly rounded quotient for reciprocals up to 2.5 ulps off, with no subnormal step', () => {
    const r = rand32(20261128);
    let fast = 0, hard = 0;
    const wrong: string[] = [];
    for (let n = 0; n < 100000; n++) {
      const [a, b] = divCase(r);
      const want = divRef(a, b);
      for (const skew of [-2, -1, 0, 1, 2]) {
        const steps: number[] = [];
        const got = method(a, b, skew, steps);
        if (got === undefined) break;
        if (skew === 0) {
          fast++;
          const exact = valueOf(a) / valueOf(b); // within 2^-53 relative of the quotient
          const q = valueOf(want); const next = valueOf(bitsOf(q) + (Math.abs(exact) > Math.abs(q) ? 1 : -1));
          if (Math.abs(Math.abs(exact - q) - Math.abs(next - q) / 2) < Math.abs(next - q) * 2 ** -20) hard++;
        }
        const tiny = steps.find((x) => x !== 0 && Math.abs(x) < MIN_NORMAL);
        if (got !== want || tiny !== undefined) wrong.push(`${a.toString(16)} / ${b.toString(16)} skew ${skew}: ${got.toString(16)} want ${want.toString(16)}${tiny !== undefined ? ` subnormal step ${tiny}` : ''}`);
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    // the cases must reach the fast path and its hard cases, or this proves nothing
    expect(fast).toBeGreaterThan(50000);
    expect(hard).toBeGreaterThan(2500);
  });

  it('needs its steps: without the final choice or the correction, quotients come out wrong', () => {
    const r = rand32(7);
    let noChoice = 0, noCorrection = 0;
    for (let n = 0; n < 100000; n++) {
      const [a, b] = divCase(r);
      if (!inFastRange(a, b)) continue;
      const want = divRef(a, b);
      const sign = (a ^ b) & 0x80000000;
      const fa = valueOf(a & 0x7fffffff); const fb = valueOf(b & 0x7fffffff);
      const y0 = valueOf(bitsOf(div(1, fb)) + 2); // a reciprocal 2 ulps off, within WGSL's bound
      const y = fma(y0, fma(-fb, y0, 1), y0);
      const q0 = mul(fa, y);
      const q = fma(fma(-fb, q0, fa), y, q0);
      if (((bitsOf(q) | sign) >>> 0) !== want) noChoice++;
      if (((bitsOf(q0) | sign) >>> 0) !== want) noCorrection++;
    }
    expect(noCorrection).toBeGreaterThan(100);
    expect(noChoice).toBeGreaterThan(100);
  });
});

/** f32r_sqrt_rn's fast path with sqrt's result `skew` ulps off and the halved reciprocal `hskew` ulps off. */
function sqrtMethod(x: number, skew: number, hskew: number, steps: number[]): number | undefined {
  if (!inSqrtRange(x)) return undefined;
  const v = valueOf(x);
  const s0 = valueOf(bitsOf(Math.fround(Math.sqrt(v))) + skew);
  const h = valueOf(bitsOf(div(0.5, s0)) + hskew);
  const r0 = fma(-s0, s0, v);
  const s = fma(r0, h, s0);
  const sb = bitsOf(s);
  const above = fma(-s, valueOf(sb + 1), v);
  const below = fma(-s, valueOf(sb - 1), v);
  steps.push(s0, h, r0, s, above, below);
  return above > 0 ? sb + 1 : below <= 0 ? sb - 1 : sb;
}

describe('f32r_sqrt_rn: the method', () => {
  it('gives the correctly rounded root for square roots up to 6 ulps off, with no subnormal step', () => {
    const r = rand32(5150);
    let fast = 0, hard = 0;
    const wrong: string[] = [];
    for (let n = 0; n < 60000; n++) {
      const x = sqrtCase(r);
      const want = sqrtRef(x);
      if (!inSqrtRange(x)) continue;
      fast++;
      const exact = Math.sqrt(valueOf(x));
      const q = valueOf(want); const next = valueOf(bitsOf(q) + (exact > q ? 1 : -1));
      if (Math.abs(Math.abs(exact - q) - Math.abs(next - q) / 2) < Math.abs(next - q) * 2 ** -20) hard++;
      for (const skew of [-6, -3, -1, 0, 1, 3, 6]) {
        for (const hskew of [-3, 0, 3]) {
          const steps: number[] = [];
          const got = sqrtMethod(x, skew, hskew, steps) as number;
          const tiny = steps.find((s) => s !== 0 && Math.abs(s) < MIN_NORMAL);
          if (got !== want || tiny !== undefined) wrong.push(`sqrt ${x.toString(16)} skew ${skew}/${hskew}: ${got.toString(16)} want ${want.toString(16)}${tiny !== undefined ? ` subnormal step ${tiny}` : ''}`);
        }
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(fast).toBeGreaterThan(25000);
    expect(hard).toBeGreaterThan(2000);
  });

  it('needs its final choice: the Newton step alone rounds some roots wrongly', () => {
    const r = rand32(11);
    let noChoice = 0;
    for (let n = 0; n < 60000; n++) {
      const x = sqrtCase(r);
      if (!inSqrtRange(x)) continue;
      const v = valueOf(x);
      const s0 = valueOf(bitsOf(Math.fround(Math.sqrt(v))) + 3);
      const s = fma(fma(-s0, s0, v), div(0.5, s0), s0);
      if (bitsOf(s) !== sqrtRef(x)) noChoice++;
    }
    expect(noChoice).toBeGreaterThan(100);
  });
});
