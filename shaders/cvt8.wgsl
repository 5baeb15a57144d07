// fp8 (e4m3, e5m2), fp6 (e2m3, e3m2), fp4 (e2m1), ue8m0 and tf32 conversions (ISA cvt), in
// integer arithmetic on bit patterns.
// e4m3: bias 7, no infinities, NaN 0x7f/0xff, MAX_NORM 448 (0x7e); e5m2: IEEE-like with bias 15,
// MAX_NORM 57344 (0x7b). The f32-to-fp8 forms are always .satfinite (the ISA requires it).

// cvt.rn.satfinite{.relu}.{e4m3,e5m2} of f32 bits: the fp8 bits (low byte).
fn f8_from_f32(u: u32, e4m3: bool, relu: bool) -> u32 {
  let s = u >> 31u;
  if (f32r_isnan(u)) { return 0x7fu; }
  if (relu & (s == 1u)) { return 0u; }
  let maxn = select(0x7bu, 0x7eu, e4m3);
  if ((u & 0x7fffffffu) == 0x7f800000u) { return (s << 7u) | maxn; }
  if ((u & 0x7fffffffu) == 0u) { return s << 7u; }
  let p = f32r_unpack(u);
  // e4m3 rounds as a 3-fraction-bit format with f16's exponent range at 2^-8 scale (bias 15
  // against 7), where its exponent 15 is finite; results above MAX_NORM saturate
  let r = fr_pack(0u, u32(p.x), p.y - select(0, 8, e4m3), 0u, select(2u, 3u, e4m3), 5u);
  return (s << 7u) | min(r, maxn);
}

// One lane of cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}: fp8 bits to f16 bits (exact), NaN canonical.
fn f8_to_f16(b: u32, e4m3: bool, relu: bool) -> u32 {
  let s = (b >> 7u) & 1u;
  let mag = b & 0x7fu;
  if (select(mag > 0x7cu, mag == 0x7fu, e4m3)) { return 0x7fffu; }
  if (relu & (s == 1u)) { return 0u; }
  var h = mag << 8u; // e5m2 is the high byte of an f16
  if (e4m3 & (mag != 0u)) { h = fr_narrow(fr_widen(mag, 3u, 5u) + (8u << 23u), 10u, 5u); }
  return h | (s << 15u);
}

// One lane of cvt.rn.satfinite{.relu}.{e2m1x2,e2m3x2,e3m2x2}.{f32,f16x2}: f32 bits to the bits of
// the format with fb fraction and eb exponent bits (bias 2^(eb-1)-1, no infinities or NaN). As
// CUDA 13's cuda_fp4.hpp/cuda_fp6.hpp host code: nearest even, |x| past MAX_NORM (infinities
// included) gives signed MAX_NORM, NaN +MAX_NORM, tiny values a signed zero; .relu: a negative
// result becomes +0. Rounded as a format with one more exponent bit, 2^(eb-1) binades lower,
// whose codes below its own infinity include all of this one's.
fn f4f6_from_f32(u: u32, fb: u32, eb: u32, relu: bool) -> u32 {
  let s = u >> 31u;
  let maxn = (1u << (fb + eb)) - 1u;
  if (f32r_isnan(u)) { return maxn; }
  if (relu & (s == 1u)) { return 0u; }
  if ((u & 0x7fffffffu) == 0u) { return s << (fb + eb); }
  let p = f32r_unpack(u);
  let r = fr_pack(0u, u32(p.x), p.y - i32(1u << (eb - 1u)), 0u, fb, eb + 1u);
  return (s << (fb + eb)) | min(r, maxn);
}

// One lane of cvt.rn{.relu}.f16x2.{e2m1x2,e2m3x2,e3m2x2}: (fb, eb) bits to f16 bits (exact). Bits
// above the sign are ignored (fp6 lanes are bytes), as the headers' host code does.
fn f4f6_to_f16(b: u32, fb: u32, eb: u32, relu: bool) -> u32 {
  let s = (b >> (fb + eb)) & 1u;
  let mag = b & ((1u << (fb + eb)) - 1u);
  if (relu & (s == 1u)) { return 0u; }
  var h = 0u;
  if (mag != 0u) { h = fr_narrow(fr_widen(mag, fb, eb + 1u) + ((1u << (eb - 1u)) << 23u), 10u, 5u); }
  return h | (s << 15u);
}

// One lane of cvt.{rz,rp}{.satfinite}.ue8m0x2.{f32,bf16x2} (bf16 widened to f32 bits): the biased
// exponent of |x| (the sign is ignored), .rp rounding up past a power of two; the least code 0 is
// 2^-127 and takes everything below it, 0xff is NaN and takes NaN, infinity and (.rp) overflow;
// .satfinite gives 0xfe for the non-NaN ones. As cuda_fp8.hpp's host code.
fn ue8m0_from_f32(u: u32, rp: bool, satfinite: bool) -> u32 {
  let a = u & 0x7fffffffu;
  let up = rp & (a > 0x400000u) & (a < 0x7f800000u) & ((a & 0x7fffffu) != 0u);
  let r = (a >> 23u) + select(0u, 1u, up);
  return select(r, 0xfeu, satfinite & (r == 0xffu) & (a <= 0x7f800000u));
}

// One lane of cvt.rn.bf16x2.ue8m0x2: 2^(b-127) as bf16 bits (0 is the subnormal 2^-127), 0xff NaN.
fn ue8m0_to_bf16(b: u32) -> u32 { return select(select(b << 7u, 0x40u, b == 0u), 0x7fffu, b == 0xffu); }

// cvt.{rna,rn,rz}{.satfinite}{.relu}.tf32.f32: f32 bits rounded to 10 fraction bits (the low 13
// bits zero). rm: 0 rn, 1 rz, 4 rna (nearest, ties away from zero). NaNs as an H100 gives them:
// .rn/.rz give 0x7fffe000; .rna truncates the payload (0x7f800001 becomes +inf), and .satfinite
// then takes one unit off anything at or above the infinity pattern, as for infinities.
fn tf32_from_f32(u: u32, rm: u32, satfinite: bool, relu: bool) -> u32 {
  if (f32r_isnan(u)) {
    if (rm != 4u) { return 0x7fffe000u; }
    let t = u & 0xffffe000u;
    return select(t, t - 0x2000u, satfinite & ((t & 0x7fffffffu) >= 0x7f800000u));
  }
  let s = u & 0x80000000u;
  if (relu & (s != 0u)) { return 0u; }
  let mag = u & 0x7fffffffu;
  if (mag == 0x7f800000u) { return select(u, s | 0x7f7fe000u, satfinite); }
  let inc = select(select(0xfffu + ((mag >> 13u) & 1u), 0u, rm == 1u), 0x1000u, rm == 4u);
  var r = (mag + inc) & 0xffffe000u;
  if (r >= 0x7f800000u) { r = select(0x7f800000u, 0x7f7fe000u, satfinite | (rm == 1u)); }
  return s | r;
}
