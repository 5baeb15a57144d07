/**
 * Deterministic corpus inputs, element by element from a counter-based 32-bit hash, so that
 * record_native.py (numpy, vectorised) makes the same bytes. Keep the two in step: the manifest
 * stores a SHA-256 of every generated input, and corpus.test.ts compares.
 *
 *   seed(case, buffer) = FNV-1a 32 of the UTF-8 text `${case}/${buffer}`
 *   hash(seed, i)      = x = i * 0x9E3779B9 + seed (mod 2^32); x ^= x >>> 15; x *= 0x2C1B3C6D;
 *                        x ^= x >>> 12; x *= 0x297A2D39; x ^= x >>> 15        (a bijection of i)
 *
 * Generators (h = hash(seed, i)):
 *   unif {lo, hi, bits=24}: lo + (hi - lo) * (h >>> (32 - bits)) / 2^bits, in f64, then rounded to
 *                           the buffer type (f16 through f32, as numpy's astype chain does)
 *   int {lo, hi}:           lo + h % (hi - lo + 1)
 *   bool {p}:               1 if h < p * 2^32 else 0
 *   fill {value}, iota {start, step}, poison (floats: a NaN, integers: 0xCD bytes)
 *   csr_rowptr {rows, nnz}: row i has h % (2 * floor(nnz / rows) + 1) entries, the running total
 *                           clipped to nnz, and the last offset is nnz
 *   perm:                   the indices 0..n-1 sorted by h
 *   `set: [[index, value], ...]` overrides single elements afterwards.
 * Host-agnostic: no Node, Deno or DOM imports.
 */
import type { BufferSpec, Generator, ScalarType } from './table.ts';

export type NumArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

export function fnv1a32(text: string): number {
  const bytes = new TextEncoder().encode(text);
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

export function hash32(seed: number, i: number): number {
  let x = (Math.imul(i, 0x9e3779b9) + seed) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x2c1b3c6d) >>> 0;
  x ^= x >>> 12;
  x = Math.imul(x, 0x297a2d39) >>> 0;
  x ^= x >>> 15;
  return x >>> 0;
}

/** A zeroed array of `n` elements of `type` (f16 as its bits in a Uint16Array). */
export function allocate(type: ScalarType, n: number): NumArray {
  switch (type) {
    case 'f16': return new Uint16Array(n);
    case 'f32': return new Float32Array(n);
    case 'f64': return new Float64Array(n);
    case 'i8': return new Int8Array(n);
    case 'u8': return new Uint8Array(n);
    case 'i16': return new Int16Array(n);
    case 'u16': return new Uint16Array(n);
    case 'i32': return new Int32Array(n);
    case 'u32': return new Uint32Array(n);
    case 'i64': return new BigInt64Array(n);
    case 'u64': return new BigUint64Array(n);
  }
}

export function isFloat(type: ScalarType): boolean {
  return type === 'f16' || type === 'f32' || type === 'f64';
}

export function poisonFill(type: ScalarType, arr: NumArray): void {
  const bytes = new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
  bytes.fill(0xcd);
  if (type === 'f16') (arr as Uint16Array).fill(0xffcd);
  if (type === 'f32') new Uint32Array(arr.buffer, arr.byteOffset, arr.length).fill(0xffcdcdcd);
  if (type === 'f64') new BigUint64Array(arr.buffer, arr.byteOffset, arr.length).fill(0xfffdcdcdcdcdcdcdn);
}

// ---------------------------------------------------------------- half

const f32buf = new Float32Array(1);
const u32buf = new Uint32Array(f32buf.buffer);

/** binary16 bits of an f32 value, round to nearest even (numpy's float32 -> float16). */
export function halfBits(value: number): number {
  f32buf[0] = value;
  const x = u32buf[0] as number;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  const mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 112; // rebias 127 -> 15
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    return sign | roundShift(mant | 0x800000, 14 - e);
  }
  return sign | ((e << 10) + roundShift(mant, 13));
}

function roundShift(m: number, shift: number): number {
  const q = Math.floor(m / 2 ** shift);
  const rem = m - q * 2 ** shift;
  const half = 2 ** (shift - 1);
  return rem > half || (rem === half && q % 2 === 1) ? q + 1 : q;
}

