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

// ------------------------------------------------------------------ cvt.pack, fp8, tf32, f64<->half

/**
 * cvt.pack.sat.ct.abt (ISA cvt.pack): a and b clamped to ct's range (size bits, signed or not);
 * a above b in a 2*size-bit field; for size < 16, c's low bits fill the rest of d.
 */
export function cvtPack(size: number, signed: boolean, abSigned: boolean, a: bigint, b: bigint, c: bigint): bigint {
  const max = signed ? (1n << BigInt(size - 1)) - 1n : (1n << BigInt(size)) - 1n;
  const min = signed ? -(1n << BigInt(size - 1)) : 0n;
  const clamp = (v: bigint): bigint => {
    const x = abSigned ? BigInt.asIntN(32, v) : BigInt.asUintN(32, v);
    return BigInt.asUintN(size, x < min ? min : x > max ? max : x);
  };
  const td = (clamp(a) << BigInt(size)) | clamp(b);
  return size === 16 ? td : BigInt.asUintN(32, td | (c << BigInt(2 * size)));
}

/** Value of an fp8 code (OCP FP8 as PTX uses it): e4m3 has bias 7, no infinities, NaN S.1111.111; e5m2 is IEEE-like with bias 15. */
export function f8Value(e4m3: boolean, code: number): number {
  const s = code & 0x80 ? -1 : 1;
  const [fb, eb, bias] = e4m3 ? [3, 4, 7] : [2, 5, 15];
  const ex = (code >> fb) & ((1 << eb) - 1);
  const fr = code & ((1 << fb) - 1);
  if (e4m3 && ex === 15 && fr === 7) return NaN;
  if (!e4m3 && ex === 31) return fr ? NaN : s * Infinity;
  return s * (ex === 0 ? fr * 2 ** (1 - bias - fb) : (fr + (1 << fb)) * 2 ** (ex - bias - fb));
}

/** Exact value of a decoded float as a double (fine for f16/bf16/f32 and the fp8 grid), NaN for NaN. */
export function valueOf(f: Format, bits: bigint): number {
  const d = decode(f, bits);
  if (d.kind === 'nan') return NaN;
  if (d.kind === 'inf') return d.s ? -Infinity : Infinity;
  return (d.s ? -1 : 1) * Number(d.m) * 2 ** d.e;
}

/** Of two grid values lo <= |x| <= hi, the one nearest |x|; ties take `tie`. */
const nearest = (x: number, lo: number, hi: number, tie: number): number => {
  const dl = x - lo;
  const dh = hi - x;
  return dl < dh ? lo : dh < dl ? hi : tie;
};

/**
 * cvt.rn.satfinite{.relu}.{e4m3,e5m2} of a value (double, exact): nearest even fp8, |x| above
 * MAX_NORM (infinities included) gives sign-preserved MAX_NORM; NaN gives 0x7f; .relu: negative to +0.
 */
export function f8FromValue(x: number, e4m3: boolean, relu: boolean): bigint {
  if (Number.isNaN(x)) return 0x7fn;
  if (relu && (x < 0 || Object.is(x, -0))) return 0n;
  const sign = x < 0 || Object.is(x, -0) ? 0x80 : 0;
  const a = Math.abs(x);
  const maxCode = e4m3 ? 0x7e : 0x7b;
  let lo = 0;
  while (lo < maxCode && f8Value(e4m3, lo + 1) <= a) lo++;
  if (lo === maxCode) return BigInt(sign | maxCode);
  const pick = nearest(a, f8Value(e4m3, lo), f8Value(e4m3, lo + 1), f8Value(e4m3, lo & 1 ? lo + 1 : lo));
  return BigInt(sign | (pick === f8Value(e4m3, lo) ? lo : lo + 1));
}

