/**
 * Where the registers of an mma operand read by ldmatrix (`matrix_ldmatrix`) sit in the memory
 * matrices it reads: shared by the pass that proves their strides (ldmatrix-strides.ts) and the
 * emitter that loads them (wgsl/emit-matrix.ts).
 */
import type { InstOf } from '../src/ir/inst.js';

/**
 * An A register holds (row g, columns 2q..) of its 8x8 block (row 8 * (j & 1), column 8 * (j >> 1)
 * for register j), a B register (rows 2q.., column g) of block (row 8 * j, column 0); ldmatrix
 * hands out (row g, columns 2q..) of a memory matrix, .trans (rows 2q.., column g). So memory
 * rows are the operand's rows for A without .trans and for B with it (a row-major matrix), its
 * columns otherwise (column major).
 */
export const isRowMajor = (i: InstOf<'matrix_ldmatrix'>): boolean => (i.fragment === 'a') !== i.trans;
export const blockOf = (i: InstOf<'matrix_ldmatrix'>, j: number): [number, number] => (i.fragment === 'a' ? [j & 1, j >> 1] : [j, 0]);

/**
 * Where each memory matrix m's block sits (bit m of each mask): `used`, and its position along
 * memory rows (in 8-row steps) and across memory columns (in 8-half steps); register 0's block is
 * the origin.
 */
export function placement(i: InstOf<'matrix_ldmatrix'>): { used: number; along: number; across: number } {
  const rowMajor = isRowMajor(i);
  let used = 0; let along = 0; let across = 0;
  i.matrices.forEach((m, j) => {
    const [r, c] = blockOf(i, j);
    const [mr, mc] = rowMajor ? [r, c] : [c, r];
    used |= 1 << m; along |= mr << m; across |= mc << m;
  });
  return { used, along, across };
}
