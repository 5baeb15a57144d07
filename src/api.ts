/**
 * The public runtime API: `runPtx` for one-call use, and a CUDA-driver-shaped API (context,
 * module, function, malloc/memcpy/launch/synchronize) for repeated launches without
 * re-transpiling or re-copying. This file binds the runtime to the compiler: the runtime takes
 * what `compileModule()` describes (src/runtime-compiler.ts) and never imports the compiler.
 */
import { runtimeCompiler } from './runtime-compiler.js';
import { Context, createContextWith, type ContextOptions } from '../runtime/context.js';
import { runPtxWith, type RunArg, type RunOptions, type RunResult } from '../runtime/run.js';

/**
 * Compiles `ptxSource`, copies host buffers in, launches, and resolves once every writable
 * buffer argument has been copied back into the caller's memory.
 */
export function runPtx(ptxSource: string, args: readonly RunArg[], options: RunOptions = {}): Promise<RunResult> {
  return runPtxWith(runtimeCompiler, ptxSource, args, options);
}

/** A context on `options.device` or the host's default device (cuCtxCreate). */
export function createContext(options: ContextOptions = {}): Promise<Context> {
  return createContextWith(runtimeCompiler, options);
}

export { Context, type ContextOptions };
export type { RunArg, RunOptions, RunResult };
export { Module, type ModuleOptions } from '../runtime/module.js';
export type { Compiler, CompiledModule, ModuleCompiler, ModuleCompileOptions, RuntimeCompiler, DeviceProbe, NativeFloat } from './compile-types.js';
export { compileModule } from './compile-module.js';
export { KernelFunction, type LaunchArg, type LaunchConfig } from '../runtime/launch.js';
export { DeviceBuffer, type DevicePointer, type HostBuffer } from '../runtime/memory.js';
export type { DimInput } from '../runtime/grid.js';
export type { Logger, LogLevel } from '../runtime/log.js';
export { getDefaultDevice, releaseDefaultDevice, requestKernelDevice } from '../runtime/device.js';
