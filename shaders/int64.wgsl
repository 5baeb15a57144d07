// 64-bit integers as vec2<u32>(low, high): PTX .u64/.s64/.b64 arithmetic, exact modulo 2^64.
// Linked into a kernel only when used (lowering/wgsl/library.ts). Every function is pure.

fn i64_add(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  let lo = a.x + b.x;
  return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

fn i64_sub(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

fn i64_neg(a: vec2<u32>) -> vec2<u32> {
  return i64_sub(vec2<u32>(0u, 0u), a);
}

// Full 32x32 -> 64-bit unsigned product: the low word is the wrapping product; the high word comes
// from 16-bit halves, whose partial sums t and u cannot overflow ((2^16 - 1)^2 + 2 (2^16 - 1) < 2^32).
fn mul_wide_u32(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu; let a1 = a >> 16u;
  let b0 = b & 0xffffu; let b1 = b >> 16u;
  let t = a1 * b0 + ((a0 * b0) >> 16u);
  let u = a0 * b1 + (t & 0xffffu);
  return vec2<u32>(a * b, a1 * b1 + (t >> 16u) + (u >> 16u));
}

fn mul_wide_s32(a: u32, b: u32) -> vec2<u32> {
  var r = mul_wide_u32(a, b);
  // signed correction: subtract b<<32 when a < 0 and a<<32 when b < 0
  r.y = r.y - select(0u, b, i32(a) < 0) - select(0u, a, i32(b) < 0);
  return r;
}

fn mulhi_u32(a: u32, b: u32) -> u32 { return mul_wide_u32(a, b).y; }
fn mulhi_s32(a: u32, b: u32) -> u32 { return mul_wide_s32(a, b).y; }

fn i64_mul(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  var r = mul_wide_u32(a.x, b.x);
  r.y = r.y + a.x * b.y + a.y * b.x;
  return r;
}

// The full unsigned 128-bit product of two 64-bit values (f64.wgsl multiplies significands with it).
fn u64_mul_wide(a: vec2<u32>, b: vec2<u32>) -> vec4<u32> {
  let ll = mul_wide_u32(a.x, b.x);
  let lh = mul_wide_u32(a.x, b.y);
  let hl = mul_wide_u32(a.y, b.x);
  let hh = mul_wide_u32(a.y, b.y);
  let m1 = i64_add(i64_add(vec2<u32>(ll.y, 0u), vec2<u32>(lh.x, 0u)), vec2<u32>(hl.x, 0u));
  let m2 = i64_add(i64_add(i64_add(vec2<u32>(lh.y, 0u), vec2<u32>(hl.y, 0u)), hh), vec2<u32>(m1.y, 0u));
  return vec4<u32>(ll.x, m1.x, m2.x, m2.y);
}

// High 64 bits of the unsigned 128-bit product.
fn i64_mulhi_u(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { return u64_mul_wide(a, b).zw; }

fn i64_mulhi_s(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  var r = i64_mulhi_u(a, b);
  if (i32(a.y) < 0) { r = i64_sub(r, b); }
  if (i32(b.y) < 0) { r = i64_sub(r, a); }
  return r;
}

// Shifts clamp the amount as PTX does: >= 64 gives 0 (or the sign fill for shr.s64).
fn i64_shl(a: vec2<u32>, n: u32) -> vec2<u32> {
  if (n >= 64u) { return vec2<u32>(0u, 0u); }
  if (n >= 32u) { return vec2<u32>(0u, a.x << (n - 32u)); }
  if (n == 0u) { return a; }
  return vec2<u32>(a.x << n, (a.y << n) | (a.x >> (32u - n)));
}

fn i64_shr_u(a: vec2<u32>, n: u32) -> vec2<u32> {
  if (n >= 64u) { return vec2<u32>(0u, 0u); }
  if (n >= 32u) { return vec2<u32>(a.y >> (n - 32u), 0u); }
  if (n == 0u) { return a; }
  return vec2<u32>((a.x >> n) | (a.y << (32u - n)), a.y >> n);
}

fn i64_shr_s(a: vec2<u32>, n: u32) -> vec2<u32> {
  let fill = select(0u, 0xffffffffu, i32(a.y) < 0);
  if (n >= 64u) { return vec2<u32>(fill, fill); }
  if (n >= 32u) { return vec2<u32>(u32(i32(a.y) >> min(n - 32u, 31u)), fill); }
  if (n == 0u) { return a; }
  return vec2<u32>((a.x >> n) | (a.y << (32u - n)), u32(i32(a.y) >> n));
}

fn i64_ult(a: vec2<u32>, b: vec2<u32>) -> bool { return (a.y < b.y) | ((a.y == b.y) & (a.x < b.x)); }
fn i64_slt(a: vec2<u32>, b: vec2<u32>) -> bool { return (i32(a.y) < i32(b.y)) | ((a.y == b.y) & (a.x < b.x)); }

fn i64_sext32(a: u32) -> vec2<u32> { return vec2<u32>(a, select(0u, 0xffffffffu, i32(a) < 0)); }

// Unsigned 64-bit division by shift-subtract; x / 0 and x % 0 are all ones, as on an H100.
fn i64_divrem_u(a: vec2<u32>, b: vec2<u32>) -> array<vec2<u32>, 2> {
  if ((b.x == 0u) & (b.y == 0u)) { return array<vec2<u32>, 2>(vec2<u32>(0xffffffffu, 0xffffffffu), vec2<u32>(0xffffffffu, 0xffffffffu)); }
  if ((a.y == 0u) & (b.y == 0u)) { return array<vec2<u32>, 2>(vec2<u32>(a.x / b.x, 0u), vec2<u32>(a.x % b.x, 0u)); }
  var q = vec2<u32>(0u, 0u);
  var r = vec2<u32>(0u, 0u);
  for (var i = 63i; i >= 0i; i = i - 1i) {
    r = i64_shl(r, 1u);
    let bit = select((a.x >> u32(i)) & 1u, (a.y >> u32(i - 32i)) & 1u, i >= 32i);
    r.x = r.x | bit;
    if (!i64_ult(r, b)) {
      r = i64_sub(r, b);
      if (i >= 32i) { q.y = q.y | (1u << u32(i - 32i)); } else { q.x = q.x | (1u << u32(i)); }
    }
  }
  return array<vec2<u32>, 2>(q, r);
}

fn i64_div_u(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { return i64_divrem_u(a, b)[0]; }
fn i64_rem_u(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> { return i64_divrem_u(a, b)[1]; }

fn i64_abs(a: vec2<u32>) -> vec2<u32> { return select(a, i64_neg(a), i32(a.y) < 0); }

// Signed division truncates toward zero; the remainder takes the dividend's sign.
fn i64_div_s(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  if ((b.x == 0u) & (b.y == 0u)) { return vec2<u32>(0xffffffffu, 0xffffffffu); }
  let q = i64_divrem_u(i64_abs(a), i64_abs(b))[0];
  return select(q, i64_neg(q), (i32(a.y) < 0) != (i32(b.y) < 0));
}

fn i64_rem_s(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
  if ((b.x == 0u) & (b.y == 0u)) { return vec2<u32>(0xffffffffu, 0xffffffffu); }
  let r = i64_divrem_u(i64_abs(a), i64_abs(b))[1];
  return select(r, i64_neg(r), i32(a.y) < 0);
}

fn i64_clz(a: vec2<u32>) -> u32 {
  return select(countLeadingZeros(a.y), 32u + countLeadingZeros(a.x), a.y == 0u);
}

fn i64_brev(a: vec2<u32>) -> vec2<u32> { return vec2<u32>(reverseBits(a.y), reverseBits(a.x)); }

// bfind.u64/.s64: the highest bit that differs from the sign (signed) or is set; all ones if none.
fn i64_bfind(a: vec2<u32>, signed: bool) -> u32 {
  let x = select(a, ~a, signed & (i32(a.y) < 0));
  return select(firstLeadingBit(x.x), 32u + firstLeadingBit(x.y), x.y != 0u);
}

// bfe/bfi .64 take the full 32-bit position and length (H100: native int-arith64); n is the
// number of field bits inside the value.
fn i64_bfe(a: vec2<u32>, pos: u32, len: u32, signed: bool) -> vec2<u32> {
  let n = min(len, 64u - min(pos, 64u));
  let x = i64_shr_u(a, pos);
  let high = i64_shl(vec2<u32>(0xffffffffu, 0xffffffffu), n);
  let top = i64_shr_u(x, max(n, 1u) - 1u);
  let sbit = select((top.x & 1u) != 0u, i32(a.y) < 0, n == 0u);
  return select(x & ~high, x | high, signed & (len != 0u) & sbit);
}

fn i64_bfi(a: vec2<u32>, b: vec2<u32>, pos: u32, len: u32) -> vec2<u32> {
  let n = min(len, 64u - min(pos, 64u));
  let mask = i64_shl(~i64_shl(vec2<u32>(0xffffffffu, 0xffffffffu), n), pos);
  return (b & ~mask) | (i64_shl(a, pos) & mask);
}
