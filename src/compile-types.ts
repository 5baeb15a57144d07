import type { CompiledKernel, ModuleVariables } from '../lowering/layout.js';
import type { SourceFile } from './diagnostics/source.js';
import type { Module } from './ptx/ast.js';
import type { NativeFloat } from '../lowering/wgsl/native-float.js';

export type { NativeFloat } from '../lowering/wgsl/native-float.js';

export interface CompileOptions {
  /** File name used in diagnostics. Default `kernel.ptx`. */
  readonly fileName?: string;
  /** Compile only this entry (default: every `.entry` of the module). */
  readonly entry?: string;
  /**
   * Groups of parameter indices whose arguments are the same allocation at launch; each group
   * shares one binding (WebGPU forbids binding one buffer twice writably in one dispatch).
   */
  readonly paramAliases?: readonly (readonly number[])[];
  /** Warp lowering: chosen per device when 'auto' (issue 5). */
  readonly warpPath?: 'auto' | 'subgroups' | 'emulated';
  /**
   * The device has WGSL subgroup operations (of any size). 64-bit atomics then serialise per
   * subgroup instead of per thread (lowering/wgsl/emit-atomic.ts). Default false.
   */
  readonly subgroupOps?: boolean;
  /** Subgroup size the device guarantees, when known (32 enables the native warp path). */
  readonly subgroupSize?: number;
  /**
   * The device guarantees `subgroupSize` only for pipelines that pin it with `@subgroup_size`
   * (WGSL `subgroup_size_control`; devices whose subgroup size varies): the native warp path
   * then emits the attribute, and such a kernel needs a block x size that is a multiple of it.
   */
  readonly pinSubgroupSize?: boolean;
  /**
   * Whether the target's WGSL `fma()` is a true fused multiply-add (the runtime probes each
   * device). Default false: `fma.rn.f32` is then computed exactly in integer arithmetic.
   */
  readonly fusedFma?: boolean;
  /**
   * f32 operations the target computes natively exactly as PTX does (the runtime probes each
   * device: lowering/wgsl/native-float.ts). Default: none, every such operation goes through
   * the exact helpers.
   */
  readonly nativeFloat?: NativeFloat;
  /**
   * Compile f32 arithmetic as nvcc's `-ftz=true` would have emitted it: every f32 add, mul, fma,
   * min/max, compare and `.approx` function flushes subnormals (pass `flush-subnormals`). Off by
   * default (it changes results); on a device that flushes anyway it lets plain PTX run on the
   * device's own arithmetic.
   */
  readonly flushSubnormals?: boolean;
  /**
   * Where checked f32 arithmetic is grouped into replay regions (lowering/wgsl/replay-regions.ts):
   * 'on' (default), 'off' (a check and an exact slow path inlined per operation), or 'always'
   * (every region replays exactly: for tests on devices whose native arithmetic never fails the
   * check), or 'flushing' (as 'on', with the regions' native arithmetic flushing subnormal
   * operands and results as NVIDIA's driver does: tests the checks on a device that keeps them).
   */
  readonly replayRegions?: 'on' | 'off' | 'always' | 'flushing';
  /**
   * The device's subgroup-matrix configurations (`adapter.info.subgroupMatrixConfigs`, present
   * where the device has `chromium-experimental-subgroup-matrix`): wmma takes the tensor-core
   * path where one fits (lowering/matrix-path.ts).
   */
  readonly subgroupMatrixConfigs?: readonly SubgroupMatrixConfig[];
  /** Matrix lowering: chosen per device when 'auto' (default); the others force a path (tests). */
  readonly matrixPath?: 'auto' | 'tensor-core' | 'portable';
  /**
   * View shared memory as halves wherever its accesses allow it, as the tensor-core path does
   * when mma operands come straight from ldmatrix tiles (lowering/address-spaces.ts); needs
   * `shader-f16`. Tests: runs that view's loads and stores on devices without subgroup matrices.
   */
  readonly sharedHalves?: boolean;
  /** Print the IR after the named pass to this sink (CLI `--dump-after`). */
  readonly dumpAfter?: { readonly pass: string; readonly sink: (text: string) => void };
}

/** One entry of `GPUAdapterInfo.subgroupMatrixConfigs`, copied out of Dawn's getters. */
export interface SubgroupMatrixConfig {
  readonly componentType: string;
  readonly resultComponentType: string;
  readonly M: number;
  readonly N: number;
  readonly K: number;
}

export interface CompileResult {
  readonly module: Module;
  readonly kernels: readonly CompiledKernel[];
}

/** `compile()`'s signature. */
export type Compiler = (source: string, options?: CompileOptions) => CompileResult;

/**
 * A loaded PTX module as the runtime takes it (`compileModule()`, src/compile-module.ts): what
 * it needs before any kernel is compiled, and the kernels compiled on demand. The runtime never
 * sees the parser or the IR (Cranelift's `Context` hands its JIT a compiled function, never
 * source).
 */
export interface CompiledModule {
  /** Name used in diagnostics. */
  readonly fileName: string;
  /** The PTX text, for the source positions of run-time errors (a trap's line). */
  readonly source: SourceFile;
  /** The `.entry` names in source order, listed without compiling (so one failing entry hides none). */
  readonly entries: readonly string[];
  /** The module-scope `.global`/`.const` variables, laid out as every kernel sees them; computed at first use. */
  variables(): ModuleVariables;
  /** Compiles the kernels `options.entry` selects (every entry when absent); throws PtxError. */
  kernels(options: Omit<CompileOptions, 'fileName'>): readonly CompiledKernel[];
}

export interface ModuleCompileOptions {
  /** File name used in diagnostics. Default `kernel.ptx`. */
  readonly fileName?: string;
}

/** `compileModule()`'s signature. */
export type ModuleCompiler = (source: string, options?: ModuleCompileOptions) => CompiledModule;

/**
 * A shader the runtime runs once per device to learn what the compiler may rely on. The
 * compiler writes it (WGSL comes only from the emitter); `read` turns the output into facts.
 */
export interface DeviceProbe<T> {
  readonly code: string;
  /** Initial words of the storage buffer at binding 0; the shader writes its results over it. */
  readonly input: Uint32Array;
  /** Bytes of that buffer. */
  readonly bytes: number;
  read(out: Uint32Array): T;
}

/**
 * What the runtime needs of the compiler, injected by src/api.ts (src/runtime-compiler.ts) so
 * the runtime imports no compiler code and can be tested with a stand-in.
 */
export interface RuntimeCompiler {
  /** Describes a loaded module; its kernels compile on demand (`compileModule()`). */
  readonly compileModule: ModuleCompiler;
  /** Which f32 operations a device computes exactly as PTX does; absent: none are used natively. */
  readonly floatProbe?: () => DeviceProbe<NativeFloat>;
}
