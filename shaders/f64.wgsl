// IEEE binary64 in integer arithmetic: PTX .f64 values are vec2<u32>(low word, high word) of
// their bits (WGSL has no f64). Every operation is exact (correctly rounded in the requested
// mode) and produces IEEE subnormals, as NVIDIA GPUs do for f64. One routine, f64_round, rounds
// and packs every f64 result. Rounding modes: 0 = rn, 1 = rz, 2 = rm, 3 = rp.
// NaN results follow NVIDIA (recorded on an H100, tests/conformance/native/f64-*): a NaN
// operand propagates quieted, sign and payload kept (fma prefers b, then c, then a; add, sub,
// mul, min, max b, then a; div a, then b); invalid operations produce the canonical NaN
// 0xfff80000_00000000 (f64_nan).
// Unpacked form: vec3<u32>(m.x, m.y, e) with value = m * 2^(e - 1075), m = 53-bit significand
// normalised to bit 52 (subnormals get e < 1), m = 0 for zero. Needs shaders/int64.wgsl.

fn f64_nan() -> vec2<u32> { return vec2<u32>(0u, 0xfff80000u); }

fn f64_isnan(a: vec2<u32>) -> bool {
  let h = a.y & 0x7fffffffu;
  return (h > 0x7ff00000u) | ((h == 0x7ff00000u) & (a.x != 0u));
}

fn f64_isinf(a: vec2<u32>) -> bool { return ((a.y & 0x7fffffffu) == 0x7ff00000u) & (a.x == 0u); }

// The NaN an operation with NaN operands returns: the first NaN of (a, b), quieted.
fn f64_nan_in(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let n = select(b, a, f64_isnan(a));
  return vec2<u32>(n.x, n.y | 0x00080000u);
}

fn f64_unpack(a: vec2<u32>) -> vec3<u32> {
  let ef = (a.y >> 20u) & 0x7ffu;
  let f = vec2<u32>(a.x, a.y & 0xfffffu);
  if (ef != 0u) { return vec3<u32>(f.x, f.y | 0x100000u, ef); }
  if ((f.x == 0u) & (f.y == 0u)) { return vec3<u32>(0u, 0u, 1u); }
  let lz = i64_clz(f) - 11u;
  let m = i64_shl(f, lz);
  return vec3<u32>(m.x, m.y, u32(1 - i32(lz)));
}

// Shift right by n (any amount), OR-ing every bit shifted out into bit 0.
fn u64_shr_sticky(m: vec2<u32>, n: u32) -> vec2<u32> {
  let r = i64_shr_u(m, n);
  return vec2<u32>(r.x | select(0u, 1u, any(i64_shl(r, n) != m)), r.y);
}

// Whether to round the magnitude up, given the 11 bits below the kept ones (sticky in bit 0).
fn f64_round_up(g: u32, lsb: u32, s: u32, rm: u32) -> bool {
  let half = (g > 0x400u) | ((g == 0x400u) & (lsb == 1u));
  return select(half & (rm == 0u), (g != 0u) & ((rm == 3u) != (s == 1u)), rm >= 2u);
}

// Rounds (-1)^s * m * 2^(e - 1086) (m any 64-bit value, sticky in bit 0) to binary64 bits.
fn f64_round(s: u32, e0: i32, m0: vec2<u32>, rm: u32) -> vec2<u32> {
  if ((m0.x == 0u) & (m0.y == 0u)) { return vec2<u32>(0u, s << 31u); }
  let lz = i64_clz(m0);
  let e = e0 - i32(lz);
  let m = u64_shr_sticky(i64_shl(m0, lz), u32(clamp(1 - e, 0, 64)));
  let q = vec2<u32>((m.x >> 11u) | (m.y << 21u), m.y >> 11u);
  let up = f64_round_up(m.x & 0x7ffu, q.x & 1u, s, rm);
  var r = i64_add(vec2<u32>(q.x, q.y + (u32(max(e - 1, 0)) << 20u)), vec2<u32>(select(0u, 1u, up), 0u));
  if ((e >= 2047) | (r.y >= 0x7ff00000u)) {
    let to_max = (rm == 1u) | ((rm == 2u) & (s == 0u)) | ((rm == 3u) & (s == 1u));
    r = select(vec2<u32>(0u, 0x7ff00000u), vec2<u32>(0xffffffffu, 0x7fefffffu), to_max);
  }
  return vec2<u32>(r.x, r.y | (s << 31u));
}

// 128-bit helpers: vec4<u32> with x the lowest word.
fn u128_shl(a: vec4<u32>, n: u32) -> vec4<u32> {
  if (n >= 64u) { let h = i64_shl(a.xy, n - 64u); return vec4<u32>(0u, 0u, h.x, h.y); }
  let h = i64_shl(a.zw, n) | i64_shr_u(a.xy, 64u - n);
  let l = i64_shl(a.xy, n);
  return vec4<u32>(l.x, l.y, h.x, h.y);
}

