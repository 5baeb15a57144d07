// An independent JS reference for mma.sync.aligned: the fragment layouts as the ISA's figures
// state them (element a_i of a thread at (row, col), written per element index i in the ISA's own
// words, not derived from src/translate/matrix-fragments.ts), and D = A*B + C computed from whole
// matrices with exact bit-level arithmetic (tests/conformance/ref).
//
// Arithmetic, as documented in src/translate/handlers-mma.ts (the ISA fixes neither the order
// nor the internal precision; this is our stated choice, the H100 comparison checks how far the
// hardware is from it): f16/bf16/tf32 products are exact in f32 and added to C in increasing k,
// each addition rounded to nearest even in f32; tf32 inputs have their low 13 bits ignored; an
// .f16 D is that f32 sum rounded to nearest even; f64 is a chain of fma.rn in increasing k;
// integers are exact, C added modulo 2^32 or, with .satfinite, clamped to the s32 range; .b1 adds
// the popc of A's row AND/XOR B's column to C modulo 2^32; fp8 inputs are exact in f32, so they
// follow the f16 rule.
import { BF16, F16, F32, add, convert, mul, roundExact } from '../conformance/ref/float.js';
import { fma as fma64 } from '../conformance/ref/f64.js';

export type ElemType = 'f16' | 'bf16' | 'tf32' | 'f32' | 'f64' | 's8' | 'u8' | 's32' | 's4' | 'u4' | 'b1' | 'e4m3' | 'e5m2';

/** (row, col) of element i of a thread with groupID g and threadID_in_group t. */
type Place = (g: number, t: number, i: number) => readonly [number, number];

export interface MmaCase {
  readonly kernel: string;
  readonly m: number; readonly n: number; readonly k: number;
  readonly a: ElemType; readonly b: ElemType; readonly c: ElemType; readonly d: ElemType;
  readonly satfinite?: boolean;
  readonly bitOp?: 'and' | 'xor';
  /**
   * m8n8k4 .f16: independent products per warp (4, one per quad pair), stacked: A is
   * (batch * m) x k, B (batch * k) x n, C and D (batch * m) x n.
   */
  readonly batch?: number;
  /** Elements per thread of each fragment, and where each is. */
  readonly aCount: number; readonly bCount: number; readonly cCount: number;
  readonly aAt: Place; readonly bAt: Place; readonly cAt: Place;
  /** D's placement where it differs from C's (m8n8k4 with .f16 C and .f32 D). */
  readonly dAt?: Place;
}

/** Rows of the (stacked) A, C and D, and of the stacked B. */
export const rowsOf = (c: MmaCase): { m: number; k: number } => ({ m: c.m * (c.batch ?? 1), k: c.k * (c.batch ?? 1) });

// ---------------------------------------------------------------- the ISA's figures

// m16n8k16, .f16/.bf16: a0..a7, b0..b3, c0..c3
const A16x16: Place = (g, t, i) => [[0, 1, 4, 5].includes(i) ? g : g + 8, t * 2 + (i & 1) + (i >= 4 ? 8 : 0)];
const B16x8: Place = (g, t, i) => [t * 2 + (i & 1) + (i >= 2 ? 8 : 0), g];
/** The m16n8 accumulators of every type: c0, c1 in row g, c2, c3 in row g + 8. */
const C16x8: Place = (g, t, i) => [i < 2 ? g : g + 8, t * 2 + (i & 1)];
// m16n8k8, .f16/.bf16: a0..a3, b0, b1
const A16x8: Place = (g, t, i) => [i < 2 ? g : g + 8, t * 2 + (i & 1)];
const B8x8: Place = (g, t, i) => [t * 2 + i, g];
// m16n8k8, .tf32: a0..a3 (a0, a2 in row g), b0, b1
const A16x8tf32: Place = (g, t, i) => [i === 0 || i === 2 ? g : g + 8, i < 2 ? t : t + 4];
const B8x8tf32: Place = (g, t, i) => [i === 0 ? t : t + 4, g];
// m16n8k4, .tf32: a0, a1, b0
const A16x4tf32: Place = (g, t, i) => [i === 0 ? g : g + 8, t];
const B4x8tf32: Place = (g, t) => [t, g];
// m16n8k32, .s8/.u8: a0..a15, b0..b7
const A16x32i8: Place = (g, t, i) => [(i < 4 || (i >= 8 && i < 12)) ? g : g + 8, t * 4 + (i & 3) + (i >= 8 ? 16 : 0)];
const B32x8i8: Place = (g, t, i) => [t * 4 + (i & 3) + (i >= 4 ? 16 : 0), g];
// m16n8k16, .s8/.u8: a0..a7, b0..b3
const A16x16i8: Place = (g, t, i) => [i < 4 ? g : g + 8, t * 4 + (i & 3)];
const B16x8i8: Place = (g, t, i) => [t * 4 + i, g];
// m8n8k16, .s8/.u8: a0..a3, b0..b3, c0, c1
const A8x16i8: Place = (g, t, i) => [g, t * 4 + i];
const B16x8i8m8: Place = (g, t, i) => [t * 4 + i, g];
const C8x8: Place = (g, t, i) => [g, t * 2 + i];
// m8n8k4, .f64: a0, b0, c0, c1
const A8x4f64: Place = (g, t) => [g, t];
const B4x8f64: Place = (g, t) => [t, g];

