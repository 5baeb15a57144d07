// The kernels of tests/matrix/kernels/realistic_tc.cu with their inputs and float64/exact JS
// references: shared by realistic-tc.gpu.test.ts and the native recorder's case list.
//
// Exact cases (the GEMMs) compare words. The f16 GEMM's inputs are multiples of 1/16 in [-2, 2]:
// each product is a multiple of 2^-8 below 4 in magnitude, so every partial sum of K = 96 of them
// needs at most 17 significant bits and f32 holds it exactly, whatever order the mma adds in.
//
// Bounded cases (softmax, attention) compare values against a float64 reference within a bound
// per element, derived in the comment of each.
import { F16, F32, convert, decode } from '../conformance/ref/float.js';
import type { NativeRun } from './native.js';
import { Random, gemmS8Reference } from './reference.js';

interface Common { readonly kernel: string; readonly run: NativeRun }
export interface ExactCase extends Common {
  readonly kind: 'exact';
  /** The words of the (single) output buffer. */
  readonly expected: () => Uint32Array;
}
export interface BoundedCase extends Common {
  readonly kind: 'bounded';
  /** The output words as numbers (f16 or f32 elements). */
  readonly values: (out: Uint32Array) => Float64Array;
  /** The float64 reference and the largest allowed distance from it, per element. */
  readonly reference: () => { readonly value: Float64Array; readonly bound: Float64Array };
}
export type RealisticCase = ExactCase | BoundedCase;

const u32 = (a: ArrayBufferView): Uint32Array => new Uint32Array(a.buffer, a.byteOffset, a.byteLength / 4);

const f32Bits = (v: number): number => new Uint32Array(Float32Array.of(v).buffer)[0] as number;
const f32Value = (bits: number): number => new Float32Array(Uint32Array.of(bits).buffer)[0] as number;

/** The f16 bits of v, which must be exactly representable (asserted: a test input must be what it says). */
function f16Bits(v: number): number {
  const h = Number(convert(F32, F16, BigInt(f32Bits(v)), 'rn'));
  if (f16Value(h) !== v) throw new Error(`${v} is not an f16`);
  return h;
}
function f16Value(h: number): number {
  const d = decode(F16, BigInt(h));
  if (d.kind === 'nan') return NaN;
  if (d.kind === 'inf') return d.s ? -Infinity : Infinity;
  return (d.s ? -1 : 1) * Number(d.m) * 2 ** d.e;
}

/** Halves packed two to a word, element 0 in the low half (little-endian memory order). */
function packHalves(values: readonly number[]): Uint32Array {
  const h = new Uint16Array(values.map(f16Bits));
  return u32(h);
}
const unpackHalves = (w: Uint32Array): Float64Array => Float64Array.from(new Uint16Array(w.buffer, w.byteOffset, w.byteLength / 2), f16Value);

/** n / den for n uniform in [-lim, lim]. */
const grid = (r: Random, count: number, lim: number, den: number): number[] => Array.from({ length: count }, () => (r.below(2 * lim + 1) - lim) / den);

// ------------------------------------------------------------------------------------------------

function gemmF16(M: number, N: number, K: number, seed: number): ExactCase {
  const r = new Random(seed);
  const A = grid(r, M * K, 32, 16);
  const B = grid(r, K * N, 32, 16);
  const expected = (): Uint32Array => Uint32Array.from({ length: M * N }, (_, e) => {
    const i = Math.floor(e / N); const j = e % N;
    let s = 0;
    for (let k = 0; k < K; k++) s += (A[i * K + k] as number) * (B[k * N + j] as number);
    return f32Bits(s);
  });
  return {
    kind: 'exact', kernel: 'gemm_f16_mma_pipelined', expected,
    run: { ptx: 'realistic_tc', kernel: 'gemm_f16_mma_pipelined', grid: [N / 64, M / 64], block: 128, inputs: [packHalves(A), packHalves(B)], outputWords: [M * N], scalars: [{ u32: M }, { u32: N }, { u32: K }] },
  };
}

/** D = A * B + C over s8 with B given by its columns, wrapping in 32 bits (C near the ends sometimes). */
function gemmS8Dp4a(M: number, N: number, K: number, seed: number): ExactCase {
  const r = new Random(seed);
  const bytes = (n: number): Int8Array => new Int8Array(Uint32Array.from({ length: n / 4 }, () => r.next()).buffer);
  const A = bytes(M * K);
  const Bt = bytes(N * K);
  const C = Int32Array.from({ length: M * N }, (_, i) => (i % 61 === 0 ? 0x7fffff00 : i % 67 === 0 ? -0x7fffff00 : (r.next() % 200001) - 100000));
  const expected = (): Uint32Array => gemmS8Reference(A, Bt, C, M, N, K);
  return {
    kind: 'exact', kernel: 'gemm_s8_dp4a', expected,
    run: { ptx: 'realistic_tc', kernel: 'gemm_s8_dp4a', grid: [N / 32, M / 32], block: 256, inputs: [u32(A), u32(Bt), u32(C)], outputWords: [M * N], scalars: [{ u32: M }, { u32: N }, { u32: K }] },
  };
}

/** Distance between neighbouring f16 values at magnitude |v| (subnormal spacing below 2^-14). */
const f16Ulp = (v: number): number => 2 ** Math.max(-24, Math.floor(Math.log2(Math.abs(v) || 2 ** -24)) - 10);

