// The references of the atomics tests checked on their own (so a GPU test cannot pass on a
// broken reference): the linearisability check rejects lost updates and invented values, and
// the half-precision rounding agrees with known encodings.
import { describe, expect, it } from 'vitest';
import { addF32, addHalf, apply, encode, linearise } from './reference.js';

const add1 = (): bigint => 1n;
describe('linearise', () => {
  it('accepts a permutation of tickets and rejects a lost update', () => {
    expect(linearise(0n, [2n, 0n, 1n], 3n, (_t, s) => s + add1())).toBeNull();
    expect(linearise(0n, [0n, 0n, 1n], 3n, (_t, s) => s + 1n)).not.toBeNull();
    expect(linearise(0n, [0n, 1n, 2n], 2n, (_t, s) => s + 1n)).not.toBeNull();
  });
  it('accepts revisited states (inc wrapping) and rejects values memory never held', () => {
    const inc = (_t: number, s: bigint): bigint => apply('inc', 'u32', s, 2n, 0n);
    expect(linearise(0n, [0n, 1n, 2n, 0n, 1n], 2n, inc)).toBeNull();
    expect(linearise(5n, [5n], 5n, (_t, s) => apply('and', 'b32', s, 7n, 0n))).toBeNull();
    expect(linearise(5n, [4n], 5n, (_t, s) => apply('and', 'b32', s, 7n, 0n))).not.toBeNull();
  });
});

describe('reference arithmetic', () => {
  it('rounds to f16 and bf16 to nearest even', () => {
    expect(encode(1 + 2 ** -11, 10, 5)).toBe(0x3c00); // tie -> even
    expect(encode(1 + 3 * 2 ** -11, 10, 5)).toBe(0x3c02);
    expect(encode(65520, 10, 5)).toBe(0x7c00);
    expect(encode(65519, 10, 5)).toBe(0x7bff);
    expect(encode(2 ** -25, 10, 5)).toBe(0); // tie below the smallest subnormal
    expect(encode(3 * 2 ** -26, 10, 5)).toBe(1);
    expect(addHalf(0x3c00, 0x3c00, false)).toBe(0x4000);
    expect(addHalf(0x7c00, 0xfc00, false)).toBe(0x7fff);
    expect(addHalf(0x3f80, 0x3f80, true)).toBe(0x4000);
  });
  it('flushes f32 subnormals only where asked', () => {
    expect(addF32(1, 1, false)).toBe(2);
    expect(addF32(1, 1, true)).toBe(0);
    expect(addF32(0x80000001, 0, true)).toBe(0); // -0 + +0 = +0
    expect(addF32(0x00800001, 0x80800000, true)).toBe(0); // exact subnormal result flushed
    expect(addF32(0x00800001, 0x80800000, false)).toBe(1);
  });
});
