// Exactly rounded f32 fused multiply-add in 32-bit integer arithmetic, for devices whose WGSL
// fma() is a separate multiply and add (lavapipe, SwiftShader). Float tricks (error-free
// transformations) are not used because those compilers may re-associate float operations
// that WGSL does not mark exact. The helper is branch-light on purpose: kernels inline it once
// per fma (an unrolled sgemm has dozens), and SwiftShader's compile time grows with control flow.
//
// Method: both significands are normalised to 24 bits; the 48-bit product and the addend are
// placed in 64-bit integers (lo, hi) with their leading bit at bit 62, the smaller one is aligned
// with a sticky bit, they are added or subtracted, and the result is rounded to nearest-even once,
// subnormal results included.

// The significand (bit 23 set) and the exponent of its bit 0, for a finite non-zero f32.
fn f32_fma_unpack(u: u32) -> vec2<i32> {
  let ex = (u >> 23u) & 0xffu;
  let m = select(u & 0x7fffffu, (u & 0x7fffffu) | 0x800000u, ex != 0u);
  let lz = countLeadingZeros(m) - 8u;
  return vec2<i32>(i32(m << lz), select(-149, i32(ex) - 150, ex != 0u) - i32(lz));
}

// v >> d for a 64-bit v = (lo, hi), with every shifted-out 1 folded into bit 0 (sticky).
fn f32_fma_shr_sticky(v: vec2<u32>, d: u32) -> vec2<u32> {
  let s = d & 31u;
  let big = d >= 32u;
  let lo = select((v.x >> s) | ((v.y << 1u) << (31u - s)), v.y >> s, big);
  let hi = select(v.y >> s, 0u, big);
  let lost_mask = vec2<u32>(select((1u << s) - 1u, 0xffffffffu, big), select(0u, (1u << s) - 1u, big));
  let far = d >= 64u;
  let lost = any((v & select(lost_mask, vec2<u32>(0xffffffffu), far)) != vec2<u32>(0u));
  return vec2<u32>(select(lo, 0u, far) | select(0u, 1u, lost), select(hi, 0u, far));
}

// Operands and result are bit patterns, never f32 values: a device that flushes subnormals
// (NVIDIA's Vulkan driver) may flush an f32 value on its way through, which the exact result
// must not meet.
fn f32_fma_exact(ua: u32, ub: u32, uc: u32) -> u32 {
  let inf = 0x7f800000u;
  let sp = (ua ^ ub) & 0x80000000u;
  let a_zero = (ua & 0x7fffffffu) == 0u; let b_zero = (ub & 0x7fffffffu) == 0u;
  let c_zero = (uc & 0x7fffffffu) == 0u;
  let ab_special = ((ua & inf) == inf) | ((ub & inf) == inf);
  // Operands the integer path does not handle, and their exact results: with an infinite or
  // NaN a or b, a*b + c is exact; with an infinite or NaN c and a finite product, c is; with a
  // zero product, only x + 0 and the sign of 0 + 0 remain.
  let c_special = (uc & inf) == inf;
  let special = ab_special | c_special | a_zero | b_zero;
  // In integers, not a * b + c: a device that flushes subnormals would make subnormal x inf NaN.
  let a_inf = (ua & 0x7fffffffu) == inf; let b_inf = (ub & 0x7fffffffu) == inf;
  let ab_nan = ((ua & 0x7fffffffu) > inf) | ((ub & 0x7fffffffu) > inf) | (a_inf & b_zero) | (b_inf & a_zero);
  let c_nan = (uc & 0x7fffffffu) > inf;
  let inf_minus_inf = c_special & !c_nan & ((uc & 0x80000000u) != sp);
  let ab_result = select(sp | inf, 0x7fffffffu, ab_nan | c_nan | inf_minus_inf);
  let special_result = select(select(uc, sp & uc, c_zero), select(uc, ab_result, ab_special), ab_special | c_special);
  let pa = f32_fma_unpack(ua);
  let pb = f32_fma_unpack(ub);
  // 24 x 24-bit product in (lo, hi) from 16-bit halves.
  let ma = u32(pa.x); let mb = u32(pb.x);
  let al = ma & 0xffffu; let ah = ma >> 16u; let bl = mb & 0xffffu; let bh = mb >> 16u;
  let mid = ah * bl + al * bh;
  let ll = al * bl;
  let plo = ll + (mid << 16u);
  let phi = ah * bh + (mid >> 16u) + select(0u, 1u, plo < ll);
  // Leading bit of the product to bit 62 (it is at bit 47 or 46).
  let sh = select(16u, 15u, (phi & 0x8000u) != 0u);
  let p0 = vec2<u32>(plo << sh, (phi << sh) | (plo >> (32u - sh)));
  let ep0 = pa.y + pb.y - i32(sh) + 62; // exponent of bit 62
  // The addend with its leading bit at bit 62; a zero addend becomes a far-small zero term.
  let pc = f32_fma_unpack(uc);
  let q0 = vec2<u32>(0u, select(u32(pc.x) << 7u, 0u, c_zero));
  let eq0 = select(pc.y + 23, -1000, c_zero);
  let sq = uc & 0x80000000u;
  // Order by magnitude: p := the larger.
  let swap = (eq0 > ep0) | ((eq0 == ep0) & ((q0.y > p0.y) | ((q0.y == p0.y) & (q0.x > p0.x))));
  let p = select(p0, q0, swap); let q = select(q0, p0, swap);
  let ep = select(ep0, eq0, swap); let eq = select(eq0, ep0, swap);
  let sr = select(sp, sq, swap);
  let small = f32_fma_shr_sticky(q, u32(ep - eq));
  let slo = p.x + small.x;
  let sum = vec2<u32>(slo, p.y + small.y + select(0u, 1u, slo < p.x));
  let diff = vec2<u32>(p.x - small.x, p.y - small.y - select(0u, 1u, p.x < small.x));
  let r = select(diff, sum, sp == sq);
  // Leading bit to bit 63; keep the top 32 bits with the rest folded into a sticky bit.
  let lz = select(countLeadingZeros(r.y), 32u + countLeadingZeros(r.x), r.y == 0u);
  let s = lz & 31u;
  let top = select((r.y << s) | ((r.x >> 1u) >> (31u - s)), r.x << s, lz >= 32u);
  let rest = select(r.x << s, 0u, lz >= 32u);
  let t = top | select(0u, 1u, rest != 0u);
  let em = ep + 1 - i32(lz); // exponent of the leading bit
  // Round to nearest-even at bit 8 of t, or further right for subnormal results.
  let shift = u32(max(8, -118 - em));
  let sm = min(shift, 31u);
  let qm = select(t >> sm, 0u, shift >= 32u);
  let rem = select(t & ((1u << sm) - 1u), t, shift >= 32u);
  let half = select(1u << (sm - 1u), 0x80000000u, shift >= 32u);
  let up = (shift <= 32u) & ((rem > half) | ((rem == half) & ((qm & 1u) == 1u)));
  let bits = select(0u, u32(em + 126) << 23u, em >= -126) + qm + select(0u, 1u, up);
  let finite = select(sr | bits, sr | inf, em >= 128);
  let result = select(finite, 0u, all(r == vec2<u32>(0u)));
  return select(result, special_result, special);
}

