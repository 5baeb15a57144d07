/**
 * Reference semantics of PTX f32/f16/bf16 instructions, written from the ISA text with exact
 * rational arithmetic (BigInt): every result is the exact value rounded once in the named mode.
 * Values are bit patterns (bigint). NaN results are NVIDIA's canonical NaNs (f32 0x7fffffff,
 * f16 0x7fff, bf16 0x7fff).
 */

export type Mode = 'rn' | 'rz' | 'rm' | 'rp';

export interface Format { readonly frac: number; readonly ebits: number; readonly nan: bigint }
export const F32: Format = { frac: 23, ebits: 8, nan: 0x7fffffffn };
export const F16: Format = { frac: 10, ebits: 5, nan: 0x7fffn };
export const BF16: Format = { frac: 7, ebits: 8, nan: 0x7fffn };

const bias = (f: Format): number => (1 << (f.ebits - 1)) - 1;
const width = (f: Format): number => 1 + f.ebits + f.frac;
const expMax = (f: Format): bigint => (1n << BigInt(f.ebits)) - 1n;
const infBits = (f: Format): bigint => expMax(f) << BigInt(f.frac);
const signBit = (f: Format): bigint => 1n << BigInt(width(f) - 1);
/** Exponent of the least subnormal: the unit of the lowest significand bit. */
const eMin = (f: Format): number => 1 - bias(f) - f.frac;

/** A decoded float: special, or (-1)^s * m * 2^e exactly. */
export type Decoded =
  | { readonly kind: 'nan'; readonly s: number }
  | { readonly kind: 'inf'; readonly s: number }
  | { readonly kind: 'fin'; readonly s: number; readonly m: bigint; readonly e: number };

export function decode(f: Format, bits: bigint): Decoded {
  const s = Number((bits >> BigInt(width(f) - 1)) & 1n);
  const ex = (bits >> BigInt(f.frac)) & expMax(f);
  const fr = bits & ((1n << BigInt(f.frac)) - 1n);
  if (ex === expMax(f)) return fr ? { kind: 'nan', s } : { kind: 'inf', s };
  if (ex === 0n) return { kind: 'fin', s, m: fr, e: eMin(f) };
  return { kind: 'fin', s, m: fr | (1n << BigInt(f.frac)), e: Number(ex) - bias(f) - f.frac };
}

export const isNan = (f: Format, bits: bigint): boolean => decode(f, bits).kind === 'nan';
export const isSub = (f: Format, bits: bigint): boolean => ((bits >> BigInt(f.frac)) & expMax(f)) === 0n && (bits & ((1n << BigInt(f.frac)) - 1n)) !== 0n;
/** .ftz on an input: subnormals become zero of the same sign. */
export const ftz = (f: Format, bits: bigint): bigint => (((bits >> BigInt(f.frac)) & expMax(f)) === 0n ? bits & signBit(f) : bits);

/** Exact rational magnitude num/den (num >= 0, den > 0) rounded to format f in mode rm. */
export function roundRational(f: Format, s: number, num: bigint, den: bigint, rm: Mode): bigint {
  const sign = s ? signBit(f) : 0n;
  if (num === 0n) return sign;
  // floor(log2(num/den)), by bit lengths then a correction
  let e = num.toString(2).length - den.toString(2).length;
  if (e >= 0 ? num < den << BigInt(e) : num << BigInt(-e) < den) e -= 1;
  const u = Math.max(e - f.frac, eMin(f)); // the unit of the last kept bit
  const [n, d] = u >= 0 ? [num, den << BigInt(u)] : [num << BigInt(-u), den];
  let q = n / d;
  const r = n - q * d;
  if (r !== 0n) {
    const up = rm === 'rn' ? 2n * r > d || (2n * r === d && (q & 1n) === 1n) : rm === 'rz' ? false : (rm === 'rp') === (s === 0);
    if (up) q += 1n;
  }
  const bits = (BigInt(u - eMin(f)) << BigInt(f.frac)) + q;
  if (bits >= infBits(f)) {
    const toMax = rm === 'rz' || (rm === 'rm' && s === 0) || (rm === 'rp' && s === 1);
    return sign | (toMax ? infBits(f) - 1n : infBits(f));
  }
  return sign | bits;
}