fn u128_shr_sticky(a: vec4<u32>, n: u32) -> vec4<u32> {
  let lost_lo = select(0u, 1u, (a.x != 0u) | (a.y != 0u));
  if (n >= 64u) { let l = u64_shr_sticky(a.zw, n - 64u); return vec4<u32>(l.x | lost_lo, l.y, 0u, 0u); }
  let l = u64_shr_sticky(a.xy, n) | i64_shl(a.zw, 64u - n);
  let h = i64_shr_u(a.zw, n);
  return vec4<u32>(l.x, l.y, h.x, h.y);
}

fn u128_add(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
  let l = i64_add(a.xy, b.xy);
  let h = i64_add(i64_add(a.zw, b.zw), vec2<u32>(select(0u, 1u, i64_ult(l, a.xy)), 0u));
  return vec4<u32>(l.x, l.y, h.x, h.y);
}

fn u128_sub(a: vec4<u32>, b: vec4<u32>) -> vec4<u32> {
  let l = i64_sub(a.xy, b.xy);
  let h = i64_sub(i64_sub(a.zw, b.zw), vec2<u32>(select(0u, 1u, i64_ult(a.xy, b.xy)), 0u));
  return vec4<u32>(l.x, l.y, h.x, h.y);
}

fn u128_lt(a: vec4<u32>, b: vec4<u32>) -> bool {
  return i64_ult(a.zw, b.zw) | (all(a.zw == b.zw) & i64_ult(a.xy, b.xy));
}

// Rounds (-1)^s * r * 2^x (r a nonzero 128-bit value, sticky in bit 0).
fn f64_round128(s: u32, x: i32, r: vec4<u32>, rm: u32) -> vec2<u32> {
  let lz = select(i64_clz(r.zw), 64u + i64_clz(r.xy), all(r.zw == vec2<u32>(0u)));
  let n = u128_shl(r, lz);
  return f64_round(s, x + 64 - i32(lz) + 1086, vec2<u32>(n.z | select(0u, 1u, any(n.xy != vec2<u32>(0u))), n.w), rm);
}

// Rounds (-1)^sp * p * 2^xp + c, for p below 2^126 with its top bit at 124 or 125 and c finite
// and nonzero. c's significand goes to bit 124; the operand with the smaller exponent is shifted
// right with sticky, so the sum is exact or the shifted one only decides the rounding.
fn f64_sum(sp: u32, p0: vec4<u32>, xp: i32, c: vec2<u32>, rm: u32) -> vec2<u32> {
  let sc = c.y >> 31u;
  let uc = f64_unpack(c);
  var p = p0;
  var q = vec4<u32>(0u, 0u, uc.x << 8u, (uc.y << 8u) | (uc.x >> 24u));
  let xc = i32(uc.z) - 1147;
  var x = xp;
  if (xp >= xc) { q = u128_shr_sticky(q, u32(min(xp - xc, 200))); }
  else { p = u128_shr_sticky(p, u32(min(xc - xp, 200))); x = xc; }
  var s = sp;
  var r: vec4<u32>;
  if (sp == sc) { r = u128_add(p, q); }
  else if (u128_lt(p, q)) { r = u128_sub(q, p); s = sc; }
  else { r = u128_sub(p, q); }
  if (all(r == vec4<u32>(0u))) { return vec2<u32>(0u, select(0u, 0x80000000u, rm == 2u)); }
  return f64_round128(s, x, r, rm);
}

// The sign of an exact zero sum of zeros: their common sign, else -0 only when rounding down.
fn f64_zero_sum(sa: u32, sb: u32, rm: u32) -> vec2<u32> {
  return vec2<u32>(0u, select(select(0u, 0x80000000u, rm == 2u), sa << 31u, sa == sb));
}

fn f64_iszero(a: vec2<u32>) -> bool { return ((a.y & 0x7fffffffu) | a.x) == 0u; }

// Fast paths: when every operand is normal and the exponents guarantee a normal, finite result,
// f64_fma/f64_mul/f64_add skip the special-case tests, subnormal handling and overflow checks,
// and shift by select-based funnels instead of branches; everything else takes the general code.

// The 53-bit significand of a normal binary64 (hidden bit set).
fn f64_sig(a: vec2<u32>) -> vec2<u32> { return vec2<u32>(a.x, (a.y & 0xfffffu) | 0x100000u); }

