/**
 * A loaded PTX module (cuModuleLoadData): what `compileModule()` describes (its entries and
 * module variables), with kernels compiled lazily per entry and per aliasing pattern through
 * it, each variant cached so repeated launches never re-transpile. The runtime takes compiled
 * modules: it imports no parser and no IR.
 */
import { MODULE_GLOBAL_TAG, type CompiledKernel } from '../lowering/layout.js';
import type { CompiledModule, CompileOptions, SubgroupMatrixConfig } from '../src/compile-types.js';
import { subgroupMatrixConfigs } from './device.js';
import { aliasKey } from './bindings.js';
import { argumentError, trapError } from './errors.js';
import type { OwnedBinding } from './bindings.js';
import type { PtxError } from '../src/diagnostics/ptx-error.js';
import { KernelFunction, type LaunchEnv } from './launch.js';
import { checkFeatures } from './launch-checks.js';
import { DeviceBuffer, hostBytes, type HostBuffer } from './memory.js';
import { readFromDevice, writeToDevice } from './copy.js';
import { deviceError } from './errors.js';

export interface ModuleOptions {
  /** Name used in diagnostics. Default `kernel.ptx`. */
  readonly fileName?: string;
  /** Warp lowering override, passed to the compiler. Default: chosen from the device. */
  readonly warpPath?: 'auto' | 'subgroups' | 'emulated';
  /**
   * Matrix lowering override: 'portable' keeps wmma off the tensor cores. Default: the
   * tensor-core path where the device offers subgroup matrices (lowering/matrix-path.ts).
   */
  readonly matrixPath?: 'auto' | 'portable';
}

/** Subgroup-matrix options for the compiler: the configurations, where the device has f16 too. */
function subgroupMatrixOptions(device: GPUDevice): { subgroupMatrixConfigs?: SubgroupMatrixConfig[] } {
  const configs = device.features.has('shader-f16') ? subgroupMatrixConfigs(device) : [];
  return configs.length > 0 ? { subgroupMatrixConfigs: configs } : {};
}

/** A module-scope `.global` (`__device__`) or `.const` (`__constant__`) variable, as cuModuleGetGlobal sees it. */
export interface ModuleGlobal {
  readonly name: string;
  readonly space: 'global' | 'const';
  /** The address kernels see for it (`&sym`; for `.const`, its address in the const window). */
  readonly address: bigint;
  readonly bytes: number;
}

export class Module {
  private readonly variants = new Map<string, CompiledKernel>();
  private readonly functions = new Map<string, KernelFunction>();
  /** Buffers the module owns: its `.global` and `.const` variables, and the trap record. */
  private readonly buffers = new Map<string, GPUBuffer>();

  constructor(
    private readonly compiled: CompiledModule,
    private readonly options: ModuleOptions,
    private readonly env: LaunchEnv,
  ) {}

  /** The PTX text the module was loaded from. */
  get source(): string {
    return this.compiled.source.text;
  }

  /** The module's `.entry` names in source order. */
  get entries(): readonly string[] {
    return this.compiled.entries;
  }

