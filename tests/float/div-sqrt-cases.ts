// Division operands aimed at f32r_div_rn (shaders/round32.wgsl): quotients within a 2^-20 ulp of
// a rounding boundary (a = b * m rounded, m halfway between two floats), divisors whose
// significand is all ones (where the method's error bound is tightest), quotients at and around
// powers of two (where the ulp below is half the ulp above), exponents at and around each limit of
// the fast path's range, and zeros, subnormals, infinities and NaN.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
export const bitsOf = (x: number): number => { f32[0] = x; return u32[0] as number; };
export const valueOf = (b: number): number => { u32[0] = b >>> 0; return f32[0] as number; };

/** The fast path's range (biased exponents), as in f32r_div_rn. */
export const inFastRange = (a: number, b: number): boolean => {
  const ea = (a >>> 23) & 0xff; const eb = (b >>> 23) & 0xff;
  return ea >= 57 && ea <= 247 && eb >= 7 && eb <= 247 && ea - eb + 127 >= 57 && ea - eb + 127 <= 247;
};

/** xorshift32 from a seed: small, fast, reproducible. */
export function rand32(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
}

const pack = (sign: number, e: number, frac: number): number => (((sign & 1) << 31) | (Math.min(Math.max(e, 0), 255) << 23) | (frac & 0x7fffff)) >>> 0;

/** One (a, b) pair of bit patterns. */
export function divCase(r: () => number): [number, number] {
  const kind = r() % 12;
  const int = (lo: number, hi: number): number => lo + (r() % (hi - lo + 1));
  const frac = (): number => { const k = r() % 6; return k === 0 ? 0x7fffff : k === 1 ? 0 : k === 2 ? 0x7fffff ^ (r() & 0xff) : r() & 0x7fffff; };
  if (kind <= 3) {
    // a / b within a hair of the midpoint m between two floats: a = RN(b * m) and its neighbours
    const eb = kind === 0 ? int(1, 254) : int(90, 164);
    const b = pack(r(), eb, kind === 1 ? 0x7fffff ^ (r() & 7) : frac());
    const eq = kind === 0 ? int(1, 254) : int(100, 154);
    const q = pack(0, eq, kind === 2 ? (r() & 1 ? 0 : 0x7fffff) : frac());
    const mid = valueOf(q) + (valueOf(q + 1) - valueOf(q)) / 2; // exact in f64: 25 bits
    const a = bitsOf(Math.fround(valueOf(b) * mid)); // b * mid is exact in f64 (49 bits)
    return [((a + int(-1, 1)) | ((r() & 1) << 31)) >>> 0, b];
  }
  if (kind === 4) {
    // quotients at and around powers of two
    const b = pack(r(), int(60, 190), frac());
    const a = bitsOf(valueOf(b) * 2 ** int(-40, 40));
    return [(a + int(-3, 3)) >>> 0, b];
  }
  if (kind <= 7) {
    // exponents at and around the limits of the range
    const edgeA = [int(54, 60), int(244, 250)][r() & 1] as number;
    const edgeB = [int(4, 10), int(244, 250)][r() & 1] as number;
    if (kind === 5) return [pack(r(), edgeA, frac()), pack(r(), int(60, 190), frac())];
    if (kind === 6) return [pack(r(), int(60, 240), frac()), pack(r(), edgeB, frac())];
    // quotient exponent near a limit: ea - eb + 127 in 54..60 or 244..250
    const eq = [int(54, 60), int(244, 250)][r() & 1] as number;
    const eb = int(Math.max(1, 130 - eq), Math.min(254, 381 - eq));
    return [pack(r(), eq + eb - 127, frac()), pack(r(), eb, frac())];
  }
  if (kind === 8) {
    // zeros, subnormals, infinities, NaN against anything
    const special = (): number => (([0, 1, 0x7fffff, 0x400000, 0x7f800000, 0x7fc00000, 0x7f800001, 0x00800000, 0x7f7fffff][r() % 9] as number) | ((r() & 1) << 31)) >>> 0;
    return r() & 1 ? [special(), pack(r(), int(1, 254), frac())] : [pack(r(), int(0, 255), frac()), special()];
  }
  // anywhere
  return [pack(r(), int(0, 255), r()), pack(r(), int(0, 255), r())];
}

/** PTX's div.rn.f32 (.ftz: operands and result flushed to signed zero), NaN as 0x7fffffff. */
export function divRef(a: number, b: number, ftz = false): number {
  const flush = (x: number): number => (ftz && ((x >>> 23) & 0xff) === 0 ? (x & 0x80000000) >>> 0 : x);
  const q = bitsOf(Math.fround(valueOf(flush(a)) / valueOf(flush(b))));
  if ((q & 0x7fffffff) > 0x7f800000) return 0x7fffffff;
  return flush(q);
}

/** f32r_sqrt_rn's range (x in [2^-77, 2^126), positive). */
export const inSqrtRange = (x: number): boolean => (x >>> 23) >= 50 && (x >>> 23) <= 252;

/** One sqrt operand: near the square of a midpoint, near powers of two, at the range's limits, special. */
export function sqrtCase(r: () => number): number {
  const kind = r() % 8;
  const int = (lo: number, hi: number): number => lo + (r() % (hi - lo + 1));
  const frac = (): number => { const k = r() % 5; return k === 0 ? 0x7fffff : k === 1 ? 0 : k === 2 ? 0x7fffff ^ (r() & 0xff) : r() & 0x7fffff; };
  if (kind <= 2) {
    // x = RN(m^2) for m halfway between two floats s and its successor, and its neighbours
    const s = pack(0, kind === 0 ? int(1, 254) : int(90, 160), frac());
    const m = valueOf(s) + (valueOf(s + 1) - valueOf(s)) / 2; // 25 bits: m^2 is exact in f64
    return (bitsOf(Math.fround(m * m)) + int(-1, 1)) >>> 0;
  }
  if (kind === 3) return (pack(0, int(1, 254), 0) + int(-3, 3)) >>> 0; // around powers of two
  if (kind === 4) return pack(0, [int(46, 54), int(248, 255)][r() & 1] as number, frac()); // range limits
  if (kind === 5) return (([0, 1, 0x7fffff, 0x800000, 0x7f800000, 0x7fc00000, 0x7f7fffff][r() % 7] as number) | ((r() & 1) << 31)) >>> 0;
  if (kind === 6) return pack(1, int(0, 255), frac()); // negative
  return pack(0, int(0, 255), r());
}

/** PTX's sqrt.rn.f32 (.ftz: a subnormal operand is flushed), NaN as 0x7fffffff. */
export function sqrtRef(x: number, ftz = false): number {
  const v = ftz && ((x >>> 23) & 0xff) === 0 ? (x & 0x80000000) >>> 0 : x;
  const s = bitsOf(Math.fround(Math.sqrt(valueOf(v))));
  return (s & 0x7fffffff) > 0x7f800000 ? 0x7fffffff : s;
}
