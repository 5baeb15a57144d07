// f32 semantics of PTX that WGSL built-ins leave implementation-defined: NaN handling, compares
// and min/max on bit patterns, .sat, and the special values of the .approx functions.

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

// Float compare of f32 bits (f16/bf16 widen exactly): 0 less, 1 equal, 2 greater, 3 unordered.
// setp tests bit `cmp` of a mask of the outcomes it accepts.
fn f32r_cmp(a: u32, b: u32) -> u32 {
  let ka = select(i32(a), -i32(a & 0x7fffffffu), (a >> 31u) != 0u);
  let kb = select(i32(b), -i32(b & 0x7fffffffu), (b >> 31u) != 0u);
  return select(select(select(1u, 2u, ka > kb), 0u, ka < kb), 3u, f32r_isnan(a) | f32r_isnan(b));
}
fn f32r_setp(a: u32, b: u32, mask: u32) -> bool { return ((mask >> f32r_cmp(a, b)) & 1u) != 0u; }

// PTX min/max on f32 bits: a NaN operand yields the other (.NaN: NaN), both NaN the canonical
// NaN, -0 < +0; .xorsign.abs: min/max of the magnitudes with the xor of the signs.
fn f32r_minmax(a0: u32, b0: u32, is_max: bool, nan: bool, xorsign: bool) -> u32 {
  let sx = (a0 ^ b0) & 0x80000000u;
  let a = select(a0, a0 & 0x7fffffffu, xorsign);
  let b = select(b0, b0 & 0x7fffffffu, xorsign);
  let an = f32r_isnan(a);
  let bn = f32r_isnan(b);
  let c = f32r_cmp(a, b);
  // equal: +0 and -0 (or equal bits): max takes the AND of the bits (+0), min the OR (-0)
  let ordered = select(select(a, b, (c == 0u) == is_max), select(a | b, a & b, is_max), c == 1u);
  let r = select(select(ordered, a, bn), b, an) | select(0u, sx, xorsign);
  return select(r, 0x7fffffffu, (an & bn) | ((an | bn) & nan));
}

// PTX min/max through min()/max() on a device whose results the float probe showed PTX's except
// where they are zero, subnormal or NaN ('checked': a flushed subnormal operand, the order of
// signed zeros, the choice between two NaNs): only those take the exact helper.
fn f32r_minmax_checked(a: u32, b: u32, is_max: bool) -> u32 {
  let x = bitcast<f32>(a);
  let y = bitcast<f32>(b);
  let r = bitcast<u32>(select(min(x, y), max(x, y), is_max));
  if (((r & 0x7f800000u) == 0u) | f32r_isnan(r)) { return f32r_minmax(a, b, is_max, false, false); }
  return r;
}

// .sat on f32 bits: clamp to [0, 1]; NaN and -0 give +0.
fn f32r_sat(u: u32) -> u32 { return select(min(u, 0x3f800000u), 0u, ((u >> 31u) != 0u) | f32r_isnan(u)); }