  /** The module's only entry; an error naming the entries when there are several or none. */
  defaultEntry(): string {
    const entries = this.entries;
    if (entries.length === 1) return entries[0] as string;
    if (entries.length === 0) {
      // Let the compiler report the problem (or find an entry written in a way we did not expect).
      const kernels = this.compiled.kernels(this.compileOptions());
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
    return b.kind === 'trap' ? this.ownedImage('trap', 16, []) : this.ownedImage(b.space, b.bytes, b.init);
  }

  /** The owned buffer `key`, created with `init` at first use (a launch, or a host copy to a symbol). */
  private ownedImage(key: string, bytes: number, init: ArrayLike<number>): GPUBuffer {
    const old = this.buffers.get(key);
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    if (old && old.size >= size) return old;
    const buffer = this.env.device.createBuffer({
      size, mappedAtCreation: true, label: `ptx-wgsl module ${key}`,
      // `.const` may be bound as a uniform buffer (lowering/layout.ts UNIFORM_CONST_BYTES)
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC | (key === 'const' ? GPUBufferUsage.UNIFORM : 0),
    });
    new Uint8Array(buffer.getMappedRange()).set(init);
    buffer.unmap();
    if (old) {
      // A kernel with function-scope variables after the module's (laid out last) needs a
      // larger image: the module-scope part keeps its current values. Recorded launches use
      // the old image, which is destroyed below: submit them first.
      this.env.batch.flush();
      const encoder = this.env.device.createCommandEncoder({ label: `ptx-wgsl module ${key} grow` });
      encoder.copyBufferToBuffer(old, 0, buffer, 0, old.size);
      this.env.device.queue.submit([encoder.finish()]);
      old.destroy();
    }
    this.buffers.set(key, buffer);
    return buffer;
  }

  /**
   * A module-scope `.global`/`.const` variable (cuModuleGetGlobal, cudaGetSymbolAddress and
   * cudaGetSymbolSize); an R001 error naming the variables when there is no such one.
   */
  getGlobal(name: string): ModuleGlobal {
    const images = this.compiled.variables();
    for (const space of ['global', 'const'] as const) {
      const offset = images[space].offsets.get(name);
      if (offset === undefined) continue;
      const bytes = images.sizes.get(name) ?? 0;
      const address = space === 'global' ? (BigInt(MODULE_GLOBAL_TAG) << 32n) | BigInt(offset) : BigInt(offset);
      return { name, space, address, bytes };
    }
    const names = [...images.global.offsets.keys(), ...images.const.offsets.keys()];
    throw argumentError(`the module has no .global or .const variable '${name}' (variables: ${names.join(', ') || 'none'})`);
  }

  /**
   * Copies host bytes into a module variable at byte `offset` (cudaMemcpyToSymbol); kernels
   * launched afterwards see them. The range must lie inside the variable.
   */
  copyToSymbol(name: string, src: HostBuffer, offset = 0): void {
    this.env.monitor.check();
    this.env.batch.flush();
    const bytes = hostBytes(src);
    writeToDevice(this.env.device, this.symbolRange(name, offset, bytes.byteLength, 'copyToSymbol'), bytes, 'copyToSymbol');
  }

  /** Copies a module variable's bytes from `offset` into `dst`, after queued launches (cudaMemcpyFromSymbol). */
  async copyFromSymbol(dst: HostBuffer, name: string, offset = 0): Promise<void> {
    this.env.monitor.check();
    this.env.batch.flush();
    const bytes = hostBytes(dst);
    const loc = this.symbolRange(name, offset, bytes.byteLength, 'copyFromSymbol');
    try {
      await readFromDevice(this.env.device, loc, bytes);
    } catch (e) {
      await this.env.monitor.settle();
      throw deviceError(`copyFromSymbol failed: ${(e as Error).message}`);
    }
    await this.env.monitor.settle();
  }

  private symbolRange(name: string, offset: number, bytes: number, what: string): { allocation: DeviceBuffer; offset: number } {
    const g = this.getGlobal(name);
    if (!Number.isInteger(offset) || offset < 0 || offset + bytes > g.bytes) {
      throw argumentError(`${what}: ${bytes} bytes at offset ${offset} do not fit '${name}' (${g.bytes} bytes)`);
    }
    const image = this.compiled.variables()[g.space];
    const key = g.space === 'global' ? 'global' : 'const';
    const buffer = this.ownedImage(key, image.bytes, image.init);
    const start = Number(g.address & 0xffffffffn);
    return { allocation: new DeviceBuffer(g.address - BigInt(start), image.bytes, buffer), offset: start + offset };
  }

  /** R004 for a launch of `entry` that trapped: names the PTX line of the first trap. */
  trapError(entry: string, offset: number, threads: number, reason?: string): PtxError {
    const { source, fileName } = this.compiled;
    const { line, column } = source.position(offset);
    const text = source.lineText(line).trim();
    const where = `${fileName}:${line}:${column}`;
    const why = reason ? `: ${reason}` : '';
    return trapError(`kernel '${entry}' trapped at ${where} (${threads} thread${threads === 1 ? '' : 's'} executed a trap)${why}`, `${line} | ${text}`);
  }

  /** The compiled variant of `entry` whose alias groups share bindings. */
  kernel(entry: string, aliases: readonly (readonly number[])[], blockX?: number): CompiledKernel {
    const kernel = this.variant(entry, aliases);
    const pinned = kernel.layout.warp.pinnedSubgroupSize;
    if (pinned === undefined || blockX === undefined || blockX % pinned === 0) return kernel;
    // WebGPU rejects @subgroup_size(N) unless the workgroup's x size is a multiple of N, and
    // without the attribute this device may run other subgroup sizes: only the emulation is exact.
    return this.variant(entry, aliases, `the block's x size is not a multiple of ${pinned}, which @subgroup_size(${pinned}) needs on this device`);
  }

  /** A compiled variant, kept: launches key their uniform buffers and bind groups by it. */
  private variant(entry: string, aliases: readonly (readonly number[])[], emulatedBecause?: string): CompiledKernel {
    const key = `${entry}|${aliasKey(aliases)}${emulatedBecause ? '|emulated' : ''}`;
    let kernel = this.variants.get(key);
    if (!kernel) {
      kernel = this.compile(entry, aliases, emulatedBecause);
      this.variants.set(key, kernel);
    }
    return kernel;
  }

  private compile(entry: string, aliases: readonly (readonly number[])[], emulatedBecause?: string): CompiledKernel {
    const options = { ...this.compileOptions(), entry, ...(aliases.length > 0 ? { paramAliases: aliases } : {}), ...(emulatedBecause ? { warpPath: 'emulated' as const } : {}) };
    let kernel = this.compiled.kernels(options).find((k) => k.layout.entry === entry);
    if (!kernel) throw argumentError(`the module has no entry '${entry}' (entries: ${this.entries.join(', ') || 'none'})`);
    if (emulatedBecause) kernel = { ...kernel, layout: { ...kernel.layout, warp: { path: 'emulated', reason: emulatedBecause } } };
    checkFeatures(kernel.layout, this.env.device);
    return kernel;
  }

  /** Options from the module and from what the device offers for warp-level code. */
  private compileOptions(): Omit<CompileOptions, 'fileName'> {
    const { device } = this.env;
    const warpPath = this.options.warpPath ?? (device.features.has('subgroups') ? 'auto' : 'emulated');
    return {
      warpPath,
      fusedFma: this.env.fusedFma,
      ...(device.features.has('subgroups') ? { subgroupOps: true } : {}),
      ...(this.env.nativeFloat ? { nativeFloat: this.env.nativeFloat } : {}),
      ...(this.env.flushSubnormals ? { flushSubnormals: true } : {}),
      ...(this.env.replayRegions ? { replayRegions: this.env.replayRegions } : {}),
      ...(this.env.subgroups ? { subgroupSize: this.env.subgroups.size, pinSubgroupSize: this.env.subgroups.pinned } : {}),
      ...(this.options.matrixPath ? { matrixPath: this.options.matrixPath } : {}),
      ...subgroupMatrixOptions(device),
    };
  }
}