// The exact product of significands below 2^54 and 2^53 (high words below 2^22 and 2^21): the
// fast paths' form of u64_mul_wide (int64.wgsl), whose operand bounds leave two carries to track.
fn f64_sig_mul(a: vec2<u32>, b: vec2<u32>) -> vec4<u32> {
  let ll = mul_wide_u32(a.x, b.x);
  let lh = mul_wide_u32(a.x, b.y);
  let hl = mul_wide_u32(a.y, b.x);
  let hh = mul_wide_u32(a.y, b.y);
  // the cross terms sum below 2^55 and the high product below 2^43: only two carries to track
  let ml = lh.x + hl.x;
  let mh = lh.y + hl.y + select(0u, 1u, ml < lh.x);
  let w1 = ll.y + ml;
  let m2 = mh + select(0u, 1u, w1 < ml);
  let w2 = hh.x + m2;
  return vec4<u32>(ll.x, w1, w2, hh.y + select(0u, 1u, w2 < m2));
}

// a >> n for n < 128, every bit shifted out OR-ed into bit 0. Shifts by 32 are avoided
// ((x << 1) << (31 - b) is x << (32 - b), and 0 for b = 0).
fn u128_shr_jam(a: vec4<u32>, n: u32) -> vec4<u32> {
  let q1 = n >= 32u; let q2 = n >= 64u; let q3 = n >= 96u;
  let b = n & 31u; let nb = 31u - b;
  let v0 = select(select(select(a.x, a.y, q1), a.z, q2), a.w, q3);
  let v1 = select(select(select(a.y, a.z, q1), a.w, q2), 0u, q3);
  let v2 = select(select(a.z, a.w, q1), 0u, q2);
  let v3 = select(a.w, 0u, q1);
  let lost = (q1 & (a.x != 0u)) | (q2 & (a.y != 0u)) | (q3 & (a.z != 0u)) | (((v0 << 1u) << nb) != 0u);
  return vec4<u32>((v0 >> b) | ((v1 << 1u) << nb) | select(0u, 1u, lost), (v1 >> b) | ((v2 << 1u) << nb), (v2 >> b) | ((v3 << 1u) << nb), v3 >> b);
}

// a >> n for n < 64, every bit shifted out OR-ed into bit 0.
fn u64_shr_jam(a: vec2<u32>, n: u32) -> vec2<u32> {
  let q1 = n >= 32u;
  let b = n & 31u; let nb = 31u - b;
  let v0 = select(a.x, a.y, q1);
  let v1 = select(a.y, 0u, q1);
  let lost = (q1 & (a.x != 0u)) | (((v0 << 1u) << nb) != 0u);
  return vec2<u32>((v0 >> b) | ((v1 << 1u) << nb) | select(0u, 1u, lost), v1 >> b);
}

// a + b + cin modulo 2^128.
fn u128_addc(a: vec4<u32>, b: vec4<u32>, cin: u32) -> vec4<u32> {
  let s0 = a.x + b.x; let t0 = s0 + cin;
  let k0 = select(0u, 1u, (s0 < a.x) | (t0 < s0));
  let s1 = a.y + b.y; let t1 = s1 + k0;
  let k1 = select(0u, 1u, (s1 < a.y) | (t1 < s1));
  let s2 = a.z + b.z; let t2 = s2 + k1;
  let k2 = select(0u, 1u, (s2 < a.z) | (t2 < s2));
  return vec4<u32>(t0, t1, t2, a.w + b.w + k2);
}

// Rounds (-1)^s * t * 2^(e - 1086), t with bit 63 set and `sticky` for any nonzero bits below
// it, when the exact value is normal and below 2^1024 (e, its biased exponent, is in [1, 2046]).
fn f64_round_normal(s: u32, e: i32, t: vec2<u32>, sticky: bool, rm: u32) -> vec2<u32> {
  let m = (t.x >> 11u) | (t.y << 21u);
  let lo = m + select(0u, 1u, f64_round_up((t.x & 0x7ffu) | select(0u, 1u, sticky), m & 1u, s, rm));
  // a carry out of the significand raises the exponent; past 2046 it gives the infinity IEEE wants,
  // as only the modes that overflow to infinity round up to 2^1024
  let hi = (t.y >> 11u) + (u32(e - 1) << 20u) + select(0u, 1u, lo < m);
  return vec2<u32>(lo, hi | (s << 31u));
}

