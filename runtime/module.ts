/**
 * A loaded PTX module (cuModuleLoadData): the source, compiled lazily per entry and per
 * aliasing pattern, each variant cached so repeated launches never re-transpile.
 */
import type { CompiledKernel } from '../lowering/layout.js';
import type { CompileOptions, CompileResult } from '../src/compile-types.js';
import { aliasKey } from './bindings.js';
import { listEntries } from './entries.js';
import { argumentError, trapError } from './errors.js';
import type { OwnedBinding } from './bindings.js';
import type { PtxError } from '../src/diagnostics/ptx-error.js';
import { KernelFunction, type LaunchEnv } from './launch.js';
import { checkFeatures } from './launch-checks.js';

/** `compile()`'s signature; injected so the runtime can be tested without the compiler. */
export type Compiler = (source: string, options?: CompileOptions) => CompileResult;

export interface ModuleOptions {
  /** Name used in diagnostics. Default `kernel.ptx`. */
  readonly fileName?: string;
  /** Warp lowering override, passed to `compile()`. Default: chosen from the device. */
  readonly warpPath?: 'auto' | 'subgroups' | 'emulated';
}

export class Module {
  private readonly variants = new Map<string, CompiledKernel>();
  private readonly functions = new Map<string, KernelFunction>();
  private entryNames: readonly string[] | undefined;
  /** Buffers the module owns: its `.global` and `.const` variables, and the trap record. */
  private readonly buffers = new Map<string, GPUBuffer>();

  constructor(
    readonly source: string,
    private readonly options: ModuleOptions,
    private readonly compiler: Compiler,
    private readonly env: LaunchEnv,
  ) {}

  /** The module's `.entry` names in source order. */
  get entries(): readonly string[] {
    this.entryNames ??= listEntries(this.source);
    return this.entryNames;
  }

  /** The module's only entry; an error naming the entries when there are several or none. */
  defaultEntry(): string {
    const entries = this.entries;
    if (entries.length === 1) return entries[0] as string;
    if (entries.length === 0) {
      // Let the compiler report the problem (or find an entry written in a way we did not expect).
      const kernels = this.compiler(this.source, this.compileOptions()).kernels;
      if (kernels.length === 1) return (kernels[0] as CompiledKernel).layout.entry;
      throw argumentError('the module has no .entry kernel to launch');
    }
    throw argumentError(`the module has ${entries.length} entries (${entries.join(', ')}); choose one with \`entry\``);
  }

  /** The kernel `name` (cuModuleGetFunction), compiled now so errors show here. */
  getFunction(name: string): KernelFunction {
    let fn = this.functions.get(name);
    if (!fn) {
      fn = new KernelFunction(name, this.kernel(name, []), this, this.env);
      this.functions.set(name, fn);
    }
    return fn;
  }

  /**
   * The module's buffer for a binding (KernelSource.owned): created and filled at first use and
   * kept, so `.global` variables keep their values across launches of the module's kernels.
   */
  owned(b: OwnedBinding): GPUBuffer {
    const key = b.kind === 'trap' ? 'trap' : b.space;
    let buffer = this.buffers.get(key);
    if (!buffer) {
      const size = b.kind === 'trap' ? 16 : Math.max(16, Math.ceil(b.bytes / 16) * 16);
      buffer = this.env.device.createBuffer({
        size, mappedAtCreation: true, label: `ptx-wgsl module ${key}`,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
      });
      if (b.kind === 'module-memory') new Uint8Array(buffer.getMappedRange()).set(b.init);
      buffer.unmap();
      this.buffers.set(key, buffer);
    }
    return buffer;
  }

  /** R004 for a launch of `entry` that trapped: names the PTX line of the first trap. */
  trapError(entry: string, offset: number, threads: number): PtxError {
    const before = this.source.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    const text = (this.source.split('\n')[line - 1] ?? '').trim();
    const where = `${this.options.fileName ?? 'kernel.ptx'}:${line}:${column}`;
    return trapError(`kernel '${entry}' trapped at ${where} (${threads} thread${threads === 1 ? '' : 's'} executed a trap)`, `${line} | ${text}`);
  }

  /** The compiled variant of `entry` whose alias groups share bindings. */
  kernel(entry: string, aliases: readonly (readonly number[])[]): CompiledKernel {
    const key = `${entry}|${aliasKey(aliases)}`;
    let kernel = this.variants.get(key);
    if (!kernel) {
      kernel = this.compile(entry, aliases);
      this.variants.set(key, kernel);
    }
    return kernel;
  }

  private compile(entry: string, aliases: readonly (readonly number[])[]): CompiledKernel {
    const options = { ...this.compileOptions(), entry, ...(aliases.length > 0 ? { paramAliases: aliases } : {}) };
    const kernel = this.compiler(this.source, options).kernels.find((k) => k.layout.entry === entry);
    if (!kernel) throw argumentError(`the module has no entry '${entry}' (entries: ${this.entries.join(', ') || 'none'})`);
    checkFeatures(kernel.layout, this.env.device);
    return kernel;
  }

  /** Options from the module and from what the device offers for warp-level code. */
  private compileOptions(): CompileOptions {
    const { device } = this.env;
    const warpPath = this.options.warpPath ?? (device.features.has('subgroups') ? 'auto' : 'emulated');
    return {
      fileName: this.options.fileName ?? 'kernel.ptx',
      warpPath,
      fusedFma: this.env.fusedFma,
      ...(this.env.subgroupSize !== undefined ? { subgroupSize: this.env.subgroupSize } : {}),
    };
  }
}
