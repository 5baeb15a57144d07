/**
 * A kernel function (CUfunction) and its launches: check the configuration, resolve pointer
 * arguments to allocations, pick the compiled variant for their aliasing, pack the uniform
 * buffer and dispatch. Launches are queued in call order with copies, as on one CUDA stream;
 * errors in the arguments throw at once, device errors at the next synchronize.
 */
import type { NativeFloat } from '../src/compile-types.js';
import type { CompiledKernel, KernelLayout, ParamLayout } from '../lowering/layout.js';
import { aliasGroups, bindGroupEntries, slotBindings, type OwnedBinding } from './bindings.js';
import type { DeviceMonitor } from './device.js';
import { argumentError } from './errors.js';
import type { PtxError } from '../src/diagnostics/ptx-error.js';
import { checkExtents } from './extent-checks.js';
import { planDispatch, type DimInput, type DispatchPlan } from './grid.js';
import { checkArgCount, checkLaunch, launchShape, type LaunchShape } from './launch-checks.js';
import { isDevicePointer, isHostBuffer, type AllocationTable, type DeviceBuffer, type DevicePointer, type HostBuffer } from './memory.js';
import { kindOf, packUniforms, type ParamValue } from './params.js';
import type { LaunchPipeline, PipelineCache, PipelineShape } from './pipeline-cache.js';
import type { CommandBatch } from './command-batch.js';
import type { ReliableSubgroups } from './probe-subgroups.js';

/** What a launch needs from its context. */
export interface LaunchEnv {
  readonly device: GPUDevice;
  readonly monitor: DeviceMonitor;
  readonly memory: AllocationTable;
  readonly pipelines: PipelineCache;
  /** Where launches are recorded; every other queue operation flushes it first. */
  readonly batch: CommandBatch;
  /** Whether WGSL fma() is fused on this device; if not, fma.rn.f32 is emulated exactly. */
  readonly fusedFma: boolean;
  /** f32 operations this device computes natively exactly as PTX does (runtime/probe-float.ts). */
  readonly nativeFloat?: NativeFloat | undefined;
  /** Compile f32 arithmetic with subnormals flushed (CompileOptions.flushSubnormals). */
  readonly flushSubnormals?: boolean;
  /** Replay regions for checked f32 arithmetic (CompileOptions.replayRegions). */
  readonly replayRegions?: 'on' | 'off' | 'always' | 'flushing' | undefined;
  /** The device's probed subgroups when their layout is consecutive (runtime/probe-subgroups.ts). */
  readonly subgroups?: ReliableSubgroups | undefined;
  /** A small buffer bound in place of a null pointer, distinct per binding index. */
  placeholder(binding: number): GPUBuffer;
  /** The zeroed slot array of deferred float adds for a launch of `blocks` blocks (runtime/deferred-adds.ts). */
  deferredAdds(blocks: number): GPUBuffer;
}

/** The source of a kernel's alias variants (a Module). */
export interface KernelSource {
  /**
   * The variant of `entry` for these aliases; `blockX`, when given, is the launch's block x size,
   * which a kernel pinned to `@subgroup_size(N)` needs to be a multiple of N (otherwise the
   * variant takes the emulated warp path).
   */
  kernel(entry: string, aliases: readonly (readonly number[])[], blockX?: number): CompiledKernel;
  /** The module's buffer for `.global`/`.const` variables or the trap record (created on first use). */
  owned(b: OwnedBinding): GPUBuffer;
  /** The error for a launch of `entry` whose first trap was at byte `offset` of the PTX source. */
  trapError(entry: string, offset: number, threads: number, reason?: string): PtxError;
}

export interface LaunchConfig {
  readonly grid?: DimInput;
  readonly block?: DimInput;
  /** Dynamic shared memory in bytes (the `extern .shared` array). */
  readonly sharedBytes?: number;
}

