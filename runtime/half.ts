/** Float conversions for the 16-bit parameter types JavaScript has no typed array for. */

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE binary16 bits of `value`, rounded to nearest even (what `cvt.rn.f16.f32` does). */
export function toHalfBits(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  const mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0); // Inf, or a quiet NaN
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow to infinity
  if (e <= 0) {
    if (e < -10) return sign; // too small even for a subnormal
    const m = mant | 0x800000;
    const shift = 14 - e;
    return sign | roundShift(m, shift);
  }
  // Rounding may carry into the exponent, which correctly yields the next power of two or Inf.
  return sign | ((e << 10) + roundShift(mant, 13));
}

/** `m >> shift`, rounded to nearest, ties to even. */
function roundShift(m: number, shift: number): number {
  const q = m >>> shift;
  const rem = m - q * 2 ** shift;
  const half = 2 ** (shift - 1);
  return rem > half || (rem === half && (q & 1) === 1) ? q + 1 : q;
}

/** The number a binary16 bit pattern holds. */
export function fromHalfBits(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** bfloat16 bits of `value` (the high half of its f32, rounded to nearest even). */
export function toBfloat16Bits(value: number): number {
  f32[0] = value;
  const x = u32[0] ?? 0;
  if (Number.isNaN(value)) return ((x >>> 16) | 0x40) & 0xffff;
  return (x + 0x7fff + ((x >>> 16) & 1)) >>> 16;
}
