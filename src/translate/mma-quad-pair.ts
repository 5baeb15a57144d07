/**
 * `mma.sync.aligned.m8n8k4.{row,col}.{row,col}` with .f16 inputs (ISA "Matrix Fragments for
 * mma.m8n8k4 with .f16 floating point type"): one warp computes four independent 8x8x4
 * products, number q (0..3) by the quad pair of lanes 4q..4q+3 (low group) and 16+4q..16+4q+3
 * (high group). With t = laneid % 4 and h = 1 in the high group, the ISA places:
 *  - A row-major: a_i at (t + 4h, i); column-major: (i + 4h, t)       (two .f16x2 registers)
 *  - B row-major: b_i at (t, i + 4h); column-major: (i, t + 4h)       (two .f16x2 registers)
 *  - C/D .f16: c_i at (t + 4h, i)                                       (four .f16x2 registers)
 *  - C/D .f32: c_i at ((laneid & 1) + (i & 2) + 4h, (i & 4) + (laneid & 2) + (i & 1))
 * so the rows and columns a thread needs stay in its own quad pair: lanes 16(row >> 2) + 4q +
 * (row & 3) hold A's row (row-major), and so on. The D element i a thread computes is at
 * (R, C) = its D layout's place; what follows is where its operands are, as `ElementRef`s
 * (mma-operands.ts), written out from the five placements above with 4q + 16h = laneid & 28:
 *  - D .f16 (R = t + 4h, C = i): row-major A[R][k] is its own element k; column-major A[R][k] is
 *    element R & 3 = laneid & 3 of lane (laneid & 28) | k; row-major B[k][C] is element C & 3 of
 *    lane (laneid & 12) | 16(C >> 2) | k; column-major B[k][C] is element k of lane
 *    (laneid & 12) | 16(C >> 2) | (C & 3); C (.f16, the ISA requires it) is its own element i.
 *  - D .f32 (R & 3 = (laneid & 1) + (i & 2), C = (i & 4) + (laneid & 2) + (i & 1)): row-major
 *    A[R][k] is element k of lane (laneid & 29) | (i & 2); column-major, element (i & 2) +
 *    (laneid & 1) of lane (laneid & 28) | k; row-major B[k][C], element (i & 1) + (laneid & 2) of
 *    lane (laneid & 12) | 16(i >> 2 & 1) | k; column-major, element k of lane (laneid & 14) |
 *    16(i >> 2 & 1) | (i & 1); C .f32 is its own element i, C .f16 element C = (i & 5) +
 *    (laneid & 2) of lane (laneid & 29) | (i & 2).
 * tests/matrix/mma-quad-pair.test.ts checks these against the placements for every lane.
 */
import { OWN_LANE, element, type ElementRef, type LaneExpr, type MmaOperands } from './mma-operands.js';

export type Layout = 'row' | 'col';

const lane = (mask: number, or: number): LaneExpr => ({ mask, shl: 0, or });

export function quadPairOperands(aLayout: Layout, bLayout: Layout, c: 'f16' | 'f32', d: 'f16' | 'f32'): MmaOperands {
  const halves = { regs: 2, perReg: 2 };
  const acc = (t: 'f16' | 'f32'): { regs: number; perReg: number } => (t === 'f16' ? { regs: 4, perReg: 2 } : { regs: 8, perReg: 1 });
  const hi = (i: number): number => 16 * ((i >> 2) & 1);
  const common = { k: 4, a: halves, b: halves, c: acc(c), d: acc(d) };
  if (d === 'f16') {
    return {
      ...common,
      aAt: (_i, k): ElementRef => (aLayout === 'row' ? { lane: OWN_LANE, elem: element(k) } : { lane: lane(28, k), elem: element(0, 3) }),
      bAt: (i, k): ElementRef => (bLayout === 'row'
        ? { lane: lane(12, hi(i) | k), elem: element(i & 3) }
        : { lane: lane(12, hi(i) | (i & 3)), elem: element(k) }),
      cAt: (i): ElementRef => ({ lane: OWN_LANE, elem: element(i) }),
    };
  }
  return {
    ...common,
    aAt: (i, k): ElementRef => (aLayout === 'row' ? { lane: lane(29, i & 2), elem: element(k) } : { lane: lane(28, k), elem: element(i & 2, 1) }),
    bAt: (i, k): ElementRef => (bLayout === 'row'
      ? { lane: lane(12, hi(i) | k), elem: element(i & 1, 2) }
      : { lane: lane(14, hi(i) | (i & 1)), elem: element(k) }),
    cAt: (i): ElementRef => (c === 'f32' ? { lane: OWN_LANE, elem: element(i) } : { lane: lane(29, i & 2), elem: element(i & 5, 2) }),
  };
}
