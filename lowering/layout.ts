/**
 * The contract between the compiler and the runtime: for each compiled kernel, what its
 * WGSL expects to be bound and how its parameters are packed. Nothing here knows WebGPU
 * objects, so `compile()` can produce it without a GPU.
 *
 * Binding model (group 0):
 *  - binding 0, `var<uniform>`: the launch header (16 bytes: nctaid.x, nctaid.y, nctaid.z,
 *    the dispatch's x width used to linearise the workgroup id) followed by the PTX kernel
 *    parameter space, laid out as PTX lays out `.param` (offsets and alignment of each
 *    parameter), padded to 16 bytes.
 *  - one `var<storage>` binding per global memory slot: a pointer parameter the compiler proved
 *    is used as an address base. The runtime binds the whole allocation the argument points
 *    into; the shader indexes it with the low 32 bits of the address (allocations are placed at
 *    4 GiB-aligned virtual addresses, so the low word is the byte offset in the allocation).
 */
import type { ParamType } from '../src/ir/vocabulary.js';
import type { MatrixReport } from './matrix-path.js';

/** Bytes at the start of the uniform buffer before the PTX parameters. */
export const LAUNCH_HEADER_BYTES = 16;

export interface ParamLayout {
  readonly name: string;
  /** Element type as declared (`.u64`, `.f32`, `.b8` for aggregates). */
  readonly type: ParamType;
  /** Byte offset inside the PTX parameter space (add LAUNCH_HEADER_BYTES for the uniform buffer). */
  readonly offset: number;
  readonly size: number;
  readonly align: number;
  /** For `.b8 name[N]` and other arrays: the element count; absent for scalars. */
  readonly arrayLength?: number;
  /** True when the compiler found the value used as a global address (it has a slot binding). */
  readonly isPointer: boolean;
}

export type BindingLayout =
  | { readonly kind: 'launch-params'; readonly binding: 0 }
  | {
      readonly kind: 'global-slot';
      readonly binding: number;
      /** Index into `params` of the pointer parameter whose allocation is bound here. */
      readonly param: number;
      /** Other parameters merged into this binding because the launch passes the same allocation. */
      readonly aliases: readonly number[];
      readonly access: 'read' | 'read_write';
      /** WGSL element type of the view; the runtime pads the bound size to a multiple of its size. */
      readonly element: 'u32' | 'vec2<u32>' | 'vec4<u32>' | 'atomic<u32>' | 'f16' | 'f32';
    }
  /**
   * The spin locks of emulated 64-bit atomics on global memory (lowering/wgsl/emit-atomic.ts):
   * a zero-initialised 16-byte buffer the runtime owns and binds to every such kernel.
   */
  | { readonly kind: 'atomic-locks'; readonly binding: number; readonly access: 'read_write' }
  /**
   * The module's `.global` (read_write) or `.const` (read) variables (lowering/module-memory.ts):
   * one buffer per module and space that the runtime creates at the first launch that needs it,
   * fills with `init` (`bytes` long, the rest zero) and keeps for the module's lifetime, so
   * `__device__` variables persist across launches as in CUDA. Every kernel of a module has the
   * same `bytes` and `init` for a space.
   */
  | {
      readonly kind: 'module-memory';
      readonly binding: number;
      readonly space: 'global' | 'const';
      /** `uniform`: `.const` of at most UNIFORM_CONST_BYTES, bound as a uniform buffer. */
      readonly access: 'read' | 'read_write' | 'uniform';
      readonly element: 'u32' | 'vec2<u32>' | 'vec4<u32>' | 'atomic<u32>' | 'f16' | 'f32';
      readonly bytes: number;
      readonly init: readonly number[];
    }
  /**
   * The trap record (`trap`, `__assertfail`), a runtime-owned 16-byte read_write buffer of
   * words [count of trapping threads, byte offset in the PTX source of the first trap, 0, 0],
   * zero before each launch; non-zero after it, the launch fails with R004 naming the line.
   */
  | { readonly kind: 'trap'; readonly binding: number; readonly access: 'read_write' }
  /**
   * Deferred float adds (lowering/deferred-adds.ts): a runtime-owned buffer of two zeroed words
   * per block (as many blocks as it holds; later blocks add at once), shared by every launch,
   * which the kernel's epilogue entry point (`CompiledKernel.epilogueEntryPoint`) leaves zeroed.
   */
  | { readonly kind: 'deferred-adds'; readonly binding: number; readonly access: 'read_write' };

/**
 * The high word of the addresses of the module's `.global` variables (module-memory.ts), next to
 * the generic-address tags of lowering/pass.ts; runtime allocation ids stay below both.
 */
export const MODULE_GLOBAL_TAG = 0xfffffff3;

/**
 * `.const` images up to this size are bound as uniform buffers (WebGPU guarantees 64 KiB uniform
 * bindings, CUDA's constant bank is 64 KiB): drivers serve them from the constant cache, as CUDA
 * serves `__constant__`, and can read constant offsets as instruction operands.
 */
export const UNIFORM_CONST_BYTES = 65536;

/** A module's `.global` or `.const` variables laid out as one memory image (module-memory.ts). */
export interface MemoryImage {
  readonly offsets: ReadonlyMap<string, number>;
  /** Bytes, padded to a multiple of 16 (any WGSL view fits); 0 when there are no variables. */
  readonly bytes: number;
  readonly init: Uint8Array;
}