// m8n8k32, .s4/.u4: a0..a7, b0..b7 (C8x8)
const A8x32i4: Place = (g, t, i) => [g, t * 8 + i];
const B32x8i4: Place = (g, t, i) => [t * 8 + i, g];
// m16n8k32, .s4/.u4: a0..a15 (a0..a7 in row g), b0..b7 (C16x8)
const A16x32i4: Place = (g, t, i) => [i < 8 ? g : g + 8, t * 8 + (i & 7)];
// m16n8k64, .s4/.u4: a0..a31, b0..b15
const A16x64i4: Place = (g, t, i) => [(i < 8 || (i >= 16 && i < 24)) ? g : g + 8, t * 8 + (i & 7) + (i >= 16 ? 32 : 0)];
const B64x8i4: Place = (g, t, i) => [t * 8 + (i & 7) + (i >= 8 ? 32 : 0), g];
// m8n8k128, .b1: a0..a31, b0..b31
const A8x128b1: Place = (g, t, i) => [g, t * 32 + i];
const B128x8b1: Place = (g, t, i) => [t * 32 + i, g];
// m16n8k128, .b1: a0..a63 (a0..a31 in row g), b0..b31
const A16x128b1: Place = (g, t, i) => [i < 32 ? g : g + 8, t * 32 + (i & 31)];
// m16n8k256, .b1: a0..a127, b0..b63. The ISA text gives A's column for i < 64 as
// (threadID_in_group * 32) + i, which would put a32..a63 (row g + 8) at columns 32..63 beyond
// the thread's run and overlap a64..; every other figure (and m16n8k64's) masks i, so this does.
const A16x256b1: Place = (g, t, i) => [(i < 32 || (i >= 64 && i < 96)) ? g : g + 8, t * 32 + (i & 31) + (i >= 64 ? 128 : 0)];
const B256x8b1: Place = (g, t, i) => [t * 32 + (i & 31) + (i >= 32 ? 128 : 0), g];
// m8n8k4, .f16: quad pair q = lanes 4q..4q+3 (low group, h = 0) and 16+4q..16+4q+3 (h = 1)
// computes product q, whose rows are 8q.. of the stacked A, C, D and 4q.. of the stacked B.
const quadPair = (g: number, t: number): { lane: number; q: number; h: number } => {
  const lane = 4 * g + t;
  return { lane, q: (lane >> 2) & 3, h: lane >> 4 };
};
const A8x4rowF16: Place = (g, t, i) => { const { q, h } = quadPair(g, t); return [8 * q + t + 4 * h, i]; };
const A8x4colF16: Place = (g, t, i) => { const { q, h } = quadPair(g, t); return [8 * q + i + 4 * h, t]; };
const B4x8rowF16: Place = (g, t, i) => { const { q, h } = quadPair(g, t); return [4 * q + t, i + 4 * h]; };
const B4x8colF16: Place = (g, t, i) => { const { q, h } = quadPair(g, t); return [4 * q + i, t + 4 * h]; };
const C8x8f16: Place = (g, t, i) => { const { q, h } = quadPair(g, t); return [8 * q + t + 4 * h, i]; };
const C8x8f32: Place = (g, t, i) => {
  const { lane, q, h } = quadPair(g, t);
  return [8 * q + (lane & 1) + (i & 2) + 4 * h, (i & 4) + (lane & 2) + (i & 1)];
};