export function halfValue(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

// ---------------------------------------------------------------- generators

function store(arr: NumArray, type: ScalarType, i: number, v: number): void {
  if (type === 'f16') (arr as Uint16Array)[i] = halfBits(Math.fround(v));
  else if (type === 'i64' || type === 'u64') (arr as BigInt64Array)[i] = BigInt(v);
  else (arr as Float64Array)[i] = v;
}

function values(g: Exclude<Generator, 'poison' | { gen: 'poison' }>, seed: number, n: number): number[] {
  const out = new Array<number>(n);
  switch (g.gen) {
    case 'fill':
      out.fill(g.value);
      break;
    case 'iota':
      for (let i = 0; i < n; i++) out[i] = (g.start ?? 0) + i * (g.step ?? 1);
      break;
    case 'unif': {
      const bits = g.bits ?? 24;
      for (let i = 0; i < n; i++) out[i] = g.lo + ((g.hi - g.lo) * (hash32(seed, i) >>> (32 - bits))) / 2 ** bits;
      break;
    }
    case 'int': {
      const span = g.hi - g.lo + 1;
      for (let i = 0; i < n; i++) out[i] = g.lo + (hash32(seed, i) % span);
      break;
    }
    case 'bool': {
      const cut = g.p * 2 ** 32;
      for (let i = 0; i < n; i++) out[i] = hash32(seed, i) < cut ? 1 : 0;
      break;
    }
    case 'csr_rowptr': {
      if (n !== g.rows + 1) throw new Error(`csr_rowptr needs n = rows + 1`);
      const span = 2 * Math.floor(g.nnz / g.rows) + 1;
      out[0] = 0;
      for (let i = 0; i < g.rows; i++) out[i + 1] = Math.min(g.nnz, (out[i] as number) + (hash32(seed, i) % span));
      out[g.rows] = g.nnz;
      break;
    }
    case 'perm': {
      const keys = Array.from({ length: n }, (_, i) => hash32(seed, i));
      const idx = Array.from({ length: n }, (_, i) => i);
      idx.sort((a, b) => (keys[a] as number) - (keys[b] as number));
      for (let i = 0; i < n; i++) out[i] = idx[i] as number;
      break;
    }
  }
  if ('set' in g && g.set) for (const [i, v] of g.set) out[i] = v;
  return out;
}

/** The initial contents of a buffer (or symbol) of case `caseName`. */
export function makeBuffer(caseName: string, spec: BufferSpec): NumArray {
  const arr = allocate(spec.type, spec.n);
  if (spec.init === 'poison' || spec.init.gen === 'poison') {
    poisonFill(spec.type, arr);
    return arr;
  }
  const vals = values(spec.init, fnv1a32(`${caseName}/${spec.name}`), spec.n);
  for (let i = 0; i < spec.n; i++) store(arr, spec.type, i, vals[i] as number);
  return arr;
}

/** Element i as a JS number (f16 decoded; 64-bit integers as Number). */
export function elementValue(type: ScalarType, arr: NumArray, i: number): number {
  const v = arr[i] as number | bigint;
  if (type === 'f16') return halfValue(v as number);
  return typeof v === 'bigint' ? Number(v) : v;
}

export function bytesOf(arr: NumArray): Uint8Array {
  return new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
}

/** An array of `type` viewing a copy of `bytes` (little-endian, as every host here is). */
export function fromBytes(type: ScalarType, bytes: Uint8Array): NumArray {
  const size = byteSize(type);
  const arr = allocate(type, bytes.byteLength / size);
  bytesOf(arr).set(bytes);
  return arr;
}

export function byteSize(type: ScalarType): number {
  return { f16: 2, f32: 4, f64: 8, i8: 1, u8: 1, i16: 2, u16: 2, i32: 4, u32: 4, i64: 8, u64: 8 }[type];
}

/** binary16 bits of the double `v` rounded once, in mode rn (nearest even), rz, rd or ru. */
export function roundHalf(v: number, mode: 'rn' | 'rz' | 'rd' | 'ru' = 'rn'): number {
  if (Number.isNaN(v)) return 0x7e00;
  const neg = v < 0 || Object.is(v, -0);
  const a = Math.abs(v);
  const sign = neg ? 0x8000 : 0;
  const away = mode === 'ru' ? !neg : mode === 'rd' ? neg : false;
  if (a === Infinity) return sign | 0x7c00;
  let e = a === 0 ? -24 : Math.floor(Math.log2(a));
  if (a !== 0 && 2 ** e > a) e--;
  if (a !== 0 && 2 ** (e + 1) <= a) e++;
  const q = 2 ** (Math.max(e, -14) - 10);
  const m = a / q;
  let r = Math.floor(m);
  const frac = m - r;
  if (mode === 'rn') {
    if (frac > 0.5 || (frac === 0.5 && r % 2 === 1)) r++;
  } else if (away && frac > 0) r++;
  const mag = r * q;
  if (mag > 65504) return sign | (mode === 'rn' || away ? 0x7c00 : 0x7bff);
  return sign | halfBits(mag);
}
