// 8/16/32-bit integer semantics of PTX that WGSL operators do not give directly.

// Shifts: PTX clamps amounts >= the width; WGSL takes them modulo 32.
fn shl_u32(a: u32, n: u32) -> u32 { return select(0u, a << n, n < 32u); }
fn shr_u32(a: u32, n: u32) -> u32 { return select(0u, a >> n, n < 32u); }
fn shr_s32(a: u32, n: u32) -> u32 { return u32(i32(a) >> min(n, 31u)); }

// Sign-extend the low `bits` bits of a.
fn sext_bits(a: u32, bits: u32) -> u32 { return u32(i32(a << (32u - bits)) >> (32u - bits)); }

// Integer division where WGSL leaves the corner cases to itself: an H100 gives all ones for
// x / 0 and x % 0, signed or not (tests/conformance/native/int-arith32); INT_MIN / -1 wraps.
fn div_u32(a: u32, b: u32) -> u32 { return select(a / max(b, 1u), 0xffffffffu, b == 0u); }
fn rem_u32(a: u32, b: u32) -> u32 { return select(a % max(b, 1u), 0xffffffffu, b == 0u); }
fn div_s32(a: u32, b: u32) -> u32 {
  let ovf = (a == 0x80000000u) & (b == 0xffffffffu);
  let q = u32(i32(a) / select(i32(b), 1i, (b == 0u) | ovf));
  return select(q, 0xffffffffu, b == 0u);
}
fn rem_s32(a: u32, b: u32) -> u32 {
  let ovf = (a == 0x80000000u) & (b == 0xffffffffu);
  let r = u32(i32(a) % select(i32(b), 1i, (b == 0u) | ovf));
  return select(r, 0xffffffffu, b == 0u);
}

// bfind.shiftamt: msb - position, keeping the all-ones "not found".
fn bfind_shiftamt(d: u32, msb: u32) -> u32 { return select(msb - d, d, d == 0xffffffffu); }

// bfe/bfi: position and length are taken & 0xff; WGSL clamps offset and count as PTX does, except
// that a signed field starting past bit 31 is the replicated sign bit.
fn bfe_u32(a: u32, pos: u32, len: u32) -> u32 { return extractBits(a, pos & 0xffu, len & 0xffu); }
fn bfe_s32(a: u32, pos: u32, len: u32) -> u32 {
  let p = pos & 0xffu;
  let l = len & 0xffu;
  let f = select(u32(extractBits(i32(a), p, l)), u32(i32(a) >> 31u), p > 31u);
  return select(f, 0u, l == 0u);
}
fn bfi_b32(a: u32, b: u32, pos: u32, len: u32) -> u32 { return insertBits(b, a, pos & 0xffu, len & 0xffu); }

// fns: the |offset|-th set bit of mask counting from base (up for offset > 0, down for < 0).
fn fns_b32(mask: u32, base: u32, offset: u32) -> u32 {
  let off = i32(offset);
  if (base > 31u) { return 0xffffffffu; }
  if (off == 0) { return select(0xffffffffu, base, ((mask >> base) & 1u) != 0u); }
  var m = select((mask >> base) << base, (mask << (31u - base)) >> (31u - base), off < 0);
  let k = u32(abs(off));
  if (k > countOneBits(m)) { return 0xffffffffu; }
  for (var i = 1u; i < k; i = i + 1u) {
    m = select(m & (m - 1u), m & ~(1u << firstLeadingBit(m)), off < 0);
  }
  return select(countTrailingZeros(m), firstLeadingBit(m), off < 0);
}

fn szext_b32(a: u32, b: u32, clamp: bool, signed: bool) -> u32 {
  let b1 = b & 31u;
  let big = clamp & (b >= 32u);
  let mask = select(0xffffffffu << b1, 0u, big);
  let sb = signed & (b1 != 0u) & !big & (((a >> ((b1 - 1u) & 31u)) & 1u) != 0u);
  return (a & ~mask) | select(0u, mask, sb);
}

fn bmsk_b32(a: u32, b: u32, clamp: bool) -> u32 {
  let a1 = a & 31u;
  let b1 = b & 31u;
  let sum = a1 + b1;
  let mask0 = select(0xffffffffu << a1, 0u, clamp & (a >= 32u));
  let over = (sum >= 32u) | (clamp & ((a >= 32u) | (b >= 32u)));
  let mask1 = select(select(0xffffffffu << (sum & 31u), 0xffffffffu, b1 == 0u), 0u, over);
  return mask0 & ~mask1;
}

// shf: the funnel b:a shifted by n (0..32); n == 0 and n == 32 avoid WGSL's shift-by-32.
fn shf_l_b32(a: u32, b: u32, n: u32) -> u32 {
  return select(select((b << n) | (a >> (32u - n)), b, n == 0u), a, n >= 32u);
}
fn shf_r_b32(a: u32, b: u32, n: u32) -> u32 {
  return select(select((b << (32u - n)) | (a >> n), a, n == 0u), b, n >= 32u);
}

// prmt: four selector nibbles pick bytes of b:a; a set nibble msb replicates the byte's sign.
fn prmt_b32(a: u32, b: u32, c: u32) -> u32 {
  var r = 0u;
  for (var i = 0u; i < 32u; i = i + 8u) {
    let sel = (c >> (i >> 1u)) & 0xfu;
    let byte = (select(a, b, (sel & 4u) != 0u) >> ((sel & 3u) * 8u)) & 0xffu;
    r = r | (select(byte, select(0u, 0xffu, byte >= 0x80u), (sel & 8u) != 0u) << i);
  }
  return r;
}

// The k-th byte (dp4a) or halfword (dp2a) of x, sign- or zero-extended.
fn field_b32(x: u32, at: u32, width: u32, signed: bool) -> u32 {
  return select(extractBits(x, at, width), u32(extractBits(i32(x), at, width)), signed);
}
fn dp4a_b32(a: u32, b: u32, c: u32, sa: bool, sb: bool) -> u32 {
  var acc = c;
  for (var i = 0u; i < 32u; i = i + 8u) { acc = acc + field_b32(a, i, 8u, sa) * field_b32(b, i, 8u, sb); }
  return acc;
}
fn dp2a_b32(a: u32, b: u32, c: u32, hi: bool, sa: bool, sb: bool) -> u32 {
  let at = select(0u, 16u, hi);
  return c + field_b32(a, 0u, 16u, sa) * field_b32(b, at, 8u, sb) + field_b32(a, 16u, 16u, sa) * field_b32(b, at + 8u, 8u, sb);
}