const f16x = (kernel: string, k: 16 | 8, a: 'f16' | 'bf16', acc: 'f16' | 'f32'): MmaCase => ({
  kernel, m: 16, n: 8, k, a, b: a, c: acc, d: acc,
  aCount: k / 2, bCount: k / 4, cCount: 4,
  aAt: k === 16 ? A16x16 : A16x8, bAt: k === 16 ? B16x8 : B8x8, cAt: C16x8,
});
const i8 = (kernel: string, m: 8 | 16, k: 16 | 32, a: 's8' | 'u8', b: 's8' | 'u8', satfinite: boolean): MmaCase => ({
  kernel, m, n: 8, k, a, b, c: 's32', d: 's32', satfinite,
  aCount: (m * k) / 32, bCount: k / 4, cCount: m === 16 ? 4 : 2,
  aAt: m === 8 ? A8x16i8 : k === 32 ? A16x32i8 : A16x16i8, bAt: m === 8 ? B16x8i8m8 : k === 32 ? B32x8i8 : B16x8i8, cAt: m === 16 ? C16x8 : C8x8,
});

type Layout = 'row' | 'col';
const m8n8k4 = (kernel: string, a: Layout, b: Layout, d: 'f16' | 'f32', c: 'f16' | 'f32'): MmaCase => ({
  kernel, m: 8, n: 8, k: 4, batch: 4, a: 'f16', b: 'f16', c, d,
  aCount: 4, bCount: 4, cCount: 8,
  aAt: a === 'row' ? A8x4rowF16 : A8x4colF16, bAt: b === 'row' ? B4x8rowF16 : B4x8colF16,
  cAt: c === 'f16' ? C8x8f16 : C8x8f32, dAt: d === 'f16' ? C8x8f16 : C8x8f32,
});
const i4 = (kernel: string, m: 8 | 16, k: 32 | 64, a: 's4' | 'u4', b: 's4' | 'u4', satfinite: boolean): MmaCase => ({
  kernel, m, n: 8, k, a, b, c: 's32', d: 's32', satfinite,
  aCount: (m * k) / 32, bCount: k / 4, cCount: m === 16 ? 4 : 2,
  aAt: m === 8 ? A8x32i4 : k === 32 ? A16x32i4 : A16x64i4, bAt: k === 64 ? B64x8i4 : B32x8i4, cAt: m === 16 ? C16x8 : C8x8,
});
const b1 = (kernel: string, m: 8 | 16, k: 128 | 256, bitOp: 'and' | 'xor'): MmaCase => ({
  kernel, m, n: 8, k, a: 'b1', b: 'b1', c: 's32', d: 's32', bitOp,
  aCount: (m * k) / 32, bCount: k / 4, cCount: m === 16 ? 4 : 2,
  aAt: m === 8 ? A8x128b1 : k === 128 ? A16x128b1 : A16x256b1, bAt: k === 256 ? B256x8b1 : B128x8b1, cAt: m === 16 ? C16x8 : C8x8,
});
const f8 = (kernel: string, k: 16 | 32, a: 'e4m3' | 'e5m2', b: 'e4m3' | 'e5m2', acc: 'f16' | 'f32'): MmaCase => ({
  kernel, m: 16, n: 8, k, a, b, c: acc, d: acc,
  aCount: k / 2, bCount: k / 4, cCount: 4,
  aAt: k === 16 ? A16x16i8 : A16x32i8, bAt: k === 16 ? B16x8i8 : B32x8i8, cAt: C16x8,
});