/**
 * A kernel argument: a number or bigint scalar; a DeviceBuffer or pointer (or its address as a
 * bigint) for a pointer parameter; bytes or an element array for a by-value aggregate.
 */
export type LaunchArg = number | bigint | DevicePointer | HostBuffer | readonly (number | bigint)[];

/** Trap read-back buffers kept per kernel function: enough for the launches between two synchronisations. */
const TRAP_READBACKS_KEPT = 64;

/** The pipeline a prepared launch runs on. */
function pipelineShape(p: PreparedLaunch): PipelineShape {
  return { block: p.shape.block, sharedBytes: p.shape.sharedBytes, directGrid: p.plan.direct };
}

interface PreparedLaunch {
  readonly kernel: CompiledKernel;
  readonly shape: LaunchShape;
  readonly plan: DispatchPlan;
  readonly uniforms: Uint8Array;
  readonly allocationOf: (param: number) => DeviceBuffer | null;
  /**
   * Its bind group, kept for a repeated launch (LaunchMemo) where every buffer it binds stays the
   * same: not with deferred adds, whose slot array grows with the largest launch of the context.
   */
  bindGroup?: GPUBindGroup;
}

export class KernelFunction {
  constructor(
    readonly name: string,
    /** The kernel compiled without aliasing: its layout describes the parameters. */
    readonly kernel: CompiledKernel,
    private readonly source: KernelSource,
    private readonly env: LaunchEnv,
  ) {}

  private readonly uniforms = new Map<CompiledKernel, { readonly buffer: GPUBuffer; last: Uint8Array }>();
  /** The last launch's preparation, reused by a launch with the same configuration and arguments. */
  private last: LaunchMemo | undefined;
  private readonly bindGroups = new Map<CompiledKernel, Map<string, GPUBindGroup>>();

  get layout(): KernelLayout {
    return this.kernel.layout;
  }

  /**
   * Queues a launch (cuLaunchKernel). A new pipeline shape is compiled synchronously; if the
   * kernel's WGSL does not compile, the next synchronize reports it once and later launches
   * of the kernel throw it (`prepareAsync` reports it before any launch).
   */
  launch(config: LaunchConfig, args: readonly LaunchArg[]): CompiledKernel {
    const prepared = this.prepare(config, args);
    this.submit(prepared, this.env.pipelines.get(prepared.kernel, pipelineShape(prepared)));
    return prepared.kernel;
  }

  /**
   * Compiles the pipeline this launch would use, off the main thread, so the following
   * `launch` with the same shape and aliasing does not block; shader errors are thrown here.
   */
  async prepareAsync(config: LaunchConfig, args: readonly LaunchArg[]): Promise<CompiledKernel> {
    const prepared = this.prepare(config, args);
    await this.env.pipelines.getAsync(prepared.kernel, pipelineShape(prepared));
    return prepared.kernel;
  }

  private prepare(config: LaunchConfig, args: readonly LaunchArg[]): PreparedLaunch {
    this.env.monitor.check();
    const memo = this.last;
    if (memo && memo.generation === this.env.memory.generation && sameConfig(memo, config) && sameArgs(memo.args, args)) return memo.prepared;
    const prepared = this.prepareAnew(config, args);
    this.last = memoOf(config, args, this.env.memory.generation, prepared);
    return prepared;
  }

  private prepareAnew(config: LaunchConfig, args: readonly LaunchArg[]): PreparedLaunch {
    const { device } = this.env;
    const shape = launchShape(this.name, config);
    checkLaunch(this.layout, shape, device.limits);
    const { values, allocations } = this.resolveArgs(args);
    const allocationOf = (param: number): DeviceBuffer | null => allocations.get(param) ?? null;
    const slots = slotBindings(this.layout).map((b) => b.param);
    const kernel = this.source.kernel(this.name, aliasGroups(slots, allocationOf), shape.block[0]);
    const plan = planDispatch(shape.grid, device.limits.maxComputeWorkgroupsPerDimension);
    const uniforms = packUniforms(kernel.layout, { nctaid: shape.grid, dispatchX: plan.x }, values);
    checkExtents(kernel.layout, shape, uniforms, allocationOf);
    return { kernel, shape, plan, uniforms, allocationOf };
  }

