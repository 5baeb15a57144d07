// The lowering's operand sources (src/translate/mma-operands.ts, mma-quad-pair.ts) against the
// ISA's placements as tests/matrix/reference.ts states them, for every lane, form, D element and
// k: the lane and element an ElementRef names must hold exactly A[row][k], B[k][col] and
// C[row][col] of the D element the thread computes. No device needed: a wrong source here is a
// wrong result there.
import { describe, expect, it } from 'vitest';
import { mmaShape, type MmaInput } from '../../src/translate/matrix-fragments.js';
import { quadOperands, type ElementRef, type MmaOperands } from '../../src/translate/mma-operands.js';
import { quadPairOperands } from '../../src/translate/mma-quad-pair.js';
import { ALL_MMA_CASES, dPlace } from './mma-cases.js';
import type { MmaCase } from './reference.js';

function operandsOf(c: MmaCase): MmaOperands {
  if (c.batch) {
    // row-major A and B put element 2 of lane 1 in column 2; column-major ones do not
    const aRow = c.aAt(0, 1, 2)[1] === 2;
    const bRow = c.bAt(0, 1, 2)[1] === 2;
    return quadPairOperands(aRow ? 'row' : 'col', bRow ? 'row' : 'col', c.c as 'f16' | 'f32', c.d as 'f16' | 'f32');
  }
  const shape = mmaShape(`m${c.m}n8k${c.k}`, c.a as MmaInput);
  if (!shape) throw new Error(`no shape for ${c.kernel}`);
  return quadOperands(shape, { c: c.c === 'f16', d: c.d === 'f16' });
}

/** The (lane, element index) a reference names, for the reading lane L. */
const resolve = (ref: ElementRef, L: number): [number, number] => [((L & ref.lane.mask) << ref.lane.shl) | ref.lane.or, ref.elem.add + (L & ref.elem.mask)];
const place = (at: MmaCase['aAt'], lane: number, e: number): string => at(lane >> 2, lane & 3, e).join(',');

describe('mma operand sources agree with the ISA placements', () => {
  it.each(ALL_MMA_CASES.map(([, c]) => [c.kernel, c] as const))('%s', (_k, c) => {
    const ops = operandsOf(c);
    const { at: dAt } = dPlace(c);
    const bad: string[] = [];
    for (let L = 0; L < 32; L++) {
      for (let i = 0; i < c.cCount; i++) {
        const [row, col] = dAt(L >> 2, L & 3, i);
        const kBase = Math.floor(row / c.m) * c.k;
        const [cl, ce] = resolve(ops.cAt(i), L);
        if (place(c.cAt, cl, ce) !== `${row},${col}`) bad.push(`lane ${L} d${i}: C from lane ${cl} c${ce}`);
        for (let k = 0; k < c.k; k++) {
          const [al, ae] = resolve(ops.aAt(i, k), L);
          const [bl, be] = resolve(ops.bAt(i, k), L);
          if (place(c.aAt, al, ae) !== `${row},${k}`) bad.push(`lane ${L} d${i} k${k}: A from lane ${al} a${ae}`);
          if (place(c.bAt, bl, be) !== `${kBase + k},${col}`) bad.push(`lane ${L} d${i} k${k}: B from lane ${bl} b${be}`);
        }
      }
    }
    expect(bad.slice(0, 8)).toEqual([]);
  });
});
