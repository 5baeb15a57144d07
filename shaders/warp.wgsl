// Warp-level PTX (lowering/wgsl/emit-warp.ts). CUDA warps are 32 consecutive threads of the
// block (by local_invocation_index); lane = index & 31.

// shfl's source lane per the ISA pseudo-code (b: lane or offset, c: clamp | segment mask << 8):
// the computed lane when it is in range, else the thread's own lane.
fn ptx_shfl_src(mode: u32, lane: u32, b: u32, c: u32) -> u32 {
  let bval = b & 31u;
  let seg = (c >> 8u) & 31u;
  let maxl = (lane & seg) | (c & 31u & ~seg);
  var j = lane ^ bval;
  if (mode == 0u) { j = lane - bval; }
  if (mode == 1u) { j = lane + bval; }
  if (mode == 3u) { j = (lane & seg) | (bval & ~seg); }
  let ok = select(j <= maxl, i32(j) >= i32(maxl), mode == 0u);
  return select(lane, j, ok);
}

// redux.sync's operators: add min.u32 min.s32 max.u32 max.s32 and or xor, f32 min max,
// and f32 min max with .NaN (a NaN input makes the canonical NaN).
fn ptx_redux_op(op: u32, a: u32, b: u32) -> u32 {
  switch op {
    case 0u: { return a + b; }
    case 1u: { return min(a, b); }
    case 2u: { return u32(min(i32(a), i32(b))); }
    case 3u: { return max(a, b); }
    case 4u: { return u32(max(i32(a), i32(b))); }
    case 5u: { return a & b; }
    case 6u: { return a | b; }
    case 7u: { return a ^ b; }
    default: {
      let x = bitcast<f32>(a);
      let y = bitcast<f32>(b);
      let r = bitcast<u32>(select(f32_min(x, y), f32_max(x, y), (op & 1u) == 1u));
      let nan = ((a & 0x7fffffffu) > 0x7f800000u) | ((b & 0x7fffffffu) > 0x7f800000u);
      return select(r, 0x7fffffffu, (op >= 10u) & nan);
    }
  }
}

// Emulation through workgroup memory: ptx_warp holds four phases of one word per thread, in a
// ring. Each exchange publishes into the next phase, so one barrier per exchange suffices: a
// phase is rewritten four exchanges later, after the barriers of the three between, and its
// readers read it at most two exchanges late (ptx_warp_get_back), before the third barrier.
fn ptx_warp_count() -> u32 { return ptx_ntid_x * ptx_ntid_y * ptx_ntid_z; }

fn ptx_warp_put(w: u32) {
  ptx_warp_phase = (ptx_warp_phase + 1u) & 3u;
  ptx_warp[ptx_warp_phase * ptx_warp_count() + ptx_warp_t] = w;
  workgroupBarrier();
}

// Lane `lane` of this thread's warp in the current phase; 0 for lanes past the block's end.
fn ptx_warp_get(lane: u32) -> u32 {
  let t = (ptx_warp_t & ~31u) + lane;
  return select(0u, ptx_warp[ptx_warp_phase * ptx_warp_count() + min(t, ptx_warp_count() - 1u)], t < ptx_warp_count());
}

// Lane `lane` of the value published `back` (at most 2) exchanges before the current one, for a
// shuffle of a value already published (emit-warp.ts): no second publication, no barrier.
fn ptx_warp_get_back(lane: u32, back: u32) -> u32 {
  let t = (ptx_warp_t & ~31u) + lane;
  let phase = (ptx_warp_phase - back) & 3u;
  return select(0u, ptx_warp[phase * ptx_warp_count() + min(t, ptx_warp_count() - 1u)], t < ptx_warp_count());
}

fn ptx_warp_shfl(v: u32, src: u32) -> u32 {
  ptx_warp_put(v);
  return ptx_warp_get(src);
}

