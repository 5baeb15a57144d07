/**
 * What the tensor-core path of wmma knows of a kernel's fragments (wmma-fragment-flow.ts
 * finds it, wmma-subgroup-matrix.ts uses it while translating).
 */
import type * as T from '../ir/types.js';

/** A fragment register: its list (the SSA variable of the whole fragment), its position in it and the list's length. */
export interface FragmentRegister { readonly list: number; readonly position: number; readonly type: T.MatrixType; readonly count: number }

/** A configuration `A (m x k, input) * B (k x n, input) + C (m x n, result)` the device must offer. */
export interface MatrixShape {
  readonly m: number; readonly n: number; readonly k: number;
  readonly input: 'f16'; readonly result: 'f16' | 'f32';
}

export interface FragmentPlan {
  readonly registers: ReadonlyMap<string, FragmentRegister>;
  /** The movs that fill a list with a constant (by source offset), and the constant's element bits. */
  readonly fills: ReadonlyMap<number, bigint>;
  readonly shapes: readonly MatrixShape[];
}
