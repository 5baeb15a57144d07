// Exactly rounded f32 arithmetic in integer arithmetic, for the rounding modes WGSL cannot
// express (.rz .rm .rp) and for operations whose WGSL built-in is not correctly rounded
// (division, square root). Integer operations are exact on every device, unlike float
// tricks, which Mesa/LLVM may re-associate. Operands and results are f32 bit patterns;
// `rm` is 0 rn, 1 rz, 2 rm, 3 rp. NaN results are NVIDIA's canonical NaN 0x7fffffff.

// (significand, exponent) of finite f32 bits, normalised so the significand has bit 23 set
// (subnormals included): the value is m * 2^e.
fn f32r_unpack(u: u32) -> vec2<i32> {
  let ex = (u >> 23u) & 0xffu;
  let fr = (u & 0x7fffffu) | select(0u, 0x800000u, ex != 0u);
  let sh = countLeadingZeros(fr) - 8u;
  return vec2<i32>(i32(fr << sh), i32(max(ex, 1u)) - 150 - i32(sh));
}

// Rounds (-1)^s * m * 2^e (m != 0, sticky in bit 0) in mode rm to the format with fb fraction
// and eb exponent bits (f32 23/8, f16 10/5, bf16 7/8), subnormals included; returns its bits.
fn fr_pack(s: u32, m0: u32, e0: i32, rm: u32, fb: u32, eb: u32) -> u32 {
  let bias = (1 << (eb - 1u)) - 1;
  let lz = countLeadingZeros(m0);
  let be = e0 - i32(lz) + 31 + bias; // biased exponent of the leading bit
  let m = select(m0 << lz, 1u, be < -i32(fb)); // below half the least subnormal: only sticky
  let sh = u32(clamp(1 - be, 0, i32(fb) + 1)) + 31u - fb; // bits dropped, more for subnormals
  let kept = (m >> 1u) >> (sh - 1u);
  let low = select((1u << (sh & 31u)) - 1u, 0xffffffffu, sh == 32u);
  let rem = m & low;
  let half = (low >> 1u) + 1u;
  let nearest = (rem > half) | ((rem == half) & ((kept & 1u) == 1u));
  let up = select(nearest & (rm == 0u), (rem != 0u) & ((rm == 3u) != (s == 1u)), rm >= 2u);
  let emax = (1 << eb) - 1;
  let inf = u32(emax) << fb;
  var r = (u32(clamp(be - 1, 0, emax)) << fb) + kept + select(0u, 1u, up);
  if ((be >= emax) | (r >= inf)) {
    r = select(inf, inf - 1u, (rm == 1u) | ((rm == 2u) & (s == 0u)) | ((rm == 3u) & (s == 1u)));
  }
  return r | (s << (fb + eb));
}

fn f32r_pack(s: u32, m: u32, e: i32, rm: u32) -> u32 { return fr_pack(s, m, e, rm, 23u, 8u); }

// f32 bits of a value representable in the (fb, eb) format, as that format's bits (NaN canonical).
fn fr_narrow(u: u32, fb: u32, eb: u32) -> u32 { return fr_narrow_rm(u, 0u, fb, eb); }

// f32 bits rounded in mode rm to the (fb, eb) format (cvt.frnd.f16.f32, cvt.frnd.bf16.f32).
fn fr_narrow_rm(u: u32, rm: u32, fb: u32, eb: u32) -> u32 {
  if (fb == 23u) { return select(u, 0x7fffffffu, f32r_isnan(u)); }
  let s = u >> 31u;
  if (f32r_isnan(u)) { return (1u << (fb + eb)) - 1u; }
  if ((u & 0x7fffffffu) == 0x7f800000u) { return (s << (fb + eb)) | (((1u << eb) - 1u) << fb); }
  if ((u & 0x7fffffffu) == 0u) { return s << (fb + eb); }
  let p = f32r_unpack(u);
  return fr_pack(s, u32(p.x), p.y, rm, fb, eb);
}

// f32 bits of a (fb, eb)-format value (exact; NaNs keep their payload, quieted).
fn fr_widen(h: u32, fb: u32, eb: u32) -> u32 {
  if (fb == 23u) { return h; }
  let s = (h >> (fb + eb)) << 31u;
  let emax = (1u << eb) - 1u;
  let ex = (h >> fb) & emax;
  let fr = h & ((1u << fb) - 1u);
  if (ex == emax) { return s | 0x7f800000u | (fr << (23u - fb)) | select(0u, 0x400000u, fr != 0u); }
  if ((ex == 0u) & (fr == 0u)) { return s; }
  let bias = i32((1u << (eb - 1u)) - 1u);
  return s | fr_pack(0u, fr | select(0u, 1u << fb, ex != 0u), i32(max(ex, 1u)) - bias - i32(fb), 0u, 23u, 8u);
}

