/**
 * A context (CUcontext) on one GPUDevice: its allocations, loaded modules, pipeline cache, and
 * the copies and synchronisation around launches. Everything is queued on the device's one
 * queue in call order, so a copy after a launch sees the launch's results.
 */
import { copyOnDevice, fillDevice, readFromDevice, writeToDevice } from './copy.js';
import { DeviceMonitor, getDefaultDevice } from './device.js';
import { deviceError } from './errors.js';
import type { LaunchEnv } from './launch.js';
import { probeFusedFma } from './probe-fma.js';
import { probeNativeFloat } from './probe-float.js';
import { reliableSubgroups, type ReliableSubgroups, type SubgroupSizeControl } from './probe-subgroups.js';
import { AllocationTable, hostBytes, type DeviceBuffer, type DevicePointer, type HostBuffer } from './memory.js';
import type { ModuleCompiler, NativeFloat, RuntimeCompiler } from '../src/compile-types.js';
import { Module, type ModuleOptions } from './module.js';
import { PipelineCache } from './pipeline-cache.js';
import { DeferredAddSlots } from './deferred-adds.js';
import { CommandBatch } from './command-batch.js';
import type { Logger } from './log.js';

export interface ContextOptions {
  /** The device to run on. Default: the host's shared default device. */
  readonly device?: GPUDevice;
  /**
   * How `fma.rn.f32` is lowered: `probe` (default) asks the device once whether WGSL fma() is
   * fused; `native` uses fma() regardless; `emulated` forces the exact integer emulation (tests).
   */
  readonly fma?: 'probe' | 'native' | 'emulated';
  /**
   * Checked f32 arithmetic (on devices that may flush subnormals) grouped into replay regions
   * (lowering/wgsl/replay-regions.ts): `on` (default); `off` checks and falls back per operation
   * (same results, slower: for comparing speed); `always` replays every region (tests).
   */
  readonly replayRegions?: 'on' | 'off' | 'always' | 'flushing';
  /**
   * When the native warp path pins 32-lane subgroups with `@subgroup_size(32)`: `auto` (default)
   * on devices whose subgroup size varies; `always` wherever the device accepts it; `never`.
   */
  readonly subgroupSizeControl?: SubgroupSizeControl;
  /**
   * f32 arithmetic: `probe` (default) asks the device once which operations its own WGSL
   * arithmetic computes exactly as PTX does (subnormals, NaN bits, the `.approx` functions'
   * bits) and uses those natively; `emulated` always takes the exact helpers (the results are
   * the same; this is for tests and for comparing speed); `ftz` probes and also compiles f32
   * arithmetic as nvcc's `-ftz=true` would have (subnormals flushed: results change, so only on
   * request; on a device that flushes anyway, NVIDIA's, plain PTX then runs natively).
   */
  readonly float?: 'probe' | 'emulated' | 'ftz';
  /**
   * Receives what the driver reports beyond errors: the adapter, device loss and uncaptured
   * errors as they happen, WGSL compiler warnings (runtime/log.ts). Default: nothing is printed.
   */
  readonly log?: Logger;
}

/**
 * What a Context is built with: what createContextWith probed on the device and was asked for.
 * Every field is optional (defaults: no fused fma, no reliable subgroups, every f32 operation
 * emulated exactly, subnormals kept, nothing logged).
 */
export interface ContextSettings {
  /** Whether WGSL fma() is fused on this device (probeFusedFma). */
  readonly fusedFma?: boolean;
  /** The subgroups the compiler may rely on (reliableSubgroups). */
  readonly subgroups?: ReliableSubgroups | undefined;
  /** f32 operations this device computes natively exactly as PTX does (probeNativeFloat). */
  readonly nativeFloat?: NativeFloat | undefined;
  /** Compile f32 arithmetic with subnormals flushed (ContextOptions.float 'ftz'). */
  readonly flushSubnormals?: boolean;
  /** Receives driver messages (ContextOptions.log). */
  readonly log?: Logger | undefined;
  /** Replay regions for checked f32 arithmetic (CompileOptions.replayRegions). */
  readonly replayRegions?: 'on' | 'off' | 'always' | 'flushing';
}

export class Context implements LaunchEnv {
  readonly monitor: DeviceMonitor;
  readonly memory: AllocationTable;
  readonly pipelines: PipelineCache;
  readonly batch: CommandBatch;
  private readonly placeholders = new Map<number, GPUBuffer>();
  private readonly deferredAddSlots: DeferredAddSlots;

  /** Whether WGSL fma() is fused on this device (probeFusedFma). */
  readonly fusedFma: boolean;
  /** The subgroups the compiler may rely on (reliableSubgroups); undefined: none. */
  readonly subgroups: ReliableSubgroups | undefined;
  /** f32 operations this device computes natively exactly as PTX does (probeNativeFloat). */
  readonly nativeFloat: NativeFloat | undefined;
  /** Compile f32 arithmetic with subnormals flushed (ContextOptions.float 'ftz'). */
  readonly flushSubnormals: boolean;
  readonly replayRegions: 'on' | 'off' | 'always' | 'flushing' | undefined;

