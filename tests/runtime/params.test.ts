import { describe, expect, it } from 'vitest';
import type { KernelLayout, ParamLayout } from '../../lowering/layout.js';
import { PtxError } from '../../src/diagnostics/ptx-error.js';
import { fromHalfBits, toBfloat16Bits, toHalfBits } from '../../runtime/half.js';
import { intRange, packUniforms, writeScalar } from '../../runtime/params.js';
import { ECHO_PARAMS } from './fixtures.js';

const echoLayout = { params: ECHO_PARAMS, uniformBytes: 64 } as unknown as KernelLayout;
const header = { nctaid: [3, 2, 1] as const, dispatchX: 6 };
const agg = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);

function pack(values: unknown[]): DataView {
  const bytes = packUniforms(echoLayout, header, values as never);
  return new DataView(bytes.buffer);
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof PtxError ? e.diagnostics[0]?.code : `not a PtxError: ${String(e)}`;
  }
  return undefined;
}

describe('packUniforms', () => {
  it('writes the header and every parameter at 16 + offset, little-endian', () => {
    const v = pack([0x5_0000_0010n, 200, -2, 1.5, -0.1, 0xfedc_ba98_7654_3210n, agg, 4000000000]);
    expect([0, 4, 8, 12].map((o) => v.getUint32(o, true))).toEqual([3, 2, 1, 6]);
    expect(v.getBigUint64(16, true)).toBe(0x5_0000_0010n);
    expect(v.getUint8(24)).toBe(200);
    expect(v.getInt16(26, true)).toBe(-2);
    expect(v.getFloat32(28, true)).toBe(1.5);
    expect(v.getFloat64(32, true)).toBe(-0.1);
    expect(v.getBigUint64(40, true)).toBe(0xfedc_ba98_7654_3210n);
    expect([...new Uint8Array(v.buffer, 48, 12)]).toEqual([...agg]);
    expect(v.getUint32(60, true)).toBe(4000000000);
  });

  it('leaves padding between parameters zero', () => {
    const v = pack([0n, 1, 1, 0, 0, 0n, agg, 0]);
    expect(v.getUint8(25)).toBe(0); // between .u8 a (offset 8) and .s16 b (offset 10)
  });

  it('accepts an aggregate as an element array or any view of exactly N bytes', () => {
    const backing = new Uint8Array(20).fill(0xee);
    backing.set(agg, 4);
    const view = new DataView(backing.buffer, 4, 12);
    expect([...new Uint8Array(pack([0n, 0, 0, 0, 0, 0n, view, 0]).buffer, 48, 12)]).toEqual([...agg]);
    expect([...new Uint8Array(pack([0n, 0, 0, 0, 0, 0n, [...agg], 0]).buffer, 48, 12)]).toEqual([...agg]);
    expect(codeOf(() => pack([0n, 0, 0, 0, 0, 0n, new Uint8Array(11), 0]))).toBe('R002');
  });

  it('rejects fractions for integers, bigints for floats and out-of-range values (R002)', () => {
    expect(codeOf(() => pack([0n, 1.5, 0, 0, 0, 0n, agg, 0]))).toBe('R002');
    expect(codeOf(() => pack([0n, 256, 0, 0, 0, 0n, agg, 0]))).toBe('R002');
    expect(codeOf(() => pack([0n, 0, 32768, 0, 0, 0n, agg, 0]))).toBe('R002');
    expect(codeOf(() => pack([0n, 0, 0, 1n, 0, 0n, agg, 0]))).toBe('R002');
    expect(codeOf(() => pack([0n, 0, 0, 0, 0, -(2n ** 63n) - 1n, agg, 0]))).toBe('R002');
    expect(codeOf(() => pack([0n, 0, 0, 0, 0, 0n, agg, 2 ** 32]))).toBe('R002');
    expect(codeOf(() => pack([0n, 0, 0, 0, 0, 0n, agg, '1']))).toBe('R002');
  });
});

describe('writeScalar', () => {
  const at = (type: ParamLayout['type'], value: number | bigint, size: number): number[] => {
    const v = new DataView(new ArrayBuffer(size));
    writeScalar(v, 0, type, value, () => 'x');
    return [...new Uint8Array(v.buffer)];
  };

  it('wraps signed values to two\'s complement', () => {
    expect(at('s8', -1, 1)).toEqual([0xff]);
    expect(at('s32', -2, 4)).toEqual([0xfe, 0xff, 0xff, 0xff]);
    expect(at('s64', -1n, 8)).toEqual(Array(8).fill(0xff));
    expect(at('b32', -1, 4)).toEqual([0xff, 0xff, 0xff, 0xff]);
    expect(at('b32', 0xffffffff, 4)).toEqual([0xff, 0xff, 0xff, 0xff]);
  });

  it('takes exact integer numbers for 64-bit parameters', () => {
    expect(at('u64', 2 ** 40 + 1, 8)).toEqual([1, 0, 0, 0, 0, 1, 0, 0]);
  });

  it('converts f16 and bf16 with round-to-nearest-even', () => {
    expect(at('f16', 1, 2)).toEqual([0x00, 0x3c]);
    expect(at('f16', -2.5, 2)).toEqual([0x00, 0xc1]);
    expect(at('bf16', 1, 2)).toEqual([0x80, 0x3f]);
  });

  it('has b- and u-type ranges covering signed and unsigned values (nvcc declares int as .u32)', () => {
    expect(intRange(8, 'b')).toEqual([-128n, 255n]);
    expect(intRange(16, 's')).toEqual([-32768n, 32767n]);
    expect(intRange(32, 'u')).toEqual([-2147483648n, 4294967295n]);
    expect(at('u32', -5, 4)).toEqual([0xfb, 0xff, 0xff, 0xff]);
  });
});

describe('half precision', () => {
  it('rounds f16 to nearest even, handles subnormals, overflow and NaN', () => {
    expect(toHalfBits(65504)).toBe(0x7bff);
    expect(toHalfBits(65520)).toBe(0x7c00); // ties to even rounds up to infinity
    expect(toHalfBits(2 ** -24)).toBe(0x0001);
    expect(toHalfBits(2 ** -26)).toBe(0x0000);
    expect(toHalfBits(1 + 2 ** -11)).toBe(0x3c00); // tie, even stays
    expect(toHalfBits(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie, odd rounds up
    expect(toHalfBits(-0)).toBe(0x8000);
    expect(Number.isNaN(fromHalfBits(toHalfBits(NaN)))).toBe(true);
  });

  it('round-trips every finite f16 value', () => {
    const wrong: number[] = [];
    for (let h = 0; h < 0x10000; h++) {
      if ((h & 0x7c00) !== 0x7c00 && toHalfBits(fromHalfBits(h)) !== h) wrong.push(h);
    }
    expect(wrong).toEqual([]);
  });

  it('rounds bf16 to nearest even', () => {
    expect(toBfloat16Bits(1 + 2 ** -8)).toBe(0x3f80); // tie, even stays
    expect(toBfloat16Bits(1 + 3 * 2 ** -8)).toBe(0x3f82);
  });
});