// fr_widen for f16 and bf16 in a few operations: the portable mma widens every f16/bf16 element
// it multiplies, and fr_widen's general path (fr_pack) is large once inlined at each of them.
fn f16_widen(h: u32) -> u32 {
  let s = (h & 0x8000u) << 16u;
  let ex = (h >> 10u) & 0x1fu;
  let fr = h & 0x3ffu;
  let normal = ((ex + 112u) << 23u) | (fr << 13u);
  // a subnormal's fraction times 2^-24 is zero or an f32 normal: exact, also where subnormals flush
  let tiny = bitcast<u32>(f32(fr) * 0x1p-24f);
  let special = 0x7f800000u | (fr << 13u) | select(0u, 0x400000u, fr != 0u);
  return s | select(select(normal, tiny, ex == 0u), special, ex == 31u);
}
fn bf16_widen(h: u32) -> u32 {
  let u = (h & 0xffffu) << 16u;
  return select(u, u | 0x400000u, f32r_isnan(u));
}

fn f32r_isnan(u: u32) -> bool { return (u & 0x7fffffffu) > 0x7f800000u; }

// add/sub: |a| >= |b| after a swap; b is aligned below a with 7 guard bits and a sticky bit.
fn f32r_add(a: u32, b: u32, rm: u32) -> u32 { return fr_add(a, b, rm, 23u, 8u); }
fn f32r_mul(a: u32, b: u32, rm: u32) -> u32 { return fr_mul(a, b, rm, 23u, 8u); }

// Operands are f32 bits; the sum/product is rounded once to the (fb, eb) format (f16 and bf16
// operands widen exactly to f32, so one rounding from the exact result is kept).
fn fr_add(a0: u32, b0: u32, rm: u32, fb: u32, eb: u32) -> u32 {
  let swap = (b0 & 0x7fffffffu) > (a0 & 0x7fffffffu);
  let a = select(a0, b0, swap);
  let b = select(b0, a0, swap);
  if (f32r_isnan(a) | f32r_isnan(b)) { return fr_narrow(0x7fffffffu, fb, eb); }
  if ((a & 0x7fffffffu) == 0x7f800000u) { return fr_narrow(select(a, 0x7fffffffu, (b ^ a) == 0x80000000u), fb, eb); }
  if ((b & 0x7fffffffu) == 0u) {
    if ((a & 0x7fffffffu) != 0u) { return fr_narrow(a, fb, eb); }
    return fr_narrow(select(a & b, a | b, rm == 2u), fb, eb); // +0 + -0 is -0 only when rounding down
  }
  let ua = f32r_unpack(a);
  let ub = f32r_unpack(b);
  let d = u32(ua.y - ub.y);
  let mb = u32(ub.x) << 7u;
  let bs = select(select(1u, 0u, mb == 0u), (mb >> d) | select(0u, 1u, ((mb >> d) << d) != mb), d < 32u);
  let ma = u32(ua.x) << 7u;
  let m = select(ma + bs, ma - bs, ((a ^ b) >> 31u) != 0u);
  if (m == 0u) { return select(0u, 1u << (fb + eb), rm == 2u); }
  return fr_pack(a >> 31u, m, ua.y - 7, rm, fb, eb);
}