/** Rounds the exact value (-1)^s * m * 2^e. */
export function roundExact(f: Format, s: number, m: bigint, e: number, rm: Mode): bigint {
  if (m < 0n) { m = -m; s ^= 1; }
  return e >= 0 ? roundRational(f, s, m << BigInt(e), 1n, rm) : roundRational(f, s, m, 1n << BigInt(-e), rm);
}

const zero = (f: Format, s: number): bigint => (s ? signBit(f) : 0n);
const inf = (f: Format, s: number): bigint => (s ? signBit(f) : 0n) | infBits(f);

export function add(f: Format, a: bigint, b: bigint, rm: Mode): bigint {
  const x = decode(f, a);
  const y = decode(f, b);
  if (x.kind === 'nan' || y.kind === 'nan') return f.nan;
  if (x.kind === 'inf' && y.kind === 'inf') return x.s === y.s ? a : f.nan;
  if (x.kind === 'inf') return a;
  if (y.kind === 'inf') return b;
  const e = Math.min(x.e, y.e);
  const sum = (x.s ? -1n : 1n) * (x.m << BigInt(x.e - e)) + (y.s ? -1n : 1n) * (y.m << BigInt(y.e - e));
  if (sum === 0n) {
    if (x.m === 0n && y.m === 0n && x.s === y.s) return zero(f, x.s);
    return zero(f, rm === 'rm' ? 1 : 0);
  }
  return roundExact(f, 0, sum, e, rm);
}

export const sub = (f: Format, a: bigint, b: bigint, rm: Mode): bigint => (isNan(f, b) ? f.nan : add(f, a, b ^ signBit(f), rm));

export function mul(f: Format, a: bigint, b: bigint, rm: Mode): bigint {
  const x = decode(f, a);
  const y = decode(f, b);
  const s = x.s ^ y.s;
  if (x.kind === 'nan' || y.kind === 'nan') return f.nan;
  if (x.kind === 'inf' || y.kind === 'inf') {
    if ((x.kind === 'fin' && x.m === 0n) || (y.kind === 'fin' && y.m === 0n)) return f.nan;
    return inf(f, s);
  }
  if (x.m === 0n || y.m === 0n) return zero(f, s);
  return roundExact(f, s, x.m * y.m, x.e + y.e, rm);
}

export function fma(f: Format, a: bigint, b: bigint, c: bigint, rm: Mode): bigint {
  const x = decode(f, a);
  const y = decode(f, b);
  const z = decode(f, c);
  if (x.kind === 'nan' || y.kind === 'nan' || z.kind === 'nan') return f.nan;
  const s = x.s ^ y.s;
  if (x.kind === 'inf' || y.kind === 'inf') {
    if ((x.kind === 'fin' && x.m === 0n) || (y.kind === 'fin' && y.m === 0n)) return f.nan;
    if (z.kind === 'inf' && z.s !== s) return f.nan;
    return inf(f, s);
  }
  if (z.kind === 'inf') return c;
  const pe = x.e + y.e;
  const e = Math.min(pe, z.e);
  const p = (s ? -1n : 1n) * ((x.m * y.m) << BigInt(pe - e));
  const sum = p + (z.s ? -1n : 1n) * (z.m << BigInt(z.e - e));
  if (sum === 0n) {
    if (p === 0n && z.m === 0n && s === z.s) return zero(f, s);
    return zero(f, rm === 'rm' ? 1 : 0);
  }
  return roundExact(f, 0, sum, e, rm);
}