// fma when a, b are normal, ea + eb in [1128, 3067] and c finite with ec <= 2045: then |a * b| <
// 2^1023 and |c| < 2^1023 sum below 2^1024 (f64_round_normal's limit), and the result is normal: it is
// above |a * b| / 2 >= 2^-919 unless c is within two binades of a * b, and then a nonzero result
// is a multiple of a * b's last bit, 2^(ea + eb - 2150) >= 2^-1022.
// The product p = 2 ma mb (107 bits) is exact; c's significand is placed at p's scale; the
// operand with the smaller exponent is shifted right, its lost bits jammed into bit 0. The other
// one's bit 0 is clear (hence the 2 in p), and the rounding looks at far coarser bits, so x - y
// and x + y with the jam fall between the same two even numbers as the exact sum and round alike;
// the sum is exact in 128 bits.
fn f64_fma_fast(a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, rm: u32, ea: u32, eb: u32, ec: u32) -> vec2<u32> {
  let ma = f64_sig(a);
  let p = f64_sig_mul(vec2<u32>(ma.x << 1u, (ma.y << 1u) | (ma.x >> 31u)), f64_sig(b)); // a * b = p * 2^(ea + eb - 2151)
  // c = (mc << (53 + d)) * 2^(ea + eb - 2151), a subnormal or zero c without the hidden bit (zero
  // leaves p alone); it is never far
  let mc = vec2<u32>(c.x, (c.y & 0xfffffu) | select(0u, 0x100000u, ec != 0u));
  let d = i32(max(ec, 1u)) - i32(ea + eb) + 1023;
  // far: |c| > 2 |a * b|, c is the anchor (scale 2^(ec - 1128)) and p moves; otherwise p is the
  // anchor and c, at most 2 bits above p's top, moves (exactly when the two may cancel)
  let far = d >= 3;
  let c53 = vec4<u32>(0u, mc.x << 21u, (mc.y << 21u) | (mc.x >> 11u), mc.y >> 11u);
  let c55 = vec4<u32>(0u, mc.x << 23u, (mc.y << 23u) | (mc.x >> 9u), mc.y >> 9u);
  let x = select(p, c53, far);
  let y = u128_shr_jam(select(c55, p, far), u32(min(select(2 - d, d, far), 127)));
  let sp = (a.y ^ b.y) >> 31u;
  let sc = c.y >> 31u;
  // x + y or x - y in two's complement (below 2^109 in magnitude); negative only near cancellation
  let flip = select(0u, 0xffffffffu, sp != sc);
  let r0 = u128_addc(x, y ^ vec4<u32>(flip), flip & 1u);
  let neg = select(0u, 0xffffffffu, (r0.w >> 31u) != 0u);
  let r1 = u128_addc(r0 ^ vec4<u32>(neg), vec4<u32>(0u), neg & 1u);
  // normalise: the top nonzero word to .w (by 64, then 32), then its leading bit to bit 63 of t
  let z2 = (r1.w | r1.z) == 0u;
  let r2 = select(r1, vec4<u32>(0u, 0u, r1.x, r1.y), z2);
  let z1 = r2.w == 0u;
  let r = select(r2, vec4<u32>(0u, r2.x, r2.y, r2.z), z1);
  let lz = countLeadingZeros(r.w);
  let nl = 31u - lz;
  let t = vec2<u32>((r.z << lz) | ((r.y >> 1u) >> nl), (r.w << lz) | ((r.z >> 1u) >> nl));
  let sticky = ((r.y << lz) | r.x) != 0u;
  // r1's leading bit is bit 127 - lz - 64 z2 - 32 z1; its bit 0 is worth 2^(ea + eb - 2151), or
  // 2^(ec - 1128) when far
  let e = select(i32(ea + eb) - 1128, i32(ec) - 105, far) + 127 - i32(lz) - select(0, 64, z2) - select(0, 32, z1);
  let s = select(sp, sc, far) ^ (neg & 1u);
  // an exact zero (only from cancellation) is +0, or -0 when rounding down
  if (r.w == 0u) { return vec2<u32>(0u, select(0u, 0x80000000u, rm == 2u)); }
  return f64_round_normal(s, e, t, sticky, rm);
}

// mul when a, b are normal and ea + eb in [1024, 3068]: the product is in [2^-1022, 2^1024).
fn f64_mul_fast(a: vec2<u32>, b: vec2<u32>, rm: u32, ea: u32, eb: u32) -> vec2<u32> {
  let p = f64_sig_mul(f64_sig(a), f64_sig(b));
  let lz = countLeadingZeros(p.w); // 22 or 23: p's leading bit is 127 - lz, worth 2^(ea + eb - 2150)
  let t = vec2<u32>((p.y >> (32u - lz)) | (p.z << lz), (p.z >> (32u - lz)) | (p.w << lz));
  return f64_round_normal((a.y ^ b.y) >> 31u, i32(ea + eb) - 1000 - i32(lz), t, ((p.y << lz) | p.x) != 0u, rm);
}

