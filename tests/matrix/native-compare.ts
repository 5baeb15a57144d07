// How the JS reference's D compares with a native recording. Integer and .b1 results must be
// equal. Floating-point ones may not be: the ISA fixes neither the order of the sums nor their
// internal precision, and the tensor cores do not add in increasing k with f32 rounding at each
// step as the reference does (handlers-mma.ts). Differences beyond a bound relative to the sum
// of the magnitudes |C| + sum |a*b| (plus one unit of an .f16 D) would mean a wrong layout or a
// wrong product, not an accumulation order.
import { F16, F32, convert, decode, type Format } from '../conformance/ref/float.js';
import type { ElemType, MmaCase } from './reference.js';

const isInt = (t: ElemType): boolean => t === 's32';

function value(t: ElemType, bits: bigint): number {
  if (t === 'f64') {
    const b = new DataView(new ArrayBuffer(8));
    b.setBigUint64(0, bits);
    return b.getFloat64(0);
  }
  const d = decode(t === 'f16' ? F16 : F32, t === 'tf32' ? bits & 0xffffe000n : bits);
  if (d.kind === 'nan') return NaN;
  if (d.kind === 'inf') return d.s ? -Infinity : Infinity;
  return (d.s ? -1 : 1) * Number(d.m) * 2 ** d.e;
}

function inputValue(t: ElemType, bits: bigint): number {
  if (t === 'e4m3' || t === 'e5m2' || t === 'bf16' || t === 'f16') {
    const f: Format = t === 'f16' ? F16 : t === 'bf16' ? { frac: 7, ebits: 8, nan: 0x7fffn } : t === 'e5m2' ? { frac: 2, ebits: 5, nan: 0x7fn } : { frac: 3, ebits: 4, nan: 0x7fn };
    if (t === 'e4m3' && (bits & 0x7fn) === 0x7fn) return NaN;
    if (t === 'e4m3') { // no infinities: the top exponent is an ordinary one
      const s = Number(bits >> 7n); const ex = Number((bits >> 3n) & 15n); const fr = Number(bits & 7n);
      return (s ? -1 : 1) * (ex === 0 ? fr * 2 ** -9 : (8 + fr) * 2 ** (ex - 10));
    }
    return value('f32', convert(f, F32, bits, 'rn'));
  }
  return value(t, bits);
}

/** Relative bound per input class (of |C| + sum |a*b|). */
const BOUND: Partial<Record<ElemType, number>> = { f16: 2 ** -16, bf16: 2 ** -16, tf32: 2 ** -16, f64: 2 ** -45, e4m3: 2 ** -10, e5m2: 2 ** -10 };

export interface Disagreement { readonly row: number; readonly col: number; readonly reference: string; readonly native: string }

/** Elements where native and reference differ beyond what accumulation order explains. */
export function disagreements(c: MmaCase, A: bigint[][], B: bigint[][], C: bigint[][], ref: bigint[][], native: bigint[][]): Disagreement[] {
  const out: Disagreement[] = [];
  ref.forEach((row, i) => row.forEach((r, j) => {
    const n = (native[i] as bigint[])[j] as bigint;
    if (r === n) return;
    if (!isInt(c.d)) {
      const kBase = Math.floor(i / c.m) * c.k;
      let mag = Math.abs(value(c.c, (C[i] as bigint[])[j] as bigint));
      for (let k = 0; k < c.k; k++) mag += Math.abs(inputValue(c.a, (A[i] as bigint[])[k] as bigint) * inputValue(c.b, (B[kBase + k] as bigint[])[j] as bigint));
      const rv = value(c.d, r); const nv = value(c.d, n);
      const halfUlp = c.d === 'f16' ? 2 ** Math.max(-24, Math.floor(Math.log2(Math.abs(nv) || 2 ** -24)) - 10) : 0;
      if (Math.abs(rv - nv) <= mag * (BOUND[c.a] ?? 0) + halfUlp) return;
    }
    out.push({ row: i, col: j, reference: r.toString(16), native: n.toString(16) });
  }));
  return out;
}
