/**
 * JS reference for PTX `.f64` instructions, written from the ISA text and IEEE 754, on bit
 * patterns (bigint). Exact arithmetic in BigInt: every finite double is N * 2^E, so fma, the
 * directed roundings, division and square root are an exact integer result plus one rounding
 * (`round`). Round-to-nearest add/mul/div/sqrt are cross-checked against JS's own doubles.
 *
 * NaNs, as an H100 produces them (native/f64-*): an operation with NaN operands returns one
 * of them, quieted, sign and payload kept (fma: b, then c, then a; add/sub/mul: b, then a;
 * div: a, then b; min/max of two NaNs: b); an invalid operation returns CANONICAL_NAN
 * 0xfff8000000000000; neg and abs of a NaN only quiet it.
 */

export type Mode = 'rn' | 'rz' | 'rm' | 'rp';

export const CANONICAL_NAN = 0xfff8000000000000n;
const SIGN = 1n << 63n;
const EXP = 0x7ff0000000000000n;
const FRAC = (1n << 52n) - 1n;
export const INF = EXP;
const MAX = EXP - 1n;
const ONE = 0x3ff0000000000000n;

export const isNaN64 = (a: bigint): boolean => (a & ~SIGN) > EXP;
export const isInf64 = (a: bigint): boolean => (a & ~SIGN) === EXP;
const signOf = (a: bigint): 0n | 1n => ((a >> 63n) & 1n ? 1n : 0n);
const isZero = (a: bigint): boolean => (a & ~SIGN) === 0n;
const quiet = (a: bigint): bigint => a | (1n << 51n);

/** The first NaN of the operands, quieted. */
function nanIn(...xs: bigint[]): bigint {
  for (const x of xs) if (isNaN64(x)) return quiet(x);
  throw new Error('nanIn without NaN');
}

/** A finite double as |value| = n * 2^e. */
function decode(a: bigint): { n: bigint; e: number } {
  const ef = Number((a >> 52n) & 0x7ffn);
  const f = a & FRAC;
  return ef === 0 ? { n: f, e: -1074 } : { n: f | (1n << 52n), e: ef - 1075 };
}

const bitLength = (n: bigint): number => n.toString(2).length;

/**
 * Rounds (-1)^s * (n + frac) * 2^e to binary64 bits, where `sticky` says the exact value has a
 * nonzero fraction below n's last bit (0 <= frac < 1).
 */
export function round(s: 0n | 1n, n: bigint, e: number, sticky: boolean, mode: Mode): bigint {
  const sb = s << 63n;
  if (n === 0n && !sticky) return sb;
  const lead = n === 0n ? e - 1 : e + bitLength(n) - 1;
  const u = Math.max(lead - 52, -1074);
  let q: bigint;
  let half = false; let above = false; let inexact = sticky;
  if (u > e) {
    const sh = BigInt(u - e);
    q = n >> sh;
    const rem = n & ((1n << sh) - 1n);
    const h = 1n << (sh - 1n);
    half = rem === h && !sticky;
    above = rem > h || (rem === h && sticky);
    inexact = rem !== 0n || sticky;
  } else {
    q = n << BigInt(e - u);
    // n >= 1 here unless only the sticky is set, which the callers never produce with u <= e
  }
  const up = mode === 'rn' ? above || (half && (q & 1n) === 1n)
    : mode === 'rz' ? false
    : mode === 'rm' ? inexact && s === 1n
    : inexact && s === 0n;
  if (up) q += 1n;
  let uu = u;
  if (q === 1n << 53n) { q >>= 1n; uu += 1; }
  const toMax = mode === 'rz' || (mode === 'rm' && s === 0n) || (mode === 'rp' && s === 1n);
  if (q >= 1n << 52n) {
    const biased = BigInt(uu + 52 + 1023);
    if (biased >= 2047n) return sb | (toMax ? MAX : INF);
    return sb | (biased << 52n) | (q & FRAC);
  }
  return sb | q;
}