/**
 * Rows of 1024 halves in [-8, 8] (multiples of 1/256); row 0 constant, so its outputs are 2^-10
 * exactly. Bound: the f32 work before the final rounding (the exponent argument fma(x, log2e,
 * -max*log2e) off by < 2^-20 in absolute terms for |arg| < 24, ex2.approx's relative error of
 * about 2^-22 (WGSL's exp2 is held to it by the compiler's probe), 1024 f32 additions and a
 * reciprocal) stays below 2^-16 relative; the f16 store adds half a unit in the last place.
 */
function softmaxF16(rows: number, seed: number): BoundedCase {
  const ROW = 1024;
  const r = new Random(seed);
  const x = grid(r, rows * ROW, 2048, 256);
  for (let j = 0; j < ROW; j++) x[j] = 0.75;
  const reference = (): { value: Float64Array; bound: Float64Array } => {
    const value = new Float64Array(rows * ROW);
    const bound = new Float64Array(rows * ROW);
    for (let i = 0; i < rows; i++) {
      const row = x.slice(i * ROW, (i + 1) * ROW);
      const m = Math.max(...row);
      const e = row.map((v) => Math.exp(v - m));
      const s = e.reduce((a, b) => a + b, 0);
      e.forEach((v, j) => {
        const y = v / s;
        value[i * ROW + j] = y;
        bound[i * ROW + j] = f16Ulp(y) / 2 + y * 2 ** -16;
      });
    }
    return { value, bound };
  };
  return {
    kind: 'bounded', kernel: 'softmax_f16', values: unpackHalves, reference,
    run: { ptx: 'realistic_tc', kernel: 'softmax_f16', grid: rows / 4, block: 128, inputs: [packHalves(x)], outputWords: [(rows * ROW) / 2], scalars: [{ u32: rows }] },
  };
}

/**
 * Single-head attention, head dimension 64: Q in [-4, 4], K and V in [-1, 1] (multiples of 1/256).
 * Bound per output element O[i][d], in units of S = sum_j P[i][j] |V[j][d]| (P the exact softmax):
 * each P V term carries the f16 rounding of p (2^-11 relative) and the error of its exponent: the
 * f32 score sum of 64 exact products (< 63 * 2^-24 * sum |q k| <= 2^-11 for these ranges, times
 * log2(e)/8 in the exponent: < 2^-14 relative in p, once in the numerator and once in the
 * normalising sum) plus ex2.approx and f32 rounding (< 2^-19); the f32 sums of P V and of P add
 * < 2^-17. Total < 2^-10 S; the test allows 2^-9 S. A wrong fragment layout moves O by O(S).
 */
function flashAttnF16(seq: number, seed: number): BoundedCase {
  const D = 64;
  const r = new Random(seed);
  const Q = grid(r, seq * D, 1024, 256);
  const K = grid(r, seq * D, 256, 256);
  const V = grid(r, seq * D, 256, 256);
  const reference = (): { value: Float64Array; bound: Float64Array } => {
    const value = new Float64Array(seq * D);
    const bound = new Float64Array(seq * D);
    for (let i = 0; i < seq; i++) {
      const s = Array.from({ length: seq }, (_, j) => {
        let dot = 0;
        for (let d = 0; d < D; d++) dot += (Q[i * D + d] as number) * (K[j * D + d] as number);
        return dot / 8;
      });
      const m = Math.max(...s);
      const p = s.map((v) => Math.exp(v - m));
      const l = p.reduce((a, b) => a + b, 0);
      for (let d = 0; d < D; d++) {
        let o = 0; let mag = 0;
        for (let j = 0; j < seq; j++) {
          o += (p[j] as number) * (V[j * D + d] as number);
          mag += (p[j] as number) * Math.abs(V[j * D + d] as number);
        }
        value[i * D + d] = o / l;
        bound[i * D + d] = (mag / l) * 2 ** -9;
      }
    }
    return { value, bound };
  };
  return {
    kind: 'bounded', kernel: 'flash_attn_f16', values: (w) => Float64Array.from(w, f32Value), reference,
    run: { ptx: 'realistic_tc', kernel: 'flash_attn_f16', grid: seq / 64, block: 128, inputs: [packHalves(Q), packHalves(K), packHalves(V)], outputWords: [seq * D], scalars: [{ u32: seq }] },
  };
}

export const REALISTIC_CASES: readonly RealisticCase[] = [
  gemmF16(128, 128, 96, 0x6a09e667),
  gemmS8Dp4a(64, 64, 96, 0xbb67ae85),
  softmaxF16(8, 0x3c6ef372),
  flashAttnF16(128, 0xa54ff53a),
];

export const realisticCase = (kernel: string): RealisticCase => {
  const c = REALISTIC_CASES.find((x) => x.kernel === kernel);
  if (!c) throw new Error(`no case ${kernel}`);
  return c;
};

export interface Violation { readonly at: number; readonly got: number; readonly want: number; readonly bound: number }

/** The elements of `values` farther from `want` than `bound` (NaN, e.g. a poisoned word, always is). */
export function violations(values: Float64Array, want: Float64Array, bound: Float64Array): Violation[] {
  const out: Violation[] = [];
  if (values.length !== want.length) return [{ at: -1, got: values.length, want: want.length, bound: 0 }];
  values.forEach((v, at) => {
    const w = want[at] as number; const b = bound[at] as number;
    if (!(Math.abs(v - w) <= b)) out.push({ at, got: v, want: w, bound: b });
  });
  return out;
}

export const realisticNativeRuns = (): NativeRun[] => REALISTIC_CASES.map((c) => c.run);