export function div(f: Format, a: bigint, b: bigint, rm: Mode): bigint {
  const x = decode(f, a);
  const y = decode(f, b);
  const s = x.s ^ y.s;
  if (x.kind === 'nan' || y.kind === 'nan') return f.nan;
  if (x.kind === 'inf') return y.kind === 'inf' ? f.nan : inf(f, s);
  if (y.kind === 'inf') return zero(f, s);
  if (y.m === 0n) return x.m === 0n ? f.nan : inf(f, s);
  if (x.m === 0n) return zero(f, s);
  const d = x.e - y.e;
  return d >= 0 ? roundRational(f, s, x.m << BigInt(d), y.m, rm) : roundRational(f, s, x.m, y.m << BigInt(-d), rm);
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  while (x * x > n) x -= 1n;
  while ((x + 1n) * (x + 1n) <= n) x += 1n;
  return x;
}

export function sqrt(f: Format, a: bigint, rm: Mode): bigint {
  const x = decode(f, a);
  if (x.kind === 'nan') return f.nan;
  if (x.kind === 'inf') return x.s ? f.nan : a;
  if (x.m === 0n) return a;
  if (x.s) return f.nan;
  // sqrt(m * 2^e) with 2k extra bits: floor(sqrt(m * 2^(e + 2k))) * 2^-k, the rest sticky
  let m = x.m;
  let e = x.e;
  if (e & 1) { m <<= 1n; e -= 1; }
  const k = 40;
  const n = m << BigInt(2 * k);
  const q = isqrt(n);
  const exact = q * q === n;
  // q*2 + sticky, so an inexact root never looks like a tie
  return roundExact(f, 0, (q << 1n) | (exact ? 0n : 1n), e / 2 - k - 1, rm);
}

/** PTX min/max (non-.NaN): a NaN operand yields the other; both NaN: canonical NaN; -0 < +0. */
export function minmax(f: Format, a: bigint, b: bigint, isMax: boolean, nanProp = false): bigint {
  const an = isNan(f, a);
  const bn = isNan(f, b);
  if (an && bn) return f.nan;
  if (an || bn) return nanProp ? f.nan : an ? b : a;
  const c = compare(f, a, b);
  if (c === 0) return isMax ? a & b : a | b; // +0/-0: max is +0, min is -0
  return (c < 0) !== isMax ? a : b;
}