/** The kernels of tests/matrix/kernels/mma_forms_sm89.cu. */
export const MMA_SM89_CASES: readonly MmaCase[] = [
  m8n8k4('mma_m8n8k4_row_col_f32_f32', 'row', 'col', 'f32', 'f32'),
  m8n8k4('mma_m8n8k4_col_row_f16_f16', 'col', 'row', 'f16', 'f16'),
  m8n8k4('mma_m8n8k4_row_row_f32_f16', 'row', 'row', 'f32', 'f16'),
  m8n8k4('mma_m8n8k4_col_col_f32_f32', 'col', 'col', 'f32', 'f32'),
  m8n8k4('mma_m8n8k4_row_col_f16_f16', 'row', 'col', 'f16', 'f16'),
  m8n8k4('mma_m8n8k4_col_col_f32_f16', 'col', 'col', 'f32', 'f16'),
  i4('mma_m8n8k32_s4_s4', 8, 32, 's4', 's4', false),
  i4('mma_m8n8k32_u4_s4_sat', 8, 32, 'u4', 's4', true),
  i4('mma_m16n8k32_s4_u4', 16, 32, 's4', 'u4', false),
  i4('mma_m16n8k32_u4_u4_sat', 16, 32, 'u4', 'u4', true),
  i4('mma_m16n8k64_s4_s4_sat', 16, 64, 's4', 's4', true),
  i4('mma_m16n8k64_u4_s4', 16, 64, 'u4', 's4', false),
  b1('mma_m8n8k128_xor', 8, 128, 'xor'),
  b1('mma_m8n8k128_and', 8, 128, 'and'),
  b1('mma_m16n8k128_and', 16, 128, 'and'),
  b1('mma_m16n8k128_xor', 16, 128, 'xor'),
  b1('mma_m16n8k256_xor', 16, 256, 'xor'),
  b1('mma_m16n8k256_and', 16, 256, 'and'),
  f8('mma_m16n8k16_f32_e4m3', 16, 'e4m3', 'e4m3', 'f32'),
  f8('mma_m16n8k16_f32_e5m2_e4m3', 16, 'e5m2', 'e4m3', 'f32'),
  f8('mma_m16n8k16_f16_e4m3_e5m2', 16, 'e4m3', 'e5m2', 'f16'),
  f8('mma_m16n8k32_f32_e5m2', 32, 'e5m2', 'e5m2', 'f32'),
  f8('mma_m16n8k32_f32_e4m3_e5m2', 32, 'e4m3', 'e5m2', 'f32'),
  f8('mma_m16n8k32_f16_e4m3', 32, 'e4m3', 'e4m3', 'f16'),
];

/** The kernels of tests/matrix/kernels/mma_forms.cu. */
export const MMA_CASES: readonly MmaCase[] = [
  f16x('mma_m16n8k16_f32_f16', 16, 'f16', 'f32'),
  f16x('mma_m16n8k16_f16_f16', 16, 'f16', 'f16'),
  f16x('mma_m16n8k16_f32_bf16', 16, 'bf16', 'f32'),
  f16x('mma_m16n8k8_f32_f16', 8, 'f16', 'f32'),
  f16x('mma_m16n8k8_f16_f16', 8, 'f16', 'f16'),
  f16x('mma_m16n8k8_f32_bf16', 8, 'bf16', 'f32'),
  { kernel: 'mma_m16n8k8_f32_tf32', m: 16, n: 8, k: 8, a: 'tf32', b: 'tf32', c: 'f32', d: 'f32', aCount: 4, bCount: 2, cCount: 4, aAt: A16x8tf32, bAt: B8x8tf32, cAt: C16x8 },
  { kernel: 'mma_m16n8k4_f32_tf32', m: 16, n: 8, k: 4, a: 'tf32', b: 'tf32', c: 'f32', d: 'f32', aCount: 2, bCount: 1, cCount: 4, aAt: A16x4tf32, bAt: B4x8tf32, cAt: C16x8 },
  i8('mma_m16n8k32_s8_s8', 16, 32, 's8', 's8', false),
  i8('mma_m16n8k32_u8_s8_sat', 16, 32, 'u8', 's8', true),
  i8('mma_m16n8k32_u8_u8_sat', 16, 32, 'u8', 'u8', true),
  i8('mma_m16n8k16_s8_u8', 16, 16, 's8', 'u8', false),
  i8('mma_m16n8k16_s8_s8_sat', 16, 16, 's8', 's8', true),
  i8('mma_m8n8k16_u8_s8', 8, 16, 'u8', 's8', false),
  { kernel: 'mma_m8n8k4_f64', m: 8, n: 8, k: 4, a: 'f64', b: 'f64', c: 'f64', d: 'f64', aCount: 1, bCount: 1, cCount: 2, aAt: A8x4f64, bAt: B4x8f64, cAt: C8x8 },
];