fn fr_mul(a: u32, b: u32, rm: u32, fb: u32, eb: u32) -> u32 {
  let s = (a ^ b) & 0x80000000u;
  let aa = a & 0x7fffffffu;
  let ab = b & 0x7fffffffu;
  if (f32r_isnan(a) | f32r_isnan(b) | ((aa == 0x7f800000u) & (ab == 0u)) | ((ab == 0x7f800000u) & (aa == 0u))) { return fr_narrow(0x7fffffffu, fb, eb); }
  if ((aa == 0x7f800000u) | (ab == 0x7f800000u)) { return fr_narrow(s | 0x7f800000u, fb, eb); }
  if ((aa == 0u) | (ab == 0u)) { return fr_narrow(s, fb, eb); }
  let ua = f32r_unpack(a);
  let ub = f32r_unpack(b);
  // 24 x 24 -> 48-bit product from 12-bit halves; keep its top 32 bits and a sticky bit.
  let ah = u32(ua.x) >> 12u; let al = u32(ua.x) & 0xfffu;
  let bh = u32(ub.x) >> 12u; let bl = u32(ub.x) & 0xfffu;
  let mid = ah * bl + al * bh;
  let lo = al * bl + ((mid & 0xfffu) << 12u);
  let hi = ah * bh + (mid >> 12u) + (lo >> 24u);
  let m = (hi << 8u) | ((lo & 0xffffffu) >> 16u) | select(0u, 1u, (lo & 0xffffu) != 0u);
  return fr_pack(s >> 31u, m, ua.y + ub.y + 16, rm, fb, eb);
}

fn f32r_div(a: u32, b: u32, rm: u32) -> u32 {
  let s = (a ^ b) & 0x80000000u;
  let aa = a & 0x7fffffffu;
  let ab = b & 0x7fffffffu;
  if (f32r_isnan(a) | f32r_isnan(b) | ((aa == ab) & ((aa == 0u) | (aa == 0x7f800000u)))) { return 0x7fffffffu; }
  if ((aa == 0x7f800000u) | (ab == 0u)) { return s | 0x7f800000u; }
  if ((aa == 0u) | (ab == 0x7f800000u)) { return s; }
  let ua = f32r_unpack(a);
  let ub = f32r_unpack(b);
  let mb = u32(ub.x);
  let lt = u32(ua.x) < mb;
  var r = u32(ua.x) << select(0u, 1u, lt);
  var q = 0u;
  // restoring division: 26 quotient bits (the first is 1), remainder below 2^25
  for (var i = 0u; i < 26u; i++) {
    let ge = r >= mb;
    q = (q << 1u) | select(0u, 1u, ge);
    r = (r - select(0u, mb, ge)) << 1u;
  }
  return f32r_pack(s >> 31u, (q << 1u) | select(0u, 1u, r != 0u), ua.y - ub.y - select(26, 27, lt), rm);
}

// div.rn.f32 where fma() is fused (the runtime's probe): a quotient q within one ulp of a/b from
// WGSL's own reciprocal (2.5 ulp), one Newton step and one residual correction, then the exact
// choice among q and its two neighbours. With q within an ulp the residual A - B*q is exact (it
// fits in 24 bits), and so is B times half an ulp of q (a power of two times B), so comparing the
// two says on which side of each rounding boundary a/b lies; a quotient is never exactly halfway
// between two floats (that would need 25 significant bits in a/b*b = a), so no tie arises.
// Operands and quotient are kept far enough from the range limits that every intermediate is a
// normal number (a flushing device then computes them all exactly): a in [2^-70, 2^121), b in
// [2^-120, 2^121), a/b in [2^-71, 2^121). Everything else (zeros, subnormals, infinities, NaN,
// extreme quotients) takes the integer division.
fn f32r_div_rn(a: u32, b: u32) -> u32 {
  let ea = (a >> 23u) & 0xffu;
  let eb = (b >> 23u) & 0xffu;
  if ((ea - 57u > 190u) | (eb - 7u > 240u) | (ea + 127u - eb - 57u > 190u)) { return f32r_div(a, b, 0u); }
  let fa = bitcast<f32>(a & 0x7fffffffu);
  let fb = bitcast<f32>(b & 0x7fffffffu);
  let y0 = 1.0f / fb;
  let y = fma(y0, fma(-fb, y0, 1.0f), y0);
  let q0 = fa * y;
  let q = fma(fma(-fb, q0, fa), y, q0);
  let r = fma(-fb, q, fa);
  let qb = bitcast<u32>(q);
  let up = fb * ((bitcast<f32>(qb + 1u) - q) * 0.5f);
  let down = fb * ((q - bitcast<f32>(qb - 1u)) * 0.5f);
  return select(select(qb, qb - 1u, -r > down), qb + 1u, r > up) | ((a ^ b) & 0x80000000u);
}

