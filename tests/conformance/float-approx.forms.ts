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

export const NATIVE_BATCHES: readonly NativeBatch[] = [
  { name: 'float-approx', keep: 4096, cases: approxCases },
  { name: 'float-fma-rn', keep: 8192, cases: fmaCases },
];
