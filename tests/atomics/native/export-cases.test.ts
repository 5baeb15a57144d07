// Writes native/each-cases.json (kernels and inputs for native/record.py) when
// WRITE_NATIVE_CASES=1; otherwise checks the committed file is current.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { cases } from '../../e2e/cases.js';
import { EACH_CASES } from '../cases.js';
import { eachKernel, elementBytes } from '../kernels.js';

const FILE = new URL('./each-cases.json', import.meta.url);

function exported(): string {
  const hex = (b: bigint): string => `0x${b.toString(16)}`;
  const each = EACH_CASES.filter((c) => !c.unrecorded).map((c) => ({
    name: c.name, ptx: eachKernel(c.spec, c.vals.length), entry: 'each', bytes: elementBytes(c.spec.type),
    init: c.init.map(hex), vals: c.vals.map(hex), cmps: c.cmps.map(hex),
  }));
  const e2e = cases.filter((c) => c.ptxFile === 'atom_float_max.ptx').map((c) => {
    const args = c.makeArgs() as ArrayLike<number>[];
    const arr = (a: unknown): { dtype: string; hex: string } => {
      const v = a as Float32Array | Float64Array | Uint32Array;
      const dtype = v instanceof Float32Array ? 'float32' : v instanceof Float64Array ? 'float64' : 'uint32';
      return { dtype, hex: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') };
    };
    return { name: c.name, grid: c.grid, block: c.block, arrays: args.slice(0, 4).map(arr), n: args[4] };
  });
  return `${JSON.stringify({ each, e2e }, null, 1)}\n`;
}

it('each-cases.json is current', () => {
  const text = exported();
  if (process.env['WRITE_NATIVE_CASES']) writeFileSync(FILE, text);
  expect(existsSync(FILE) && readFileSync(FILE, 'utf8') === text).toBe(true);
});