// sqrt.rn.f32 where fma() is fused: WGSL's sqrt (a few ulps), one Newton step, then the exact
// choice among s and its neighbours n and p. The midpoint above s squared is s*n + (n-s)^2/4, and
// x - s*n is a multiple of ulp(s)^2, which is more than that quarter: so x lies above the
// midpoint exactly when fma(-s, n, x) > 0; likewise below the midpoint under s exactly when
// fma(-s, p, x) <= 0 (no square root of a float is a midpoint). x in [2^-77, 2^126) keeps every
// step and those residuals normal; the rest (zero, subnormals, negatives, infinity, NaN, the
// extremes) takes the digit-by-digit root.
fn f32r_sqrt_rn(a: u32) -> u32 {
  if ((a >> 23u) - 50u > 202u) { return f32r_sqrt(a, 0u); }
  let x = bitcast<f32>(a);
  let s0 = sqrt(x);
  let s = fma(fma(-s0, s0, x), 0.5f / s0, s0);
  let sb = bitcast<u32>(s);
  let up = fma(-s, bitcast<f32>(sb + 1u), x) > 0.0f;
  let down = fma(-s, bitcast<f32>(sb - 1u), x) <= 0.0f;
  return select(select(sb, sb - 1u, down), sb + 1u, up);
}

fn f32r_sqrt(a: u32, rm: u32) -> u32 {
  if (f32r_isnan(a) | (a > 0x80000000u)) { return 0x7fffffffu; }
  if (((a & 0x7fffffffu) == 0u) | (a == 0x7f800000u)) { return a; }
  let ua = f32r_unpack(a);
  let odd = (ua.y & 1) != 0;
  let m = u32(ua.x) << select(0u, 1u, odd);
  let e = ua.y - select(0, 1, odd);
  // digit-by-digit square root of m * 2^28, two bits at a time: 27 result bits
  var r = 0u;
  var q = 0u;
  for (var i = 0u; i < 27u; i++) {
    let next = select((m >> (24u - 2u * min(i, 12u))) & 3u, 0u, i > 12u);
    r = (r << 2u) | next;
    let t = (q << 2u) | 1u;
    let ge = r >= t;
    r = r - select(0u, t, ge);
    q = (q << 1u) | select(0u, 1u, ge);
  }
  return f32r_pack(0u, (q << 1u) | select(0u, 1u, r != 0u), (e - 28) / 2 - 1, rm);
}

// .ftz of f32 bits: subnormals become zero of the same sign.
fn f32r_ftz(u: u32) -> u32 { return select(u, u & 0x80000000u, (u & 0x7f800000u) == 0u); }

// NaN results as NVIDIA produces them (canonical 0x7fffffff) for WGSL-rounded operations.
fn f32r_canon(x: f32) -> u32 { return f32r_canon_bits(bitcast<u32>(x)); }
fn f32r_canon_bits(u: u32) -> u32 { return select(u, 0x7fffffffu, f32r_isnan(u)); }

// fma.{rz,rm,rp}.f32 (fma.rn is fma32.wgsl's): the 48-bit product and c, both with their leading
// bit at bit 62 of a 64-bit integer, aligned with a sticky bit, added, and rounded once.
fn f32r_fma(a: u32, b: u32, c: u32, rm: u32) -> u32 { return fr_fma(a, b, c, rm, 23u, 8u); }

