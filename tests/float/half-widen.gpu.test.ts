// f16_widen and bf16_widen (shaders/round32.wgsl), which every f16/bf16 operand goes through on its
// way to f32 (the portable mma widens each element it multiplies): all 65536 bit patterns of each
// format against the exact value in JS (the ISA reference's conversion), NaNs with their payload
// kept and quieted, signed zeros and subnormals included.
import { afterAll, describe, expect, it } from 'vitest';
import { getDefaultDevice, releaseDefaultDevice } from '../../runtime/device.js';
import { runProbe } from '../../runtime/probe-dispatch.js';
import { linkLibrary } from '../../lowering/wgsl/library.js';
import * as R from '../conformance/ref/float.js';

afterAll(() => releaseDefaultDevice());

/** The f32 bits of half bits `h`: the exact value, or the NaN with its payload shifted up and quieted. */
function reference(f: R.Format, h: number): number {
  const fb = f.frac, eb = f.ebits;
  const ex = (h >> fb) & ((1 << eb) - 1), fr = h & ((1 << fb) - 1), s = (h >> (fb + eb)) & 1;
  if (ex === (1 << eb) - 1 && fr !== 0) return ((s << 31) | 0x7fc00000 | (fr << (23 - fb))) >>> 0;
  return Number(R.convert(f, R.F32, BigInt(h), 'rn'));
}

describe('f16_widen / bf16_widen', () => {
  for (const [name, f] of [['f16_widen', R.F16], ['bf16_widen', R.BF16]] as const) {
    it(`${name}: every 16-bit pattern widens exactly`, async () => {
      const n = 65536;
      const code = [
        linkLibrary([name]),
        '@group(0) @binding(0) var<storage, read_write> io: array<u32>;',
        '@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) t: u32) {',
        `  for (var i = t; i < ${n}u; i = i + 64u) { io[i] = ${name}(i); }`,
        '}',
      ].join('\n');
      const init = new Uint32Array(n).fill(0xdeadbeef);
      const out = new Uint32Array(await runProbe(await getDefaultDevice(), `${name} test`, code, init.byteLength, init));
      const bad: string[] = [];
      for (let h = 0; h < n && bad.length < 8; h++) {
        const want = reference(f, h);
        if (out[h] !== want) bad.push(`${h.toString(16)}: got ${(out[h] as number).toString(16)}, want ${want.toString(16)}`);
      }
      expect(bad).toEqual([]);
    });
  }
});
