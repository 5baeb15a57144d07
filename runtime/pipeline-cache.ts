/**
 * Compute pipelines per compiled kernel variant, block shape and dynamic shared size. One
 * WGSL text serves every launch shape through pipeline-overridable constants, so the shader
 * module is created once per kernel variant and only the pipeline is per shape.
 */
import type { CompiledKernel, OverrideName } from '../lowering/layout.js';
import { bindGroupLayoutEntries } from './bindings.js';
import type { DeviceMonitor } from './device.js';
import { deviceError } from './errors.js';
import type { Dim3 } from './grid.js';

interface KernelPipelines {
  readonly module: GPUShaderModule;
  readonly layout: GPUPipelineLayout;
  readonly bindGroupLayout: GPUBindGroupLayout;
  readonly pipelines: Map<string, GPUComputePipeline>;
  readonly pending: Map<string, Promise<GPUComputePipeline>>;
}

/** The override constants for one launch shape (only those the WGSL declares). */
export function overrideConstants(kernel: CompiledKernel, block: Dim3, sharedBytes: number): Record<string, number> {
  const values: Record<OverrideName, number> = {
    ptx_ntid_x: block[0],
    ptx_ntid_y: block[1],
    ptx_ntid_z: block[2],
    // A zero-length WGSL array is invalid, so a launch without dynamic shared memory gets one word.
    ptx_dynamic_smem_words: Math.max(1, Math.ceil(sharedBytes / 4)),
  };
  return Object.fromEntries(kernel.layout.overrides.map((name) => [name, values[name]]));
}

export class PipelineCache {
  /** Keyed by the CompiledKernel object: each (module, entry, alias pattern) variant is one object. */
  private readonly kernels = new WeakMap<CompiledKernel, KernelPipelines>();

  constructor(
    private readonly device: GPUDevice,
    private readonly monitor: DeviceMonitor,
  ) {}

  bindGroupLayout(kernel: CompiledKernel): GPUBindGroupLayout {
    return this.forKernel(kernel).bindGroupLayout;
  }

  /** The pipeline, created synchronously if new (errors surface at the next synchronize). */
  get(kernel: CompiledKernel, block: Dim3, sharedBytes: number): GPUComputePipeline {
    const k = this.forKernel(kernel);
    const key = shapeKey(kernel, block, sharedBytes);
    let pipeline = k.pipelines.get(key);
    if (!pipeline) {
      const descriptor = this.descriptor(kernel, k, block, sharedBytes);
      pipeline = this.monitor.scoped(`creating the pipeline of kernel '${kernel.layout.entry}'`, () =>
        this.device.createComputePipeline(descriptor),
      );
      k.pipelines.set(key, pipeline);
    }
    return pipeline;
  }

  /** The pipeline, compiled off the main thread if new; shader errors are thrown here. */
  async getAsync(kernel: CompiledKernel, block: Dim3, sharedBytes: number): Promise<GPUComputePipeline> {
    const k = this.forKernel(kernel);
    const key = shapeKey(kernel, block, sharedBytes);
    const ready = k.pipelines.get(key);
    if (ready) return ready;
    let pending = k.pending.get(key);
    if (!pending) {
      pending = this.createAsync(kernel, k, block, sharedBytes).finally(() => k.pending.delete(key));
      k.pending.set(key, pending);
    }
    const pipeline = await pending;
    k.pipelines.set(key, pipeline);
    return pipeline;
  }

  private async createAsync(kernel: CompiledKernel, k: KernelPipelines, block: Dim3, sharedBytes: number): Promise<GPUComputePipeline> {
    try {
      return await this.device.createComputePipelineAsync(this.descriptor(kernel, k, block, sharedBytes));
    } catch (e) {
      const info = await k.module.getCompilationInfo();
      const errors = info.messages.filter((m) => m.type === 'error');
      if (errors.length === 0) throw deviceError(`creating the pipeline of kernel '${kernel.layout.entry}' failed: ${(e as Error).message}`);
      // Messages go in the text itself: span-less diagnostics are rendered without their notes.
      const lines = errors.map((m) => `\n  WGSL ${m.lineNum}:${m.linePos}: ${m.message}`).join('');
      throw deviceError(
        `the WGSL generated for kernel '${kernel.layout.entry}' does not compile; this is a ptx-wgsl bug, please report it with the PTX input:${lines}`,
      );
    }
  }

  private descriptor(kernel: CompiledKernel, k: KernelPipelines, block: Dim3, sharedBytes: number): GPUComputePipelineDescriptor {
    return {
      label: `ptx-wgsl ${kernel.layout.entry} ${block.join('x')}`,
      layout: k.layout,
      compute: { module: k.module, entryPoint: kernel.entryPoint, constants: overrideConstants(kernel, block, sharedBytes) },
    };
  }

  private forKernel(kernel: CompiledKernel): KernelPipelines {
    let k = this.kernels.get(kernel);
    if (!k) {
      const label = `ptx-wgsl ${kernel.layout.entry}`;
      const module = this.monitor.scoped(`compiling the WGSL of kernel '${kernel.layout.entry}'`, () =>
        this.device.createShaderModule({ code: kernel.wgsl, label }),
      );
      const bindGroupLayout = this.device.createBindGroupLayout({ entries: bindGroupLayoutEntries(kernel.layout), label });
      const layout = this.device.createPipelineLayout({ bindGroupLayouts: [bindGroupLayout], label });
      k = { module, layout, bindGroupLayout, pipelines: new Map(), pending: new Map() };
      this.kernels.set(kernel, k);
    }
    return k;
  }
}

function shapeKey(kernel: CompiledKernel, block: Dim3, sharedBytes: number): string {
  const smem = kernel.layout.overrides.includes('ptx_dynamic_smem_words') ? Math.ceil(sharedBytes / 4) : 0;
  return `${block.join(',')}|${smem}`;
}