const zeroSum = (sa: 0n | 1n, sb: 0n | 1n, mode: Mode): bigint => (sa === sb ? sa << 63n : mode === 'rm' ? SIGN : 0n);

export function fma(a: bigint, b: bigint, c: bigint, mode: Mode): bigint {
  if (isNaN64(a) || isNaN64(b) || isNaN64(c)) return nanIn(b, c, a);
  const sp = signOf(a) ^ signOf(b) ? 1n : 0n;
  const sc = signOf(c);
  const pInf = isInf64(a) || isInf64(b);
  const pZero = isZero(a) || isZero(b);
  if (pInf && (pZero || (isInf64(c) && sc !== sp))) return CANONICAL_NAN;
  if (pInf) return (sp << 63n) | INF;
  if (isInf64(c)) return c;
  if (pZero) return isZero(c) ? zeroSum(sp, sc, mode) : c;
  const da = decode(a); const db = decode(b); const dc = decode(c);
  const pn = da.n * db.n; const pe = da.e + db.e;
  const e = Math.min(pe, dc.e);
  const p = (sp ? -pn : pn) << BigInt(pe - e);
  const cc = (sc ? -dc.n : dc.n) << BigInt(dc.e - e);
  const sum = p + cc;
  if (sum === 0n) return mode === 'rm' ? SIGN : 0n;
  return round(sum < 0n ? 1n : 0n, sum < 0n ? -sum : sum, e, false, mode);
}

export const add = (a: bigint, b: bigint, mode: Mode): bigint => fma(a, ONE, b, mode);
export const sub = (a: bigint, b: bigint, mode: Mode): bigint => fma(a, ONE, isNaN64(b) ? b : b ^ SIGN, mode);
export const mul = (a: bigint, b: bigint, mode: Mode): bigint => {
  if (isNaN64(a) || isNaN64(b)) return nanIn(b, a);
  return fma(a, b, mode === 'rm' ? 0n : SIGN, mode);
};