  /** Parameter values for packing, and the allocation each pointer parameter points into. */
  private resolveArgs(args: readonly LaunchArg[]): { values: ParamValue[]; allocations: Map<number, DeviceBuffer> } {
    const params = this.layout.params;
    checkArgCount(this.layout, args);
    const allocations = new Map<number, DeviceBuffer>();
    const values = params.map((p, i) => {
      const arg = args[i] as LaunchArg;
      if (p.arrayLength !== undefined || !isPointerArg(p, arg)) return checkScalar(p, arg);
      const address = toAddress(p, arg);
      if (p.isPointer && address !== 0n) {
        allocations.set(i, this.env.memory.resolve(address, `argument ${i} ('${p.name}')`).allocation);
      }
      // With `.address_size 32` a pointer is 32 bits: the low word is the offset in the allocation.
      return p.size === 4 ? address & 0xffff_ffffn : address;
    });
    return { values, allocations };
  }

  /**
   * Mappable 16-byte buffers for trap records, reused: creating a mappable buffer costs about
   * 0.65 ms of CPU on NVIDIA's Vulkan driver (runtime/copy.ts), which made every launch of a
   * kernel with a trap record that much slower (a block scan whose barrier check can trap:
   * 1.78 ms per launch end to end against 0.52 ms for its shader).
   */
  private readonly idleTrapReadbacks: GPUBuffer[] = [];

  private takeTrapReadback(): GPUBuffer {
    return this.idleTrapReadbacks.pop() ??
      this.env.device.createBuffer({ size: 16, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ, label: `ptx-wgsl ${this.name} trap` });
  }

  /** Reads a launch's trap record once the launch is done: the error to report, if it trapped. */
  private async trapCheck(readback: GPUBuffer, kernel: CompiledKernel): Promise<PtxError | undefined> {
    let reusable = false;
    try {
      await readback.mapAsync(GPUMapMode.READ);
      const [threads = 0, offset = 0] = new Uint32Array(readback.getMappedRange().slice(0));
      readback.unmap();
      reusable = true;
      return threads > 0 ? this.source.trapError(this.name, offset, threads, kernel.layout.trapReasons?.[offset]) : undefined;
    } catch {
      return undefined; // the device error that made the read fail is reported by the monitor
    } finally {
      if (reusable && this.idleTrapReadbacks.length < TRAP_READBACKS_KEPT) this.idleTrapReadbacks.push(readback);
      else readback.destroy();
    }
  }

  private submit(p: PreparedLaunch, { pipeline, epilogue, unverified }: LaunchPipeline): void {
    const { batch } = this.env;
    const uniform = this.uniformFor(p.kernel, p.uniforms);
    const owned = (b: OwnedBinding): GPUBuffer => this.source.owned(b);
    const bindGroup = p.bindGroup ?? this.bindGroupFor(p, uniform, owned);
    if (!p.kernel.layout.bindings.some((b) => b.kind === 'deferred-adds')) p.bindGroup = bindGroup;
    const trap = p.kernel.layout.bindings.find((b): b is Extract<OwnedBinding, { kind: 'trap' }> => b.kind === 'trap');
    const trapRecord = trap ? owned(trap) : undefined;
    batch.isolate(unverified);
    if (trapRecord) batch.commands(this.name).clearBuffer(trapRecord);
    const pass = batch.computePass(this.name);
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(p.plan.x, p.plan.y, p.plan.z);
    if (epilogue) {
      // same bind group: the epilogue is a second entry point of the kernel's WGSL
      pass.setPipeline(epilogue);
      pass.dispatchWorkgroups(1);
    }
    if (!trapRecord) {
      batch.recorded();
      return;
    }
    const readback = this.takeTrapReadback();
    batch.commands(this.name).copyBufferToBuffer(trapRecord, 0, readback, 0, 16);
    // Mapping must wait for the submit that uses the buffer.
    batch.recorded(() => this.env.monitor.watch(this.trapCheck(readback, p.kernel)));
  }