  constructor(
    readonly device: GPUDevice,
    private readonly compiler: ModuleCompiler,
    settings: ContextSettings = {},
  ) {
    this.fusedFma = settings.fusedFma ?? false;
    this.subgroups = settings.subgroups;
    this.nativeFloat = settings.nativeFloat;
    this.flushSubnormals = settings.flushSubnormals ?? false;
    this.replayRegions = settings.replayRegions;
    this.monitor = new DeviceMonitor(device, settings.log);
    this.memory = new AllocationTable(device);
    this.pipelines = new PipelineCache(device, settings.log);
    this.batch = new CommandBatch(device, this.monitor);
    this.deferredAddSlots = new DeferredAddSlots(device);
  }

  /** Before a queue operation: sticky errors first, then the launches recorded before it. */
  private queued(): void {
    this.monitor.check();
    this.batch.flush();
  }

  /** Loads PTX source (cuModuleLoadData); entries compile on first `getFunction`. */
  loadModule(source: string, options: ModuleOptions = {}): Module {
    const compiled = this.compiler(source, options.fileName !== undefined ? { fileName: options.fileName } : {});
    return new Module(compiled, options, this);
  }

  /** Allocates `bytes` bytes of device memory (cuMemAlloc); contents start zeroed. */
  malloc(bytes: number): DeviceBuffer {
    this.monitor.check();
    return this.monitor.scoped('malloc', () => this.memory.allocate(bytes));
  }

  free(pointer: DevicePointer): void {
    this.batch.flush(); // recorded launches may use it
    this.memory.free(pointer);
  }

  /** Copies host memory to `dst` (cuMemcpyHtoD); `src` may be reused as soon as this returns. */
  memcpyHtoD(dst: DevicePointer, src: HostBuffer): void {
    this.queued();
    const bytes = hostBytes(src);
    writeToDevice(this.device, this.memory.resolveRange(dst, bytes.byteLength, 'memcpyHtoD'), bytes);
  }

  /** Copies `dst.byteLength` bytes from `src` into exactly `dst`'s memory, after queued launches. */
  async memcpyDtoH(dst: HostBuffer, src: DevicePointer): Promise<void> {
    this.queued();
    const bytes = hostBytes(dst);
    const loc = this.memory.resolveRange(src, bytes.byteLength, 'memcpyDtoH');
    try {
      await readFromDevice(this.device, loc, bytes);
    } catch (e) {
      await this.monitor.settle(); // a device error explains a failed read better than the map failure
      throw deviceError(`memcpyDtoH failed: ${(e as Error).message}`);
    }
    await this.monitor.settle();
  }

  memcpyDtoD(dst: DevicePointer, src: DevicePointer, bytes: number): void {
    this.queued();
    const to = this.memory.resolveRange(dst, bytes, 'memcpyDtoD');
    const from = this.memory.resolveRange(src, bytes, 'memcpyDtoD');
    copyOnDevice(this.device, to, from, bytes);
  }

  /** Sets `bytes` bytes at `dst` to the byte `value` (cuMemsetD8). */
  memset(dst: DevicePointer, value: number, bytes: number): void {
    this.queued();
    fillDevice(this.device, this.memory.resolveRange(dst, bytes, 'memset'), value, bytes);
  }

  /**
   * Waits for all queued work; throws the first device fault since the context was created
   * (sticky), else the first trap or compile failure of a kernel since the last call (once).
   */
  async synchronize(): Promise<void> {
    this.queued();
    await this.device.queue.onSubmittedWorkDone();
    await this.monitor.settle();
  }

  /**
   * Frees every allocation and stops watching the device. The device itself belongs to the
   * caller (or is the shared default).
   */
  destroy(): void {
    this.batch.flush();
    this.memory.freeAll();
    for (const p of this.placeholders.values()) p.destroy();
    this.placeholders.clear();
    this.deferredAddSlots.destroy();
    this.monitor.dispose();
  }

  deferredAdds(blocks: number): GPUBuffer {
    return this.deferredAddSlots.buffer(blocks);
  }

  placeholder(binding: number): GPUBuffer {
    let buffer = this.placeholders.get(binding);
    if (!buffer) {
      buffer = this.device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE, label: 'ptx-wgsl null pointer' });
      this.placeholders.set(binding, buffer);
    }
    return buffer;
  }
}

/** Creates a context with an explicit compiler; `createContext` in the package API supplies src/runtime-compiler.ts. */
export async function createContextWith(compiler: RuntimeCompiler, options: ContextOptions = {}): Promise<Context> {
  const device = options.device ?? (await getDefaultDevice());
  options.log?.('info', `adapter: ${describeAdapter(device)}`);
  const mode = options.fma ?? 'probe';
  const fused = mode === 'probe' ? await probeFusedFma(device) : mode === 'native';
  const float = options.float ?? 'probe';
  const nativeFloat = float !== 'emulated' && compiler.floatProbe ? await probeNativeFloat(device, compiler.floatProbe) : undefined;
  const subgroups = await reliableSubgroups(device, options.subgroupSizeControl);
  return new Context(device, compiler.compileModule, {
    fusedFma: fused,
    subgroups,
    nativeFloat,
    flushSubnormals: float === 'ftz',
    log: options.log,
    ...(options.replayRegions ? { replayRegions: options.replayRegions } : {}),
  });
}

/** The adapter as the host describes it (GPUDevice.adapterInfo; absent on older hosts). */
function describeAdapter(device: GPUDevice): string {
  const info = (device as { adapterInfo?: GPUAdapterInfo }).adapterInfo;
  const parts = [info?.vendor, info?.architecture, info?.device, info?.description].filter((p) => p);
  return parts.length > 0 ? parts.join(' / ') : 'unknown (the host reports no adapter info)';
}
