import { describe, expect, it } from 'vitest';
import { ArgSpecError, formatElements, mulberry32, parseArgSpec, type CliArg } from '../../src/cli/args.js';

const noFiles = (path: string): Uint8Array => {
  throw new Error(`unexpected read of ${path}`);
};
const buffer = (spec: string, read = noFiles) => parseArgSpec(spec, read) as Extract<CliArg, { kind: 'buffer' }>;

describe('--arg specs', () => {
  it('parses scalars, 64-bit ones as bigint', () => {
    expect(parseArgSpec('f32=2.5', noFiles)).toEqual({ kind: 'scalar', type: 'f32', value: 2.5 });
    expect(parseArgSpec('u32=1024', noFiles)).toEqual({ kind: 'scalar', type: 'u32', value: 1024 });
    expect(parseArgSpec('s32=-7', noFiles)).toEqual({ kind: 'scalar', type: 's32', value: -7 });
    expect(parseArgSpec('u64=0x10', noFiles)).toEqual({ kind: 'scalar', type: 'u64', value: 16n });
    expect(() => parseArgSpec('u32=1.5', noFiles)).toThrow(ArgSpecError);
    expect(() => parseArgSpec('q32=1', noFiles)).toThrow(/unknown scalar type/);
  });

  it('fills buffers linearly, with zeros, a constant or seeded random values', () => {
    const lin = buffer('f32:n=5:linear');
    expect(lin.data).toBeInstanceOf(Float32Array);
    expect([...lin.data]).toEqual([0, 1, 2, 3, 4]);
    expect([...buffer('u64:n=3:linear').data]).toEqual([0n, 1n, 2n]);
    expect([...buffer('s16:n=3:zero').data]).toEqual([0, 0, 0]);
    expect([...buffer('u32:n=2:fill=9').data]).toEqual([9, 9]);
    const r1 = buffer('f32:n=100:random:seed=3').data;
    expect([...r1]).toEqual([...buffer('f32:n=100:random:seed=3').data]);
    expect([...r1]).not.toEqual([...buffer('f32:n=100:random:seed=4').data]);
    expect([...r1].every((v) => typeof v === 'number' && v >= 0 && v < 1)).toBe(true);
    expect([...buffer('f16:n=2:linear').data]).toEqual([0x0000, 0x3c00]);
  });

  it('reads files, checking the size fits the element type', () => {
    const read = () => new Uint8Array([1, 0, 0, 0, 2, 0, 0, 0]);
    expect([...buffer('u32:file=x.bin', read).data]).toEqual([1, 2]);
    expect(() => buffer('f64:file=x.bin', () => new Uint8Array(12))).toThrow(/not a multiple of 8/);
    expect(() => buffer('f32:linear')).toThrow(/needs n=COUNT/);
  });

  it('prints the first elements', () => {
    expect(formatElements(buffer('f32:n=10:linear'), 3)).toBe('0, 1, 2, ...');
    expect(formatElements(buffer('f16:n=2:linear'), 8)).toBe('0, 1');
  });

  it('has a reproducible generator', () => {
    const a = mulberry32(1);
    const b = mulberry32(1);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
});
