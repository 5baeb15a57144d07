// Seeded random cases aimed at the edges of the fast paths of f64_fma, f64_mul and f64_add
// (shaders/f64.wgsl): exponent sums and exponents at and around the limits that admit the fast
// path, the fma's near/far split (c within a few binades of a * b), the shift counts where bits
// start to be jammed or the shift saturates, cancellation down to a few bits and to exactly zero,
// significands that carry into the exponent when rounded, zero c. Every rounding mode, against the
// JS reference (ref/f64.ts), bit for bit.
import { afterAll, describe, expect, it } from 'vitest';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { form, mismatches, rng, runForms, type FormCase } from './harness.js';
import * as R from './ref/f64.js';

afterAll(() => releaseDefaultDevice());

const FRAC = (1n << 52n) - 1n;
const MODES: readonly R.Mode[] = ['rn', 'rz', 'rm', 'rp'];
const N = 3000;

const pack = (s: bigint, e: number, f: bigint): bigint => ((s & 1n) << 63n) | (BigInt(Math.min(Math.max(e, 0), 2047)) << 52n) | (f & FRAC);
const expOf = (x: bigint): number => Number((x >> 52n) & 0x7ffn);

/**
 * Fractions that stress rounding: all ones (rounding carries into the exponent), none, one bit,
 * short ones (exact products), small integers (products whose bits below the rounding point are a
 * small integer, so that c = -(a * b rounded) leaves only those), random.
 */
function frac(r: () => bigint): bigint {
  const v = r();
  switch (Number(v % 9n)) {
    case 0: return FRAC;
    case 1: return 0n;
    case 2: return 1n << (v >> 8n) % 52n;
    case 3: return r() & FRAC & ~((1n << (v >> 8n) % 53n) - 1n);
    case 4: return FRAC ^ (r() & 0xffn);
    case 5: return r() & 0x3ffn;
    default: return r();
  }
}

const int = (r: () => bigint, lo: number, hi: number): number => lo + Number(r() % BigInt(hi - lo + 1));

/** ea + eb = sum with both in [1, 2046] where possible. */
function splitExp(r: () => bigint, sum: number): [number, number] {
  const lo = Math.max(1, sum - 2046); const hi = Math.min(2046, sum - 1);
  const ea = lo <= hi ? int(r, lo, hi) : int(r, 1, 2046);
  return [ea, sum - ea];
}

/** a, b, c around the fma fast path's limits. */
function fmaCase(r: () => bigint): [bigint, bigint, bigint] {
  const kind = Number(r() % 10n);
  if (kind === 9) {
    // fractions that are small integers and c = -(a * b truncated): what is left is a * b's last
    // bits, a few units of 2^(ea + eb - 2150), subnormal just below the limit ea + eb = 1128
    const [ea, eb] = splitExp(r, 1128 + int(r, -8, 4));
    const small = (): bigint => ((r() & 1n) === 1n ? 1n : r() & 7n);
    const a = pack(r(), ea, small()); const b = pack(r(), eb, small());
    return [a, b, R.mul(a, b, 'rz') ^ (1n << 63n)];
  }
  // exponent sum: near the lower (1128) or upper (3067) limit, or anywhere
  const sum = kind === 0 ? 1128 + int(r, -6, 6) : kind === 1 ? 3067 + int(r, -6, 6) : int(r, 1100, 3080);
  const [ea, eb] = splitExp(r, sum);
  const a = pack(r(), ea, frac(r)); const b = pack(r(), eb, frac(r));
  // d = ec - ea - eb + 1023 is c's binade against the product's: near (-1..2, where they may
  // cancel) and its neighbours, where c's bits start to be jammed, where the shift saturates
  const dk = Number(r() % 8n);
  const d = dk < 3 ? int(r, -3, 4) : [int(r, -58, -48), int(r, -132, -100), int(r, 48, 60), int(r, 100, 132), int(r, -200, 200)][dk - 3] as number;
  let ec = d + sum - 1023;
  if (kind === 0 && (r() & 1n) === 1n) ec = int(r, 0, 2); // subnormal or tiny c
  if (kind === 1 && (r() & 1n) === 1n) ec = 2045 + int(r, -3, 1); // c near its upper limit
  const pick = Number(r() % 8n);
  if (pick === 0) return [a, b, (r() & 1n) << 63n]; // zero c
  if (pick <= 2) {
    // c cancels the product to within a few ulps (deep cancellation), or exactly when it is exact
    const p = R.mul(a, b, MODES[Number(r() % 4n)] as R.Mode);
    if (expOf(p) > 0 && expOf(p) < 2047) return [a, b, BigInt.asUintN(64, (p ^ (1n << 63n)) + BigInt(int(r, -3, 3)))];
  }
  // near the top, c often has the product's sign: sums past 2^1024
  const sc = kind === 1 && (r() & 1n) === 1n ? (a ^ b) >> 63n : r();
  return [a, b, pack(sc, ec, frac(r))];
}

function mulCase(r: () => bigint): [bigint, bigint] {
  const kind = Number(r() % 3n);
  const sum = kind === 0 ? 1024 + int(r, -6, 6) : kind === 1 ? 3068 + int(r, -6, 6) : int(r, 1000, 3090);
  const [ea, eb] = splitExp(r, sum);
  return [pack(r(), ea, frac(r)), pack(r(), eb, frac(r))];
}

