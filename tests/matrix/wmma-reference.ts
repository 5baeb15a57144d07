// The independent side of the wmma tests: NVIDIA's recorded layouts read straight from
// kernels/wmma_layout.json (not through src/), the random inputs of record_wmma_layout.py
// rebuilt bit for bit, and D = A*B + C from whole matrices with exact bit-level arithmetic
// (tests/conformance/ref), in the order src/translate/wmma-mma.ts states: f16/bf16/tf32
// products exact in f32 added to C in increasing k, each sum rounded to nearest even (tf32: low
// 13 bits ignored; .f16 C widened, .f16 D rounded once); f64 a chain of fma.rn in increasing k;
// integers exact, C added modulo 2^32 or clamped with .satfinite; b1 popc of AND/XOR.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BF16, F16, F32, add, convert, mul } from '../conformance/ref/float.js';
import { fma as fma64 } from '../conformance/ref/f64.js';
import { KERNELS } from './harness.js';
import { Random } from './reference.js';

export type WmmaType = 'f16' | 'bf16' | 'tf32' | 'f32' | 's32' | 'f64' | 's8' | 'u8' | 's4' | 'u4' | 'b1';
export const BITS: Readonly<Record<WmmaType, number>> = { f16: 16, bf16: 16, tf32: 32, f32: 32, s32: 32, f64: 64, s8: 8, u8: 8, s4: 4, u4: 4, b1: 1 };
export const SHAPES: Readonly<Record<string, readonly [number, number, number]>> = {
  m16n16k16: [16, 16, 16], m32n8k16: [32, 8, 16], m8n32k16: [8, 32, 16], m16n16k8: [16, 16, 8],
  m8n8k4: [8, 8, 4], m8n8k32: [8, 8, 32], m8n8k128: [8, 8, 128],
};

export interface Recorded { rows: number; cols: number; regs: number; per: number; at: number[][] }
export const LAYOUTS: { device: string; fragments: Record<string, Recorded> } = JSON.parse(readFileSync(join(KERNELS, 'wmma_layout.json'), 'utf8'));
export const NATIVE: {
  device: string;
  mma: Record<string, { seed: number; problems: number; d: string }>;
  gemm: Record<string, { m: number; n: number; k: number; alpha: number; beta: number; seed: number; d: string }>;
} = JSON.parse(readFileSync(join(KERNELS, 'wmma_native.json'), 'utf8'));

// ---------------------------------------------------------------- memory

/** Elements (bits) in memory order -> bytes; sub-byte elements low bits first. */
export function packMemory(t: WmmaType, elems: readonly bigint[]): Uint8Array {
  const bits = BITS[t];
  const out = new Uint8Array(Math.ceil((elems.length * bits) / 8 / 4) * 4);
  elems.forEach((v, e) => {
    for (let b = 0; b < bits; b += 8) {
      const at = (e * bits) / 8 + b / 8;
      if (bits < 8) out[Math.floor(at)] = (out[Math.floor(at)] as number) | Number(v << BigInt((e * bits) % 8));
      else out[at] = Number((v >> BigInt(b)) & 0xffn);
    }
  });
  return out;
}

export function unpackMemory(t: WmmaType, bytes: Uint8Array, count: number): bigint[] {
  const bits = BITS[t];
  return Array.from({ length: count }, (_, e) => {
    let v = 0n;
    if (bits < 8) return BigInt(((bytes[Math.floor((e * bits) / 8)] as number) >> ((e * bits) % 8)) & ((1 << bits) - 1));
    for (let b = 0; b < bits; b += 8) v |= BigInt(bytes[(e * bits) / 8 + b / 8] as number) << BigInt(b);
    return v;
  });
}

/** The row or column length rounded up to 16 bytes (record_wmma_layout.py `leading`). */
export function leading(t: WmmaType, order: 'row' | 'col', rows: number, cols: number): number {
  const unit = 128 / BITS[t];
  return Math.ceil((order === 'row' ? cols : rows) / unit) * unit;
}

export const address = (order: 'row' | 'col', ld: number, r: number, c: number): number => (order === 'row' ? r * ld + c : c * ld + r);

// ---------------------------------------------------------------- random inputs (record_wmma_layout.py element_bits)

export function randomElement(t: WmmaType, rng: Random): bigint {
  const x = rng.next();
  const s = BigInt(x >>> 31);
  const e6 = BigInt(((x >>> 24) & 0x7f) % 6);
  const X = BigInt(x);
  switch (t) {
    case 'f16': return (s << 15n) | ((12n + e6) << 10n) | (X & 0x3ffn);
    case 'bf16': return (s << 15n) | ((124n + e6) << 7n) | (X & 0x7fn);
    case 'tf32': case 'f32': return (s << 31n) | ((124n + e6) << 23n) | (X & 0x7fffffn);
    case 'f64': {
      const lo = BigInt(rng.next());
      return (((s << 31n) | ((1020n + e6) << 20n) | (X & 0xfffffn)) << 32n) | lo;
    }
    case 's8': case 'u8': return X & 0xffn;
    case 's32': {
      const k = x & 3;
      if (k === 0) return BigInt(0x7fffffff - ((x >>> 8) & 0xfffff));
      if (k === 1) return BigInt(0x80000000 + ((x >>> 8) & 0xfffff));
      return X;
    }
    default: return X; // a 32-bit word of packed sub-byte elements
  }
}

/** `count` elements of t in memory order (sub-byte: drawn as whole words, as the recorder does). */
export function randomElements(t: WmmaType, count: number, rng: Random): bigint[] {
  const bits = BITS[t];
  if (bits >= 8) return Array.from({ length: count }, () => randomElement(t, rng));
  const words = Array.from({ length: (count * bits) / 32 }, () => randomElement(t, rng));
  return unpackMemory(t, packMemory('s32', words), count);
}

