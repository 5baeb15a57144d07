// New-value functions of the atom/red operations that WGSL has no native atomic for; the
// emitter (lowering/wgsl/emit-atomic.ts) runs them inside compare-exchange loops. All work on
// raw bits so the loops compare words, never floats.

// atom.add.f32 on shared memory: IEEE round-to-nearest-even with subnormals kept. WGSL `+`
// may flush subnormals (lavapipe runs with DAZ/FTZ), so when both operands are below 2^-63 the
// sum is taken scaled by 2^64, where no operand or result is subnormal (nor can it overflow),
// and unscaled in integers. A subnormal sum is exact (both operands are multiples of 2^-149),
// so unscaling it loses nothing. When an operand reaches 2^-63, a subnormal other operand is
// below a quarter ulp of it and cannot change the rounded sum, and the sum cannot cancel into
// the subnormal range (that needs both operands below 2^-101, Sterbenz). A NaN result is
// NVIDIA's canonical 0x7fffffff.
fn atom_f32_scale(x: u32) -> f32 {
  let m = select(bitcast<f32>((x & 0x7fffffffu) + 0x20000000u), f32(x & 0x7fffffu) * 0x1p-85f, (x & 0x7f800000u) == 0u);
  return bitcast<f32>(bitcast<u32>(m) | (x & 0x80000000u));
}
fn atom_f32_add(a: u32, b: u32) -> u32 {
  var r = bitcast<u32>(bitcast<f32>(a) + bitcast<f32>(b));
  if (max(a & 0x7f800000u, b & 0x7f800000u) < 0x20000000u) {
    let s = bitcast<u32>(atom_f32_scale(a) + atom_f32_scale(b));
    let tiny = (s & 0x80000000u) | u32(bitcast<f32>(s & 0x7fffffffu) * 0x1p85f);
    r = select(tiny, s - 0x20000000u, (s & 0x7f800000u) > 0x20000000u);
  }
  return select(r, 0x7fffffffu, (r & 0x7fffffffu) > 0x7f800000u);
}

// atom.add.f32 on global memory: NVIDIA flushes subnormal operands and results to zero of the
// same sign (PTX ISA, atom). The sum of two normals that lands below 2^-126 is exact, so
// flushing WGSL's result (flushed by the device or not) gives the same bits.
fn atom_f32_ftz(x: u32) -> u32 { return select(x, x & 0x80000000u, (x & 0x7f800000u) == 0u); }
fn atom_f32_add_ftz(a: u32, b: u32) -> u32 {
  let r = atom_f32_ftz(bitcast<u32>(bitcast<f32>(atom_f32_ftz(a)) + bitcast<f32>(atom_f32_ftz(b))));
  return select(r, 0x7fffffffu, (r & 0x7fffffffu) > 0x7f800000u);
}

// binary16 <-> f32 in integers (exact; WGSL's pack2x16float leaves the rounding open).
fn atom_f16_to_f32(h: u32) -> u32 {
  let s = (h & 0x8000u) << 16u;
  let e = (h >> 10u) & 0x1fu;
  let m = h & 0x3ffu;
  if (e == 0u) { return s | bitcast<u32>(f32(m) * 0x1p-24f); }
  if (e == 31u) { return s | 0x7f800000u | (m << 13u); }
  return s | ((e + 112u) << 23u) | (m << 13u);
}
// Rounds f32 bits to binary16, nearest even; NaN -> 0x7fff (NVIDIA's canonical f16 NaN).
fn atom_f32_to_f16(x: u32) -> u32 {
  let s = (x >> 16u) & 0x8000u;
  let a = x & 0x7fffffffu;
  if (a > 0x7f800000u) { return 0x7fffu; }
  let e = a >> 23u;
  if (e >= 143u) { return s | 0x7c00u; }
  // normals keep 10 of 23 fraction bits; below 2^-14 the grid is 2^-24: shift more
  let m = (a & 0x7fffffu) | select(0x800000u, 0u, e == 0u);
  let sh = select(13u, 126u - e, e < 113u);
  if (sh > 24u) { return s; }
  let base = select(0u, (e - 112u) << 10u, e >= 113u) + ((m >> sh) & select(0x7ffu, 0x3ffu, e >= 113u));
  let rem = m & ((1u << sh) - 1u);
  let half = 1u << (sh - 1u);
  return s | (base + select(0u, 1u, (rem > half) | ((rem == half) & ((base & 1u) == 1u))));
}
// Rounds f32 bits to bfloat16, nearest even; NaN -> 0x7fff.
fn atom_f32_to_bf16(x: u32) -> u32 {
  if ((x & 0x7fffffffu) > 0x7f800000u) { return 0x7fffu; }
  return (x + 0x7fffu + ((x >> 16u) & 1u)) >> 16u;
}

// One f16 / bf16 lane of atom.add.noftz: the f32 sum of two half-precision values rounded to
// half precision. Rounding twice (to f32, then to 11 or 8 bits) equals rounding once because
// f32 keeps 24 >= 2p + 2 significand bits (Figueroa, "When is double rounding innocuous?", 1995).
fn atom_f16_add(a: u32, b: u32) -> u32 {
  return atom_f32_to_f16(bitcast<u32>(bitcast<f32>(atom_f16_to_f32(a)) + bitcast<f32>(atom_f16_to_f32(b))));
}
fn atom_bf16_add(a: u32, b: u32) -> u32 { return atom_f32_to_bf16(atom_f32_add(a << 16u, b << 16u)); }
fn atom_f16x2_add(a: u32, b: u32) -> u32 {
  return atom_f16_add(a & 0xffffu, b & 0xffffu) | (atom_f16_add(a >> 16u, b >> 16u) << 16u);
}
fn atom_bf16x2_add(a: u32, b: u32) -> u32 {
  return atom_bf16_add(a & 0xffffu, b & 0xffffu) | (atom_bf16_add(a >> 16u, b >> 16u) << 16u);
}