// ---------------------------------------------------------------- element bits and packing

/** Bits per element in a register: packed halves and bytes share one 32-bit register. */
export function elementBits(t: ElemType): number {
  if (t === 'f16' || t === 'bf16') return 16;
  if (t === 's8' || t === 'u8' || t === 'e4m3' || t === 'e5m2') return 8;
  if (t === 's4' || t === 'u4') return 4;
  if (t === 'b1') return 1;
  return t === 'f64' ? 64 : 32;
}

/** The fragment of `matrix` (rows x cols element bits) for every lane, as 32-bit words. */
export function pack(matrix: readonly bigint[][], at: Place, count: number, t: ElemType): number[] {
  const bits = elementBits(t);
  const perWord = Math.max(1, 32 / bits);
  const words = Math.ceil((count * bits) / 32);
  const out: number[] = [];
  for (let lane = 0; lane < 32; lane++) {
    const w = new Array<bigint>(words).fill(0n);
    for (let i = 0; i < count; i++) {
      const [r, c] = at(lane >> 2, lane & 3, i);
      const v = (matrix[r] as bigint[])[c] as bigint;
      if (bits === 64) { w[2 * i] = v & 0xffffffffn; w[2 * i + 1] = v >> 32n; continue; }
      const word = Math.floor(i / perWord);
      w[word] = (w[word] as bigint) | (v << BigInt((i % perWord) * bits));
    }
    out.push(...w.map(Number));
  }
  return out;
}

/** The inverse of pack: the matrix of element bits from the lanes' words. */
export function unpack(words: ArrayLike<number>, rows: number, cols: number, at: Place, count: number, t: ElemType): bigint[][] {
  const bits = elementBits(t);
  const perWord = Math.max(1, 32 / bits);
  const per = Math.ceil((count * bits) / 32);
  const out = Array.from({ length: rows }, () => new Array<bigint>(cols).fill(-1n));
  for (let lane = 0; lane < 32; lane++) {
    for (let i = 0; i < count; i++) {
      const [r, c] = at(lane >> 2, lane & 3, i);
      const base = lane * per;
      let v: bigint;
      if (bits === 64) v = BigInt(words[base + 2 * i] ?? 0) | (BigInt(words[base + 2 * i + 1] ?? 0) << 32n);
      else {
        const word = BigInt((words[base + Math.floor(i / perWord)] ?? 0) >>> 0);
        v = (word >> BigInt((i % perWord) * bits)) & ((1n << BigInt(bits)) - 1n);
      }
      (out[r] as bigint[])[c] = v;
    }
  }
  return out;
}

// ---------------------------------------------------------------- D = A*B + C

/** fp8 bits as (-1)^s * m * 2^e: e4m3 bias 7 (0x7f/0xff NaN, no infinities), e5m2 bias 15 (IEEE-like). */
function fp8ToF32(t: 'e4m3' | 'e5m2', v: bigint): bigint {
  const [mbits, bias] = t === 'e4m3' ? [3, 7] : [2, 15];
  const s = Number(v >> 7n);
  const ex = Number((v >> BigInt(mbits)) & BigInt((1 << (7 - mbits)) - 1));
  const fr = v & ((1n << BigInt(mbits)) - 1n);
  const top = (1 << (7 - mbits)) - 1;
  if (t === 'e4m3' ? (v & 0x7fn) === 0x7fn : ex === top) return fr || t === 'e4m3' ? F32.nan : (s ? 0xff800000n : 0x7f800000n);
  if (ex === 0) return roundExact(F32, s, fr, 1 - bias - mbits, 'rn');
  return roundExact(F32, s, fr | (1n << BigInt(mbits)), ex - bias - mbits, 'rn');
}

