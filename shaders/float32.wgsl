// f32 semantics of PTX that WGSL built-ins leave implementation-defined (NaN handling).

fn f32_isnan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }

// PTX min/max: a NaN operand yields the other operand; -0 < +0.
fn f32_min(a: f32, b: f32) -> f32 {
  if (f32_isnan(a)) { return b; }
  if (f32_isnan(b)) { return a; }
  if (a == b) { return bitcast<f32>(bitcast<u32>(a) | bitcast<u32>(b)); }
  return select(b, a, a < b);
}
fn f32_max(a: f32, b: f32) -> f32 {
  if (f32_isnan(a)) { return b; }
  if (f32_isnan(b)) { return a; }
  if (a == b) { return bitcast<f32>(bitcast<u32>(a) & bitcast<u32>(b)); }
  return select(b, a, a > b);
}

// .sat: clamp to [0, 1], NaN -> 0.
fn f32_sat(x: f32) -> f32 { return select(clamp(x, 0.0f, 1.0f), 0.0f, f32_isnan(x)); }

// cvt.rzi/.rni/.rmi/.rpi to integers: NaN -> 0, out of range saturates (PTX cvt semantics).
fn f32_to_s32(x: f32) -> u32 {
  if (f32_isnan(x)) { return 0u; }
  if (x >= 2147483648.0f) { return 0x7fffffffu; }
  if (x < -2147483648.0f) { return 0x80000000u; }
  return u32(i32(x));
}
fn f32_to_u32(x: f32) -> u32 {
  if (f32_isnan(x) || x <= 0.0f) { return 0u; }
  if (x >= 4294967296.0f) { return 0xffffffffu; }
  return u32(x);
}

// Correctly rounded division and square root (div.rn.f32, sqrt.rn.f32): WGSL's `/` and
// sqrt() may be off by up to 2.5 ulp, so the quotient is corrected with its exact residual.
fn f32_div_rn(a: f32, b: f32) -> f32 {
  let q = a / b;
  if (f32_isnan(q) || abs(q) > 3.0e38f || q == 0.0f || abs(b) < 1.0e-30f || abs(b) > 1.0e30f) { return q; }
  let r = fma(-q, b, a);
  let q1 = q + r / b;
  let r1 = fma(-q1, b, a);
  // pick among the neighbours the one with the smallest residual
  let up = bitcast<f32>(bitcast<u32>(q1) + 1u);
  let down = bitcast<f32>(bitcast<u32>(q1) - 1u);
  var best = q1; var err = abs(r1);
  let ru = abs(fma(-up, b, a)); if (ru < err) { best = up; err = ru; }
  let rd = abs(fma(-down, b, a)); if (rd < err) { best = down; }
  return best;
}

fn f32_sqrt_rn(x: f32) -> f32 {
  let s = sqrt(x);
  if (!(x > 0.0f) || f32_isnan(s) || s > 3.0e38f || x < 1.0e-30f) { return s; }
  var best = s; var err = abs(fma(-s, s, x));
  let up = bitcast<f32>(bitcast<u32>(s) + 1u);
  let down = bitcast<f32>(bitcast<u32>(s) - 1u);
  let eu = abs(fma(-up, up, x)); if (eu < err) { best = up; err = eu; }
  let ed = abs(fma(-down, down, x)); if (ed < err) { best = down; }
  return best;
}
