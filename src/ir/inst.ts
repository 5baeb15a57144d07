/**
 * IR instructions: a discriminated union on `op` with typed operand fields. Operand
 * fields are listed once in OPERANDS, so passes can read and rewrite operands of any
 * instruction without a switch (QBE `ops.h`, Cranelift `InstructionData`).
 *
 * Semantics follow PTX: integer ops wrap modulo 2^bits; narrow integers (8/16 bits) are
 * values of that width (the emitter keeps their upper bits zero); float ops carry the
 * PTX rounding/ftz/sat modifiers so later lowering can be exact.
 */
import type { ValueId } from './entities.js';
import type { IrType } from './types.js';
import type { AtomicOp, FloatCompare, MemoryScope, MemorySemantics, PrmtMode, ShflMode, VoteMode } from './vocabulary.js';

export type { AtomicOp, FloatCompare, MemoryScope, MemorySemantics, PrmtMode, ShflMode, VoteMode } from './vocabulary.js';

export type IntBinaryOp =
  | 'add' | 'sub' | 'mul' | 'mulhi_u' | 'mulhi_s'
  | 'and' | 'or' | 'xor'
  | 'shl' | 'shr_u' | 'shr_s'
  | 'div_u' | 'div_s' | 'rem_u' | 'rem_s'
  | 'min_u' | 'min_s' | 'max_u' | 'max_s';
export type IntUnaryOp = 'not' | 'neg' | 'popc' | 'clz' | 'brev' | 'abs';
export type IntCompare = 'eq' | 'ne' | 'ult' | 'ule' | 'ugt' | 'uge' | 'slt' | 'sle' | 'sgt' | 'sge';
export type FloatBinaryOp = 'add' | 'sub' | 'mul' | 'div' | 'min' | 'max';
export type FloatUnaryOp = 'neg' | 'abs' | 'sqrt' | 'rcp' | 'rsqrt' | 'sin' | 'cos' | 'lg2' | 'ex2' | 'tanh';
export type FloatRounding = 'rn' | 'rz' | 'rm' | 'rp' | 'approx' | 'full' | 'default';
export type IntRoundingMode = 'rni' | 'rzi' | 'rmi' | 'rpi';

/** Special registers (PTX ISA "Special Registers"). Components select x/y/z. */
export type SpecialRegister =
  | 'tid' | 'ntid' | 'ctaid' | 'nctaid' | 'laneid' | 'warpid' | 'nwarpid' | 'warpsize'
  | 'smid' | 'nsmid' | 'gridid' | 'lanemask_eq' | 'lanemask_lt' | 'lanemask_le' | 'lanemask_gt'
  | 'lanemask_ge' | 'clock' | 'clock64' | 'globaltimer' | 'dynamic_smem_size' | 'total_smem_size'
  | 'clusterid' | 'nclusterid' | 'cluster_ctaid' | 'cluster_nctaid' | 'cluster_ctarank'
  | 'cluster_nctarank' | 'is_explicit_cluster';

/**
 * Special registers that hold the same value in every thread of a block (sizes, block and grid
 * ids); `%tid` and `%laneid` vary, `%clock` and `%smid`-like registers are not promised uniform.
 */
export const BLOCK_UNIFORM_SPECIALS: ReadonlySet<SpecialRegister> = new Set<SpecialRegister>([
  'ntid', 'ctaid', 'nctaid', 'warpsize', 'nwarpid', 'clusterid', 'nclusterid', 'dynamic_smem_size', 'total_smem_size',
]);

/**
 * Where a memory access goes once address-space lowering has run. Before it, every memory
 * instruction has `region: null` and `address` is the PTX address value (64 or 32 bits).
 * After it, `address` is the 32-bit byte offset inside the region, except for the dynamic
 * regions, which keep the full address and dispatch at run time.
 */
export type Region =
  | { readonly kind: 'slot'; readonly slot: number }
  | { readonly kind: 'shared' }
  | { readonly kind: 'local' }
  | { readonly kind: 'const' }
  /** The module's `.global` variables: one runtime-owned buffer per module (layout.ts). */
  | { readonly kind: 'module-global' }
  | { readonly kind: 'global-dynamic' }
  | { readonly kind: 'generic-dynamic' };

export type MemorySpace = 'global' | 'shared' | 'local' | 'const' | 'generic';

interface Base { readonly type: IrType }

