// The mma form runs shared by the WebGPU test (mma.gpu.test.ts) and the native recorder's case
// list (native/export-cases.test.ts): per form, random A, B, C per warp packed into the lanes'
// fragment registers by the ISA's layouts (reference.ts) and the D the reference expects.
import type { NativeRun } from './native.js';
import { MMA_CASES, MMA_SM89_CASES, mmaInputs, referenceMma, rowsOf, wordsPerLane, type MmaCase } from './reference.js';

export const MMA_LAUNCH = { grid: 2, block: 64 } as const;
export const WARPS = (MMA_LAUNCH.grid * MMA_LAUNCH.block) / 32;

/** Every form, with the .ptx file its kernel is in (tests/matrix/kernels/). */
export const ALL_MMA_CASES: readonly (readonly [string, MmaCase])[] = [
  ...MMA_CASES.map((c) => ['mma_forms', c] as const),
  ...MMA_SM89_CASES.map((c) => ['mma_forms_sm89', c] as const),
];

export const mmaSeed = (c: MmaCase): number => 0x9e3779b9 ^ ALL_MMA_CASES.findIndex(([, x]) => x === c);

/** D's placement and rows (the stacked products of m8n8k4 .f16 included). */
export const dPlace = (c: MmaCase): { at: MmaCase['cAt']; rows: number } => ({ at: c.dAt ?? c.cAt, rows: rowsOf(c).m });
export const dWords = (c: MmaCase): number => WARPS * 32 * wordsPerLane(c.cCount, c.d);

export interface MmaExpectation {
  readonly inputs: [Uint32Array, Uint32Array, Uint32Array];
  readonly A: bigint[][][]; readonly B: bigint[][][]; readonly C: bigint[][][];
  /** The reference D per warp. */
  readonly d: bigint[][][];
}

export function expectedD(c: MmaCase): MmaExpectation {
  const { A, B, C, words } = mmaInputs(c, WARPS, mmaSeed(c));
  return { inputs: words, A, B, C, d: A.map((a, w) => referenceMma(c, a, B[w] as bigint[][], C[w] as bigint[][])) };
}

export function mmaNativeRuns(): NativeRun[] {
  return ALL_MMA_CASES.map(([ptx, c]) => ({
    ptx, kernel: c.kernel, grid: MMA_LAUNCH.grid, block: MMA_LAUNCH.block,
    inputs: expectedD(c).inputs, outputWords: [dWords(c)], scalars: [],
  }));
}