// Operands are f32 bits (f16/bf16 widen exactly); the result is rounded once to (fb, eb).
fn fr_fma(a: u32, b: u32, c: u32, rm: u32, fb: u32, eb: u32) -> u32 {
  let s = (a ^ b) & 0x80000000u;
  let aa = a & 0x7fffffffu;
  let ab = b & 0x7fffffffu;
  let ac = c & 0x7fffffffu;
  if (f32r_isnan(a) | f32r_isnan(b) | f32r_isnan(c) | ((aa == 0x7f800000u) & (ab == 0u)) | ((ab == 0x7f800000u) & (aa == 0u))) { return fr_narrow(0x7fffffffu, fb, eb); }
  if ((aa == 0x7f800000u) | (ab == 0x7f800000u)) { return fr_narrow(select(s | 0x7f800000u, 0x7fffffffu, (ac == 0x7f800000u) & ((c & 0x80000000u) != s)), fb, eb); }
  if (ac == 0x7f800000u) { return fr_narrow(c, fb, eb); }
  if ((aa == 0u) | (ab == 0u)) {
    if (ac != 0u) { return fr_narrow(c, fb, eb); }
    return fr_narrow(select(select(0u, 0x80000000u, rm == 2u), s, s == (c & 0x80000000u)), fb, eb);
  }
  let ua = f32r_unpack(a);
  let ub = f32r_unpack(b);
  var big = mul_wide_u32(u32(ua.x), u32(ub.x));
  let lp = i64_clz(big) - 1u;
  big = i64_shl(big, lp);
  var ex = ua.y + ub.y - i32(lp);
  var sb = s;
  var small = vec2<u32>(0u);
  var es = ex;
  var ss = c & 0x80000000u;
  if (ac != 0u) {
    let uc = f32r_unpack(c);
    small = vec2<u32>(0u, u32(uc.x) << 7u); // leading bit 23 -> 62
    es = uc.y - 39;
  }
  if ((es > ex) | ((es == ex) & i64_ult(big, small))) {
    let t = big; big = small; small = t;
    let te = ex; ex = es; es = te;
    let ts = sb; sb = ss; ss = ts;
  }
  let d = u32(ex - es);
  var al = vec2<u32>(0u, 0u);
  if (d >= 64u) { al.x = select(0u, 1u, any(small != vec2<u32>(0u))); }
  else {
    al = i64_shr_u(small, d);
    al.x = al.x | select(0u, 1u, any(i64_shl(al, d) != small));
  }
  let r = select(i64_sub(big, al), i64_add(big, al), sb == ss);
  if ((r.x == 0u) & (r.y == 0u)) { return select(0u, 1u << (fb + eb), rm == 2u); }
  let lz = i64_clz(r);
  let n = i64_shl(r, lz);
  return fr_pack(sb >> 31u, n.y | select(0u, 1u, n.x != 0u), ex + 32 - i32(lz), rm, fb, eb);
}

// .ftz of (fb, eb)-format bits: subnormals become zero of the same sign.
fn fr_ftz(h: u32, fb: u32, eb: u32) -> u32 {
  return select(h, h & (1u << (fb + eb)), ((h >> fb) & ((1u << eb) - 1u)) == 0u);
}

// abs/neg of (fb, eb)-format bits; NaNs become the canonical NaN (as an H100 does).
fn fr_absneg(u: u32, neg: bool, fb: u32, eb: u32) -> u32 {
  let sign = 1u << (fb + eb);
  let inf = ((1u << eb) - 1u) << fb;
  return select(select(u & (sign - 1u), u ^ sign, neg), sign - 1u, (u & (sign - 1u)) > inf);
}

// mul.ftz/fma.ftz results: NVIDIA detects tininess before rounding in IEEE 754's sense: the
// result rounded to the format's precision as though the exponent range were unbounded is below
// the least normal. So a result that rounds up to the least normal only on the subnormal grid
// flushes, and one that reaches it at full precision stays (an H100's fma.rn.ftz keeps
// 2^-126 - 2^-252, natively in CUDA and through Vulkan). Doubling the smaller factor (and the
// addend) moves the result into the normal range, where the format's own rounding is the
// unbounded one: tiny when that is below twice the least normal. `r` is in the (fb, eb)
// format, a b c are f32 bits (normal or zero after .ftz).
fn fr_double(u: u32) -> u32 { return select(u + 0x00800000u, u, (u & 0x7f800000u) == 0u); }
fn fr_tiny(r: u32, a: u32, b: u32, c: u32, is_fma: bool, fb: u32, eb: u32) -> u32 {
  let sign = 1u << (fb + eb);
  if ((r & (sign - 1u)) != (1u << fb)) { return r; }
  let a_larger = (a & 0x7f800000u) > (b & 0x7f800000u);
  let x = fr_double(select(a, b, a_larger));
  let y = select(b, a, a_larger);
  let r2 = select(fr_mul(x, y, 0u, fb, eb), fr_fma(x, y, fr_double(c), 0u, fb, eb), is_fma);
  return select(r, r & sign, (r2 & (sign - 1u)) < (2u << fb));
}

// .relu (negative to +0, NaN canonical) and .satfinite (infinities to MAX_NORM) on (fb, eb) bits.
fn fr_clamp(h: u32, relu: bool, satfinite: bool, fb: u32, eb: u32) -> u32 {
  let sign = 1u << (fb + eb);
  let inf = ((1u << eb) - 1u) << fb;
  if ((h & (sign - 1u)) > inf) { return sign - 1u; }
  if (relu & ((h & sign) != 0u)) { return 0u; }
  return select(h, (h & sign) | (inf - 1u), satfinite & ((h & (sign - 1u)) == inf));
}