export interface ConstInst extends Base { readonly op: 'const'; /** Raw bits (floats as IEEE bits). */ readonly bits: bigint }
export interface UndefInst extends Base { readonly op: 'undef' }
export interface BitcastInst extends Base { readonly op: 'bitcast'; readonly value: ValueId }
export interface ExtractInst extends Base { readonly op: 'extract'; readonly value: ValueId; readonly index: number }
export interface ComposeInst extends Base { readonly op: 'compose'; readonly parts: readonly ValueId[] }

export interface IntBinaryInst extends Base { readonly op: 'ibinary'; readonly kind: IntBinaryOp; readonly a: ValueId; readonly b: ValueId }
export interface IntUnaryInst extends Base { readonly op: 'iunary'; readonly kind: IntUnaryOp; readonly value: ValueId }
/**
 * Bit-field, funnel-shift and byte operations (PTX bfind bfe bfi fns szext bmsk shf prmt lop3
 * dp4a dp2a), each with its PTX operands in order in `args` and its modifiers in `fn`.
 * Results are 32-bit except bfe/bfi, which have the width of their first operand.
 */
export type IntBitsFn =
  | { readonly kind: 'bfind'; readonly signed: boolean; readonly shiftamt: boolean }
  | { readonly kind: 'bfe'; readonly signed: boolean }
  | { readonly kind: 'bfi' }
  | { readonly kind: 'fns' }
  | { readonly kind: 'szext'; readonly signed: boolean; readonly clamp: boolean }
  | { readonly kind: 'bmsk'; readonly clamp: boolean }
  | { readonly kind: 'shf'; readonly left: boolean; readonly clamp: boolean }
  | { readonly kind: 'prmt'; readonly mode: PrmtMode | null }
  | { readonly kind: 'lop3'; readonly lut: number }
  | { readonly kind: 'dp4a'; readonly aSigned: boolean; readonly bSigned: boolean }
  | { readonly kind: 'dp2a'; readonly hi: boolean; readonly aSigned: boolean; readonly bSigned: boolean };
export interface IntBitsInst extends Base { readonly op: 'ibits'; readonly fn: IntBitsFn; readonly args: readonly ValueId[] }
/** `mul.wide`: the full product of two n-bit values as a 2n-bit value. */
export interface MulWideInst extends Base { readonly op: 'mul_wide'; readonly signed: boolean; readonly a: ValueId; readonly b: ValueId }
export interface IntCompareInst extends Base { readonly op: 'icmp'; readonly cond: IntCompare; readonly a: ValueId; readonly b: ValueId }
/** Zero or sign extension to a wider integer, or truncation to a narrower one. */
export interface ExtendInst extends Base { readonly op: 'extend'; readonly signed: boolean; readonly value: ValueId }
export interface TruncateInst extends Base { readonly op: 'truncate'; readonly value: ValueId }

export interface FloatBinaryInst extends Base {
  readonly op: 'fbinary'; readonly kind: FloatBinaryOp; readonly a: ValueId; readonly b: ValueId;
  readonly rounding: FloatRounding; readonly ftz: boolean; readonly sat: boolean;
  /** min/max only: `.NaN` (a NaN operand gives NaN) and `.xorsign.abs`. */
  readonly minmax?: { readonly nan: boolean; readonly xorsignAbs: boolean };
  /** `.relu` (min/max on f16/bf16): negative results become +0, NaN the canonical NaN. */
  readonly relu?: boolean;
  /**
   * mul only: a product the compiler itself wrote knowing it exact and never subnormal (zero,
   * normal, infinite or NaN), which contract-mul-add must not fuse (fusing could not change its
   * result, only its cost on a device without a fused fma) and the emitter writes as WGSL's own
   * product without a check (a device that flushes subnormals cannot get it wrong) and without
   * making a NaN canonical: its only reader must be an f32 add, which does.
   */
  readonly exact?: boolean;
}
export interface FmaInst extends Base {
  readonly op: 'fma'; readonly a: ValueId; readonly b: ValueId; readonly c: ValueId;
  readonly rounding: FloatRounding; readonly ftz: boolean; readonly sat: boolean;
  /** `.relu` (f16/bf16): negative results become +0, NaN the canonical NaN. */
  readonly relu?: boolean;
}
export interface FloatUnaryInst extends Base {
  readonly op: 'funary'; readonly kind: FloatUnaryOp; readonly value: ValueId;
  readonly rounding: FloatRounding; readonly ftz: boolean;
}
export interface FloatCompareInst extends Base { readonly op: 'fcmp'; readonly cond: FloatCompare; readonly a: ValueId; readonly b: ValueId; readonly ftz: boolean }
/** `cvt` between integer and float types, or between float widths (int<->int uses extend/truncate). */
export interface ConvertInst extends Base {
  readonly op: 'convert'; readonly value: ValueId; readonly fromSigned: boolean; readonly toSigned: boolean;
  readonly rounding: FloatRounding | IntRoundingMode; readonly sat: boolean; readonly ftz: boolean;
  /** f16/bf16 results: `.relu` (negative to +0, NaN canonical), `.satfinite` (infinities to MAX_NORM). */
  readonly relu?: boolean; readonly satfinite?: boolean;
  /**
   * fp8 (e4m3/e5m2), fp6 (e2m3/e3m2), fp4 (e2m1), ue8m0 and tf32 conversions: the integer side
   * holds the narrow format's bits (one lane in the low bits of an i16, tf32 as f32 bits in an
   * i32); `tiesAway` is `.rna`. ue8m0 widens to bf16, the others to f16.
   */
  readonly minifloat?: { readonly format: 'e4m3' | 'e5m2' | 'e2m1' | 'e2m3' | 'e3m2' | 'ue8m0' | 'tf32'; readonly tiesAway: boolean };
}