const toF32 = (t: ElemType, v: bigint): bigint => {
  if (t === 'e4m3' || t === 'e5m2') return fp8ToF32(t, v);
  if (t === 'f16') return convert(F16, F32, v, 'rn');
  if (t === 'bf16') return convert(BF16, F32, v, 'rn');
  if (t === 'tf32') return v & 0xffffe000n;
  return v;
};
const int = (t: ElemType, v: bigint): bigint => (t === 's8' ? BigInt.asIntN(8, v) : t === 's4' ? BigInt.asIntN(4, v) : t === 's32' ? BigInt.asIntN(32, v) : v);

export function referenceMma(c: MmaCase, A: readonly bigint[][], B: readonly bigint[][], C: readonly bigint[][]): bigint[][] {
  const out: bigint[][] = [];
  for (let i = 0; i < rowsOf(c).m; i++) {
    const row: bigint[] = [];
    const kBase = Math.floor(i / c.m) * c.k;
    for (let j = 0; j < c.n; j++) {
      const a = (k: number): bigint => (A[i] as bigint[])[k] as bigint;
      const b = (k: number): bigint => (B[kBase + k] as bigint[])[j] as bigint;
      const cv = (C[i] as bigint[])[j] as bigint;
      if (c.a === 'b1') {
        let dot = 0n;
        for (let k = 0; k < c.k; k++) dot += c.bitOp === 'and' ? a(k) & b(k) : a(k) ^ b(k);
        row.push(BigInt.asUintN(32, cv + dot));
      } else if (c.c === 's32') {
        let dot = 0n;
        for (let k = 0; k < c.k; k++) dot += int(c.a, a(k)) * int(c.b, b(k));
        const sum = int('s32', cv) + dot;
        row.push(c.satfinite ? BigInt.asUintN(32, sum > 0x7fffffffn ? 0x7fffffffn : sum < -0x80000000n ? -0x80000000n : sum) : BigInt.asUintN(32, sum));
      } else if (c.c === 'f64') {
        let acc = cv;
        for (let k = 0; k < c.k; k++) acc = fma64(a(k), b(k), acc, 'rn');
        row.push(acc);
      } else {
        let acc = c.c === 'f16' ? convert(F16, F32, cv, 'rn') : cv;
        for (let k = 0; k < c.k; k++) acc = add(F32, acc, mul(F32, toF32(c.a, a(k)), toF32(c.b, b(k)), 'rn'), 'rn');
        row.push(c.d === 'f16' ? convert(F32, F16, acc, 'rn') : acc);
      }
    }
    out.push(row);
  }
  return out;
}

// ---------------------------------------------------------------- random inputs

/** xorshift32, the same sequence as tests/matrix/harness.ts randomWords and record_native.py. */
export class Random {
  constructor(private x: number) { this.x = x >>> 0 || 1; }
  next(): number {
    let x = this.x;
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return (this.x = x);
  }
  below(n: number): number { return this.next() % n; }
}

