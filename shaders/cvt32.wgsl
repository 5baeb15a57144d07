// cvt between integers and f32/f16/bf16, and float rounding to integral values, in integer
// arithmetic on bit patterns (exact on every device). Rounding modes as in round32.wgsl.

// |x| of f32 bits rounded to an integer in mode rm (signed by s), as a 64-bit magnitude and a
// flag telling whether it exceeds 64 bits.
fn f32_int_mag(u: u32, rm: u32) -> vec3<u32> {
  let s = u >> 31u;
  if ((u & 0x7fffffffu) == 0u) { return vec3<u32>(0u); }
  let p = f32r_unpack(u);
  let m = u32(p.x);
  if (p.y >= 0) {
    if (p.y > 40) { return vec3<u32>(0u, 0u, 1u); }
    return vec3<u32>(i64_shl(vec2<u32>(m, 0u), u32(p.y)), 0u);
  }
  let n = u32(min(-p.y, 26));
  let q = m >> n;
  let rem = m - (q << n);
  let half = 1u << (n - 1u);
  let nearest = (rem > half) | ((rem == half) & ((q & 1u) == 1u));
  let up = select(nearest & (rm == 0u), (rem != 0u) & ((rm == 3u) != (s == 1u)), rm >= 2u);
  return vec3<u32>(q + select(0u, 1u, up), 0u, 0u);
}

// cvt.{rni,rzi,rmi,rpi}.{s,u}{bits}.f32 (x as bits): NaN gives 0, out-of-range values saturate.
// The result is the two's complement value in 64 bits.
fn f32_to_int(u: u32, rm: u32, signed: bool, bits: u32) -> vec2<u32> {
  if (f32r_isnan(u)) { return vec2<u32>(0u, select(0u, 0x80000000u, bits == 64u)); } // an H100 gives 2^63 for 64 bits
  let neg = (u >> 31u) != 0u;
  let r = f32_int_mag(u, rm);
  // largest magnitude: 2^(bits-1) (negative, signed), 2^(bits-1)-1 (positive, signed), 2^bits-1, 0 (negative, unsigned)
  let top = i64_shl(vec2<u32>(1u, 0u), select(bits, bits - 1u, signed) & 63u);
  var lim = i64_sub(select(top, vec2<u32>(0u), !signed & (bits == 64u)), vec2<u32>(select(1u, 0u, signed & neg), 0u));
  if (!signed & neg) { lim = vec2<u32>(0u); }
  let mag = select(r.xy, lim, (r.z != 0u) | i64_ult(lim, r.xy));
  return select(mag, i64_neg(mag), neg);
}

// cvt.{rni,rzi,rmi,rpi}.{s32,u32}.f32 through WGSL: round, trunc, floor and ceil give integral
// values exactly (a subnormal a device flushes rounds to zero either way), and the conversion of an
// integral value in range is exact; the clamps and the tests give PTX's saturation and NaN -> 0
// without relying on how WGSL converts values out of range.
fn f32_to_int32(u: u32, rm: u32, signed: bool) -> u32 {
  let x = bitcast<f32>(u);
  let r = select(select(select(round(x), trunc(x), rm == 1u), floor(x), rm == 2u), ceil(x), rm == 3u);
  let s = u32(i32(clamp(r, -2147483648.0f, 2147483520.0f)));
  let z = u32(clamp(r, 0.0f, 4294967040.0f));
  let v = select(select(z, 0xffffffffu, r >= 4294967296.0f), select(s, 0x7fffffffu, r >= 2147483648.0f), signed);
  return select(v, 0u, f32r_isnan(u));
}

// cvt.frnd.{f32,f16,bf16}.{s,u}64 (32-bit and narrower sources arrive sign- or zero-extended).
fn int_to_fr(v: vec2<u32>, signed: bool, rm: u32, fb: u32, eb: u32) -> u32 {
  let neg = signed & ((v.y >> 31u) != 0u);
  let mag = select(v, i64_neg(v), neg);
  if ((mag.x == 0u) & (mag.y == 0u)) { return 0u; }
  let s = select(0u, 1u, neg);
  if (mag.y == 0u) { return fr_pack(s, mag.x, 0, rm, fb, eb); }
  let lz = countLeadingZeros(mag.y);
  let top = i64_shl(mag, lz);
  return fr_pack(s, top.y | select(0u, 1u, top.x != 0u), 32 - i32(lz), rm, fb, eb);
}

// cvt.rn.f32.u32 / .s32 through WGSL's conversion (emit-float.ts, nativeIntToF32): both parts
// are exactly representable (24 and 8 significant bits), so the only rounding is the add's, which
// is IEEE round-to-nearest-even; the sum is an integer, never subnormal, so no device flushes it.
fn u32_to_f32_rn(x: u32) -> u32 { return bitcast<u32>(f32(x & 0xffffff00u) + f32(x & 0xffu)); }
fn s32_to_f32_rn(x: u32) -> u32 {
  let m = select(x, 0u - x, i32(x) < 0);
  return u32_to_f32_rn(m) | (x & 0x80000000u);
}

// cvt.{rni,rzi,rmi,rpi}.f32.f32: round to an integral value, NaN canonical, zero keeps its sign.
fn f32_rint(u: u32, rm: u32) -> u32 {
  if (f32r_isnan(u)) { return 0x7fffffffu; }
  if (((u >> 23u) & 0xffu) >= 150u) { return u; } // |x| >= 2^23 (or inf) is integral
  let q = f32_int_mag(u, rm).x;
  if (q == 0u) { return u & 0x80000000u; }
  return fr_pack(u >> 31u, q, 0, 0u, 23u, 8u);
}