// .approx functions: the WGSL built-in for finite arguments, PTX's results for the special ones.
// A subnormal argument is scaled by 2^64 in integers first (m * 2^-149 = f32(m) * 2^-85 exactly):
// a device may flush it on its way into the built-in (NVIDIA's Vulkan driver does).
// Branch-free (selects, not returns) on purpose: inlined into an unrolled loop, a branch per call
// splits the straight-line code the driver would otherwise schedule as one (n-body on an H100).
fn f32r_rsqrt(u: u32) -> u32 {
  let sub = u < 0x800000u;
  let r = bitcast<u32>(inverseSqrt(select(bitcast<f32>(u), f32(u) * 0x1p-85f, sub)) * select(1.0f, 0x1p32f, sub));
  let special = select(select(r, 0u, u == 0x7f800000u), u | 0x7f800000u, (u & 0x7fffffffu) == 0u);
  return select(special, 0x7fffffffu, f32r_isnan(u) | (u > 0x80000000u) | f32r_isnan(r));
}
// sqrt.approx: NaN for every negative argument (-0 excepted), subnormals scaled as for rsqrt.
fn f32r_sqrt_approx(u: u32) -> u32 {
  let sub = u < 0x800000u;
  let r = bitcast<u32>(sqrt(select(bitcast<f32>(u), f32(u) * 0x1p-85f, sub)) * select(1.0f, 0x1p-32f, sub));
  let special = select(r, u, (u & 0x7fffffffu) == 0u);
  return select(special, 0x7fffffffu, f32r_isnan(u) | (u > 0x80000000u) | f32r_isnan(r));
}
fn f32r_lg2(u: u32) -> u32 {
  if (f32r_isnan(u) | (u > 0x80000000u)) { return 0x7fffffffu; }
  if ((u & 0x7fffffffu) == 0u) { return 0xff800000u; }
  if (u == 0x7f800000u) { return u; }
  if (u < 0x800000u) { return f32r_canon(f32r_log2_normal(f32(u)) - 149.0f); } // subnormal: m * 2^-149, m exact in f32
  return f32r_canon(f32r_log2_normal(bitcast<f32>(u)));
}
// The .approx helpers compute their functions themselves rather than through WGSL's built-ins,
// whose accuracy WGSL leaves loose (exp2: 3 + 2|x| ulp; sin/cos: 2^-11 absolute) and which some
// implementations use to the full (SwiftShader's sin errs by 2e-4): these hold the ISA's bounds
// on every device. Where a device's built-in is as accurate, the float probe lets the emitter
// call it instead (lowering/wgsl/native-float.ts): on NVIDIA those are the instructions CUDA runs.
// log2 of a positive normal x = m 2^e, m in [sqrt(1/2), sqrt(2)): e + 2/ln2 atanh(s), s = (m-1)/(m+1).
fn f32r_log2_normal(x: f32) -> f32 {
  let b = bitcast<u32>(x);
  var e = i32((b >> 23u) & 0xffu) - 127;
  var m = bitcast<f32>((b & 0x7fffffu) | 0x3f800000u);
  if (m > 1.41421356f) { m = m * 0.5f; e = e + 1; }
  let s = (m - 1.0f) / (m + 1.0f);
  let z = s * s;
  // 2/ln2 (1 + z/3 + z^2/5 + z^3/7 + z^4/9): |s| <= 0.1716, the next term is below 2^-31
  var p = 0.32059889f;
  p = fma(p, z, 0.41219858f);
  p = fma(p, z, 0.57707801f);
  p = fma(p, z, 0.96179669f);
  p = fma(p, z, 2.88539008f);
  return fma(s, p, f32(e));
}
// 2^f for f in [-1/2, 1/2]: ln2^k/k! to degree 7 (the rest is below 2^-27).
fn f32r_exp2_fraction(f: f32) -> f32 {
  var p = 1.5252734e-5f;
  p = fma(p, f, 1.5403530e-4f);
  p = fma(p, f, 1.3333558e-3f);
  p = fma(p, f, 9.6181291e-3f);
  p = fma(p, f, 5.5504109e-2f);
  p = fma(p, f, 0.24022651f);
  p = fma(p, f, 0.69314718f);
  return fma(p, f, 1.0f);
}
fn f32r_ex2(u: u32) -> u32 {
  if (f32r_isnan(u)) { return 0x7fffffffu; }
  if (u == 0xff800000u) { return 0u; }
  if (u == 0x7f800000u) { return u; }
  // 2^x rounds to 1 for |x| < 2^-25; some exp2() give 1 - 2^-24 for negative subnormals.
  if ((u & 0x7fffffffu) < 0x33000000u) { return 0x3f800000u; }
  let x = clamp(bitcast<f32>(u), -200.0f, 200.0f);
  if (x >= 128.0f) { return 0x7f800000u; }
  if (x < -151.0f) { return 0u; }
  let n = round(x);
  let p = f32r_exp2_fraction(x - n);
  if (n >= -125.0f) { return bitcast<u32>(ldexp(p, i32(n))); }
  // a subnormal result: its bits are p 2^(n+149) rounded to an integer (to nearest even, as
  // round() does), scaled while still normal so no implementation flushes it
  return u32(round(ldexp(p, i32(n) + 149)));
}
fn f32r_sincos(u: u32, is_cos: bool) -> u32 {
  if ((u & 0x7f800000u) == 0x7f800000u) { return 0x7fffffffu; }
  if ((u & 0x7fffffffu) == 0u) { return select(u, 0x3f800000u, is_cos); }
  let x = bitcast<f32>(u);
  // Past 2^15 the reduction below loses its exact products, and the ISA bounds nothing there:
  // the device's own function (NVIDIA's hardware is as loose there).
  if (abs(x) > 32768.0f) { return f32r_canon(select(sin(x), cos(x), is_cos)); }
  // x - k pi/2 in four parts (Cody and Waite): exact products for |k| < 2^8, and still within
  // the bound far past the ISA's stated range
  let k = round(x * 0.63661977f);
  var r = fma(-k, 1.5703125f, x);
  r = fma(-k, 4.8351287842e-4f, r);
  r = fma(-k, 3.1385570e-7f, r);
  r = fma(-k, 6.0771005e-11f, r);
  let z = r * r;
  // sin r and cos r on [-pi/4, pi/4] (minimax, within an ulp)
  let sr = fma(fma(fma(-1.9515296e-4f, z, 8.3321608e-3f), z, -1.6666654e-1f), z * r, r);
  let cr = fma(fma(fma(fma(2.4433157e-5f, z, -1.3887316e-3f), z, 4.1666646e-2f), z, -0.5f), z, 1.0f);
  let q = (i32(k) + select(0, 1, is_cos)) & 3;
  var v = select(sr, cr, (q & 1) == 1);
  if (q >= 2) { v = -v; }
  return bitcast<u32>(v);
}
fn f32r_tanh(u: u32) -> u32 {
  if (f32r_isnan(u)) { return 0x7fffffffu; }
  let x = bitcast<f32>(u);
  if (abs(x) > 10.0f) { return (u & 0x80000000u) | 0x3f800000u; }
  // tanh x = x(1 - x^2/3 + ...): below 2^-12 x itself is within the bound, and lavapipe's tanh
  // returns about 2^-25 there instead.
  if ((u & 0x7fffffffu) < 0x39800000u) { return u; }
  return f32r_canon(tanh(x));
}

// An f32 from its bits through a call, so that no expression of constants holds an infinity or
// a NaN (WGSL rejects those when the shader is created; emit-data.ts, constant()).
fn ptx_f32_bits(u: u32) -> f32 { return bitcast<f32>(u); }