export interface SelectInst extends Base { readonly op: 'select'; readonly cond: ValueId; readonly a: ValueId; readonly b: ValueId }
export interface SpecialInst extends Base { readonly op: 'special'; readonly register: SpecialRegister; readonly component: 0 | 1 | 2 }
/**
 * A kernel parameter read from the launch uniform buffer (`ld.param` of an `.entry` parameter):
 * `offset` bytes into parameter `param`, or, with `dynamic` (an i32 byte address, for `ld.param`
 * through a register holding a parameter's address), `offset + dynamic` bytes from the start of
 * the space, `param` then -1.
 */
export interface KernelParamInst extends Base { readonly op: 'kernel_param'; readonly param: number; readonly offset: number; readonly dynamic: ValueId | null }
/** The address of a module or function variable in its own state space window. */
export interface AddressOfInst extends Base { readonly op: 'address_of'; readonly symbol: string; readonly space: MemorySpace }
/**
 * `cvta`: between a space's window address and a generic address. `param`: a kernel
 * parameter's address (its offset in the parameter space) and its generic address.
 */
export interface CvtaInst extends Base { readonly op: 'cvta'; readonly value: ValueId; readonly space: MemorySpace | 'param'; readonly toGeneric: boolean }

export interface LoadInst extends Base {
  readonly op: 'load'; readonly space: MemorySpace; readonly address: ValueId; readonly region: Region | null;
  /** `ld.global.nc` / `ldu`: PTX requires the data to stay unchanged while the kernel runs. */
  readonly readOnly?: true;
}
export interface StoreInst extends Base {
  readonly op: 'store'; readonly space: MemorySpace; readonly address: ValueId; readonly region: Region | null; readonly value: ValueId;
}
/** `atom` returns the old value; `red` is an atom whose result is unused. */
export interface AtomicInst extends Base {
  readonly op: 'atomic'; readonly kind: AtomicOp; readonly signed: boolean; readonly isFloat: boolean;
  readonly space: MemorySpace; readonly address: ValueId; readonly region: Region | null;
  readonly value: ValueId; /** `cas` only: the compare operand. */ readonly compare: ValueId | null;
  readonly semantics: MemorySemantics | null; readonly scope: MemoryScope | null;
  /** Half-precision float lanes of `atom.add.noftz.{f16,bf16,f16x2,bf16x2}` (their IR types are plain integers). */
  readonly half: 'f16' | 'bf16' | 'f16x2' | 'bf16x2' | null;
}

