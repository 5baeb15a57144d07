// The exact add.rn.f32 that checked arithmetic falls back to on a device that flushes subnormals
// (shaders/round32.wgsl, f32r_add_fix and its small-operand path): given the native sum such a
// device computes (operands and result flushed, simulated here so that a device which keeps
// subnormals tests it), the result must be the ISA's exact sum, bit for bit, on operand pairs
// that reach every branch: exact cancellations, sums of subnormals, results on both sides of the
// least normal, operands on both sides of 2^-100, infinities, NaNs.
import { afterAll, describe, expect, it } from 'vitest';
import { getDefaultDevice, releaseDefaultDevice } from '../../runtime/device.js';
import { runProbe } from '../../runtime/probe-dispatch.js';
import { linkLibrary } from '../../lowering/wgsl/library.js';
import * as R from '../conformance/ref/float.js';
import { F32 } from '../conformance/ref/float.js';

afterAll(() => releaseDefaultDevice());

function pairs(): Uint32Array {
  const special = [
    0, 0x80000000, 1, 0x80000001, 2, 0x007fffff, 0x807fffff, 0x00400000, 0x00800000, 0x80800000, 0x00800001, 0x00ffffff,
    0x01000000, 0x0c7fffff, 0x0d000000, 0x0d7fffff, 0x0d800000, 0x8d800000, 0x0d800001, 0x1f800000, 0x3f800000, 0xbf800000,
    0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc12345, 0x7f800001,
  ];
  const out: number[] = [];
  for (const a of special) for (const b of special) out.push(a, b, a, (b ^ 0x80000000) >>> 0);
  let s = 0x6a09e667;
  const next = (): number => ((s ^= s << 13), (s ^= s >>> 17), (s ^= s << 5), s >>> 0);
  for (let k = 0; k < 6000; k++) {
    // small magnitudes (exponent field below 40) with either sign, near-equal pairs, and anything
    const e1 = next() % 40, e2 = next() % 40;
    const a = ((next() & 0x807fffff) | (e1 << 23)) >>> 0;
    const b = k % 3 === 0 ? ((a ^ 0x80000000) + (next() % 5) - 2) >>> 0 : ((next() & 0x807fffff) | (e2 << 23)) >>> 0;
    out.push(a, b);
    out.push(next(), next());
  }
  return new Uint32Array(out);
}

describe('f32r_add_fix: the exact sum from a flushing device\'s native sum', () => {
  it('matches the ISA reference on every pair', async () => {
    const input = pairs();
    const n = input.length / 2;
    const code = [
      linkLibrary(['f32r_add_fix', 'f32r_ftz']),
      '@group(0) @binding(0) var<storage, read_write> io: array<u32>;',
      '@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) t: u32) {',
      `  for (var i = t; i < ${n}u; i = i + 64u) {`,
      '    let a = io[2u * i]; let b = io[2u * i + 1u];',
      // what NVIDIA's driver computes: subnormal operands and results flushed to signed zeros
      '    let r = f32r_ftz(bitcast<u32>(bitcast<f32>(f32r_ftz(a)) + bitcast<f32>(f32r_ftz(b))));',
      `    io[${input.length}u + i] = f32r_add_fix(a, b, r);`,
      '  }',
      '}',
    ].join('\n');
    const init = new Uint32Array(input.length + n);
    init.set(input);
    init.fill(0xdeadbeef, input.length);
    const out = new Uint32Array(await runProbe(await getDefaultDevice(), 'add-fix test', code, init.byteLength, init));
    const bad: string[] = [];
    for (let i = 0; i < n && bad.length < 8; i++) {
      const [a, b] = [input[2 * i] as number, input[2 * i + 1] as number];
      const want = Number(R.add(F32, BigInt(a), BigInt(b), 'rn'));
      const got = out[input.length + i] as number;
      if (got !== want) bad.push(`${a.toString(16)} + ${b.toString(16)}: got ${got.toString(16)}, want ${want.toString(16)}`);
    }
    expect(bad).toEqual([]);
  });
});
