// Helpers for the end-to-end cases: a seeded PRNG, f32 helpers (including a
// correctly rounded f32 fma), poison patterns and array comparison.
// Host-agnostic: no Node, Deno or DOM imports.

/** mulberry32: a tiny seeded 32-bit PRNG. */
/**
 * 'none', or the first differing word in hex: one readable line in a failed expect instead of a
 * dump of two whole buffers (vitest's diff of two large arrays also takes minutes).
 */
export function firstDifference(got: Uint32Array, want: Uint32Array): string {
  const i = want.findIndex((w, e) => got[e] !== w);
  return i < 0 && got.length === want.length ? 'none' : i < 0 ? `length ${got.length}, want ${want.length}` : `word ${i}: got ${(got[i] ?? 0).toString(16)}, want ${(want[i] ?? 0).toString(16)}`;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** FNV-1a hash of a string, used to derive a per-case seed from the case name. */
export function seedFromString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Rng {
  private readonly next: () => number;
  constructor(seed: number | string) {
    this.next = mulberry32(typeof seed === 'string' ? seedFromString(seed) : seed);
  }
  /** Uniform uint32. */
  u32(): number {
    return this.next();
  }
  /** Uniform int32 (full range). */
  i32(): number {
    return this.next() | 0;
  }
  /** Uniform float in [0, 1). */
  unit(): number {
    return this.next() / 4294967296;
  }
  /** Uniform integer in [lo, hi] (inclusive), hi - lo < 2^32. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.unit() * (hi - lo + 1));
  }
  /** An f32 value uniform in [lo, hi) with a full random mantissa (rounded to f32). */
  f32(lo: number, hi: number): number {
    return Math.fround(lo + (this.unit() + this.next() / 2 ** 64) * (hi - lo));
  }
  /** Uniform signed 64-bit integer as a bigint. */
  i64(): bigint {
    return BigInt.asIntN(64, (BigInt(this.next()) << 32n) | BigInt(this.next()));
  }
  /** Random bigint in (-2^bits, 2^bits). */
  sbits(bits: number): bigint {
    const v = BigInt.asUintN(bits, (BigInt(this.next()) << 32n) | BigInt(this.next()));
    return this.next() & 1 ? -v : v;
  }
  /** A random finite, normal (or zero) f32 bit pattern of either sign. */
  normalF32Bits(): number {
    const sign = this.next() & 0x80000000;
    const exp = this.int(1, 254); // no zero/subnormal, no Inf/NaN
    const mant = this.next() & 0x7fffff;
    return (sign | (exp << 23) | mant) >>> 0;
  }
}

// ---------------------------------------------------------------- f32 helpers

const f64Buf = new Float64Array(1);
const f64Bits = new BigUint64Array(f64Buf.buffer);

/**
 * Correctly rounded f32 fused multiply-add (round to nearest even), as PTX
 * `fma.rn.f32` computes it, for finite inputs whose exact a*b fits the f64
 * exponent range (no over/underflow; true for the values used in the cases).
 *
 * a*b of two f32 values is exact in f64 (48 significant bits). The sum with c is
 * computed in f64 together with its exact rounding error (TwoSum); the f64 sum is
 * then replaced by the round-to-odd value of the exact sum, and rounding that to
 * f32 is correctly rounded because f64 carries more than 24 + 2 bits (rounding
 * the plain f64 sum to f32 could double-round).
 */
export function fmaf32(a: number, b: number, c: number): number {
  const p = a * b; // exact
  const s = p + c;
  if (!Number.isFinite(s)) return Math.fround(s);
  const bb = s - p;
  const err = p - (s - bb) + (c - bb);
  if (err === 0) return Math.fround(s);
  f64Buf[0] = s;
  let bits = f64Bits[0] as bigint;
  if ((bits & 1n) === 0n) {
    // Move to the odd neighbour on the side of the exact value.
    bits += err > 0 === s > 0 ? 1n : -1n;
    f64Bits[0] = bits;
  }
  return Math.fround(f64Buf[0] as number);
}

const f32Buf = new Float32Array(1);
const u32View = new Uint32Array(f32Buf.buffer);

export function f32ToBits(x: number): number {
  f32Buf[0] = x;
  return u32View[0] as number;
}

export function bitsToF32(b: number): number {
  u32View[0] = b >>> 0;
  return f32Buf[0] as number;
}

// ------------------------------------------------------------------- poison

export const POISON_U32 = 0xdeadbeef;
export const POISON_U16 = 0xbeef;
export const POISON_U8 = 0xef;
export const POISON_U64 = 0xdeadbeefdeadbeefn;

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

/** Fills an array with a poison bit pattern appropriate to its element size. */
export function poison<T extends NumArray>(arr: T): T {
  if (arr instanceof BigInt64Array || arr instanceof BigUint64Array) {
    new BigUint64Array(arr.buffer, arr.byteOffset, arr.length).fill(POISON_U64);
  } else if (arr.BYTES_PER_ELEMENT === 4) {
    new Uint32Array(arr.buffer, arr.byteOffset, arr.length).fill(POISON_U32);
  } else if (arr.BYTES_PER_ELEMENT === 2) {
    new Uint16Array(arr.buffer, arr.byteOffset, arr.length).fill(POISON_U16);
  } else {
    new Uint8Array(arr.buffer, arr.byteOffset, arr.length).fill(POISON_U8);
  }
  return arr;
}

export function isNumArray(x: unknown): x is NumArray {
  return ArrayBuffer.isView(x) && !(x instanceof DataView);
}

export function cloneArray<T extends NumArray>(arr: T): T {
  return arr.slice() as T;
}

// --------------------------------------------------------------- comparison

function formatElem(arr: NumArray, i: number): string {
  const v = arr[i];
  if (arr instanceof Float32Array) {
    return `${String(v)} (0x${f32ToBits(v as number).toString(16).padStart(8, '0')})`;
  }
  if (typeof v === 'bigint') {
    return `${v.toString()} (0x${BigInt.asUintN(64, v).toString(16).padStart(16, '0')})`;
  }
  const n = v as number;
  const width = arr.BYTES_PER_ELEMENT * 2;
  const mask = arr.BYTES_PER_ELEMENT === 4 ? n >>> 0 : n & ((1 << (8 * arr.BYTES_PER_ELEMENT)) - 1);
  return `${n} (0x${mask.toString(16).padStart(width, '0')})`;
}

function sameElem(got: NumArray, exp: NumArray, i: number): boolean {
  if (got instanceof Float32Array && exp instanceof Float32Array) {
    return f32ToBits(got[i] as number) === f32ToBits(exp[i] as number);
  }
  return got[i] === exp[i];
}

/**
 * Compares one array exactly (floats bitwise). Returns null when equal, else a
 * message with the number of mismatches and the first one (index, got, expected).
 * `label` names the parameter; `where` optionally describes an index (e.g. a 2D position).
 */
export function compareArray(
  label: string,
  got: unknown,
  exp: NumArray,
  where?: (i: number) => string,
): string | null {
  if (!isNumArray(got)) return `${label}: expected a ${exp.constructor.name}, got ${typeof got}`;
  if (got.constructor !== exp.constructor) {
    return `${label}: expected a ${exp.constructor.name}, got a ${got.constructor.name}`;
  }
  if (got.length !== exp.length) return `${label}: length ${got.length}, expected ${exp.length}`;
  let count = 0;
  let first = -1;
  for (let i = 0; i < exp.length; i++) {
    if (!sameElem(got, exp, i)) {
      if (first < 0) first = i;
      count++;
    }
  }
  if (count === 0) return null;
  const pos = where ? `[${first}] (${where(first)})` : `[${first}]`;
  return (
    `${label}: ${count} mismatch${count === 1 ? '' : 'es'} of ${exp.length}; first at ${pos}: ` +
    `got ${formatElem(got, first)}, expected ${formatElem(exp, first)}`
  );
}