// add when a, b are normal with exponents in [53, 2045]: the sum is below 2^1024 and a nonzero one
// is a multiple of 2^-1022. x, the operand of larger magnitude, is the anchor with its leading bit
// at 62; y shifted right with its lost bits jammed into bit 0 (as in f64_fma_fast); x - y >= 0.
fn f64_add_fast(a: vec2<u32>, b: vec2<u32>, rm: u32, ea: u32, eb: u32) -> vec2<u32> {
  let ha = a.y & 0x7fffffffu; let hb = b.y & 0x7fffffffu;
  let swap = (hb > ha) | ((hb == ha) & (b.x > a.x));
  let x = select(a, b, swap); let y = select(b, a, swap);
  let ex = select(ea, eb, swap); let ey = select(eb, ea, swap);
  let fx = f64_sig(x); let fy = f64_sig(y);
  let mx = vec2<u32>(fx.x << 10u, (fx.y << 10u) | (fx.x >> 22u));
  let my = u64_shr_jam(vec2<u32>(fy.x << 10u, (fy.y << 10u) | (fy.x >> 22u)), min(ex - ey, 63u));
  let r = select(i64_add(mx, my), i64_sub(mx, my), ((a.y ^ b.y) >> 31u) != 0u);
  // normalise: the leading bit to bit 63 of t (by 32 first when the high word is zero)
  let z1 = r.y == 0u;
  let rr = select(r, vec2<u32>(0u, r.x), z1);
  let lz = countLeadingZeros(rr.y);
  let t = vec2<u32>(rr.x << lz, (rr.y << lz) | ((rr.x >> 1u) >> (31u - lz)));
  // r's leading bit is bit 63 - lz - 32 z1; its bit 62 is worth x's leading bit
  if (rr.y == 0u) { return vec2<u32>(0u, select(0u, 0x80000000u, rm == 2u)); }
  return f64_round_normal(x.y >> 31u, i32(ex) + 1 - i32(lz) - select(0, 32, z1), t, false, rm);
}

// fma.{rn,rz,rm,rp}.f64: a * b + c with one rounding.
fn f64_fma(a: vec2<u32>, b: vec2<u32>, c: vec2<u32>, rm: u32) -> vec2<u32> {
  let ea = (a.y >> 20u) & 0x7ffu; let eb = (b.y >> 20u) & 0x7ffu; let ec = (c.y >> 20u) & 0x7ffu;
  if ((ea - 1u < 2046u) & (eb - 1u < 2046u) & (ec < 2046u) & (ea + eb - 1128u < 1940u)) { return f64_fma_fast(a, b, c, rm, ea, eb, ec); }
  if (f64_isnan(a) | f64_isnan(b) | f64_isnan(c)) { return f64_nan_in(b, select(a, c, f64_isnan(c))); }
  let sp = (a.y ^ b.y) >> 31u;
  let sc = c.y >> 31u;
  let pzero = f64_iszero(a) | f64_iszero(b);
  let pinf = f64_isinf(a) | f64_isinf(b);
  if (pinf & (pzero | (f64_isinf(c) & (sc != sp)))) { return f64_nan(); }
  if (pinf) { return vec2<u32>(0u, 0x7ff00000u | (sp << 31u)); }
  if (f64_isinf(c)) { return c; }
  if (pzero) { return select(c, f64_zero_sum(sp, sc, rm), f64_iszero(c)); }
  let ua = f64_unpack(a); let ub = f64_unpack(b);
  // significands at bits 63 and 61: the product's top bit is at 124 or 125
  let p = u64_mul_wide(i64_shl(ua.xy, 11u), i64_shl(ub.xy, 9u));
  let xp = i32(ua.z) + i32(ub.z) - 2170;
  if (f64_iszero(c)) { return f64_round128(sp, xp, p, rm); }
  return f64_sum(sp, p, xp, c, rm);
}

fn f64_add(a: vec2<u32>, b: vec2<u32>, rm: u32) -> vec2<u32> {
  let ea = (a.y >> 20u) & 0x7ffu; let eb = (b.y >> 20u) & 0x7ffu;
  if ((ea - 53u < 1993u) & (eb - 53u < 1993u)) { return f64_add_fast(a, b, rm, ea, eb); }
  if (f64_isnan(a) | f64_isnan(b)) { return f64_nan_in(b, a); }
  let sa = a.y >> 31u;
  let sb = b.y >> 31u;
  if (f64_isinf(a)) { return select(a, f64_nan(), f64_isinf(b) & (sa != sb)); }
  if (f64_isinf(b)) { return b; }
  if (f64_iszero(a)) { return select(b, f64_zero_sum(sa, sb, rm), f64_iszero(b)); }
  if (f64_iszero(b)) { return a; }
  let ua = f64_unpack(a);
  return f64_sum(sa, vec4<u32>(0u, 0u, ua.x << 8u, (ua.y << 8u) | (ua.x >> 24u)), i32(ua.z) - 1147, b, rm);
}

fn f64_sub(a: vec2<u32>, b: vec2<u32>, rm: u32) -> vec2<u32> {
  return f64_add(a, select(vec2<u32>(b.x, b.y ^ 0x80000000u), b, f64_isnan(b)), rm);
}