function addCase(r: () => bigint): [bigint, bigint] {
  const kind = Number(r() % 3n);
  const ea = kind === 0 ? 53 + int(r, -3, 3) : kind === 1 ? 2045 + int(r, -4, 2) : int(r, 40, 2047);
  // the exponent difference around where y's bits start to be jammed and where the shift saturates
  const n = [0, 1, 2, 3, 9, 10, 11, 12, 31, 32, 33, 52, 53, 54, 62, 63, 64, 65, 100][Number(r() % 19n)] as number;
  const eb = (r() & 1n) === 1n ? ea - n : ea + n;
  const a = pack(r(), ea, frac(r));
  // b near -a: cancellation to a few bits (subnormal below the limit ea = 53), or exactly zero
  if ((r() & 3n) === 0n) return [a, BigInt.asUintN(64, (a ^ (1n << 63n)) + BigInt(int(r, -2, 2)))];
  return [a, pack(r(), eb, frac(r))];
}

function columns<T extends bigint[]>(rows: T[]): bigint[][] {
  return (rows[0] as T).map((_, k) => rows.map((row) => row[k] as bigint));
}

// rng(s + 1) is rng(s) one step on: seeds a million apart give streams that do not overlap
const gen = <T extends bigint[]>(f: (r: () => bigint) => T, seed: number): bigint[][] => {
  const r = rng(seed * 1_000_000);
  return columns(Array.from({ length: N }, () => f(r)));
};

const CASES: { readonly c: FormCase; readonly ref: (x: bigint[]) => bigint }[] = [
  ...MODES.map((m, k) => ({
    c: { form: form(`fma.${m}.f64 %d0, %a0, %a1, %a2;`, ['f64', 'f64', 'f64'], ['f64']), inputs: gen(fmaCase, 900 + k) },
    ref: ([a, b, c]: bigint[]) => R.fma(a as bigint, b as bigint, c as bigint, m),
  })),
  ...MODES.map((m, k) => ({
    c: { form: form(`mul.${m}.f64 %d0, %a0, %a1;`, ['f64', 'f64'], ['f64']), inputs: gen(mulCase, 910 + k) },
    ref: ([a, b]: bigint[]) => R.mul(a as bigint, b as bigint, m),
  })),
  ...MODES.map((m, k) => ({
    c: { form: form(`add.${m}.f64 %d0, %a0, %a1;`, ['f64', 'f64'], ['f64']), inputs: gen(addCase, 920 + k) },
    ref: ([a, b]: bigint[]) => R.add(a as bigint, b as bigint, m),
  })),
  ...MODES.map((m, k) => ({
    c: { form: form(`sub.${m}.f64 %d0, %a0, %a1;`, ['f64', 'f64'], ['f64']), inputs: gen(addCase, 930 + k) },
    ref: ([a, b]: bigint[]) => R.sub(a as bigint, b as bigint, m),
  })),
];

describe('f64 fast-path edges', () => {
  const results = runForms(CASES.map((x) => x.c));
  results.catch(() => undefined); // reported by the tests that await it

  it.each(CASES.map((x, k) => [x.c.form.body, k] as const))('%s matches the JS reference', async (_body, k) => {
    const x = CASES[k] as (typeof CASES)[number];
    const got = (await results)[k] as bigint[][];
    const bad = mismatches([x.c], [got], (_f, ins) => [x.ref(ins)]);
    expect(bad, `${bad.length} lines`).toEqual([]);
  });

  // the generators must reach what they aim at, or the test could pass without testing the edges
  it('reaches the edges: fast and general paths, near and far, deep and exact cancellation, subnormal results just past the limits', () => {
    // below: just outside a limit, with a subnormal result (what a looser limit would get wrong)
    let fast = 0, general = 0, near = 0, zero = 0, deep = 0, below = 0, addBelow = 0;
    for (const k of [0, 1, 2, 3]) {
      const [as, bs, cs] = (CASES[k] as (typeof CASES)[number]).c.inputs as bigint[][];
      (as as bigint[]).forEach((a, i) => {
        const b = (bs as bigint[])[i] as bigint; const c = (cs as bigint[])[i] as bigint;
        const ea = expOf(a); const eb = expOf(b); const ec = expOf(c);
        const ok = ea >= 1 && ea <= 2046 && eb >= 1 && eb <= 2046 && ea + eb >= 1128 && ea + eb <= 3067 && ec <= 2045;
        if (!ok) {
          general++;
          const res = R.fma(a, b, c, 'rz');
          if (ea + eb < 1128 && ea + eb >= 1118 && (res << 1n) !== 0n && expOf(res) === 0) below++;
          return;
        }
        fast++;
        const d = Math.max(ec, 1) - ea - eb + 1023;
        if (d >= -1 && d <= 2 && ((a ^ b ^ c) >> 63n) === 1n) near++;
        const res = R.fma(a, b, c, 'rz');
        if ((res << 1n) === 0n) zero++;
        else if (expOf(res) < Math.max(ea + eb - 1023, ec) - 40) deep++;
      });
    }
    for (const k of [8, 9, 10, 11]) {
      const [as, bs] = (CASES[k] as (typeof CASES)[number]).c.inputs as bigint[][];
      (as as bigint[]).forEach((a, i) => {
        const b = (bs as bigint[])[i] as bigint;
        const res = R.add(a, b, 'rz');
        if (Math.min(expOf(a), expOf(b)) >= 50 && Math.min(expOf(a), expOf(b)) < 53 && (res << 1n) !== 0n && expOf(res) === 0) addBelow++;
      });
    }
    const counts = { fast, general, near, zero, deep, below, addBelow };
    const least = { fast: 6000, general: 1500, near: 2000, zero: 60, deep: 1500, below: 20, addBelow: 20 };
    expect(Object.entries(counts).filter(([k, v]) => v < least[k as keyof typeof least]), JSON.stringify(counts)).toEqual([]);
  });
});
