/**
 * Which lowering a kernel's matrix instructions take (issue 14), reported as `layout.matrix`:
 *  - `tensor-core`: wmma as WGSL subgroup matrices (src/translate/wmma-subgroup-matrix.ts),
 *    where the device offers `chromium-experimental-subgroup-matrix` with a configuration of
 *    the kernel's shape and types, the warp is a native 32-lane subgroup, and every fragment
 *    only flows between wmma instructions (src/translate/wmma-fragment-flow.ts);
 *  - `portable`: shuffles and arithmetic (wmma-mma.ts), exact on every device.
 * Kernels without matrix instructions have no report. CompileOptions.matrixPath forces the
 * portable path, or asks for the tensor-core one regardless of the device (WGSL tests).
 */
import type { CompileOptions, SubgroupMatrixConfig } from '../src/compile-types.js';

export interface MatrixReport {
  readonly path: 'tensor-core' | 'portable';
  readonly reason: string;
}

/**
 * Thrown by a pass that finds the tensor-core lowering cannot be emitted (a fragment in memory
 * that WGSL cannot view as an array of its elements); compile() then builds the kernel again
 * on the portable path, with this reason.
 */
export class MatrixFallback extends Error {
  constructor(readonly reason: string) { super(reason); }
}

/** A configuration `A (m x k, input) * B (k x n, input) + C (m x n, result)` the device must offer. */
export interface MatrixShape {
  readonly m: number; readonly n: number; readonly k: number;
  readonly input: 'f16'; readonly result: 'f16' | 'f32';
}

const describe = (s: MatrixShape): string => `${s.input}->${s.result} ${s.m}x${s.n}x${s.k}`;

/** The device side of the choice: the reason the portable path is taken, or undefined. */
export function deviceRefusal(options: CompileOptions, shapes: readonly MatrixShape[]): string | undefined {
  if (options.matrixPath === 'portable') return 'forced by the matrixPath option';
  if (options.matrixPath === 'tensor-core') return undefined;
  const configs = options.subgroupMatrixConfigs;
  if (!configs || configs.length === 0) return 'the device offers no subgroup matrices (chromium-experimental-subgroup-matrix; see the README for Dawn\'s flags)';
  if (options.warpPath === 'emulated') return 'the warp path is emulated: a warp is not one subgroup';
  if (options.subgroupSize !== 32) return options.subgroupSize === undefined ? 'the device has no subgroups of a known, fixed size' : `the device's subgroups have ${options.subgroupSize} lanes, not 32`;
  if (options.pinSubgroupSize === true) return 'the device runs 32-lane subgroups only when pinned, which subgroup matrices do not take';
  const missing = shapes.find((s) => !configs.some((c) => offers(c, s)));
  return missing ? `the device has no subgroup-matrix configuration ${describe(missing)}` : undefined;
}

function offers(c: SubgroupMatrixConfig, s: MatrixShape): boolean {
  return c.M === s.m && c.N === s.n && c.K === s.k && c.componentType === s.input && c.resultComponentType === s.result;
}

export function tensorCoreReason(shapes: readonly MatrixShape[], forced: boolean): string {
  const list = [...new Set(shapes.map(describe))].join(', ');
  return forced ? `forced by the matrixPath option (${list})` : `the device offers subgroup matrices ${list} and every fragment flows only between wmma instructions`;
}