  /**
   * One uniform buffer per kernel variant, rewritten when a launch's parameters differ from the
   * last launch's: queue.writeBuffer is ordered on the queue after the launches already
   * submitted, so they still read their own values; repeated launches skip the write.
   */
  private uniformFor(kernel: CompiledKernel, bytes: Uint8Array): GPUBuffer {
    let u = this.uniforms.get(kernel);
    if (!u) {
      const buffer = this.env.device.createBuffer({ size: bytes.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST, label: `ptx-wgsl ${this.name} params` });
      u = { buffer, last: new Uint8Array(0) };
      this.uniforms.set(kernel, u);
    }
    if (!sameBytes(u.last, bytes)) {
      // Launches recorded but not submitted still read the old values: submit them first.
      this.env.batch.flush();
      this.env.device.queue.writeBuffer(u.buffer, 0, bytes as Uint8Array<ArrayBuffer>);
      u.last = bytes;
    }
    return u.buffer;
  }

  /**
   * Bind groups are cached per (kernel variant, bound buffers): creating one per launch cost more
   * CPU time than everything else in a launch on Dawn (bench/gpu-raw.mjs: 0.8-1.1 ms per launch on
   * the H100 machine before). Buffers are keyed by identity, so a freed allocation's bind group is
   * never reused for a new allocation.
   */
  private bindGroupFor(p: PreparedLaunch, uniform: GPUBuffer, owned: (b: OwnedBinding) => GPUBuffer): GPUBindGroup {
    const { device, pipelines } = this.env;
    const placeholder = (binding: number): GPUBuffer => this.env.placeholder(binding);
    const blocks = p.shape.grid[0] * p.shape.grid[1] * p.shape.grid[2];
    const entries = bindGroupEntries(p.kernel.layout, uniform, p.allocationOf, placeholder, device.limits.maxStorageBufferBindingSize, owned, () => this.env.deferredAdds(blocks));
    const key = entries.map((e) => bufferSerial((e.resource as GPUBufferBinding).buffer)).join(',');
    let groups = this.bindGroups.get(p.kernel);
    if (!groups) { groups = new Map(); this.bindGroups.set(p.kernel, groups); }
    let group = groups.get(key);
    if (!group) {
      if (groups.size >= MAX_CACHED_BIND_GROUPS) groups.clear();
      const layout = pipelines.bindGroupLayout(p.kernel);
      group = this.env.monitor.scoped(`binding the arguments of kernel '${this.name}'`, () => device.createBindGroup({ layout, entries }));
      groups.set(key, group);
    }
    return group;
  }
}

const MAX_CACHED_BIND_GROUPS = 64;

/**
 * A launch loop repeats one configuration and argument list; preparing it again (checks, pointer
 * resolution, alias variant, uniform packing, extent checks) allocated most of the launch path's
 * 12 KB per launch (a heap sampling profile of add_f32 launched 5000 times), and the collections
 * of that garbage stalled launch loops on the H200 (docs/BENCHMARKS.md, the sixth session). The
 * memo holds scalar and pointer arguments by value (a pointer by its address) and is kept only
 * while no allocation has been freed (a freed one must fail to resolve); host buffers and arrays
 * (by-value aggregates, whose contents may change) are never memoised.
 */
interface LaunchMemo {
  readonly grid: DimInput | undefined;
  readonly block: DimInput | undefined;
  readonly sharedBytes: number | undefined;
  /** The arguments: numbers and bigints as given, pointers as their addresses, in `pointer`'s positions. */
  readonly args: { readonly values: readonly (number | bigint)[]; readonly pointer: readonly boolean[] };
  readonly generation: number;
  readonly prepared: PreparedLaunch;
}