/** The two images of a module, the same for every kernel of it (binding kind `module-memory`). */
export interface ModuleMemory {
  readonly global: MemoryImage;
  readonly const: MemoryImage;
}

/**
 * The module-scope variables as the host sees them (cuModuleGetGlobal, cudaMemcpyToSymbol):
 * the images every kernel binds, and each variable's declared size in bytes.
 */
export interface ModuleVariables extends ModuleMemory {
  readonly sizes: ReadonlyMap<string, number>;
}

export type OverrideName = 'ptx_ntid_x' | 'ptx_ntid_y' | 'ptx_ntid_z' | 'ptx_dynamic_smem_words' | 'ptx_grid_direct';

/** Which lowering each warp-level feature took, and why (issue: warps on every WebGPU). */
export interface WarpReport {
  readonly path: 'none' | 'subgroups' | 'emulated';
  readonly reason: string;
  /**
   * Set when the WGSL pins its subgroup size with `@subgroup_size` (feature
   * `subgroup-size-control`): the launch's block x size must then be a multiple of it, and the
   * runtime takes the emulated path for blocks where it is not.
   */
  readonly pinnedSubgroupSize?: number;
}

/** A thread index an access is scaled by: `%tid.x`, or `%ctaid.x * %ntid.x + %tid.x` (32-bit). */
export type ExtentIndex = 'tid.x' | 'global.x';

/**
 * `index < bound` (`index <= bound` when `inclusive`), where `bound` is read from the launch's
 * parameter `param` at byte `offset` inside it, `bits` wide, compared signed or unsigned.
 */
export interface ExtentGuard {
  readonly index: ExtentIndex;
  readonly param: number;
  readonly offset: number;
  readonly bits: 32 | 64;
  readonly signed: boolean;
  readonly inclusive: boolean;
}

/**
 * A global memory access every launch certainly makes through pointer parameter `param`
 * (lowering/param-extents.ts): `bytes` wide at `param + index * stride + offset`, for every
 * index of the launch (`none`: one access), or every index the `guard` admits. The runtime
 * rejects a launch whose pointer argument is shorter than the farthest such access.
 */
export interface ParamExtent {
  readonly param: number;
  readonly index: ExtentIndex | 'none';
  readonly stride: number;
  readonly offset: number;
  readonly bytes: number;
  readonly guard?: ExtentGuard;
  /** The PTX instruction, `file:line:column: text`, named in the runtime's error. */
  readonly site: string;
}

export interface KernelLayout {
  readonly entry: string;
  /**
   * Pipeline-overridable constants the WGSL declares, set per launch when the pipeline is
   * created: the block size (`ptx_ntid_x/y/z`, also the `@workgroup_size`) and, when the kernel
   * uses dynamic shared memory, its size in 32-bit words (`ptx_dynamic_smem_words`), and whether
   * the grid is dispatched as it is or linearised (`ptx_grid_direct`, runtime/grid.ts). One WGSL
   * text thus serves every block and shared size; pipelines are cached per (module, entry,
   * block, shared size, grid form).
   */
  readonly overrides: readonly OverrideName[];
  /** `.reqntid` / `.maxntid` of the entry, checked by the runtime at launch. */
  readonly reqntid?: readonly number[];
  readonly maxntid?: readonly number[];
  readonly params: readonly ParamLayout[];
  /** Size of the PTX parameter space in bytes. */
  readonly paramBytes: number;
  /** Size of the uniform buffer at binding 0 (header + params, padded to 16). */
  readonly uniformBytes: number;
  readonly bindings: readonly BindingLayout[];
  readonly staticSharedBytes: number;
  readonly dynamicSharedBytes: number;
  /** WebGPU features the shader needs (e.g. 'subgroups', 'shader-f16'). */
  readonly features: readonly string[];
  readonly warp: WarpReport;
  /** Which path the kernel's matrix instructions took (absent: it has none; lowering/matrix-path.ts). */
  readonly matrix?: MatrixReport;
  /**
   * Why a trap at a PTX source offset fires when the compiler inserted it (a check such as the
   * alloca stack limit); a PTX `trap`/`brkpt` has no entry.
   */
  readonly trapReasons?: Readonly<Record<number, string>>;
  /** Accesses through pointer parameters that every launch makes (absent: none recognised). */
  readonly extents?: readonly ParamExtent[];
}

export interface CompiledKernel {
  readonly layout: KernelLayout;
  readonly wgsl: string;
  /** The WGSL entry point name. */
  readonly entryPoint: string;
  /**
   * A second entry point of the same WGSL, with the same bind group, that the runtime
   * dispatches as a single workgroup right after every launch of the kernel (in the same
   * compute pass): the deferred float adds' epilogue (lowering/wgsl/emit-deferred-adds.ts).
   */
  readonly epilogueEntryPoint?: string;
  /**
   * The PTX source line (1-based) each WGSL line came from, indexed by WGSL line (0-based):
   * set for the lines an instruction wrote, null for declarations, the helper library and the
   * statement tree (`if`, `loop`, copies between blocks). Set by `compile()`; kernels built
   * by hand may leave it out.
   */
  readonly lineMap?: readonly (number | null)[];
}