/** `bar.sync`/`barrier.sync`/`bar.arrive`/`bar.red`: barrier `id` and optional thread `count`. */
export interface BarrierInst extends Base {
  readonly op: 'barrier'; readonly kind: 'sync' | 'arrive' | 'red';
  readonly id: ValueId | null; readonly count: ValueId | null; readonly aligned: boolean;
  /** `bar.red`: the reduction, and `pred` its predicate input (a `!c` operand already negated). */
  readonly reduce: 'popc' | 'and' | 'or' | null; readonly pred: ValueId | null;
  /**
   * Set by the convergence pass (lowering/converge.ts) where it predicates the barrier: this
   * thread arrives but contributes nothing to `bar.red`. null: every running thread is active.
   */
  readonly active: ValueId | null;
  /**
   * Set only by the step loop (lowering/converge-steps.ts) for exact named-barrier counting:
   * `arrive` adds the active threads to barrier `id`'s arrival counter (no wait); `step` is the
   * step's `bar.red.popc` of running threads (`pred`) that also completes every barrier whose
   * count was reached, and is 0 when all running threads wait (`active`) and none completed;
   * `done` reads whether barrier `id` completed in this step (a pred); `total` reads a
   * completed `bar.red`'s result (its arrivals added their `pred` to the barrier's total).
   */
  readonly counted?: 'arrive' | 'step' | 'done' | 'total';
}
/**
 * An mbarrier object (PTX ISA "mbarrier"): 64 bits of shared memory at `address` holding the
 * current phase, the pending and expected arrival counts and the tx-count (its two words are
 * laid out by lowering/wgsl/emit-mbarrier.ts; PTX treats the contents as opaque).
 *  - `init`: phase 0, pending = expected = `count`, tx-count 0. `inval`: clears the words.
 *  - `update`: one atomic step: the expected count decreases by `drop` (arrive_drop), the
 *    tx-count increases by `expectTx` and decreases by `completeTx`, and the pending count
 *    decreases by `arrive` (null operands are 0); when the pending count and the tx-count are
 *    then both zero the phase completes (the phase flips, pending = expected, tx-count 0).
 *    The i64 result is the state token: the pending count before the update in bits 0-19 and
 *    the phase parity before it in bit 31 of the low word (MBARRIER_TOKEN), high word 0.
 */
export interface MbarrierInst extends Base {
  readonly op: 'mbarrier'; readonly kind: 'init' | 'inval' | 'update';
  readonly space: MemorySpace; readonly address: ValueId; readonly region: Region | null;
  readonly count: ValueId | null; readonly drop: ValueId | null; readonly arrive: ValueId | null;
  readonly expectTx: ValueId | null; readonly completeTx: ValueId | null;
}
/** Fields of an mbarrier state token's low word (MbarrierInst). */
export const MBARRIER_TOKEN = { pendingMask: 0xfffff, phaseBit: 31 } as const;
/**
 * `mbarrier.test_wait` / `mbarrier.try_wait` (pred result): whether the phase that `phase`
 * names has completed: a state token (i64, `parity` false) or a phase parity (i32, `parity`
 * true). The ISA allows asking only about the current phase and the one before it, so the
 * answer is "the object's phase parity differs from the named one".
 * A collective (lowering/collective.ts): a thread spinning on it must not keep the threads
 * that would complete the phase from running. Reached in uniform control flow it tests after
 * a `workgroupBarrier()` (`sync`); in the step loop (lowering/converge-steps.ts) it tests
 * without one (`sync` false), a `blocking` try_wait parks the thread until the phase
 * completes, and `active` marks the threads at it.
 */
export interface MbarrierWaitInst extends Base {
  readonly op: 'mbarrier_wait'; readonly blocking: boolean; readonly parity: boolean;
  readonly space: MemorySpace; readonly address: ValueId; readonly region: Region | null;
  readonly phase: ValueId; readonly sync: boolean; readonly active: ValueId | null;
}
export interface FenceInst extends Base { readonly op: 'fence'; readonly scope: MemoryScope }
/**
 * Records a trap (R004 at launch, at source offset `at`) when `cond` holds, without ending the
 * thread: a check inside an instruction (alloca's stack bound) whose thread then continues
 * with safe values, so the check needs no control flow of its own.
 */
/**
 * A check the compiler adds (alloca overflow, mapa to another CTA): traps when cond holds, at PTX
 * source offset `at`; `reason` completes the R004 message the caller sees.
 */
export interface TrapIfInst extends Base { readonly op: 'trap_if'; readonly cond: ValueId; readonly at: number; readonly reason: string }

/**
 * Warp collectives (lowered to subgroups or emulated, per device; lowering/wgsl/emit-warp.ts).
 * `mask` is the PTX membermask (null for the deprecated non-.sync forms: every active lane).
 * `active` is set by the convergence pass where it predicates the instruction: false means
 * this thread only takes part in the exchange (it contributes nothing and is not counted);
 * null means every still-running thread of the workgroup is active here.
 */