// (ballot of p over the active lanes, mask of the active lanes) of this thread's warp, through
// two atomic words per warp in ptx_warp_bits. Three phases rotate: the phase two ahead is
// cleared after this barrier, when its last readers (two ballots back) are done and before its
// next writers (the ballot after next, behind the next ballot's barrier) start.
fn ptx_warp_ballot(p: bool, act: bool) -> vec2<u32> {
  ptx_warp_bphase = select(ptx_warp_bphase + 1u, 0u, ptx_warp_bphase == 2u);
  let warps = (ptx_warp_count() + 31u) >> 5u;
  let w = ptx_warp_t >> 5u;
  let bit = 1u << (ptx_warp_t & 31u);
  let at = 2u * (ptx_warp_bphase * warps + w);
  if (act) {
    atomicOr(&ptx_warp_bits[at], select(0u, bit, p));
    atomicOr(&ptx_warp_bits[at + 1u], bit);
  }
  workgroupBarrier();
  let r = vec2<u32>(atomicLoad(&ptx_warp_bits[at]), atomicLoad(&ptx_warp_bits[at + 1u]));
  if (bit == 1u) {
    let ahead = 2u * (select(ptx_warp_bphase + 2u, ptx_warp_bphase - 1u, ptx_warp_bphase != 0u) * warps + w);
    atomicStore(&ptx_warp_bits[ahead], 0u);
    atomicStore(&ptx_warp_bits[ahead + 1u], 0u);
  }
  return r;
}

// The lanes in m that publish the same word as this thread. The loops below visit only the
// lanes of m: a data-dependent trip count keeps shader compilers from unrolling 32 times.
fn ptx_warp_eq(w: u32, m: u32) -> u32 {
  ptx_warp_put(w);
  var r = 0u;
  var rest = m;
  loop {
    if (rest == 0u) { break; }
    let i = countTrailingZeros(rest);
    rest &= rest - 1u;
    r |= select(0u, 1u << i, ptx_warp_get(i) == w);
  }
  return r;
}

// redux over the lanes in m (the member mask; PTX requires all of them to take part);
// `identity` is the operator's neutral value. The loop visits only the lanes of m: a
// data-dependent trip count keeps shader compilers from unrolling it 32 times.
fn ptx_warp_redux(op: u32, v: u32, m: u32, identity: u32) -> u32 {
  ptx_warp_put(v);
  var r = identity;
  var rest = m;
  loop {
    if (rest == 0u) { break; }
    let i = countTrailingZeros(rest);
    rest &= rest - 1u;
    r = ptx_redux_op(op, r, ptx_warp_get(i));
  }
  return r;
}

// redux over the whole warp (member mask 0xffffffff) as a butterfly, 5 exchanges instead of 32
// reads; lanes past the block's end contribute `identity`. Every redux operator is associative
// and commutative, so the order does not change the result.
fn ptx_warp_redux_all(op: u32, v: u32, identity: u32) -> u32 {
  let lane = ptx_warp_t & 31u;
  var r = v;
  for (var k = 1u; k < 32u; k <<= 1u) {
    ptx_warp_put(r);
    let t = (ptx_warp_t & ~31u) + (lane ^ k);
    r = ptx_redux_op(op, r, select(identity, ptx_warp_get(lane ^ k), t < ptx_warp_count()));
  }
  return r;
}

// Native subgroups of 32 in thread order: lane i of the subgroup is lane i of the warp.
fn ptx_sg_eq(w: u32, m: u32) -> u32 {
  var r = 0u;
  for (var i = 0u; i < 32u; i++) { r |= select(0u, 1u << i, subgroupShuffle(w, i) == w); }
  return r & m;
}

fn ptx_sg_redux(op: u32, v: u32, m: u32, identity: u32) -> u32 {
  var r = identity;
  for (var i = 0u; i < 32u; i++) { r = ptx_redux_op(op, r, select(identity, subgroupShuffle(v, i), ((m >> i) & 1u) != 0u)); }
  return r;
}