export function div(a: bigint, b: bigint, mode: Mode): bigint {
  if (isNaN64(a) || isNaN64(b)) return nanIn(a, b);
  const s = signOf(a) ^ signOf(b) ? 1n : 0n;
  if ((isInf64(a) && isInf64(b)) || (isZero(a) && isZero(b))) return CANONICAL_NAN;
  if (isInf64(a) || isZero(b)) return (s << 63n) | INF;
  if (isInf64(b) || isZero(a)) return s << 63n;
  const da = decode(a); const db = decode(b);
  const k = 200; // quotient bits far beyond the 53 kept
  const num = da.n << BigInt(k);
  return round(s, num / db.n, da.e - db.e - k, num % db.n !== 0n, mode);
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(bitLength(n) / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

export function sqrt(a: bigint, mode: Mode): bigint {
  if (isNaN64(a)) return nanIn(a);
  if (isZero(a)) return a;
  if (signOf(a)) return CANONICAL_NAN;
  if (isInf64(a)) return a;
  const d = decode(a);
  let n = d.n; let e = d.e;
  if (e & 1) { n <<= 1n; e -= 1; }
  n <<= 240n; e -= 240;
  const r = isqrt(n);
  return round(0n, r, e / 2, r * r !== n, mode);
}

export function minmax(a: bigint, b: bigint, isMax: boolean): bigint {
  if (isNaN64(a) && isNaN64(b)) return quiet(b);
  if (isNaN64(a)) return b;
  if (isNaN64(b)) return a;
  const c = compare(a, b);
  if (c === 1) return isMax ? a & b : a | b;
  return (c === 2) !== isMax ? b : a;
}

/** 0: a < b, 1: equal, 2: a > b, 3: unordered. */
export function compare(a: bigint, b: bigint): 0 | 1 | 2 | 3 {
  if (isNaN64(a) || isNaN64(b)) return 3;
  const x = toNumber(a); const y = toNumber(b);
  return x < y ? 0 : x === y ? 1 : 2;
}

export const COMPARES = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu', 'num', 'nan'] as const;
export function setp(cond: (typeof COMPARES)[number], a: bigint, b: bigint): boolean {
  const c = compare(a, b);
  const un = c === 3;
  switch (cond) {
    case 'eq': return c === 1;
    case 'ne': return c === 0 || c === 2;
    case 'lt': return c === 0;
    case 'le': return c === 0 || c === 1;
    case 'gt': return c === 2;
    case 'ge': return c === 2 || c === 1;
    case 'equ': return un || c === 1;
    case 'neu': return c !== 1;
    case 'ltu': return un || c === 0;
    case 'leu': return un || c === 0 || c === 1;
    case 'gtu': return un || c === 2;
    case 'geu': return un || c === 2 || c === 1;
    case 'num': return !un;
    case 'nan': return un;
  }
}

const buf = new DataView(new ArrayBuffer(8));
export function toNumber(a: bigint): number { buf.setBigUint64(0, a); return buf.getFloat64(0); }
export function fromNumber(x: number): bigint { buf.setFloat64(0, x); return buf.getBigUint64(0); }
export function f32ToNumber(a: bigint): number { buf.setUint32(0, Number(a)); return buf.getFloat32(0); }

// ---------------------------------------------------------------- conversions

/** cvt.f64.f32: exact; NaNs keep their payload, quieted. `ftz` flushes subnormal inputs and makes every NaN 0x7fffffffe0000000. */
export function fromF32(x: bigint, ftz: boolean): bigint {
  if (ftz && (x & 0x7fffffffn) > 0x7f800000n) return 0x7fffffffe0000000n;
  const s = (x >> 31n) & 1n;
  const e = Number((x >> 23n) & 0xffn);
  const f = x & 0x7fffffn;
  if (e === 255) return (s << 63n) | EXP | (f << 29n) | (f ? 1n << 51n : 0n);
  if (e === 0 && (ftz || f === 0n)) return s << 63n;
  return fromNumber(f32ToNumber(x));
}

/** cvt.{rn,rz,rm,rp}{.ftz}{.sat}.f32.f64 as f32 bits. */
export function toF32(a: bigint, mode: Mode, ftz: boolean, sat: boolean): bigint {
  let r: bigint;
  const s = signOf(a);
  if (isNaN64(a)) r = (s << 31n) | 0x7fc00000n | ((a & FRAC) >> 29n);
  else if (isInf64(a)) r = (s << 31n) | 0x7f800000n;
  else if (isZero(a)) r = s << 31n;
  else {
    const d = decode(a);
    // round to 24 bits with f32's exponent range by scaling into binary64's subnormal range
    const lead = d.e + bitLength(d.n) - 1;
    const u = Math.max(lead - 23, -149);
    let q: bigint; let inexact = false; let half = false; let above = false;
    if (u > d.e) {
      const sh = BigInt(u - d.e);
      q = d.n >> sh;
      const rem = d.n & ((1n << sh) - 1n);
      const h = 1n << (sh - 1n);
      half = rem === h; above = rem > h; inexact = rem !== 0n;
    } else q = d.n << BigInt(d.e - u);
    const up = mode === 'rn' ? above || (half && (q & 1n) === 1n) : mode === 'rz' ? false : mode === 'rm' ? inexact && s === 1n : inexact && s === 0n;
    if (up) q += 1n;
    let uu = u;
    if (q === 1n << 24n) { q >>= 1n; uu += 1; }
    const toMax = mode === 'rz' || (mode === 'rm' && s === 0n) || (mode === 'rp' && s === 1n);
    let bits: bigint;
    if (q >= 1n << 23n) {
      const biased = BigInt(uu + 23 + 127);
      bits = biased >= 255n ? (toMax ? 0x7f7fffffn : 0x7f800000n) : (biased << 23n) | (q & 0x7fffffn);
    } else bits = q;
    if (ftz && bits < 0x800000n) bits = 0n;
    r = (s << 31n) | bits;
  }
  if (sat) {
    if ((r & 0x7fffffffn) > 0x7f800000n || r >> 31n) return 0n;
    return r > 0x3f800000n ? 0x3f800000n : r;
  }
  return r;
}

/** cvt.{rn,rz,rm,rp}.f64.{s,u}{bits}. */
export function fromInt(x: bigint, signed: boolean, bits: number, mode: Mode): bigint {
  const v = signed ? BigInt.asIntN(bits, x) : BigInt.asUintN(bits, x);
  if (v === 0n) return 0n;
  return round(v < 0n ? 1n : 0n, v < 0n ? -v : v, 0, false, mode);
}

export type IntMode = 'rni' | 'rzi' | 'rmi' | 'rpi';
const intMode = (m: IntMode): Mode => ({ rni: 'rn', rzi: 'rz', rmi: 'rm', rpi: 'rp' } as const)[m];

/** |a| rounded to an integer in mode m, as a signed bigint (NaN and inf excluded). */
function toIntegral(a: bigint, m: IntMode): bigint {
  const s = signOf(a);
  if (isZero(a)) return 0n;
  const d = decode(a);
  if (d.e >= 0) return (s ? -1n : 1n) * (d.n << BigInt(d.e));
  const sh = BigInt(-d.e);
  let q = d.n >> sh;
  const rem = d.n & ((1n << sh) - 1n);
  const h = 1n << (sh - 1n);
  const mode = intMode(m);
  const up = mode === 'rn' ? rem > h || (rem === h && (q & 1n) === 1n) : mode === 'rz' ? false : mode === 'rm' ? rem !== 0n && s === 1n : rem !== 0n && s === 0n;
  if (up) q += 1n;
  return s ? -q : q;
}

/** cvt.{rni,rzi,rmi,rpi}.{s,u}{bits}.f64: saturating; NaN -> 1 << (bits - 1), unsigned too. Returns the bits. */
export function toInt(a: bigint, m: IntMode, signed: boolean, bits: number): bigint {
  if (isNaN64(a)) return 1n << BigInt(bits - 1);
  const lo = signed ? -(1n << BigInt(bits - 1)) : 0n;
  const hi = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  if (isInf64(a)) return BigInt.asUintN(bits, signOf(a) ? lo : hi);
  const v = toIntegral(a, m);
  return BigInt.asUintN(bits, v < lo ? lo : v > hi ? hi : v);
}

/** cvt.{rni,rzi,rmi,rpi}.f64.f64. */
export function rint(a: bigint, m: IntMode): bigint {
  if (isNaN64(a)) return nanIn(a);
  if (isInf64(a) || ((a >> 52n) & 0x7ffn) >= 1075n) return a;
  const v = toIntegral(a, m);
  if (v === 0n) return a & SIGN;
  return round(v < 0n ? 1n : 0n, v < 0n ? -v : v, 0, false, 'rz');
}

export function sat(a: bigint): bigint {
  if (isNaN64(a) || signOf(a)) return 0n;
  return a > ONE ? ONE : a;
}

export const abs = (a: bigint): bigint => (isNaN64(a) ? quiet(a) : a & ~SIGN);
export const neg = (a: bigint): bigint => (isNaN64(a) ? quiet(a) : a ^ SIGN);

/** testp.{finite,infinite,number,notanumber,normal,subnormal}.f64. */
export function testp(mode: string, a: bigint): boolean {
  const e = (a >> 52n) & 0x7ffn;
  switch (mode) {
    case 'finite': return e !== 0x7ffn;
    case 'infinite': return isInf64(a);
    case 'number': return !isNaN64(a);
    case 'notanumber': return isNaN64(a);
    case 'normal': return (e !== 0n && e !== 0x7ffn) || isZero(a); // zeros too, as recorded
    default: return e === 0n && (a & FRAC) !== 0n;
  }
}

/** copysign.f64 d, a, b: b's magnitude with a's sign. */
export const copysign = (a: bigint, b: bigint): bigint => (b & ~SIGN) | (a & SIGN);