export interface ShflInst extends Base {
  readonly op: 'shfl'; readonly mode: ShflMode; readonly value: ValueId; readonly lane: ValueId;
  readonly clamp: ValueId; readonly mask: ValueId | null; readonly active: ValueId | null;
}
export interface VoteInst extends Base {
  readonly op: 'vote'; readonly mode: VoteMode; readonly pred: ValueId; readonly mask: ValueId | null; readonly active: ValueId | null;
}
export interface ActiveMaskInst extends Base { readonly op: 'activemask'; readonly active: ValueId | null }
/** `match.sync.any/.all` on a 32- or 64-bit value: the mask of member lanes holding the same value. */
export interface MatchInst extends Base {
  readonly op: 'match'; readonly mode: 'any' | 'all'; readonly value: ValueId; readonly mask: ValueId; readonly active: ValueId | null;
}
/** `redux.sync`: integer reductions, and the f32 min/max forms (`.abs` of each input, `.NaN` propagation). */
export type ReduxOp = 'add' | 'min_u' | 'min_s' | 'max_u' | 'max_s' | 'and' | 'or' | 'xor' | 'fmin' | 'fmax';
export interface ReduxInst extends Base {
  readonly op: 'redux'; readonly kind: ReduxOp; readonly value: ValueId; readonly mask: ValueId;
  readonly abs: boolean; readonly nan: boolean; readonly active: ValueId | null;
}
/** `bar.warp.sync`: member lanes wait for each other; orders their memory accesses. */
export interface WarpSyncInst extends Base { readonly op: 'warp_sync'; readonly mask: ValueId; readonly active: ValueId | null }

/**
 * A call of a `.func`, before inlining (lowering/inline-calls.ts removes every call).
 * `args` and `returns` are the addresses of the caller's `.param` variables (they live in
 * the local window), in the callee's parameter and return order.
 */
export interface CallInst extends Base { readonly op: 'call'; readonly callee: string; readonly args: readonly ValueId[]; readonly returns: readonly ValueId[] }

/**
 * The tensor-core path of wmma (src/translate/wmma-subgroup-matrix.ts): whole fragments as
 * WGSL subgroup matrices. Loads and stores address `rows x cols` elements from `address`
 * (a byte address, like `load`'s) with `stride` elements between rows (`colMajor`: columns);
 * `matrix_mma` is D = A * B + C; `matrix_fill` is a matrix whose every element has the
 * constant `bits` (of the element type).
 */
export interface MatrixLoadInst extends Base {
  readonly op: 'matrix_load'; readonly space: MemorySpace; readonly address: ValueId; readonly region: Region | null;
  readonly stride: ValueId; readonly colMajor: boolean;
}
export interface MatrixStoreInst extends Base {
  readonly op: 'matrix_store'; readonly space: MemorySpace; readonly address: ValueId; readonly region: Region | null;
  readonly value: ValueId; readonly stride: ValueId; readonly colMajor: boolean;
}
export interface MatrixMmaInst extends Base { readonly op: 'matrix_mma'; readonly a: ValueId; readonly b: ValueId; readonly c: ValueId }
export interface MatrixFillInst extends Base { readonly op: 'matrix_fill'; readonly bits: bigint }

/**
 * `mma.sync` on the tensor-core path (src/translate/mma-tensor-core.ts): a fragment held in
 * registers, each thread's in the ISA's layout, becomes a subgroup matrix through a per-warp
 * staging area in workgroup memory (`matrix_stage`: `parts` are A's or B's .f16x2 registers
 * as i32, or C's .f32 registers or .f16x2 ones), is multiplied by `matrix_mma`, and D returns
 * to registers the same way (`matrix_unstage`: a vector of D's registers, vec4<f32> or
 * vec2<i32>). `k` is the mma's K (16 or 8). Warp collectives.
 */
export interface MatrixStageInst extends Base { readonly op: 'matrix_stage'; readonly fragment: 'a' | 'b' | 'c'; readonly k: 16 | 8; readonly parts: readonly ValueId[] }
export interface MatrixUnstageInst extends Base { readonly op: 'matrix_unstage'; readonly value: ValueId }
/**
 * An mma operand that an `ldmatrix` read from shared memory (src/translate/mma-tensor-core.ts):
 * the matrix `matrix_stage` would make of the registers `ldmatrix.sync.aligned.m8n8.x<n>{.trans}
 * .b16` gives at this thread's lane address `address`, where register j of the fragment is
 * the ldmatrix's matrix `matrices[j]`. The shared memory is read here, not where the ldmatrix
 * was (the translator emits it only when nothing between them writes memory or synchronises).
 * The emitter loads the tile straight from shared memory when the warp's lane addresses turn out
 * to form a strided matrix, and otherwise does what ldmatrix and matrix_stage do. Warp collective.
 */
