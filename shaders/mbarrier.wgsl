// mbarrier objects (lowering/wgsl/emit-mbarrier.ts). The 64-bit object is two words:
//   lo: bit 31 the phase parity, bits 20-30 tx-count bits 0-10, bits 0-19 the pending count;
//   hi: bit 31 the object's lock, bits 20-29 tx-count bits 11-20, bits 0-19 the expected count.
// The tx-count is 21-bit two's complement: the ISA bounds it to +-(2^20 - 1), and it goes
// negative when a copy completes its bytes before the expect-tx that announces them.

fn mbar_tx(lo: u32, hi: u32) -> i32 {
  let bits = ((lo >> 20u) & 0x7ffu) | (((hi >> 20u) & 0x3ffu) << 11u);
  return bitcast<i32>(bits << 11u) >> 11u;
}

fn mbar_pack(phase: u32, pending: u32, expected: u32, tx: i32) -> vec2<u32> {
  let t = bitcast<u32>(tx) & 0x1fffffu;
  return vec2<u32>((phase << 31u) | ((t & 0x7ffu) << 20u) | (pending & 0xfffffu), ((t >> 11u) << 20u) | (expected & 0xfffffu));
}

// One update (MbarrierInst `update`, src/ir/inst.ts) of the object `s`, lock bit clear: the
// expected count drops by `drop`, the tx-count moves by `tx`, the pending count drops by
// `arrive`; the phase completes when both counts are zero (ISA "Phase Completion"): the parity
// flips and the next phase starts with the expected count pending and no transactions.
fn mbar_update(s: vec2<u32>, arrive: u32, drop: u32, tx: i32) -> vec2<u32> {
  let expected = ((s.y & 0xfffffu) - drop) & 0xfffffu;
  let pending = ((s.x & 0xfffffu) - arrive) & 0xfffffu;
  let t = mbar_tx(s.x, s.y) + tx;
  let phase = s.x >> 31u;
  let done = (pending == 0u) & (t == 0);
  return select(mbar_pack(phase, pending, expected, t), mbar_pack(phase ^ 1u, expected, expected, 0), done);
}
