// Runs a matrix test kernel (tests/matrix/kernels/*.ptx) through the context API, so the warp
// path can be forced, with input buffers and poisoned output buffers; reads the outputs back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, type ContextOptions } from '../../src/api.js';
import type { Context } from '../../runtime/context.js';
import { SCRATCH_BYTES, type NativeRun } from './native.js';

export const KERNELS = join(import.meta.dirname, 'kernels');
export const POISON = 0xdeadbeef;

/** The text of `ptx`.ptx in tests/matrix/kernels, or in tests/matrix/`dir` where given. */
export function kernelSource(ptx: string, dir?: string): string {
  return readFileSync(join(dir ? join(import.meta.dirname, dir) : KERNELS, `${ptx}.ptx`), 'utf8');
}

export type WarpPath = 'auto' | 'subgroups' | 'emulated';

/**
 * The subgroup-matrix configurations Dawn reports on an H100/H200 for the shapes the tensor-core
 * path uses (f16 inputs; 16x8x16, 16x8x8 and 16x16x16), for compile-only tests of that path.
 */
export const H100_MATRIX_CONFIGS = [
  { componentType: 'f16', resultComponentType: 'f32', M: 16, N: 8, K: 16 },
  { componentType: 'f16', resultComponentType: 'f16', M: 16, N: 8, K: 16 },
  { componentType: 'f16', resultComponentType: 'f32', M: 16, N: 8, K: 8 },
  { componentType: 'f16', resultComponentType: 'f16', M: 16, N: 8, K: 8 },
  { componentType: 'f16', resultComponentType: 'f32', M: 16, N: 16, K: 16 },
] as const;

export interface MatrixRun { readonly outputs: Uint32Array[]; readonly path: string; readonly matrix?: string }

/** A scalar kernel argument (u32 or f32), after the buffers. */
export type Scalar = { readonly u32: number } | { readonly f32: number };

/** A context made otherwise than by createContext's options (float facts of another device, replay modes). */
export type MakeContext = () => Promise<Context>;

/**
 * Launches `kernel` of `ptx` on `grid` x `block` threads with the input words and `outputWords`
 * poisoned output buffers, passed in the order inputs, outputs, scalars.
 */
export async function runMatrixKernel(
  ptx: string, kernel: string, launch: { grid: number | [number, number]; block: number },
  inputs: readonly Uint32Array[], outputWords: readonly number[], warpPath: WarpPath,
  scalars: readonly Scalar[] = [], contextOptions: ContextOptions | MakeContext = {},
  /** 'portable' by default: the tests that use it compare bit for bit with the portable path's exact arithmetic. */
  matrixPath: 'auto' | 'portable' = 'portable',
): Promise<MatrixRun> {
  const c = typeof contextOptions === 'function' ? await contextOptions() : await createContext(contextOptions);
  try {
    const mod = c.loadModule(kernelSource(ptx), { fileName: `${ptx}.ptx`, warpPath, matrixPath });
    const fn = mod.getFunction(kernel);
    const ins = inputs.map((w) => { const b = c.malloc(Math.max(4, w.byteLength)); c.memcpyHtoD(b, w); return b; });
    const outs = outputWords.map((w) => { const b = c.malloc(4 * w); c.memcpyHtoD(b, new Uint32Array(w).fill(POISON)); return b; });
    const args = [...ins, ...outs, ...scalars.map((s) => ('u32' in s ? s.u32 : s.f32))];
    const config = { grid: launch.grid, block: launch.block };
    const compiled = await fn.prepareAsync(config, args);
    fn.launch(config, args);
    const outputs = outputWords.map((w) => new Uint32Array(w));
    for (let i = 0; i < outs.length; i++) await c.memcpyDtoH(outputs[i] as Uint32Array, outs[i] as never);
    return { outputs, path: compiled.layout.warp.path, ...(compiled.layout.matrix ? { matrix: compiled.layout.matrix.path } : {}) };
  } finally {
    c.destroy();
  }
}

/** A kernel argument of runKernel, in parameter order: an input buffer, a poisoned output buffer of `out` words, or a scalar. */
export type Arg = { readonly in: Uint32Array } | { readonly out: number } | Scalar;

/**
 * Launches `kernel` with `args` in the kernel's parameter order; returns the output buffers in order.
 * `dir` is the folder of the .ptx under tests/matrix (kernels/ by default); `sharedBytes` the
 * dynamic shared memory the launch gives `.extern .shared` arrays.
 */
export async function runKernel(
  ptx: string, kernel: string, launch: { grid: number | [number, number]; block: number; sharedBytes?: number }, args: readonly Arg[], warpPath: WarpPath,
  dir?: string,
  /** 'portable' by default, as runMatrixKernel; 'auto' lets a device with subgroup matrices take the tensor cores. */
  matrixPath: 'auto' | 'portable' = 'portable',
): Promise<MatrixRun> {
  const c = await createContext({});
  try {
    const mod = c.loadModule(kernelSource(ptx, dir), { fileName: `${ptx}.ptx`, warpPath, matrixPath });
    const fn = mod.getFunction(kernel);
    const outs: { buffer: unknown; words: number }[] = [];
    const values = args.map((a) => {
      if ('in' in a) { const b = c.malloc(Math.max(4, a.in.byteLength)); c.memcpyHtoD(b, a.in); return b; }
      if ('out' in a) {
        const b = c.malloc(4 * a.out);
        c.memcpyHtoD(b, new Uint32Array(a.out).fill(POISON));
        outs.push({ buffer: b, words: a.out });
        return b;
      }
      return 'u32' in a ? a.u32 : a.f32;
    });
    const config = { grid: launch.grid, block: launch.block, ...(launch.sharedBytes ? { sharedBytes: launch.sharedBytes } : {}) };
    const compiled = await fn.prepareAsync(config, values);
    fn.launch(config, values);
    const outputs = outs.map((o) => new Uint32Array(o.words));
    for (let i = 0; i < outs.length; i++) await c.memcpyDtoH(outputs[i] as Uint32Array, (outs[i] as { buffer: unknown }).buffer as never);
    return { outputs, path: compiled.layout.warp.path, ...(compiled.layout.matrix ? { matrix: compiled.layout.matrix.path } : {}) };
  } finally {
    c.destroy();
  }
}

/** A recorded run's arguments in parameter order (inputs, outputs, scalars, scratch pointers), so a test replays exactly what the native recorder ran. */
export function argsOf(run: NativeRun): Arg[] {
  return [
    ...run.inputs.map((w) => ({ in: w })),
    ...run.outputWords.map((n) => ({ out: n })),
    ...run.scalars,
    ...Array.from({ length: run.scratch ?? 0 }, () => ({ in: new Uint32Array(SCRATCH_BYTES / 4) })),
  ];
}

export { firstDifference } from '../e2e/reference.js';

/** Deterministic pseudo-random 32-bit words (xorshift32), the same in record_native.py. */
export function randomWords(n: number, seed: number): Uint32Array {
  const out = new Uint32Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    out[i] = x;
  }
  return out;
}
