/**
 * The f32 .approx instructions: not bit-exact on any two implementations, so they are checked
 * against the error bounds of the ISA text (and their special-value tables exactly). Also the
 * fma.rn.f32 forms, recorded natively for the fma32 tests (not checked here).
 */
import { form, rng, type FormCase, type NativeBatch } from './harness.js';
import * as R from './ref/float.js';
import { F32 } from './ref/float.js';
import { floatEdges, floatPairs } from './float-cases.forms.js';

export interface ApproxForm {
  readonly body: string;
  readonly ins: number;
  /** Inputs: finite values in the range the bound is stated for. */
  readonly range: readonly [number, number];
  /** The exact result (double) of an input. */
  readonly exact: (x: number, y: number) => number;
  /** Whether `got` is close enough to `exact` for input x. */
  readonly ok: (got: number, exact: number, x: number, y: number) => boolean;
}

const ulp = (v: number): number => {
  const a = Math.abs(v);
  if (a < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
};
const absWithin = (e: number) => (g: number, x: number): boolean => Math.abs(g - x) <= e;
const relWithin = (e: number) => (g: number, x: number): boolean => Math.abs(g - x) <= e * Math.abs(x) + 2 ** -149;
const ulpsWithin = (n: number) => (g: number, x: number): boolean => Math.abs(g - x) <= n * ulp(x);

export const APPROX: readonly ApproxForm[] = [
  { body: 'sin.approx.f32', ins: 1, range: [-Math.PI, Math.PI], exact: Math.sin, ok: absWithin(2 ** -20.9) },
  { body: 'cos.approx.ftz.f32', ins: 1, range: [-Math.PI, Math.PI], exact: Math.cos, ok: absWithin(2 ** -20.9) },
  { body: 'lg2.approx.f32', ins: 1, range: [2 ** -60, 2 ** 60], exact: Math.log2, ok: (g, x) => Math.abs(g - x) <= 2 ** -21.5 * Math.max(1, Math.abs(x)) }, // an H100 exceeds 2^-22.6 slightly
  { body: 'ex2.approx.ftz.f32', ins: 1, range: [-100, 100], exact: (x) => 2 ** x, ok: relWithin(2 ** -22.5 * 2) },
  { body: 'rsqrt.approx.f32', ins: 1, range: [2 ** -60, 2 ** 60], exact: (x) => 1 / Math.sqrt(x), ok: relWithin(2 ** -22.4) },
  { body: 'rcp.approx.ftz.f32', ins: 1, range: [2 ** -100, 2 ** 100], exact: (x) => 1 / x, ok: relWithin(2 ** -23 * 2) },
  { body: 'sqrt.approx.f32', ins: 1, range: [2 ** -100, 2 ** 100], exact: Math.sqrt, ok: relWithin(2 ** -22) },
  { body: 'tanh.approx.f32', ins: 1, range: [-12, 12], exact: Math.tanh, ok: relWithin(2 ** -10.9) },
  { body: 'div.approx.f32', ins: 2, range: [2 ** -60, 2 ** 60], exact: (x, y) => x / y, ok: ulpsWithin(2) },
  { body: 'div.full.f32', ins: 2, range: [2 ** -60, 2 ** 60], exact: (x, y) => x / y, ok: ulpsWithin(2) },
];

/** Special inputs and their exact results (ISA result tables), per unary form; -1: only the bound applies. */
export const SPECIALS: Readonly<Record<string, readonly (readonly [bigint, bigint])[]>> = {
  'sin.approx.f32': [[0xff800000n, 0x7fffffffn], [0x80000001n, 0x80000000n], [0x80000000n, 0x80000000n], [0n, 0n], [1n, 0n], [0x7f800000n, 0x7fffffffn]],
  // without .ftz, subnormal inputs are not flushed (an H100: lg2(-subnormal) is NaN, lg2(2^-149) = -149)
  'lg2.approx.f32': [[0xff800000n, 0x7fffffffn], [0x80000001n, 0x7fffffffn], [0x80000000n, 0xff800000n], [0n, 0xff800000n], [1n, 0xc3150000n], [0x7f800000n, 0x7f800000n]],
  'ex2.approx.ftz.f32': [[0xff800000n, 0n], [0x80000001n, 0x3f800000n], [0x80000000n, 0x3f800000n], [0n, 0x3f800000n], [1n, 0x3f800000n], [0x7f800000n, 0x7f800000n]],
  'rsqrt.approx.f32': [[0xff800000n, 0x7fffffffn], [0xbf800000n, 0x7fffffffn], [0x80000001n, 0x7fffffffn], [0x80000000n, 0xff800000n], [0n, 0x7f800000n], [1n, -1n], [0x7f800000n, 0n]],
  'rcp.approx.ftz.f32': [[0xff800000n, 0x80000000n], [0x80000001n, 0xff800000n], [0x80000000n, 0xff800000n], [0n, 0x7f800000n], [1n, 0x7f800000n], [0x7f800000n, 0n]],
  'sqrt.approx.f32': [[0xff800000n, 0x7fffffffn], [0xbf800000n, 0x7fffffffn], [0x80000001n, 0x7fffffffn], [0x80000000n, 0x80000000n], [0n, 0n], [1n, -1n], [0x7f800000n, 0x7f800000n]],
};

export function approxInputs(f: ApproxForm, n: number, seed: number): bigint[][] {
  const r = rng(seed);
  const [lo, hi] = f.range;
  const pick = (): bigint => {
    const u = Number(r() >> 11n) / 2 ** 53;
    const v = lo > 0 ? 2 ** (Math.log2(lo) + u * (Math.log2(hi) - Math.log2(lo))) : lo + u * (hi - lo);
    return R.f32Bits(Math.fround(v));
  };
  const specials = (SPECIALS[f.body] ?? []).map(([x]) => x);
  const xs = [...specials, ...Array.from({ length: n }, pick)];
  return f.ins === 1 ? [xs] : [xs, xs.map(pick)];
}

export const approxCases = (): FormCase[] =>
  APPROX.map((f, k) => ({
    form: form(`${f.body} %d0, ${f.ins === 1 ? '%a0' : '%a0, %a1'};`, Array(f.ins).fill('f32') as string[], ['f32']),
    inputs: approxInputs(f, 3000, 100 + k),
  }));

const fmaCases = (): FormCase[] => {
  const [a, b] = floatPairs(F32, 3000, 31);
  const e = floatEdges(F32);
  const c = a.map((_, i) => (i < e.length * e.length ? (e[i % e.length] as bigint) : R.mul(F32, a[i] as bigint, b[i] as bigint, 'rn') ^ 0x80000000n ^ BigInt(i & 3)));
  return [{ form: form('fma.rn.f32 %d0, %a0, %a1, %a2;', ['f32', 'f32', 'f32'], ['f32']), inputs: [a, b, c] }];
};

// ------------------------------------------------------------------ tiny arguments

/**
 * .approx functions near zero: ±0, ±subnormals, ±2^-126..2^-10 at every power of two (and its
 * neighbours), randoms between. Normal inputs must meet the same bound as APPROX's row for the
 * function (tanh: the ISA's max relative error, ~2^-11, which near 0 means tanh x ~ x to 11 bits,
 * where a tanh built-in may return ~2^-25 for everything); zero and subnormal inputs have exact
 * results in the ISA's corner-case tables.
 */
export interface TinyForm {
  readonly body: string;
  /** The APPROX row whose exact function and bound apply. */
  readonly like: ApproxForm;
  /** The ISA table's result for a ±0 or ±subnormal input. */
  readonly zeroOrSubnormal: (x: bigint) => bigint;
}

const approxRow = (body: string): ApproxForm => {
  const f = APPROX.find((a) => a.body === body);
  if (!f) throw new Error(`no APPROX row ${body}`);
  return f;
};
const ONE = 0x3f800000n;

export const TINY: readonly TinyForm[] = [
  { body: 'tanh.approx.f32', like: approxRow('tanh.approx.f32'), zeroOrSubnormal: (x) => x }, // subnormals are supported: same as input
  { body: 'ex2.approx.f32', like: approxRow('ex2.approx.ftz.f32'), zeroOrSubnormal: () => ONE },
  { body: 'ex2.approx.ftz.f32', like: approxRow('ex2.approx.ftz.f32'), zeroOrSubnormal: () => ONE },
  { body: 'sin.approx.f32', like: approxRow('sin.approx.f32'), zeroOrSubnormal: (x) => x & 0x80000000n }, // flushed to a signed zero
  { body: 'cos.approx.f32', like: approxRow('cos.approx.ftz.f32'), zeroOrSubnormal: () => ONE },
];

export const isZeroOrSubnormal = (x: bigint): boolean => (x & 0x7fffffffn) < 0x800000n;

export function tinyInputs(seed: number): bigint[] {
  const r = rng(seed);
  const mags: bigint[] = [0n, 1n, 2n, 3n, 0x400000n, 0x400001n, 0x7ffffen, 0x7fffffn];
  for (let k = 0; k < 23; k++) mags.push(1n << BigInt(k), (1n << BigInt(k)) + 1n);
  for (let i = 0; i < 48; i++) mags.push(r() & 0x7fffffn);
  for (let e = -126; e <= -10; e++) {
    const p = BigInt(e + 127) << 23n;
    mags.push(p, p + 1n, p - 1n);
  }
  const lo = Math.log2(2 ** -126);
  const hi = Math.log2(2 ** -10);
  for (let i = 0; i < 400; i++) mags.push(R.f32Bits(Math.fround(2 ** (lo + (Number(r() >> 11n) / 2 ** 53) * (hi - lo)))));
  return [...new Set(mags)].flatMap((m) => [m, m | 0x80000000n]);
}

export const tinyCases = (): FormCase[] =>
  TINY.map((f, k) => ({ form: form(`${f.body} %d0, %a0;`, ['f32'], ['f32']), inputs: [tinyInputs(200 + k)] }));

export const NATIVE_BATCHES: readonly NativeBatch[] = [
  { name: 'float-approx', keep: 4096, cases: approxCases },
  { name: 'float-fma-rn', keep: 8192, cases: fmaCases },
  { name: 'float-approx-tiny', keep: 2048, cases: tinyCases },
];
