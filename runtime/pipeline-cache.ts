/**
 * Compute pipelines per compiled kernel variant, block shape, dynamic shared size and grid form. One
 * WGSL text serves every launch shape through pipeline-overridable constants, so the shader
 * module is created once per kernel variant and only the pipeline is per shape.
 *
 * Shader and pipeline creation run in error scopes of their own, so WGSL that does not compile
 * fails that kernel only (its launches throw the error, wgsl-errors.ts) and never becomes the
 * context's sticky device error. WebGPU reports the outcome asynchronously: a pipeline created
 * synchronously is `unverified` until its scopes resolve, and launches with it are submitted
 * apart from other launches (command-batch.ts `isolate`), since a dispatch with an invalid
 * pipeline invalidates the whole command buffer it is in.
 */
import type { CompiledKernel, OverrideName } from '../lowering/layout.js';
import type { PtxError } from '../src/diagnostics/ptx-error.js';
import { bindGroupLayoutEntries } from './bindings.js';
import type { Dim3 } from './grid.js';
import type { Logger } from './log.js';
import { wgslCompileError } from './wgsl-errors.js';

/** Resolves to the kernel's compile error, or undefined once the pipeline is known to be valid. */
export type PipelineStatus = Promise<PtxError | undefined>;

interface ShapePipeline {
  readonly pipeline: GPUComputePipeline;
  /** Set while the creation's error scopes are unresolved. */
  unverified: PipelineStatus | undefined;
  failure: PtxError | undefined;
}

interface KernelPipelines {
  readonly module: GPUShaderModule;
  /** The shader module's compile error, if any. */
  readonly compiled: PipelineStatus;
  failure: PtxError | undefined;
  readonly layout: GPUPipelineLayout;
  readonly bindGroupLayout: GPUBindGroupLayout;
  readonly pipelines: Map<string, ShapePipeline>;
  readonly pending: Map<string, Promise<GPUComputePipeline>>;
  /** The pipeline of CompiledKernel.epilogueEntryPoint (no override constants, one per kernel). */
  readonly epilogue: GPUComputePipeline | undefined;
}

/** A pipeline for a launch; `unverified` while its creation may still turn out to have failed. */
export interface LaunchPipeline {
  readonly pipeline: GPUComputePipeline;
  /** Dispatched as one workgroup after the kernel, with its bind group (CompiledKernel.epilogueEntryPoint). */
  readonly epilogue?: GPUComputePipeline | undefined;
  readonly unverified: PipelineStatus | undefined;
}

/** What a pipeline is specialised for: the block, the dynamic shared memory and the grid's form. */
export interface PipelineShape {
  readonly block: Dim3;
  readonly sharedBytes: number;
  /** The grid is dispatched as it is (DispatchPlan.direct), not linearised. */
  readonly directGrid: boolean;
}

/** The override constants for one launch shape (only those the WGSL declares). */
export function overrideConstants(kernel: CompiledKernel, { block, sharedBytes, directGrid }: PipelineShape): Record<string, number> {
  const values: Record<OverrideName, number> = {
    ptx_ntid_x: block[0],
    ptx_ntid_y: block[1],
    ptx_ntid_z: block[2],
    // A zero-length WGSL array is invalid, so a launch without dynamic shared memory gets one word.
    ptx_dynamic_smem_words: Math.max(1, Math.ceil(sharedBytes / 4)),
    ptx_grid_direct: directGrid ? 1 : 0,
  };
  return Object.fromEntries(kernel.layout.overrides.map((name) => [name, values[name]]));
}

export class PipelineCache {
  /** Keyed by the CompiledKernel object: each (module, entry, alias pattern) variant is one object. */
  private readonly kernels = new WeakMap<CompiledKernel, KernelPipelines>();

  constructor(
    private readonly device: GPUDevice,
    /** Receives the WGSL compiler's warnings and notes (runtime/log.ts). */
    private readonly log?: Logger,
  ) {}

  bindGroupLayout(kernel: CompiledKernel): GPUBindGroupLayout {
    return this.forKernel(kernel).bindGroupLayout;
  }

  /**
   * The pipeline, created synchronously if new. Throws the kernel's compile error once it is
   * known; before that, the pipeline is `unverified` and the error comes from its status.
   */
  get(kernel: CompiledKernel, shape: PipelineShape): LaunchPipeline {
    const k = this.forKernel(kernel);
    if (k.failure) throw k.failure;
    const key = shapeKey(kernel, shape);
    let entry = k.pipelines.get(key);
    if (!entry) {
      const descriptor = this.descriptor(kernel, k, shape);
      const scope = this.scoped(() => this.device.createComputePipeline(descriptor));
      const created: ShapePipeline = { pipeline: scope.result, unverified: undefined, failure: undefined };
      const status = (async (): Promise<PtxError | undefined> => {
        const err = (await k.compiled) ?? (await scope.error.then((e) => (e ? wgslCompileError(kernel, k.module, e) : undefined)));
        created.failure = err;
        created.unverified = undefined;
        return err;
      })();
      created.unverified = status;
      entry = created;
      k.pipelines.set(key, entry);
    }
    if (entry.failure) throw entry.failure;
    return { pipeline: entry.pipeline, epilogue: k.epilogue, unverified: entry.unverified };
  }