fn f64_mul(a: vec2<u32>, b: vec2<u32>, rm: u32) -> vec2<u32> {
  let ea = (a.y >> 20u) & 0x7ffu; let eb = (b.y >> 20u) & 0x7ffu;
  if ((ea - 1u < 2046u) & (eb - 1u < 2046u) & (ea + eb - 1024u < 2045u)) { return f64_mul_fast(a, b, rm, ea, eb); }
  if (f64_isnan(a) | f64_isnan(b)) { return f64_nan_in(b, a); }
  let s = (a.y ^ b.y) >> 31u;
  let az = f64_iszero(a); let bz = f64_iszero(b);
  let ainf = f64_isinf(a); let binf = f64_isinf(b);
  if ((ainf & bz) | (binf & az)) { return f64_nan(); }
  if (ainf | binf) { return vec2<u32>(0u, 0x7ff00000u | (s << 31u)); }
  if (az | bz) { return vec2<u32>(0u, s << 31u); }
  let ua = f64_unpack(a); let ub = f64_unpack(b);
  return f64_round128(s, i32(ua.z) + i32(ub.z) - 2150, u64_mul_wide(ua.xy, ub.xy), rm);
}

// div.{rn,rz,rm,rp}.f64 by restoring division of the significands (64 quotient bits + sticky).
fn f64_div(a: vec2<u32>, b: vec2<u32>, rm: u32) -> vec2<u32> {
  let s = (a.y ^ b.y) >> 31u;
  let ua = f64_unpack(a); let ub = f64_unpack(b);
  let ainf = f64_isinf(a); let binf = f64_isinf(b);
  let az = all(ua.xy == vec2<u32>(0u)); let bz = all(ub.xy == vec2<u32>(0u));
  if (f64_isnan(a) | f64_isnan(b)) { return f64_nan_in(a, b); }
  if ((ainf & binf) | (az & bz)) { return f64_nan(); }
  if (ainf | bz) { return vec2<u32>(0u, 0x7ff00000u | (s << 31u)); }
  if (binf | az) { return vec2<u32>(0u, s << 31u); }
  var r = ua.xy;
  var e = i32(ua.z) - i32(ub.z) + 1023;
  if (i64_ult(r, ub.xy)) { r = i64_shl(r, 1u); e = e - 1; }
  var q = vec2<u32>(0u);
  for (var i = 0u; i < 64u; i = i + 1u) {
    let ge = !i64_ult(r, ub.xy);
    if (ge) { r = i64_sub(r, ub.xy); }
    q = vec2<u32>((q.x << 1u) | select(0u, 1u, ge), (q.y << 1u) | (q.x >> 31u));
    r = i64_shl(r, 1u);
  }
  return f64_round(s, e, vec2<u32>(q.x | select(0u, 1u, any(r != vec2<u32>(0u))), q.y), rm);
}

// sqrt.{rn,rz,rm,rp}.f64: digit-by-digit square root of the significand (58 root bits + sticky).
fn f64_sqrt(a: vec2<u32>, rm: u32) -> vec2<u32> {
  let u = f64_unpack(a);
  if (f64_isnan(a)) { return f64_nan_in(a, a); }
  if (all(u.xy == vec2<u32>(0u))) { return a; }
  if ((a.y >> 31u) != 0u) { return f64_nan(); }
  if (f64_isinf(a)) { return a; }
  var m = u.xy;
  var e = i32(u.z) - 1075;
  if ((e & 1) != 0) { m = i64_shl(m, 1u); e = e - 1; }
  var q = vec2<u32>(0u);
  var r = vec2<u32>(0u);
  for (var i = 0u; i < 58u; i = i + 1u) {
    let pair = select(0u, i64_shr_u(m, 52u - 2u * i).x & 3u, i <= 26u);
    r = i64_shl(r, 2u) | vec2<u32>(pair, 0u);
    let t = i64_shl(q, 2u) | vec2<u32>(1u, 0u);
    let ge = !i64_ult(r, t);
    if (ge) { r = i64_sub(r, t); }
    q = i64_shl(q, 1u) | vec2<u32>(select(0u, 1u, ge), 0u);
  }
  return f64_round(0u, (e >> 1u) + 1055, vec2<u32>(q.x | select(0u, 1u, any(r != vec2<u32>(0u))), q.y), rm);
}

// min/max.f64: a NaN operand yields the other one (both NaN: b, quieted); -0 < +0.
fn f64_minmax(a: vec2<u32>, b: vec2<u32>, is_max: bool) -> vec2<u32> {
  if (f64_isnan(a) & f64_isnan(b)) { return f64_nan_in(b, a); }
  if (f64_isnan(a)) { return b; }
  if (f64_isnan(b)) { return a; }
  let c = f64_cmp(a, b);
  if (c == 1u) { return select(a | b, a & b, is_max); }
  return select(a, b, (c == 2u) != is_max);
}

