/** What a conformance run reports for one batch on one warp path (run.ts, run-kernels.ts). */

export interface FormFailure {
  readonly form: string;
  /** An approximate form (approx.ts): it failed the loose bound, not a bit comparison. */
  readonly approximate: boolean;
  readonly failed: number;
  readonly cases: number;
  /** The first differing case: inputs, what this device computed and what the GPU did, as hex. */
  readonly first: { readonly index: number; readonly inputs: readonly string[]; readonly got: readonly string[]; readonly native: readonly string[] };
}

/**
 * The warp path asked for (ModuleOptions.warpPath): `auto` is the device's own choice (native
 * subgroups where they are 32 lanes in thread order), `emulated` the workgroup-memory emulation.
 */
export type WarpPathRequest = 'auto' | 'emulated';

export interface BatchResult {
  readonly name: string;
  /** The path the kernel's warp instructions took; `none`: it has none (or it did not compile). */
  readonly warpPath: 'none' | 'subgroups' | 'emulated';
  readonly forms: number;
  readonly cases: number;
  readonly failedForms: number;
  readonly failedCases: number;
  /** Forms compared within approx.ts's bound instead of bit for bit. */
  readonly approximateForms: number;
  readonly failures: readonly FormFailure[];
  /** Set when the batch did not run (an error compiling or launching it). */
  readonly error?: { readonly message: string; readonly codes?: readonly string[] };
}