/** One lane of cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}: exact; NaN gives 0x7fff; .relu: negative to +0. */
export function f8ToF16(code: number, e4m3: boolean, relu: boolean): bigint {
  const v = f8Value(e4m3, code);
  if (Number.isNaN(v)) return 0x7fffn;
  if (relu && code & 0x80) return 0n;
  if (!Number.isFinite(v)) return v < 0 ? 0xfc00n : 0x7c00n;
  return doubleTo(F16, v, 'rn');
}

/** A double rounded to format f (NaN: f.nan). */
export function doubleTo(f: Format, x: number, rm: Mode): bigint {
  const d = new DataView(new ArrayBuffer(8));
  d.setFloat64(0, x);
  return convert(F64, f, d.getBigUint64(0), rm);
}

export const F64: Format = { frac: 52, ebits: 11, nan: 0x7fffffffffffffffn };
/** tf32: f32's exponent with 10 fraction bits; results are f32 bits with the low 13 bits zero. */
export const TF32: Format = { frac: 10, ebits: 8, nan: 0x7ffffn };

/**
 * cvt.{rna,rn,rz}{.satfinite}{.relu}.tf32.f32: f32 bits rounded to tf32 (rna: nearest, ties away
 * from zero); NaN gives 0x7fffffff; .satfinite: |x| above MAX_NORM (inf included) gives MAX_NORM;
 * .relu: negative to +0.
 */
export function tf32FromF32(u: bigint, rm: 'rna' | 'rn' | 'rz', satfinite: boolean, relu: boolean): bigint {
  const x = decode(F32, u);
  if (x.kind === 'nan') {
    // not in the ISA text; as an H100 gives them: .rn/.rz a fixed NaN, .rna the payload truncated
    // (0x7f800001 becomes +inf), with .satfinite one unit less when that is inf or NaN
    if (rm !== 'rna') return 0x7fffe000n;
    const t = u & 0xffffe000n;
    return satfinite && (t & 0x7fffffffn) >= 0x7f800000n ? t - 0x2000n : t;
  }
  if (relu && x.s) return 0n;
  const sign = x.s ? 0x80000000n : 0n;
  const maxNorm = 0x7f7fe000n;
  if (x.kind === 'inf') return satfinite ? sign | maxNorm : u;
  let r: bigint;
  if (rm === 'rna') {
    const lo = roundExact(TF32, 0, x.m, x.e, 'rz');
    const hi = lo + 1n;
    const a = Math.abs(valueOf(F32, u));
    const lv = valueOf(TF32, lo);
    const infT = 0xffn << 10n;
    const hv = hi >= infT ? Infinity : valueOf(TF32, hi);
    r = hv === Infinity ? (a - lv >= 2 ** 116 ? infT : lo) : nearest(a, lv, hv, hv) === lv ? lo : hi;
  } else r = roundExact(TF32, 0, x.m, x.e, rm);
  r <<= 13n;
  if (r >= 0x7f800000n && satfinite) r = maxNorm;
  return sign | r;
}

/** cvt.f64.{f16,bf16}: exact; NaNs keep their payload, quieted. */
export function halfToF64(f: Format, h: bigint): bigint {
  const d = decode(f, h);
  if (d.kind === 'nan') {
    const sign = BigInt(d.s) << 63n;
    const payload = (h & ((1n << BigInt(f.frac)) - 1n)) << BigInt(52 - f.frac);
    return sign | 0x7ff8000000000000n | payload;
  }
  return convert(f, F64, h, 'rn');
}

/** cvt.frnd.{f16,bf16}.f64: rounded once; NaNs keep their sign and payload top, quieted (an H100). */
export function f64ToHalf(f: Format, v: bigint, rm: Mode): bigint {
  if (!isNan(F64, v)) return convert(F64, f, v, rm);
  const top = (v >> BigInt(52 - f.frac)) & ((1n << BigInt(f.frac)) - 1n);
  return ((v >> 63n) << BigInt(f.frac + f.ebits)) | infBits(f) | (1n << BigInt(f.frac - 1)) | top;
}
