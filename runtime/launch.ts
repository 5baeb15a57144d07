/**
 * A kernel function (CUfunction) and its launches: check the configuration, resolve pointer
 * arguments to allocations, pick the compiled variant for their aliasing, pack the uniform
 * buffer and dispatch. Launches are queued in call order with copies, as on one CUDA stream;
 * errors in the arguments throw at once, device errors at the next synchronize.
 */
import type { CompiledKernel, KernelLayout, ParamLayout } from '../lowering/layout.js';
import { aliasGroups, bindGroupEntries, slotBindings } from './bindings.js';
import type { DeviceMonitor } from './device.js';
import { argumentError } from './errors.js';
import { planDispatch, toDim3, type DimInput, type DispatchPlan } from './grid.js';
import { checkLaunch, type LaunchShape } from './launch-checks.js';
import { isDevicePointer, isHostBuffer, type AllocationTable, type DeviceBuffer, type DevicePointer, type HostBuffer } from './memory.js';
import { kindOf, packUniforms, type ParamValue } from './params.js';
import type { PipelineCache } from './pipeline-cache.js';

/** What a launch needs from its context. */
export interface LaunchEnv {
  readonly device: GPUDevice;
  readonly monitor: DeviceMonitor;
  readonly memory: AllocationTable;
  readonly pipelines: PipelineCache;
  /** Whether WGSL fma() is fused on this device; if not, fma.rn.f32 is emulated exactly. */
  readonly fusedFma: boolean;
  /** A small buffer bound in place of a null pointer, distinct per binding index. */
  placeholder(binding: number): GPUBuffer;
}

/** The source of a kernel's alias variants (a Module). */
export interface KernelSource {
  kernel(entry: string, aliases: readonly (readonly number[])[]): CompiledKernel;
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

interface PreparedLaunch {
  readonly kernel: CompiledKernel;
  readonly shape: LaunchShape;
  readonly plan: DispatchPlan;
  readonly uniforms: Uint8Array;
  readonly allocationOf: (param: number) => DeviceBuffer | null;
}

export class KernelFunction {
  constructor(
    readonly name: string,
    /** The kernel compiled without aliasing: its layout describes the parameters. */
    readonly kernel: CompiledKernel,
    private readonly source: KernelSource,
    private readonly env: LaunchEnv,
  ) {}

  get layout(): KernelLayout {
    return this.kernel.layout;
  }

  /** Queues a launch (cuLaunchKernel). A new pipeline shape is compiled synchronously. */
  launch(config: LaunchConfig, args: readonly LaunchArg[]): CompiledKernel {
    const prepared = this.prepare(config, args);
    this.submit(prepared, this.env.pipelines.get(prepared.kernel, prepared.shape.block, prepared.shape.sharedBytes));
    return prepared.kernel;
  }

  /**
   * Compiles the pipeline this launch would use, off the main thread, so the following
   * `launch` with the same shape and aliasing does not block; shader errors are thrown here.
   */
  async prepareAsync(config: LaunchConfig, args: readonly LaunchArg[]): Promise<CompiledKernel> {
    const { kernel, shape } = this.prepare(config, args);
    await this.env.pipelines.getAsync(kernel, shape.block, shape.sharedBytes);
    return kernel;
  }

  private prepare(config: LaunchConfig, args: readonly LaunchArg[]): PreparedLaunch {
    this.env.monitor.check();
    const { device } = this.env;
    const shape: LaunchShape = {
      grid: toDim3(config.grid, 'grid'),
      block: toDim3(config.block, 'block'),
      sharedBytes: config.sharedBytes ?? 0,
    };
    checkLaunch(this.layout, shape, device.limits);
    const { values, allocations } = this.resolveArgs(args);
    const allocationOf = (param: number): DeviceBuffer | null => allocations.get(param) ?? null;
    const slots = slotBindings(this.layout).map((b) => b.param);
    const kernel = this.source.kernel(this.name, aliasGroups(slots, allocationOf));
    const plan = planDispatch(shape.grid, device.limits.maxComputeWorkgroupsPerDimension);
    const uniforms = packUniforms(kernel.layout, { nctaid: shape.grid, dispatchX: plan.x }, values);
    return { kernel, shape, plan, uniforms, allocationOf };
  }

  /** Parameter values for packing, and the allocation each pointer parameter points into. */
  private resolveArgs(args: readonly LaunchArg[]): { values: ParamValue[]; allocations: Map<number, DeviceBuffer> } {
    const params = this.layout.params;
    if (args.length !== params.length) {
      const list = params.map((p) => `.${p.type} ${p.name}`).join(', ');
      throw argumentError(`kernel '${this.name}' takes ${params.length} arguments (${list}), got ${args.length}`);
    }
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

  private submit(p: PreparedLaunch, pipeline: GPUComputePipeline): void {
    const { device, monitor, pipelines } = this.env;
    monitor.scoped(`launching kernel '${this.name}'`, () => {
      const uniform = device.createBuffer({
        size: p.uniforms.byteLength,
        usage: GPUBufferUsage.UNIFORM,
        mappedAtCreation: true,
        label: `ptx-wgsl ${this.name} params`,
      });
      try {
        new Uint8Array(uniform.getMappedRange()).set(p.uniforms);
        uniform.unmap();
        const placeholder = (binding: number): GPUBuffer => this.env.placeholder(binding);
        const maxBinding = device.limits.maxStorageBufferBindingSize;
        const entries = bindGroupEntries(p.kernel.layout, uniform, p.allocationOf, placeholder, maxBinding);
        const bindGroup = device.createBindGroup({ layout: pipelines.bindGroupLayout(p.kernel), entries });
        const encoder = device.createCommandEncoder({ label: `ptx-wgsl ${this.name}` });
        const pass = encoder.beginComputePass();
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bindGroup);
        pass.dispatchWorkgroups(p.plan.x, p.plan.y, 1);
        pass.end();
        device.queue.submit([encoder.finish()]);
      } finally {
        uniform.destroy(); // safe after submit: WebGPU frees it once the dispatch is done
      }
    });
  }
}

/** Pointer parameters take device pointers; 64-bit integer parameters also accept them. */
function isPointerArg(p: ParamLayout, arg: LaunchArg): boolean {
  if (isDevicePointer(arg)) {
    if (p.isPointer || p.size === 8) return true;
    throw argumentError(`parameter '${p.name}' (.${p.type}) is not a pointer, got a device pointer`);
  }
  if (isHostBuffer(arg)) {
    throw argumentError(
      `parameter '${p.name}' (.${p.type}) got host memory (${kindOf(arg)}): launch takes device memory, ` +
        'so malloc and memcpyHtoD it first (runPtx copies host buffers for you)',
    );
  }
  return p.isPointer && (typeof arg === 'bigint' || typeof arg === 'number');
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
