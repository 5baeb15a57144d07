/**
 * Where a thread finds the operands of the D elements it computes. The lowering
 * (handlers-mma.ts) has every thread compute its own D fragment, element i of it being
 * D[row][col] = C[row][col] + sum over k of A[row][k] * B[k][col]; each of those A, B and C
 * elements is one element of one register of some lane of the warp, and which lane and which
 * element depends on the reading thread's %laneid only through a few of its bits. An
 * `ElementRef` says so as data: lane ((laneid & mask) << shl) | or, element add + (laneid &
 * elemMask) of that lane's fragment, elements numbered as the ISA numbers them (a0, a1, ...:
 * register e / perReg, element e % perReg of it, the low bits first).
 * The figures with groupID/threadID_in_group (matrix-fragments.ts) give `quadOperands`; m8n8k4
 * with .f16, whose four products each live in a quad pair, gives mma-quad-pair.ts.
 */
import { invariant } from '../diagnostics/ptx-error.js';
import { accumulator, sources, type AccumulatorFragment, type MmaShape, type Source } from './matrix-fragments.js';

/** The lane ((laneid & mask) << shl) | or; `or` shares no bit with the shifted mask. */
export interface LaneExpr { readonly mask: number; readonly shl: number; readonly or: number }

/** Element add + (laneid & mask) of that lane's fragment. */
export interface ElemExpr { readonly add: number; readonly mask: number }

export interface ElementRef { readonly lane: LaneExpr; readonly elem: ElemExpr }

/** Registers per thread and elements per register of one operand. */
export interface RegisterShape { readonly regs: number; readonly perReg: number }

export interface MmaOperands {
  /** The reduction length: terms per D element. */
  readonly k: number;
  readonly a: RegisterShape;
  readonly b: RegisterShape;
  readonly c: RegisterShape;
  readonly d: RegisterShape;
  /** For element i of the thread's D fragment: where A[row][k], B[k][col] and C[row][col] are. */
  readonly aAt: (i: number, k: number) => ElementRef;
  readonly bAt: (i: number, k: number) => ElementRef;
  readonly cAt: (i: number) => ElementRef;
}

export const OWN_LANE: LaneExpr = { mask: 31, shl: 0, or: 0 };
export const isOwnLane = (l: LaneExpr): boolean => l.mask === 31 && l.shl === 0 && l.or === 0;
export const element = (add: number, mask = 0): ElemExpr => ({ add, mask });

/**
 * The operands of the quad-based figures: A[g + 8mi][k] is in lane 4g + t' = (laneid & ~3) | t';
 * B[k][2t + j] in lane 4(2t + j) + t' = ((laneid & 3) << 3) | (4j + t'); C where D is.
 */
export function quadOperands(shape: MmaShape, packedHalves: { c: boolean; d: boolean }): MmaOperands {
  const cFrag = accumulator(shape.m, packedHalves.c);
  const dFrag = accumulator(shape.m, packedHalves.d);
  const srcA = sources(shape.a, shape.m / 8, shape.k);
  const srcB = sources(shape.b, 1, shape.k)[0] as Source[];
  const place = (f: AccumulatorFragment, i: number): { mi: number; j: number } => f.at(Math.floor(i / f.perReg), i % f.perReg);
  const index = (src: Source, perReg: number): number => src.r * perReg + src.s;
  return {
    k: shape.k,
    a: shape.a, b: shape.b, c: cFrag, d: dFrag,
    aAt: (i, k) => {
      const src = (srcA[place(dFrag, i).mi] as Source[])[k] as Source;
      return { lane: { mask: 28, shl: 0, or: src.t }, elem: element(index(src, shape.a.perReg)) };
    },
    bAt: (i, k) => {
      const src = srcB[k] as Source;
      return { lane: { mask: 3, shl: 3, or: 4 * place(dFrag, i).j + src.t }, elem: element(index(src, shape.b.perReg)) };
    },
    cAt: (i) => {
      const { mi, j } = place(dFrag, i);
      const count = cFrag.regs * cFrag.perReg;
      const e = Array.from({ length: count }, (_, x) => place(cFrag, x)).findIndex((at) => at.mi === mi && at.j === j);
      invariant(e >= 0, `mma: no C element at (${mi}, ${j})`);
      return { lane: OWN_LANE, elem: element(e) };
    },
  };
}