function memoOf(config: LaunchConfig, args: readonly LaunchArg[], generation: number, prepared: PreparedLaunch): LaunchMemo | undefined {
  const values: (number | bigint)[] = [];
  const pointer: boolean[] = [];
  for (const a of args) {
    if (typeof a === 'number' || typeof a === 'bigint') { values.push(a); pointer.push(false); continue; }
    if (Array.isArray(a) || isHostBuffer(a) || !isDevicePointer(a)) return undefined;
    values.push(a.address); pointer.push(true);
  }
  const dims = (d: DimInput | undefined): DimInput | undefined => (typeof d === 'object' ? [...d] as unknown as DimInput : d);
  return { grid: dims(config.grid), block: dims(config.block), sharedBytes: config.sharedBytes, args: { values, pointer }, generation, prepared };
}

function sameDim(a: DimInput | undefined, b: DimInput | undefined): boolean {
  if (typeof a !== 'object' || typeof b !== 'object') return a === b;
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameConfig(m: LaunchMemo, c: LaunchConfig): boolean {
  return typeof c === 'object' && c !== null && sameDim(m.grid, c.grid) && sameDim(m.block, c.block) && m.sharedBytes === c.sharedBytes;
}

function sameArgs(m: LaunchMemo['args'], args: readonly LaunchArg[]): boolean {
  if (!Array.isArray(args) || args.length !== m.values.length) return false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (m.pointer[i]) {
      if (typeof a !== 'object' || a === null || Array.isArray(a) || isHostBuffer(a) || (a as DevicePointer).address !== m.values[i]) return false;
    } else if (!Object.is(a, m.values[i])) return false; // -0 packs differently from 0
  }
  return true;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
const serials = new WeakMap<GPUBuffer, number>();
let nextSerial = 1;
function bufferSerial(buffer: GPUBuffer): number {
  let s = serials.get(buffer);
  if (s === undefined) { s = nextSerial++; serials.set(buffer, s); }
  return s;
}

/** Pointer parameters take device pointers; 64-bit integer parameters also accept them. */
function isPointerArg(p: ParamLayout, arg: LaunchArg): boolean {
  if (isDevicePointer(arg)) {
    if (p.isPointer || p.size === 8) return true;
    throw argumentError(`parameter '${p.name}' (.${p.type}) is not a pointer, got a device pointer`);
  }
  if (isHostBuffer(arg)) {
    if (!p.isPointer && p.size !== 8) throw argumentError(`parameter '${p.name}' (.${p.type}) takes a number or bigint, got ${kindOf(arg)}`);
    throw argumentError(
      `parameter '${p.name}' (.${p.type}) got host memory (${kindOf(arg)}): launch takes device memory, ` +
        'so malloc and memcpyHtoD it first (runPtx copies host buffers for you)',
    );
  }
  if (p.isPointer && typeof arg !== 'bigint' && typeof arg !== 'number') {
    throw argumentError(`pointer parameter '${p.name}' (.${p.type}) takes a device pointer (or its address as a bigint), got ${kindOf(arg)}`);
  }
  return p.isPointer;
}

function checkScalar(p: ParamLayout, arg: LaunchArg): ParamValue {
  if (isDevicePointer(arg)) throw argumentError(`parameter '${p.name}' (.${p.type}) is not a pointer, got a device pointer`);
  return arg as ParamValue;
}

function toAddress(p: ParamLayout, arg: LaunchArg): bigint {
  if (isDevicePointer(arg)) return arg.address;
  if (typeof arg === 'bigint' && arg >= 0n && arg < 1n << 64n) return arg;
  if (typeof arg === 'number' && Number.isSafeInteger(arg) && arg >= 0) return BigInt(arg);
  throw argumentError(`pointer parameter '${p.name}' got ${kindOf(arg)}, which is not an address`);
}
