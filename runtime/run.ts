/**
 * `runPtx`: compile, copy in, launch, copy back, in one call. Built on the context API; host
 * buffers passed for pointer parameters become allocations for the duration of the call.
 * Contexts and loaded modules are kept per device, so running the same PTX again does not
 * re-transpile it.
 */
import type { CompiledKernel, KernelLayout } from '../lowering/layout.js';
import { createContextWith, type Context } from './context.js';
import { getDefaultDevice } from './device.js';
import type { LaunchArg, LaunchConfig } from './launch.js';
import { hostBytes, isHostBuffer, type DeviceBuffer, type HostBuffer } from './memory.js';
import type { RuntimeCompiler } from '../src/compile-types.js';
import type { Module } from './module.js';
import { slotBindings } from './bindings.js';
import { checkArgCount, launchShape } from './launch-checks.js';
import type { Logger } from './log.js';

export interface RunOptions extends LaunchConfig {
  /** The `.entry` to run. Default: the module's only entry. */
  readonly entry?: string;
  /** Default: the host's shared default device. */
  readonly device?: GPUDevice;
  /** Name used in diagnostics. Default `kernel.ptx`. */
  readonly fileName?: string;
  /**
   * Receives driver messages (ContextOptions.log) for the device's context, which the first
   * call on a device creates and later calls reuse.
   */
  readonly log?: Logger;
}

/** Arguments as `launch` takes them, plus host buffers for pointer parameters. */
export type RunArg = LaunchArg;

export interface RunResult {
  /** The compiled kernel variant that ran (its WGSL and layout). */
  readonly kernel: CompiledKernel;
  /** Wall-clock milliseconds from submitting the dispatch to its completion. */
  readonly timeMs: number;
}

/** A host buffer's allocation for one call, and whether the kernel may have written it. */
interface Staged {
  readonly host: HostBuffer;
  readonly device: DeviceBuffer;
  writable: boolean;
}

const MAX_CACHED_MODULES = 32;

class RunCache {
  private readonly modules = new Map<string, Module>();
  constructor(readonly ctx: Context) {}

  module(source: string, fileName: string | undefined): Module {
    const key = `${fileName ?? ''}\0${source}`;
    let mod = this.modules.get(key);
    if (!mod) {
      mod = this.ctx.loadModule(source, fileName !== undefined ? { fileName } : {});
      if (this.modules.size >= MAX_CACHED_MODULES) this.modules.delete(this.modules.keys().next().value as string);
      this.modules.set(key, mod);
    }
    return mod;
  }
}

/** Per compiler (the package's compile(), or a test's) and device. */
const caches = new WeakMap<RuntimeCompiler, WeakMap<GPUDevice, RunCache>>();

export async function runPtxWith(compiler: RuntimeCompiler, source: string, args: readonly RunArg[], options: RunOptions = {}): Promise<RunResult> {
  const device = options.device ?? (await getDefaultDevice());
  let perDevice = caches.get(compiler);
  if (!perDevice) caches.set(compiler, (perDevice = new WeakMap()));
  let cache = perDevice.get(device);
  if (!cache || cache.ctx.monitor.faulted) {
    cache?.ctx.monitor.dispose(); // a device fault is sticky: it must not fail every later call
    cache = new RunCache(await createContextWith(compiler, { device, ...(options.log ? { log: options.log } : {}) }));
    perDevice.set(device, cache);
  }
  return runIn(cache, source, args, options);
}

async function runIn(cache: RunCache, source: string, args: readonly RunArg[], options: RunOptions): Promise<RunResult> {
  const { ctx } = cache;
  const mod = cache.module(source, options.fileName);
  const fn = mod.getFunction(options.entry ?? mod.defaultEntry());
  // What launch checks too, checked before the arguments are copied to the device.
  checkArgCount(fn.layout, args);
  launchShape(fn.name, options);
  const staged = new Map<string, Staged>();
  try {
    const deviceArgs = stageArgs(ctx, fn.layout, args, staged);
    const kernel = await fn.prepareAsync(options, deviceArgs);
    const start = performance.now();
    fn.launch(options, deviceArgs);
    await ctx.synchronize();
    const timeMs = performance.now() - start;
    const writable = [...staged.values()].filter((s) => s.writable);
    await Promise.all(writable.map((s) => ctx.memcpyDtoH(s.host, s.device)));
    return { kernel, timeMs };
  } finally {
    for (const s of staged.values()) ctx.free(s.device);
  }
}

/**
 * Replaces host buffers passed for non-aggregate parameters with allocations holding a copy.
 * The same memory passed twice (by identical views) becomes one allocation, so in-place
 * kernels see true aliasing.
 */
function stageArgs(ctx: Context, layout: KernelLayout, args: readonly RunArg[], staged: Map<string, Staged>): LaunchArg[] {
  const ids = new Map<ArrayBufferLike, number>();
  const slots = slotBindings(layout);
  return args.map((arg, i) => {
    const param = layout.params[i];
    // Scalars are left to launch, which says what a host buffer is doing there.
    if (!isHostBuffer(arg) || !param || param.arrayLength !== undefined || (!param.isPointer && param.size !== 8)) return arg;
    const bytes = hostBytes(arg);
    if (!ids.has(bytes.buffer)) ids.set(bytes.buffer, ids.size);
    const key = `${ids.get(bytes.buffer)}:${bytes.byteOffset}:${bytes.byteLength}`;
    let s = staged.get(key);
    if (!s) {
      s = { host: arg, device: ctx.malloc(bytes.byteLength), writable: false };
      staged.set(key, s);
      ctx.memcpyHtoD(s.device, arg);
    }
    // Read-only parameters need no copy back: the kernel cannot have changed them.
    s.writable ||= slots.some((b) => b.param === i && b.access === 'read_write');
    return s.device;
  });
}
