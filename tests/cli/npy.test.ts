// .npy files as NumPy writes them (np.save), and buffer comparison for `run --expect`.
import { describe, expect, it } from 'vitest';
import { compareBuffers } from '../../src/cli/buffers.js';
import { dtypeFits, formatNpy, NpyError, parseNpy } from '../../src/cli/npy.js';
import type { BufferArg } from '../../src/cli/launch-input.js';

/** What `np.save(f, np.arange(6, dtype='<i4').reshape(2, 3))` writes. */
function numpyArange(): Uint8Array {
  const header = `{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }${' '.repeat(58)}\n`;
  const bytes = new Uint8Array(10 + header.length + 24);
  bytes.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length, 0]);
  bytes.set(new TextEncoder().encode(header), 10);
  bytes.set(new Uint8Array(new Int32Array([0, 1, 2, 3, 4, 5]).buffer), 10 + header.length);
  return bytes;
}

describe('.npy', () => {
  it('reads what NumPy writes (any shape, C order)', () => {
    const file = numpyArange();
    expect((10 + 118) % 64).toBe(0);
    const a = parseNpy(file);
    expect(a.descr).toBe('<i4');
    expect(a.shape).toEqual([2, 3]);
    expect([...new Int32Array(new Uint8Array(a.data).buffer)]).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('writes version 1.0 files NumPy reads: data 64-byte aligned, 1-D', () => {
    const data = new Float64Array([1.5, -2, NaN]);
    const file = formatNpy('f64', new Uint8Array(data.buffer), data.length);
    const headerLength = (file[8] ?? 0) + 256 * (file[9] ?? 0);
    expect((10 + headerLength) % 64).toBe(0);
    const back = parseNpy(file);
    expect(back).toMatchObject({ descr: '<f8', shape: [3] });
    expect([...new Float64Array(new Uint8Array(back.data).buffer)]).toEqual([1.5, -2, NaN]);
  });

  it('matches dtypes by size and kind, and refuses what it would have to reorder', () => {
    expect(dtypeFits('<f4', 'f32')).toBe(true);
    expect(dtypeFits('<i4', 'u32')).toBe(true);
    expect(dtypeFits('|b1', 'u8')).toBe(true);
    expect(dtypeFits('<f4', 'u32')).toBe(false);
    expect(dtypeFits('<u8', 'u32')).toBe(false);
    const big = formatNpy('f32', new Uint8Array(8), 2);
    big.set(new TextEncoder().encode('>'), big.indexOf(0x3c)); // '<f4' -> '>f4'
    expect(() => parseNpy(big)).toThrow(/big-endian/);
    expect(() => parseNpy(new Uint8Array(16))).toThrow(NpyError);
  });
});

describe('run --expect comparison', () => {
  const f32 = (...v: number[]): BufferArg => ({ kind: 'buffer', type: 'f32', data: new Float32Array(v) });
  it('is exact by default, NaN matching NaN; floats within atol + rtol*|expected|', () => {
    expect(compareBuffers(f32(1, NaN, -0), f32(1, NaN, 0), { atol: 0, rtol: 0 }).mismatches).toBe(0);
    const c = compareBuffers(f32(1, 2.001, Infinity), f32(1, 2, 3), { atol: 0, rtol: 0 });
    expect(c).toMatchObject({ mismatches: 2, first: [{ index: 1 }, { index: 2, got: Infinity, expected: 3 }] });
    expect(compareBuffers(f32(2.001), f32(2), { atol: 0, rtol: 1e-3 }).mismatches).toBe(0);
    expect(compareBuffers(f32(1, 2), f32(1), { atol: 0, rtol: 0 })).toMatchObject({ mismatches: 1, lengths: { got: 2, expected: 1 } });
    const u64 = (...v: bigint[]): BufferArg => ({ kind: 'buffer', type: 'u64', data: new BigUint64Array(v) });
    expect(compareBuffers(u64(1n, 2n ** 63n), u64(1n, 2n ** 63n + 1n), { atol: 1, rtol: 0 }).mismatches).toBe(1);
  });
});