// 0: a < b, 1: a == b, 2: a > b, 3: unordered.
fn f64_cmp(a: vec2<u32>, b: vec2<u32>) -> u32 {
  if (f64_isnan(a) | f64_isnan(b)) { return 3u; }
  if (all(a == b) | ((((a.y | b.y) & 0x7fffffffu) == 0u) & ((a.x | b.x) == 0u))) { return 1u; }
  // order-preserving keys: flip all bits of negatives, the sign bit of positives
  let ka = select(vec2<u32>(a.x, a.y ^ 0x80000000u), ~a, (a.y >> 31u) != 0u);
  let kb = select(vec2<u32>(b.x, b.y ^ 0x80000000u), ~b, (b.y >> 31u) != 0u);
  return select(2u, 0u, i64_ult(ka, kb));
}

// setp/set: `mask` has bit k set when the result is true for f64_cmp outcome k.
fn f64_setp(a: vec2<u32>, b: vec2<u32>, mask: u32) -> bool { return ((mask >> f64_cmp(a, b)) & 1u) != 0u; }

fn u32_shr_sticky(m: u32, n: u32) -> u32 {
  if (n >= 32u) { return select(0u, 1u, m != 0u); }
  return (m >> n) | select(0u, 1u, ((m >> n) << n) != m);
}

// cvt.f64.f32 (exact): `x` are the f32 bits; NaNs keep their payload, quieted, except with
// .ftz, which turns every NaN into 0x7fffffff_e0000000 (as recorded).
fn f64_from_f32(x: u32, ftz: bool) -> vec2<u32> {
  let e = (x >> 23u) & 0xffu;
  let s = x >> 31u;
  if (ftz & ((x & 0x7fffffffu) > 0x7f800000u)) { return vec2<u32>(0xe0000000u, 0x7fffffffu); }
  if (e == 0xffu) {
    return vec2<u32>(x << 29u, (x & 0x80000000u) | 0x7ff00000u | ((x >> 3u) & 0xfffffu) | select(0u, 0x80000u, (x & 0x7fffffu) != 0u));
  }
  if ((e == 0u) & ftz) { return vec2<u32>(0u, s << 31u); }
  let m = (x & 0x7fffffu) | select(0u, 0x800000u, e != 0u);
  return f64_round(s, i32(max(e, 1u)) + 896, vec2<u32>(0u, m << 8u), 1u);
}

// cvt.{rn,rz,rm,rp}{.ftz}.f32.f64, returning f32 bits. ftz flushes subnormal results.
fn f64_to_f32(a: vec2<u32>, rm: u32, ftz: bool) -> u32 {
  let s = a.y >> 31u;
  if (f64_isnan(a)) { return (a.y & 0x80000000u) | 0x7fc00000u | ((a.y & 0xfffffu) << 3u) | (a.x >> 29u); }
  if (f64_isinf(a)) { return (s << 31u) | 0x7f800000u; }
  let u = f64_unpack(a);
  let m64 = i64_shl(u.xy, 11u);
  let e = i32(u.z) - 896;
  let m = u32_shr_sticky(m64.y | select(0u, 1u, m64.x != 0u), u32(clamp(1 - e, 0, 32)));
  let q = m >> 8u;
  var r = q + (u32(max(e - 1, 0)) << 23u) + select(0u, 1u, f64_round_up((m & 0xffu) << 3u, q & 1u, s, rm));
  if ((e >= 255) | (r >= 0x7f800000u)) {
    r = select(0x7f800000u, 0x7f7fffffu, (rm == 1u) | ((rm == 2u) & (s == 0u)) | ((rm == 3u) & (s == 1u)));
  }
  if (ftz & (r < 0x800000u)) { r = 0u; }
  return r | (s << 31u);
}

// cvt.{rn,rz,rm,rp}.{f16,bf16}.f64: rounded once into the (fb, eb) half format; NaNs keep their
// sign and the top of their payload, quieted (as an H100 does).
fn f64_to_fr(a: vec2<u32>, rm: u32, fb: u32, eb: u32) -> u32 {
  let s = a.y >> 31u;
  if (f64_isnan(a)) {
    return (s << (fb + eb)) | (((1u << eb) - 1u) << fb) | (1u << (fb - 1u)) | ((a.y & 0xfffffu) >> (20u - fb));
  }
  if (f64_isinf(a)) { return (s << (fb + eb)) | (((1u << eb) - 1u) << fb); }
  if (((a.y & 0x7fffffffu) | a.x) == 0u) { return s << (fb + eb); }
  let u = f64_unpack(a);
  let m = i64_shl(u.xy, 11u); // leading bit at bit 63: the value is m * 2^(e - 1086)
  return fr_pack(s, m.y | select(0u, 1u, m.x != 0u), i32(u.z) - 1086 + 32, rm, fb, eb);
}