export interface MatrixLdmatrixInst extends Base {
  readonly op: 'matrix_ldmatrix'; readonly space: MemorySpace; readonly address: ValueId; readonly region: Region | null;
  readonly fragment: 'a' | 'b'; readonly k: 16 | 8; readonly trans: boolean; readonly matrices: readonly number[];
  /**
   * Bytes between the rows of the memory matrices, where lowering/ldmatrix-strides.ts proved the
   * lane addresses strided for every block whose x size is a multiple of 32.
   */
  readonly stride?: number;
}

export type Inst =
  | ConstInst | UndefInst | BitcastInst | ExtractInst | ComposeInst
  | IntBinaryInst | IntUnaryInst | IntBitsInst | MulWideInst | IntCompareInst | ExtendInst | TruncateInst
  | FloatBinaryInst | FmaInst | FloatUnaryInst | FloatCompareInst | ConvertInst
  | SelectInst | SpecialInst | KernelParamInst | AddressOfInst | CvtaInst
  | LoadInst | StoreInst | AtomicInst | MbarrierInst | MbarrierWaitInst | BarrierInst | FenceInst | TrapIfInst
  | ShflInst | VoteInst | ActiveMaskInst | MatchInst | ReduxInst | WarpSyncInst | CallInst
  | MatrixLoadInst | MatrixStoreInst | MatrixMmaInst | MatrixFillInst | MatrixStageInst | MatrixUnstageInst | MatrixLdmatrixInst;

export type Op = Inst['op'];
export type InstOf<K extends Op> = Extract<Inst, { op: K }>;

type ValueField<T> = { [F in keyof T]-?: T[F] extends ValueId | null ? F : T[F] extends readonly ValueId[] ? F : never }[keyof T];

/** The operand fields of every instruction, in evaluation order. */
export const OPERANDS: { readonly [K in Op]: readonly ValueField<InstOf<K>>[] } = {
  const: [], undef: [], bitcast: ['value'], extract: ['value'], compose: ['parts'],
  ibinary: ['a', 'b'], iunary: ['value'], ibits: ['args'], mul_wide: ['a', 'b'], icmp: ['a', 'b'],
  extend: ['value'], truncate: ['value'],
  fbinary: ['a', 'b'], fma: ['a', 'b', 'c'], funary: ['value'], fcmp: ['a', 'b'], convert: ['value'],
  select: ['cond', 'a', 'b'], special: [], kernel_param: ['dynamic'], address_of: [], cvta: ['value'],
  load: ['address'], store: ['address', 'value'], atomic: ['address', 'value', 'compare'],
  mbarrier: ['address', 'count', 'drop', 'arrive', 'expectTx', 'completeTx'], mbarrier_wait: ['address', 'phase', 'active'],
  barrier: ['id', 'count', 'pred', 'active'], fence: [], trap_if: ['cond'],
  shfl: ['value', 'lane', 'clamp', 'mask', 'active'], vote: ['pred', 'mask', 'active'], activemask: ['active'],
  match: ['value', 'mask', 'active'], redux: ['value', 'mask', 'active'], warp_sync: ['mask', 'active'],
  call: ['args', 'returns'],
  matrix_load: ['address', 'stride'], matrix_store: ['address', 'value', 'stride'], matrix_mma: ['a', 'b', 'c'], matrix_fill: [],
  matrix_stage: ['parts'], matrix_unstage: ['value'], matrix_ldmatrix: ['address'],
};

/** Instructions that must not be removed or moved even when their result is unused. */
export const HAS_EFFECTS: { readonly [K in Op]: boolean } = {
  const: false, undef: false, bitcast: false, extract: false, compose: false,
  ibinary: false, iunary: false, ibits: false, mul_wide: false, icmp: false, extend: false, truncate: false,
  fbinary: false, fma: false, funary: false, fcmp: false, convert: false,
  select: false, special: false, kernel_param: false, address_of: false, cvta: false,
  load: false, store: true, atomic: true, mbarrier: true, mbarrier_wait: true, barrier: true, fence: true, trap_if: true,
  shfl: true, vote: true, activemask: true, match: true, redux: true, warp_sync: true, call: true,
  matrix_load: false, matrix_store: true, matrix_mma: false, matrix_fill: false,
  matrix_stage: false, matrix_unstage: false, matrix_ldmatrix: false,
};