// fma.rn.f32 through a fused fma() on a device that may flush subnormals (NVIDIA's Vulkan
// driver): any subnormal operand (a subnormal c, however small, can move the rounding of an
// inexact product: an H100 showed it), or a result that is zero, below 2^-100 or not finite
// (a flushed result; round32.wgsl, f32r_suspect) takes the integer path.
// Subnormal and not zero: u << 1 drops the sign, leaving 2 .. 2^24 - 2 (zero wraps to the top).
fn f32r_tiny_in(u: u32) -> bool { return (u << 1u) - 1u < 0x00ffffffu; }
fn f32_fma_checked(a: u32, b: u32, c: u32) -> u32 {
  let r = bitcast<u32>(fma(bitcast<f32>(a), bitcast<f32>(b), bitcast<f32>(c)));
  if (f32r_tiny_in(a) | f32r_tiny_in(b) | f32r_tiny_in(c) | f32r_suspect(r)) {
    let e = f32_fma_exact(a, b, c);
    return select(e, 0x7fffffffu, (e & 0x7fffffffu) > 0x7f800000u);
  }
  return r;
}

// fma.{rz,rm,rp}.f32 on a device whose fma() is fused: the nearest result r, then the sign of the
// exact residual a*b + c - r, which is RN(a*b + (c - r)) computed by a second fma when c - r is
// exact (Sterbenz: c and r of one sign within a factor of two, the case of expf's magic-number
// rounding and of accumulations) and the residual cannot underflow (the product is zero or at
// least 2^-60, r at least 2^-100, so the residual is a multiple of 2^-124 or more); r then moves
// one ulp toward the rounding direction when the residual points that way. Anything else (a
// subnormal operand the device may flush, a special value, a product far below c, cancellation)
// takes the integer helper (round32.wgsl f32r_fma).
fn f32r_fma_directed(a: u32, b: u32, c: u32, rm: u32) -> u32 {
  let fa = bitcast<f32>(a); let fb = bitcast<f32>(b); let fc = bitcast<f32>(c);
  let r = fma(fa, fb, fc);
  let u = bitcast<u32>(r);
  let zero_factor = ((a << 1u) == 0u) | ((b << 1u) == 0u);
  let ok = ((abs(fa * fb) >= 0x1p-60f) | zero_factor) & (((u ^ c) & 0x80000000u) == 0u)
    & (abs(r) >= 0x1p-100f) & ((u & 0x7f800000u) != 0x7f800000u)
    & (abs(fc) <= 2.0f * abs(r)) & (abs(r) <= 2.0f * abs(fc));
  if (!ok) { return f32r_fma(a, b, c, rm); }
  let e = fma(fa, fb, fc - r);
  let neg = r < 0.0f;
  // the exact value lies beyond r (grow) or between r and zero (shrink)
  let grow = (e != 0.0f) & ((e < 0.0f) == neg);
  let shrink = (e != 0.0f) & !grow;
  let inc = grow & (((rm == 2u) & neg) | ((rm == 3u) & !neg));
  let dec = shrink & ((rm == 1u) | ((rm == 2u) & !neg) | ((rm == 3u) & neg));
  return u + select(0u, 1u, inc) - select(0u, 1u, dec);
}