// .sat of f32 bits: clamp to [0, 1], NaN and -0 to +0.
fn f32_bits_sat(x: u32) -> u32 {
  if (((x & 0x7fffffffu) > 0x7f800000u) | ((x >> 31u) != 0u)) { return 0u; }
  return min(x, 0x3f800000u);
}

fn f64_sat(a: vec2<u32>) -> vec2<u32> {
  if (f64_isnan(a) | ((a.y >> 31u) != 0u)) { return vec2<u32>(0u); }
  return select(a, vec2<u32>(0u, 0x3ff00000u), a.y >= 0x3ff00000u);
}

// cvt.{rn,rz,rm,rp}.f64.{s,u}64 (32-bit sources arrive widened).
fn f64_from_int(x: vec2<u32>, signed: bool, rm: u32) -> vec2<u32> {
  let neg = signed & ((x.y >> 31u) != 0u);
  return f64_round(select(0u, 1u, neg), 1086, select(x, i64_neg(x), neg), rm);
}

// |a| rounded to an integer in mode rm (rni rzi rmi rpi as 0..3), for |a| < 2^64; larger
// magnitudes give some value at least 2^63.
fn f64_int_mag(a: vec2<u32>, rm: u32) -> vec2<u32> {
  let u = f64_unpack(a);
  let e = i32(u.z);
  if (e > 1075) { return i64_shl(u.xy, u32(min(e - 1075, 11))); }
  let t = u64_shr_sticky(i64_shl(u.xy, 11u), u32(1075 - e));
  let q = i64_shr_u(t, 11u);
  return i64_add(q, vec2<u32>(select(0u, 1u, f64_round_up(t.x & 0x7ffu, q.x & 1u, a.y >> 31u, rm)), 0u));
}

// cvt.{rni,rzi,rmi,rpi}.{s,u}{bits}.f64: out of range saturates; NaN gives 1 << (bits - 1),
// for unsigned destinations too (as recorded).
fn f64_to_int(a: vec2<u32>, rm: u32, signed: bool, bits: u32) -> vec2<u32> {
  if (f64_isnan(a)) { return i64_shl(vec2<u32>(1u, 0u), bits - 1u); }
  let neg = (a.y >> 31u) != 0u;
  var mag = f64_int_mag(a, rm);
  let over = ((a.y >> 20u) & 0x7ffu) > 1086u;
  if (!signed & neg) { return vec2<u32>(0u); }
  let lim = i64_sub(i64_shl(vec2<u32>(1u, 0u), bits - select(0u, 1u, signed)), vec2<u32>(select(1u, 0u, neg), 0u));
  if (over | i64_ult(lim, mag)) { mag = lim; }
  return select(mag, i64_neg(mag), neg);
}

// cvt.{rni,rzi,rmi,rpi}.f64.f64: round to an integral value, keeping the sign of zero.
fn f64_rint(a: vec2<u32>, rm: u32) -> vec2<u32> {
  if (f64_isnan(a)) { return f64_nan_in(a, a); }
  if (((a.y >> 20u) & 0x7ffu) >= 1075u) { return a; }
  return f64_round(a.y >> 31u, 1086, f64_int_mag(a, rm), 1u);
}

// rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64: from the upper word only, the result's lower word
// zero; subnormal inputs and results flush to zero; a NaN upper word gives 0x7fffffff_00000000.
fn f64_approx_hi(a: vec2<u32>, is_rsqrt: bool) -> vec2<u32> {
  if ((a.y & 0x7fffffffu) > 0x7ff00000u) { return vec2<u32>(0u, 0x7fffffffu); }
  let h = select(vec2<u32>(0u, a.y), vec2<u32>(0u, a.y & 0x80000000u), (a.y & 0x7ff00000u) == 0u);
  let one = vec2<u32>(0u, 0x3ff00000u);
  let r = select(f64_div(one, h, 0u), f64_div(one, f64_sqrt(h, 0u), 0u), is_rsqrt);
  return select(vec2<u32>(0u, r.y), vec2<u32>(0u, r.y & 0x80000000u), (r.y & 0x7ff00000u) == 0u);
}

// neg/abs.f64: the sign bit, except that a NaN is only quieted (as recorded).
fn f64_neg(a: vec2<u32>) -> vec2<u32> { return select(a ^ vec2<u32>(0u, 0x80000000u), f64_nan_in(a, a), f64_isnan(a)); }
fn f64_abs(a: vec2<u32>) -> vec2<u32> { return select(a & vec2<u32>(0xffffffffu, 0x7fffffffu), f64_nan_in(a, a), f64_isnan(a)); }