/** -1, 0, 1 for ordered operands (no NaN). */
export function compare(f: Format, a: bigint, b: bigint): number {
  const key = (v: bigint): bigint => {
    const mag = v & (signBit(f) - 1n);
    return v & signBit(f) ? -mag : mag;
  };
  const x = key(a);
  const y = key(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** setp comparison (PTX "Floating Point Comparison"): ordered ops are false on NaN, unordered true. */
export function setp(f: Format, cmp: string, a: bigint, b: bigint): boolean {
  const nan = isNan(f, a) || isNan(f, b);
  if (cmp === 'num') return !nan;
  if (cmp === 'nan') return nan;
  const unordered = cmp.endsWith('u');
  if (nan) return unordered;
  const c = compare(f, a, b);
  switch (unordered ? cmp.slice(0, 2) : cmp) {
    case 'eq': return c === 0;
    case 'ne': return c !== 0;
    case 'lt': return c < 0;
    case 'le': return c <= 0;
    case 'gt': return c > 0;
    case 'ge': return c >= 0;
  }
  throw new Error(`setp: ${cmp}`);
}

/** .sat: clamp to [0, 1]; NaN and -0 give +0. */
export function sat(f: Format, v: bigint): bigint {
  if (isNan(f, v) || v & signBit(f)) return 0n;
  const one = BigInt(bias(f)) << BigInt(f.frac);
  return v > one ? one : v;
}

/** Flushes a subnormal result to zero of the same sign (.ftz on results). */
export const ftzOut = ftz;

/** abs/neg: the sign bit, except that NaNs become the canonical NaN (as an H100 does). */
export const abs = (f: Format, v: bigint): bigint => (isNan(f, v) ? f.nan : v & (signBit(f) - 1n));
export const neg = (f: Format, v: bigint): bigint => (isNan(f, v) ? f.nan : v ^ signBit(f));

/**
 * .ftz on a rounded result: NVIDIA detects tininess before rounding, so an exact result below
 * the least normal that rounds up to it is flushed too. `rz` is the same result rounded toward zero.
 */
export function ftzTiny(f: Format, r: bigint, rz: bigint): bigint {
  const minN = 1n << BigInt(f.frac);
  const mag = (v: bigint): bigint => v & (signBit(f) - 1n);
  return mag(r) === minN && mag(rz) < minN ? r & signBit(f) : ftz(f, r);
}

/** Float to float conversion (cvt.frnd.dst.src), NaN to canonical NaN. */
export function convert(from: Format, to: Format, v: bigint, rm: Mode): bigint {
  const x = decode(from, v);
  if (x.kind === 'nan') return to.nan;
  if (x.kind === 'inf') return inf(to, x.s);
  return roundExact(to, x.s, x.m, x.e, rm);
}

/** Integer to float: `v` is the integer value (signed already applied). */
export function fromInt(to: Format, v: bigint, rm: Mode): bigint {
  return roundExact(to, v < 0n ? 1 : 0, v < 0n ? -v : v, 0, rm);
}

export type IntMode = 'rni' | 'rzi' | 'rmi' | 'rpi';
const intToMode = (m: IntMode): Mode => (m === 'rni' ? 'rn' : m === 'rzi' ? 'rz' : m === 'rmi' ? 'rm' : 'rp');

/** The value rounded to an integer (exact bigint), or null for NaN/inf. */
export function roundToInteger(f: Format, v: bigint, m: IntMode): bigint | null {
  const x = decode(f, v);
  if (x.kind !== 'fin') return null;
  const mode = intToMode(m);
  let n: bigint;
  if (x.e >= 0) n = x.m << BigInt(x.e);
  else {
    const d = 1n << BigInt(-x.e);
    n = x.m / d;
    const r = x.m - n * d;
    if (r !== 0n) {
      const up = mode === 'rn' ? 2n * r > d || (2n * r === d && (n & 1n) === 1n) : mode === 'rz' ? false : (mode === 'rp') === (x.s === 0);
      if (up) n += 1n;
    }
  }
  return x.s ? -n : n;
}

/**
 * cvt.{irnd}.int.float: NaN gives 0, out-of-range values saturate to the destination range
 * (PTX: "saturation is applied by default" for float-to-integer conversions).
 */
export function toInt(f: Format, v: bigint, m: IntMode, bits: number, signed: boolean): bigint {
  const x = decode(f, v);
  const lo = signed ? -(1n << BigInt(bits - 1)) : 0n;
  const hi = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  let n: bigint;
  if (x.kind === 'nan') return bits === 64 ? 1n << 63n : 0n; // an H100 gives 2^63 for 64-bit results
  else if (x.kind === 'inf') n = x.s ? lo : hi;
  else n = roundToInteger(f, v, m) as bigint;
  if (n < lo) n = lo;
  if (n > hi) n = hi;
  return BigInt.asUintN(bits, n);
}

/** cvt.{irnd}.f.f (round to integral value in the same format). */
export function roundIntegral(f: Format, v: bigint, m: IntMode): bigint {
  const x = decode(f, v);
  if (x.kind === 'nan') return f.nan;
  if (x.kind === 'inf') return v;
  const n = roundToInteger(f, v, m) as bigint;
  if (n === 0n) return zero(f, x.s);
  return roundExact(f, 0, n, 0, 'rn');
}

export const f32Bits = (x: number): bigint => {
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, x);
  return BigInt(b.getUint32(0));
};
export const f32Value = (bits: bigint): number => {
  const b = new DataView(new ArrayBuffer(4));
  b.setUint32(0, Number(bits));
  return b.getFloat32(0);
};