/** A random finite element of type t, in a range where no product or sum leaves f32's range. */
export function randomElement(r: Random, t: ElemType, role: 'input' | 'acc'): bigint {
  const sign = (bit: number, v: bigint, width: number): bigint => (bit ? v | (1n << BigInt(width - 1)) : v);
  const s = r.next() & 1;
  switch (t) {
    // f16: exponent field 6..20 (2^-9 .. 2^5), sometimes a subnormal or zero
    case 'f16': {
      const k = r.below(16);
      if (k === 0) return sign(s, BigInt(r.below(1024)), 16);
      return sign(s, (BigInt(6 + r.below(15)) << 10n) | BigInt(r.below(1024)), 16);
    }
    case 'bf16': return sign(s, (BigInt(118 + r.below(16)) << 7n) | BigInt(r.below(128)), 16);
    // tf32: full f32 bit patterns (the low 13 bits must be ignored)
    case 'tf32': return sign(s, (BigInt(118 + r.below(16)) << 23n) | BigInt(r.next() & 0x7fffff), 32);
    case 'f32': return sign(s, (BigInt(role === 'acc' ? 118 + r.below(20) : 118 + r.below(16)) << 23n) | BigInt(r.next() & 0x7fffff), 32);
    case 'f64': {
      const hi = (BigInt(1013 + r.below(20)) << 20n) | BigInt(r.next() & 0xfffff);
      return sign(s, (hi << 32n) | BigInt(r.next()), 64);
    }
    case 's8': case 'u8': return BigInt(r.next() & 0xff);
    case 's4': case 'u4': return BigInt(r.next() & 0xf);
    case 'b1': return BigInt(r.next() & 1);
    // fp8: exponents within 2^-4..2^4 (sums of 32 products stay in f16's range), sometimes a
    // subnormal or zero; never NaN or infinity
    case 'e4m3': {
      if (r.below(16) === 0) return sign(s, BigInt(r.below(8)), 8);
      return sign(s, (BigInt(3 + r.below(9)) << 3n) | BigInt(r.below(8)), 8);
    }
    case 'e5m2': {
      if (r.below(16) === 0) return sign(s, BigInt(r.below(4)), 8);
      return sign(s, (BigInt(11 + r.below(9)) << 2n) | BigInt(r.below(4)), 8);
    }
    case 's32': {
      // near the ends of the range half of the time, so .satfinite clamps
      const k = r.below(4);
      if (k === 0) return BigInt(0x7fffffff - r.below(1 << 16));
      if (k === 1) return BigInt(0x80000000 + r.below(1 << 16));
      return BigInt(r.next());
    }
  }
}

export function randomMatrix(r: Random, rows: number, cols: number, t: ElemType, role: 'input' | 'acc'): bigint[][] {
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => randomElement(r, t, role)));
}

/** Inputs of `warps` independent mmas: per warp A, B, C, and the fragment words of each. */
export function mmaInputs(c: MmaCase, warps: number, seed: number): { A: bigint[][][]; B: bigint[][][]; C: bigint[][][]; words: [Uint32Array, Uint32Array, Uint32Array] } {
  const r = new Random(seed);
  const A: bigint[][][] = []; const B: bigint[][][] = []; const C: bigint[][][] = [];
  const wa: number[] = []; const wb: number[] = []; const wc: number[] = [];
  const rows = rowsOf(c);
  for (let w = 0; w < warps; w++) {
    const a = randomMatrix(r, rows.m, c.k, c.a, 'input');
    const b = randomMatrix(r, rows.k, c.n, c.b, 'input');
    const cc = randomMatrix(r, rows.m, c.n, c.c, 'acc');
    A.push(a); B.push(b); C.push(cc);
    wa.push(...pack(a, c.aAt, c.aCount, c.a));
    wb.push(...pack(b, c.bAt, c.bCount, c.b));
    wc.push(...pack(cc, c.cAt, c.cCount, c.c));
  }
  return { A, B, C, words: [Uint32Array.from(wa), Uint32Array.from(wb), Uint32Array.from(wc)] };
}

/** 32-bit words per lane of a fragment. */
export const wordsPerLane = (count: number, t: ElemType): number => Math.ceil((count * elementBits(t)) / 32);

/**
 * D = A * B + C over s8 with B given by its columns (Bt, N x K), each step wrapping in 32 bits as
 * the integer GEMM kernels' sums do; D as words.
 */
export function gemmS8Reference(A: Int8Array, Bt: Int8Array, C: Int32Array, M: number, N: number, K: number): Uint32Array {
  const D = new Int32Array(M * N);
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let s = C[i * N + j] as number;
      for (let k = 0; k < K; k++) s = (s + (A[i * K + k] as number) * (Bt[j * K + k] as number)) | 0;
      D[i * N + j] = s;
    }
  }
  return new Uint32Array(D.buffer);
}
