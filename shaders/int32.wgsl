// 8/16/32-bit integer semantics of PTX that WGSL operators do not give directly.

// Shifts: PTX clamps amounts >= the width; WGSL takes them modulo 32.
fn shl_u32(a: u32, n: u32) -> u32 { return select(0u, a << n, n < 32u); }
fn shr_u32(a: u32, n: u32) -> u32 { return select(0u, a >> n, n < 32u); }
fn shr_s32(a: u32, n: u32) -> u32 { return u32(i32(a) >> min(n, 31u)); }

// Sign-extend the low `bits` bits of a.
fn sext_bits(a: u32, bits: u32) -> u32 { return u32(i32(a << (32u - bits)) >> (32u - bits)); }

// Integer division as NVIDIA GPUs define it for the corner cases WGSL leaves to itself:
// x / 0 is all ones (unsigned) and x % 0 is x.
fn div_u32(a: u32, b: u32) -> u32 { return select(a / max(b, 1u), 0xffffffffu, b == 0u); }
fn rem_u32(a: u32, b: u32) -> u32 { return select(a % max(b, 1u), a, b == 0u); }
fn div_s32(a: u32, b: u32) -> u32 {
  if (b == 0u) { return 0xffffffffu; }
  if (a == 0x80000000u && b == 0xffffffffu) { return a; }
  return u32(i32(a) / i32(b));
}
fn rem_s32(a: u32, b: u32) -> u32 {
  if (b == 0u) { return a; }
  if (a == 0x80000000u && b == 0xffffffffu) { return 0u; }
  return u32(i32(a) % i32(b));
}