/**
 * The value operands of an instruction, in order (nulls skipped). The passes ask this of
 * every instruction several times per compile: the fixed shapes that make up most of a kernel
 * read their fields by name, since reading them through OPERANDS' field names is a keyed load
 * on objects of dozens of shapes, about twice as slow (tests/compiler/operands.test.ts checks
 * both ways agree for every op).
 */
export function operandsOf(inst: Inst): ValueId[] {
  switch (inst.op) {
    case 'const': case 'undef': case 'special': case 'address_of': case 'fence': case 'matrix_fill': return [];
    case 'bitcast': case 'extract': case 'iunary': case 'extend': case 'truncate': case 'funary': case 'convert': case 'cvta': case 'matrix_unstage': return [inst.value];
    case 'ibinary': case 'mul_wide': case 'icmp': case 'fbinary': case 'fcmp': return [inst.a, inst.b];
    case 'fma': case 'matrix_mma': return [inst.a, inst.b, inst.c];
    case 'select': return [inst.cond, inst.a, inst.b];
    case 'load': return [inst.address];
    case 'store': return [inst.address, inst.value];
    default: return operandFields(inst);
  }
}

/** operandsOf through OPERANDS, for any instruction. */
export function operandFields(inst: Inst): ValueId[] {
  const out: ValueId[] = [];
  const rec = inst as unknown as Record<string, ValueId | readonly ValueId[] | null>;
  const fields = OPERANDS[inst.op] as readonly string[];
  for (let i = 0; i < fields.length; i++) {
    const v = rec[fields[i] as string];
    if (v === null || v === undefined) continue;
    if (typeof v === 'number') out.push(v);
    else for (let j = 0; j < v.length; j++) out.push(v[j] as ValueId);
  }
  return out;
}

/**
 * Whether `f` holds for some value operand of `inst`, in operandsOf's order (operandsOf without
 * the array). The common shapes read their fields by name, as operandsOf does: `substitute` asks
 * this of every instruction of the function, 1-2% of a compile through OPERANDS (issue 13).
 */
export function someOperand(inst: Inst, f: (v: ValueId) => boolean): boolean {
  switch (inst.op) {
    case 'const': case 'undef': case 'special': case 'address_of': case 'fence': case 'matrix_fill': return false;
    case 'bitcast': case 'extract': case 'iunary': case 'extend': case 'truncate': case 'funary': case 'convert': case 'cvta': case 'matrix_unstage': return f(inst.value);
    case 'ibinary': case 'mul_wide': case 'icmp': case 'fbinary': case 'fcmp': return f(inst.a) || f(inst.b);
    case 'fma': case 'matrix_mma': return f(inst.a) || f(inst.b) || f(inst.c);
    case 'select': return f(inst.cond) || f(inst.a) || f(inst.b);
    case 'load': return f(inst.address);
    case 'store': return f(inst.address) || f(inst.value);
    default: return someOperandField(inst, f);
  }
}

/** someOperand through OPERANDS, for any instruction. */
export function someOperandField(inst: Inst, f: (v: ValueId) => boolean): boolean {
  const rec = inst as unknown as Record<string, ValueId | readonly ValueId[] | null>;
  const fields = OPERANDS[inst.op] as readonly string[];
  for (let i = 0; i < fields.length; i++) {
    const v = rec[fields[i] as string];
    if (v === null || v === undefined) continue;
    if (typeof v === 'number') { if (f(v)) return true; } else for (let j = 0; j < v.length; j++) if (f(v[j] as ValueId)) return true;
  }
  return false;
}

/** A copy of `inst` with every value operand replaced through `f`. */
export function mapOperands<I extends Inst>(inst: I, f: (v: ValueId) => ValueId): I {
  const copy = { ...inst } as unknown as Record<string, unknown>;
  const fields = OPERANDS[inst.op] as readonly string[];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as string;
    const v = copy[field] as ValueId | readonly ValueId[] | null;
    if (v === null || v === undefined) continue;
    copy[field] = typeof v === 'number' ? f(v) : v.map(f);
  }
  return copy as unknown as I;
}