  /** The pipeline, compiled off the main thread if new; the kernel's compile error is thrown here. */
  async getAsync(kernel: CompiledKernel, shape: PipelineShape): Promise<GPUComputePipeline> {
    const k = this.forKernel(kernel);
    const moduleError = await k.compiled;
    if (moduleError) throw moduleError;
    const key = shapeKey(kernel, shape);
    const ready = k.pipelines.get(key);
    if (ready) {
      const err = ready.failure ?? (ready.unverified && (await ready.unverified));
      if (err) throw err;
      return ready.pipeline;
    }
    let pending = k.pending.get(key);
    if (!pending) {
      pending = this.createAsync(kernel, k, shape).finally(() => k.pending.delete(key));
      k.pending.set(key, pending);
    }
    const pipeline = await pending;
    if (!k.pipelines.has(key)) k.pipelines.set(key, { pipeline, unverified: undefined, failure: undefined });
    return pipeline;
  }

  private async createAsync(kernel: CompiledKernel, k: KernelPipelines, shape: PipelineShape): Promise<GPUComputePipeline> {
    try {
      return await this.device.createComputePipelineAsync(this.descriptor(kernel, k, shape));
    } catch (e) {
      throw await wgslCompileError(kernel, k.module, (e as Error).message);
    }
  }

  private descriptor(kernel: CompiledKernel, k: KernelPipelines, shape: PipelineShape): GPUComputePipelineDescriptor {
    return {
      label: `ptx-wgsl ${kernel.layout.entry} ${shape.block.join('x')}`,
      layout: k.layout,
      compute: { module: k.module, entryPoint: kernel.entryPoint, constants: overrideConstants(kernel, shape) },
    };
  }

  private forKernel(kernel: CompiledKernel): KernelPipelines {
    let k = this.kernels.get(kernel);
    if (!k) {
      const label = `ptx-wgsl ${kernel.layout.entry}`;
      const { result: module, error } = this.scoped(() => this.device.createShaderModule({ code: kernel.wgsl, label }));
      if (this.log) void logCompilerMessages(module, kernel.layout.entry, this.log);
      const bindGroupLayout = this.device.createBindGroupLayout({ entries: bindGroupLayoutEntries(kernel.layout), label });
      const layout = this.device.createPipelineLayout({ bindGroupLayouts: [bindGroupLayout], label });
      const epilogue = kernel.epilogueEntryPoint
        ? this.scoped(() => this.device.createComputePipeline({ label: `${label} epilogue`, layout, compute: { module, entryPoint: kernel.epilogueEntryPoint as string } }))
        : undefined;
      const created: KernelPipelines = {
        module, layout, bindGroupLayout, failure: undefined, pipelines: new Map(), pending: new Map(), epilogue: epilogue?.result,
        // the epilogue's creation error counts as the module's: no launch of the kernel can run without it
        compiled: Promise.all([error, epilogue?.error]).then(async ([e, ee]) => {
          const failure = e ?? ee ? await wgslCompileError(kernel, module, (e ?? ee) as string) : undefined;
          created.failure = failure;
          return failure;
        }),
      };
      k = created;
      this.kernels.set(kernel, k);
    }
    return k;
  }

  /**
   * Runs `fn` in validation, out-of-memory and internal error scopes of its own: what they
   * catch is this kernel's compile error (the message of the first), never a device fault.
   */
  private scoped<T>(fn: () => T): { result: T; error: Promise<string | undefined> } {
    const filters: GPUErrorFilter[] = ['internal', 'out-of-memory', 'validation'];
    for (const f of filters) this.device.pushErrorScope(f);
    try {
      return { result: fn(), error: popScopes(this.device, filters.length) };
    } catch (e) {
      void popScopes(this.device, filters.length);
      throw e;
    }
  }
}

async function popScopes(device: GPUDevice, count: number): Promise<string | undefined> {
  const scopes = Array.from({ length: count }, () => device.popErrorScope().catch((e: unknown) => ({ message: String(e) })));
  const errors = await Promise.all(scopes);
  return errors.find((e) => e !== null)?.message;
}

/** The WGSL compiler's warnings and notes (errors become the kernel's compile error, wgsl-errors.ts). */
async function logCompilerMessages(module: GPUShaderModule, entry: string, log: Logger): Promise<void> {
  const info = await module.getCompilationInfo().catch(() => undefined);
  for (const m of info?.messages ?? []) {
    if (m.type !== 'error') log(m.type === 'warning' ? 'warning' : 'info', `WGSL of kernel '${entry}' ${m.lineNum}:${m.linePos}: ${m.message}`);
  }
}

function shapeKey(kernel: CompiledKernel, { block, sharedBytes, directGrid }: PipelineShape): string {
  const smem = kernel.layout.overrides.includes('ptx_dynamic_smem_words') ? Math.ceil(sharedBytes / 4) : 0;
  const direct = kernel.layout.overrides.includes('ptx_grid_direct') && directGrid;
  return `${block.join(',')}|${smem}|${direct ? 'direct' : 'linear'}`;
}
