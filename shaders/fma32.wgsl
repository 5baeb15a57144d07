// Exactly rounded f32 fused multiply-add in integer arithmetic, for devices whose WGSL fma()
// is a separate multiply and add (lavapipe). The product of the two 24-bit significands is
// exact in 48 bits; both terms are normalised to bit 62 of a 64-bit integer, aligned with a
// sticky bit, added, and rounded to nearest-even once, subnormal results included.

fn f32_unpack(u: u32) -> vec2<i32> {
  let ex = i32((u >> 23u) & 0xffu);
  let fr = u & 0x7fffffu;
  if (ex == 0) { return vec2<i32>(i32(fr), -149); }
  return vec2<i32>(i32(fr | 0x800000u), ex - 150);
}

fn f32_fma_exact(a: f32, b: f32, c: f32) -> f32 {
  let ua = bitcast<u32>(a); let ub = bitcast<u32>(b); let uc = bitcast<u32>(c);
  let inf = 0x7f800000u;
  if ((ua & inf) == inf || (ub & inf) == inf || (uc & inf) == inf || (ua & 0x7fffffffu) == 0u || (ub & 0x7fffffffu) == 0u) {
    return a * b + c; // a zero, infinite or NaN operand: the product is exact, one rounding
  }
  let pa = f32_unpack(ua);
  let pb = f32_unpack(ub);
  var big = mul_wide_u32(u32(pa.x), u32(pb.x));
  let shp = i32(i64_clz(big)) - 1;
  big = i64_shl(big, u32(shp));
  var eb = pa.y + pb.y - shp;
  var sb = (ua ^ ub) >> 31u;
  var small = vec2<u32>(0u, 0u);
  var es = eb;
  var ss = uc >> 31u;
  if ((uc & 0x7fffffffu) != 0u) {
    let pc = f32_unpack(uc);
    small = vec2<u32>(u32(pc.x), 0u);
    let shc = i32(i64_clz(small)) - 1;
    small = i64_shl(small, u32(shc));
    es = pc.y - shc;
  }
  if (es > eb || (es == eb && i64_ult(big, small))) {
    let t = big; big = small; small = t;
    let te = eb; eb = es; es = te;
    let ts = sb; sb = ss; ss = ts;
  }
  let d = u32(eb - es);
  var aligned = vec2<u32>(0u, 0u);
  if (d >= 64u) {
    aligned.x = select(0u, 1u, any(small != vec2<u32>(0u, 0u)));
  } else {
    aligned = i64_shr_u(small, d);
    if (any(i64_shl(aligned, d) != small)) { aligned.x = aligned.x | 1u; }
  }
  let r = select(i64_sub(big, aligned), i64_add(big, aligned), sb == ss);
  if (r.x == 0u && r.y == 0u) { return 0.0f; }
  let msb = 63 - i32(i64_clz(r));
  let exp2 = msb + eb;
  let shift = max(exp2 - 23, -149) - eb;
  var m: u32;
  if (shift <= 0) {
    m = i64_shl(r, u32(-shift)).x;
  } else {
    let q = i64_shr_u(r, u32(shift));
    let rem = i64_sub(r, i64_shl(q, u32(shift)));
    let half = i64_shl(vec2<u32>(1u, 0u), u32(shift - 1));
    m = q.x;
    if (i64_ult(half, rem) || (all(rem == half) && (m & 1u) == 1u)) { m = m + 1u; }
  }
  var bits: u32;
  if (exp2 + 127 >= 255) { bits = inf; }
  else if (exp2 - 23 >= -149) { bits = (u32(exp2 + 126) << 23u) + m; }
  else { bits = m; }
  return bitcast<f32>(bits | (sb << 31u));
}
