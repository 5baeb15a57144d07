// Runs a warp kernel through the context API (so the warp path can be forced) with poisoned
// output buffers, and loads the recorded native CUDA results.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, type Context, type ContextOptions } from '../../src/api.js';
import { POISON, warpInput } from './reference.js';
import type { BrArg, BrCase } from './block-reduce-cases.js';

const KERNELS = join(import.meta.dirname, '..', 'kernels');
export const NATIVE_FILE = join(import.meta.dirname, 'native', 'warp_native.json');

export interface NativeCase {
  readonly ptx: string; readonly kernel: string; readonly grid: number; readonly block: number;
  readonly input: readonly number[]; readonly outputs: readonly (readonly number[])[];
}

export function nativeCases(): readonly NativeCase[] {
  if (!existsSync(NATIVE_FILE)) return [];
  return (JSON.parse(readFileSync(NATIVE_FILE, 'utf8')) as { cases: NativeCase[] }).cases;
}

export function kernelSource(ptx: string): string {
  return readFileSync(join(KERNELS, `${ptx}.ptx`), 'utf8');
}

/** A fresh context per run: a device error in one kernel must not fail the next (errors are sticky). */
export const context = (options: ContextOptions = {}): Promise<Context> => createContext(options);

export interface WarpRun { readonly outputs: Uint32Array[]; readonly path: string; readonly pinned: number | undefined }

/** Launches `kernel` on `grid` blocks of `block` threads; output sizes in words. */
export async function runWarpKernel(
  ptx: string, kernel: string, grid: number, block: number, outputWords: readonly number[], warpPath: 'auto' | 'subgroups' | 'emulated',
  contextOptions: ContextOptions = {},
): Promise<WarpRun> {
  const c = await context(contextOptions);
  const mod = c.loadModule(kernelSource(ptx), { fileName: `${ptx}.ptx`, warpPath });
  const fn = mod.getFunction(kernel);
  const input = warpInput(grid * block);
  const inBuf = c.malloc(input.byteLength);
  c.memcpyHtoD(inBuf, input);
  const outs = outputWords.map((w) => { const b = c.malloc(4 * w); c.memcpyHtoD(b, new Uint32Array(w).fill(POISON)); return b; });
  try {
    const compiled = await fn.prepareAsync({ grid, block }, [inBuf, ...outs]);
    fn.launch({ grid, block }, [inBuf, ...outs]);
    const outputs = outputWords.map((w) => new Uint32Array(w));
    for (let i = 0; i < outs.length; i++) await c.memcpyDtoH(outputs[i] as Uint32Array, outs[i] as never);
    return { outputs, path: compiled.layout.warp.path, pinned: compiled.layout.warp.pinnedSubgroupSize };
  } finally {
    c.destroy();
  }
}

/** Runs a block-reduction case (block-reduce-cases.ts); returns its output buffers in argument order. */
export async function runBlockReduce(
  c: BrCase, warpPath: 'auto' | 'subgroups' | 'emulated', contextOptions: ContextOptions = {},
): Promise<{ readonly outputs: (Float32Array | Int32Array)[]; readonly path: string; readonly args: BrArg[] }> {
  const ctx = await context(contextOptions);
  try {
    const fn = ctx.loadModule(kernelSource('block_reduce'), { fileName: 'block_reduce.ptx', warpPath }).getFunction(c.kernel);
    const args = c.args();
    const launchArgs = args.map((a) => {
      if ('scalar' in a) return a.scalar;
      const b = ctx.malloc(a.buffer.byteLength);
      ctx.memcpyHtoD(b, a.buffer);
      return b;
    });
    const compiled = await fn.prepareAsync({ grid: c.grid, block: c.block }, launchArgs as never);
    fn.launch({ grid: c.grid, block: c.block }, launchArgs as never);
    const outputs: (Float32Array | Int32Array)[] = [];
    for (let k = 0; k < args.length; k++) {
      const a = args[k] as BrArg;
      if (!('buffer' in a) || a.output !== true) continue;
      const o = a.buffer.slice();
      await ctx.memcpyDtoH(o, launchArgs[k] as never);
      outputs.push(o);
    }
    return { outputs, path: compiled.layout.warp.path, args };
  } finally {
    ctx.destroy();
  }
}