export function seedOf(name: string): number {
  let h = 0x811c9dc5;
  for (const ch of new TextEncoder().encode(name)) h = Math.imul(h ^ ch, 0x01000193) >>> 0;
  return h;
}

// ---------------------------------------------------------------- D = A*B + C

export interface MmaSpec {
  readonly m: number; readonly n: number; readonly k: number;
  readonly input: WmmaType; readonly c: WmmaType; readonly d: WmmaType;
  readonly satfinite: boolean; readonly bitOp: 'and' | 'xor' | null;
}

const toF32 = (t: WmmaType, v: bigint): bigint => (t === 'f16' ? convert(F16, F32, v, 'rn') : t === 'bf16' ? convert(BF16, F32, v, 'rn') : t === 'tf32' ? v & 0xffffe000n : v);
const int = (t: WmmaType, v: bigint): bigint => {
  if (t === 's8') return BigInt.asIntN(8, v);
  if (t === 's4') return BigInt.asIntN(4, v);
  return t === 's32' ? BigInt.asIntN(32, v) : v;
};

/** D[i][j] from A[i][k], B[k][j] (accessors) and C[i][j]. */
export function referenceD(s: MmaSpec, A: (i: number, k: number) => bigint, B: (k: number, j: number) => bigint, C: (i: number, j: number) => bigint): bigint[][] {
  return Array.from({ length: s.m }, (_, i) => Array.from({ length: s.n }, (_, j) => {
    const c = C(i, j);
    if (s.c === 's32') {
      let dot = 0n;
      for (let k = 0; k < s.k; k++) {
        if (s.input === 'b1') dot += s.bitOp === 'xor' ? A(i, k) ^ B(k, j) : A(i, k) & B(k, j);
        else dot += int(s.input, A(i, k)) * int(s.input, B(k, j));
      }
      const sum = int('s32', c) + dot;
      const clamped = s.satfinite ? (sum > 0x7fffffffn ? 0x7fffffffn : sum < -0x80000000n ? -0x80000000n : sum) : sum;
      return BigInt.asUintN(32, clamped);
    }
    if (s.c === 'f64') {
      let acc = c;
      for (let k = 0; k < s.k; k++) acc = fma64(A(i, k), B(k, j), acc, 'rn');
      return acc;
    }
    let acc = s.c === 'f16' ? convert(F16, F32, c, 'rn') : c;
    for (let k = 0; k < s.k; k++) acc = add(F32, acc, mul(F32, toF32(s.input, A(i, k)), toF32(s.input, B(k, j)), 'rn'), 'rn');
    return s.d === 'f16' ? convert(F32, F16, acc, 'rn') : acc;
  }));
}

// ---------------------------------------------------------------- the mma_* kernels of wmma_layout.cu

export interface MmaKernel { readonly name: string; readonly shape: string; readonly spec: MmaSpec }

/** mma_<shape>_<d>_<a>_<c>[_<op>][_satfinite], as wmma_layout.cu names them. */
export function mmaKernel(name: string): MmaKernel {
  const [, shape, d, input, c, ...rest] = name.split('_') as [string, string, WmmaType, WmmaType, WmmaType, ...string[]];
  const [m, n, k] = SHAPES[shape] as [number, number, number];
  const bitOp = rest.includes('xor') ? 'xor' : rest.includes('and') ? 'and' : null;
  return { name, shape, spec: { m, n, k, input, c, d, satfinite: rest.includes('satfinite'), bitOp } };
}

/** The inputs of record_wmma_layout.py mma_inputs: per problem A (row-major), B (col-major), C. */
export function mmaInputs(mk: MmaKernel, seed: number, problems: number): { A: bigint[][]; B: bigint[][]; C: bigint[][]; bytes: [Uint8Array, Uint8Array, Uint8Array] } {
  const { m, n, k, input, c } = mk.spec;
  const rng = new Random(seed);
  const A: bigint[][] = []; const B: bigint[][] = []; const C: bigint[][] = [];
  for (let p = 0; p < problems; p++) {
    A.push(randomElements(input, m * k, rng));
    B.push(randomElements(input, k * n, rng));
    C.push(randomElements(c, m * n, rng));
  }
  const cat = (t: WmmaType, xs: bigint[][]): Uint8Array => packMemory(t, xs.flat());
  return { A, B, C, bytes: [cat(input, A), cat(input, B), cat(c, C)] };
}

/** The reference D of every problem, row-major, flattened. */
export function expectedMma(mk: MmaKernel, A: bigint[][], B: bigint[][], C: bigint[][]): bigint[] {
  const { k, n } = mk.spec;
  return A.flatMap((a, p) => referenceD(mk.spec, (i, kk) => a[i * k + kk] as bigint, (kk, j) => (B[p] as bigint[])[j * k + kk] as bigint, (i, j) => (C[p] as bigint[])[i * n + j] as bigint).flat());
}

/** The number a result's bits hold. */
export function asNumber(t: WmmaType, v: bigint): number {
  const buf = new DataView(new ArrayBuffer(8));
  if (t === 'f64') { buf.setBigUint64(0, v, true); return buf.getFloat64(0, true); }
  if (t === 'f16' || t === 'bf16') return f32Of(toF32(t, v));
  return f32Of(v & 0xffffffffn);
}

function f32Of(v: bigint): number {
  const buf = new DataView(new ArrayBuffer(4));
  buf.setUint32(0, Number(v), true);
  return buf.getFloat32(0, true);
}