// add.rn/mul.rn.f32: WGSL's own + and * (round to nearest even), checked once. A device may
// flush subnormal operands and results (NVIDIA's Vulkan driver does); a result it got wrong that
// way is then zero or below 2^-100 in magnitude (a flushed operand changes a sum only when the
// other operand is that small too, and a product only by making it zero), or not finite
// (subnormal x infinity): exactly the results whose exponent field is below 27 or all ones, which
// take the integer path (which also gives NaNs NVIDIA's canonical bits). One test on the result
// instead of one per operand matters: each check is inlined at every add and mul of a kernel.
fn f32r_suspect(r: u32) -> bool { return (((r & 0x7fffffffu) + 0x00800000u) & 0x7f800000u) < 0x0e000000u; }
// The sum's magnitude tested as a float (one compare with |r|, which NVIDIA's compiler folds into
// the compare; the integer form of the same test took a row layernorm's shuffle reductions on an
// H200 from 0.426 to 0.488 ms): at least 2^-100 is f32r_suspect's complement but for infinities,
// which are exact.
fn f32r_add_rn(a: u32, b: u32) -> u32 {
  let r = bitcast<f32>(a) + bitcast<f32>(b);
  if (abs(r) >= 0x1p-100f) { return bitcast<u32>(r); }
  return f32r_add_fix(a, b, bitcast<u32>(r));
}
// The exact sum from a device's native sum r (tests call it with a flushing device's r).
// A zero sum of operands equal but for the sign is exact (+0): real code subtracts equal values
// often (x - max(x), magic-number rounding), and the slow path there would run for nothing.
fn f32r_add_fix(a: u32, b: u32, r: u32) -> u32 {
  if (f32r_suspect(r) & ((r != 0u) | ((a ^ b) != 0x80000000u))) { return f32r_add_small(a, b, r); }
  return r;
}
// The suspect sums, small instead of the general integer adder (every lone checked add carries a
// copy, and a layernorm's shuffle reductions have a dozen): an infinite sum is exact and a NaN
// gets the canonical bits; with an operand of at least 2^-100 the native sum is exact (the exact
// sum is zero or normal, and a flushed subnormal other operand lies below a quarter ulp of it);
// two smaller operands are scaled by 2^64 in integers, where their sum is normal or exact, added
// natively and scaled back in integers (a subnormal result is an exact multiple of 2^-149).
fn f32r_add_small(a: u32, b: u32, r: u32) -> u32 {
  let m = r & 0x7fffffffu;
  if (m >= 0x7f800000u) { return select(r, 0x7fffffffu, m > 0x7f800000u); }
  if (max(a & 0x7fffffffu, b & 0x7fffffffu) >= 0x0d800000u) { return r; }
  return f32r_unscale64(bitcast<u32>(bitcast<f32>(f32r_scale64(a)) + bitcast<f32>(f32r_scale64(b))));
}
// x * 2^64 exactly for |x| < 2^-100: the exponent field raised, or a subnormal m * 2^-149 as
// f32(m) * 2^-85 (normal, so no device flushes it).
fn f32r_scale64(u: u32) -> u32 {
  let m = u & 0x7fffffffu;
  return select(u + 0x20000000u, (u & 0x80000000u) | bitcast<u32>(f32(m) * 0x1p-85f), m < 0x00800000u);
}
// x * 2^-64 exactly for a multiple x of 2^-85 below 2^-35: the exponent field lowered, or below
// 2^-62 the subnormal whose bits are the integer x * 2^85.
fn f32r_unscale64(u: u32) -> u32 {
  let m = u & 0x7fffffffu;
  return select(u - 0x20000000u, (u & 0x80000000u) | u32(bitcast<f32>(m) * 0x1p85f), m < 0x20800000u);
}
fn f32r_mul_rn(a: u32, b: u32) -> u32 {
  let r = bitcast<f32>(a) * bitcast<f32>(b);
  if (abs(r) >= 0x1p-100f) { return bitcast<u32>(r); }
  return fr_mul(a, b, 0u, 23u, 8u);
}

// tanh.approx on (fb, eb) half bits, through f32. Below 2^-12, tanh(x) rounds to x in a half
// format (and WGSL tanh built-ins may lose relative accuracy there: lavapipe's does).
fn fr_tanh(h: u32, fb: u32, eb: u32) -> u32 {
  let u = fr_widen(h, fb, eb);
  if ((u & 0x7fffffffu) < 0x39800000u) { return h; }
  return fr_narrow(f32r_tanh(u), fb, eb);
}
