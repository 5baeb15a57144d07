/**
 * Which lowering a kernel's matrix instructions take (issue 14), reported as `layout.matrix`:
 *  - `tensor-core`: wmma as WGSL subgroup matrices (src/translate/wmma-subgroup-matrix.ts),
 *    where the device offers `chromium-experimental-subgroup-matrix` with a configuration of
 *    the kernel's shape and types, the warp is a native 32-lane subgroup, and every fragment
 *    only flows between wmma instructions (src/translate/wmma-fragment-flow.ts);
 *  - `portable`: shuffles and arithmetic (wmma-mma.ts), exact on every device.
 * Kernels without matrix instructions have no report. The choice is made on the PTX before
 * translation (src/translate/matrix-paths.ts); CompileOptions.matrixPath forces the portable
 * path, or asks for the tensor-core one regardless of the device (WGSL tests).
 */
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
