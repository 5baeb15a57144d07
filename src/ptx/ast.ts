/**
 * The PTX abstract syntax tree: what the parser produces and the SSA builder consumes.
 * Every node has a span. Instructions carry their opcode, their modifiers as typed
 * fields (never a list of strings) and typed operands; which modifiers an opcode accepts
 * lives in the one opcode table (opcodes.ts).
 */
import type { Span } from '../diagnostics/span.js';

// ---------------------------------------------------------------- types

/** Fundamental PTX types (ISA "Fundamental Types" plus the packed and narrow float types). */
export const SCALAR_TYPES = [
  'pred',
  'b8', 'b16', 'b32', 'b64', 'b128',
  'u8', 'u16', 'u32', 'u64',
  's8', 's16', 's32', 's64',
  // packed 16-bit integer lanes (min/max/add, PTX 8.0 sm_90)
  's16x2', 'u16x2',
  'f16', 'f16x2', 'bf16', 'bf16x2', 'tf32', 'f32', 'f64',
  'e4m3', 'e5m2', 'e4m3x2', 'e5m2x2', 'e2m1x2', 'e2m3x2', 'e3m2x2', 'ue8m0x2',
  // four narrow lanes in a .b32: only the stochastic-rounding cvt.rs forms (PTX 8.7, sm_100a)
  'e4m3x4', 'e5m2x4', 'e2m3x4', 'e3m2x4', 'e2m1x4',
  's4', 'u4', 'b1', 's2', 'u2',
] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

export type VectorWidth = 2 | 4 | 8;

/**
 * The predefined integer constant `WARP_SZ` (ISA "Integer Constants"): "to date, all target
 * architectures have a WARP_SZ value of 32". A name, usable wherever an immediate is.
 */
export const WARP_SZ = { name: 'WARP_SZ', value: 32n } as const;

export const STATE_SPACES = ['reg', 'sreg', 'const', 'global', 'local', 'param', 'shared', 'tex', 'generic'] as const;
export type StateSpace = (typeof STATE_SPACES)[number];

/** `.shared::cta`, `.shared::cluster`, `.param::entry`, `.param::func`: the space plus its sub-qualifier. */
export interface SpaceRef {
  readonly space: StateSpace;
  readonly qualifier?: 'cta' | 'cluster' | 'entry' | 'func';
}

// ---------------------------------------------------------------- operands

export interface RegisterOperand {
  readonly kind: 'register';
  /** Full name as written, e.g. `%r12`, `%rd3`, `%p1`, `__local_depot0`. */
  readonly name: string;
  /**
   * Video-instruction byte/half selector without its dot: `b0`..`b3`, `h0`, `h1` on scalar
   * video operands, `b3210`/`h10`-style lane selectors and masks on SIMD video operands.
   */
  readonly selector?: string;
  /** One element of a vector register (`.reg .v4 .u32 v;` then `v.x`): `.x/.y/.z/.w` or `.r/.g/.b/.a`, as its index. */
  readonly component?: number;
  readonly span: Span;
}

/** A special register: `%tid.x`, `%laneid`, `%lanemask_lt`, `%clock64`, `%envreg3`. */
export interface SpecialRegisterOperand {
  readonly kind: 'special';
  /** Name without `%` and without component, e.g. `tid`, `ctaid`, `laneid`, `envreg`. */
  readonly name: string;
  readonly component?: 'x' | 'y' | 'z';
  /** For indexed special registers such as `%envreg<N>` and `%pm<N>`. */
  readonly index?: number;
  readonly span: Span;
}

export interface IntegerOperand {
  readonly kind: 'integer';
  /** Exact value; unsigned literals like `0xFFFFFFFF` stay positive. */
  readonly value: bigint;
  readonly span: Span;
}

export interface FloatOperand {
  readonly kind: 'float';
  /** Exact IEEE bits: 32-bit for `0f...` literals, 64-bit for `0d...` and decimal literals. */
  readonly bits: bigint;
  readonly width: 32 | 64;
  readonly span: Span;
}

/** A variable, function or label name used as a value (address-of) or branch target. */
export interface SymbolOperand {
  readonly kind: 'symbol';
  readonly name: string;
  readonly span: Span;
}

/** `[base]`, `[base+off]`, `[base-off]`, `[imm]`, `[sym+off]`. */
export interface AddressOperand {
  readonly kind: 'address';
  readonly base: RegisterOperand | SymbolOperand | IntegerOperand;
  readonly offset: bigint;
  readonly span: Span;
}

/** `{a, b, c, d}`: vector operand of ld/st/mov/tex/mma; elements may be `_`. */
export interface VectorOperand {
  readonly kind: 'vector';
  readonly elements: readonly Operand[];
  /** `{r1, r2, r3, r4}|p`: the predicate destination of tex/tld4 (resident or not). */
  readonly predicate?: RegisterOperand;
  readonly span: Span;
}

/** `_` sink. */
export interface SinkOperand {
  readonly kind: 'sink';
  readonly span: Span;
}

/** `!%p`: a negated predicate used as a source operand (setp's c operand, selp is not allowed). */
export interface NegatedOperand {
  readonly kind: 'negated';
  readonly operand: RegisterOperand;
  readonly span: Span;
}

/** `%p|%q`: the two destinations of setp/set-like instructions, and `%r|%p` of shfl. */
export interface PairOperand {
  readonly kind: 'pair';
  readonly first: RegisterOperand | SinkOperand;
  readonly second: RegisterOperand | SinkOperand;
  readonly span: Span;
}

/**
 * A constant expression that is not folded by the parser (e.g. `sym+4` in an initializer).
 * `generic` is the initializer operator `generic(sym)`: the generic address of a variable.
 * `index` is an array element used as an operand, `a[i]` (args: the array symbol and the
 * index): the address of that element. `neg` also negates registers (`vmad`'s `-a`).
 */
export interface ExpressionOperand {
  readonly kind: 'expression';
  readonly op: '+' | '-' | '*' | '/' | '%' | '<<' | '>>' | '&' | '|' | '^' | 'neg' | '~' | '!' | 'generic' | 'index';
  readonly args: readonly Operand[];
  readonly span: Span;
}

export type Operand =
  | RegisterOperand
  | SpecialRegisterOperand
  | IntegerOperand
  | FloatOperand
  | SymbolOperand
  | AddressOperand
  | VectorOperand
  | SinkOperand
  | NegatedOperand
  | PairOperand
  | ExpressionOperand;

// ---------------------------------------------------------------- instruction modifiers

export type Rounding = 'rn' | 'rz' | 'rm' | 'rp' | 'rna' | 'rs';
export type IntRounding = 'rni' | 'rzi' | 'rmi' | 'rpi';
export type CompareOp =
  | 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'
  | 'lo' | 'ls' | 'hi' | 'hs'
  | 'equ' | 'neu' | 'ltu' | 'leu' | 'gtu' | 'geu' | 'num' | 'nan';
export type BoolOp = 'and' | 'or' | 'xor' | 'popc';
export type AtomicOp =
  | 'and' | 'or' | 'xor' | 'cas' | 'exch' | 'add' | 'inc' | 'dec' | 'min' | 'max';
export type MemorySemantics = 'relaxed' | 'acquire' | 'release' | 'acq_rel' | 'sc' | 'weak' | 'volatile' | 'mmio';
export type MemoryScope = 'cta' | 'cluster' | 'gpu' | 'sys';
export type CacheOperator = 'ca' | 'cg' | 'cs' | 'lu' | 'cv' | 'wb' | 'wt' | 'nc';
export type MulMode = 'lo' | 'hi' | 'wide';
export type ShflMode = 'up' | 'down' | 'bfly' | 'idx';
export type VoteMode = 'all' | 'any' | 'uni' | 'ballot';
export type PrmtMode = 'f4e' | 'b4e' | 'rc8' | 'ecl' | 'ecr' | 'rc16';
export type ShiftMode = 'clamp' | 'wrap';
export type ShapeName = string; // `m16n8k16` etc.: validated by the opcode table

/**
 * All modifiers an instruction can carry, as typed fields. The opcode table says which
 * fields each opcode accepts; the parser fills only those and rejects the rest.
 */
export interface Modifiers {
  /** The instruction type(s) in source order: one for most, two for cvt/mma-like (`cvt.f32.s32`: [f32, s32]). */
  readonly types: readonly ScalarType[];
  readonly space?: SpaceRef;
  /** For cvta and isspacep `.to`: `cvta.to.global`. */
  readonly to?: boolean;
  readonly vector?: VectorWidth;
  readonly rounding?: Rounding | IntRounding;
  readonly ftz?: boolean;
  readonly sat?: boolean;
  readonly satfinite?: boolean;
  readonly relu?: boolean;
  readonly nan?: boolean;
  readonly xorsign?: boolean;
  readonly abs?: boolean;
  readonly approx?: boolean;
  readonly full?: boolean;
  readonly cc?: boolean;
  readonly uni?: boolean;
  readonly sync?: boolean;
  readonly aligned?: boolean;
  readonly shiftamt?: boolean;
  readonly mulMode?: MulMode;
  readonly compare?: CompareOp;
  readonly boolOp?: BoolOp;
  readonly atomicOp?: AtomicOp;
  readonly semantics?: MemorySemantics;
  readonly scope?: MemoryScope;
  readonly cache?: CacheOperator;
  /** Other cache hints kept verbatim for the printer (`.L1::no_allocate`, `.L2::128B`, `.L2::cache_hint`). */
  readonly cacheHints?: readonly string[];
  readonly shfl?: ShflMode;
  readonly vote?: VoteMode;
  readonly prmt?: PrmtMode;
  readonly shift?: ShiftMode;
  /** Barrier variants: `bar.sync`, `bar.arrive`, `bar.red`, `barrier.cta.sync`. */
  readonly barrier?: 'sync' | 'arrive' | 'red';
  /** `shf.l` / `shf.r`, `bmsk.clamp`, `prmt.b32.f4e`, … any remaining single-choice mode. */
  readonly mode?: string;
  /** Matrix-instruction shape and layouts (`.m16n8k16`, `.row`, `.col`, `.x4`, `.trans`). */
  readonly shape?: ShapeName;
  readonly layouts?: readonly ('row' | 'col')[];
  readonly count?: number;
  readonly trans?: boolean;
  /** Anything the table accepts but that has no typed field yet, kept for the printer. */
  readonly extra?: readonly string[];
}

export interface Guard {
  readonly register: RegisterOperand;
  readonly negated: boolean;
  readonly span: Span;
}

export interface Instruction {
  readonly kind: 'instruction';
  readonly guard?: Guard;
  /** The base opcode (`add`, `ld`, `cvt`, `bar`, `barrier`, `mma`, …): a key of the opcode table. */
  readonly opcode: string;
  readonly modifiers: Modifiers;
  readonly operands: readonly Operand[];
  readonly span: Span;
  /** Span of the opcode with its modifiers, for diagnostics that name the instruction. */
  readonly opcodeSpan: Span;
}

// ---------------------------------------------------------------- declarations

export type Initializer =
  | { readonly kind: 'value'; readonly value: Operand; readonly span: Span }
  | { readonly kind: 'aggregate'; readonly elements: readonly Initializer[]; readonly span: Span };

/** `.reg .b32 %r<42>;`, `.shared .align 4 .b8 smem[1024];`, `.global .f32 g = 1.0;`, `.param .u64 p`. */
export interface VariableDeclaration {
  readonly kind: 'variable';
  readonly space: SpaceRef;
  readonly linkage?: 'visible' | 'extern' | 'weak' | 'common';
  readonly align?: number;
  readonly type: ScalarType;
  readonly vector?: VectorWidth;
  readonly name: string;
  /** `%r<42>` declares `%r0` .. `%r41`. */
  readonly parameterizedCount?: number;
  /** Array dimensions; `null` for an unsized `[]` (extern shared). */
  readonly arrayDims?: readonly (number | null)[];
  readonly initializer?: Initializer;
  /**
   * `.texref`, `.samplerref`, `.surfref`: an opaque handle. `type` is then `b64` (what the
   * handle is when passed around or used indirectly); the printer writes the opaque type.
   */
  readonly opaque?: 'texref' | 'samplerref' | 'surfref';
  /** `.samplerref s = { addr_mode_0 = clamp_to_border, filter_mode = nearest };` */
  readonly fields?: readonly { readonly name: string; readonly value: string }[];
  /** `.ptr.global.align 16` on kernel parameters. */
  readonly pointer?: { readonly space?: StateSpace; readonly align?: number };
  readonly span: Span;
}

export interface Label {
  readonly kind: 'label';
  readonly name: string;
  readonly span: Span;
}

/** `{ ... }`: a nested scope inside a function body. */
export interface ScopeBlock {
  readonly kind: 'scope';
  readonly body: readonly Statement[];
  readonly span: Span;
}

/** `.pragma "nounroll";`, `.loc 1 10 3`, `.section` bodies and other kept-but-inert directives. */
export interface DirectiveStatement {
  readonly kind: 'directive';
  readonly name: string;
  readonly args: readonly Operand[];
  readonly text?: string;
  readonly span: Span;
}

/** `.branchtargets L1, L2;` and `.calltargets f1, f2;` lists, named by a label. */
export interface TargetList {
  readonly kind: 'targets';
  readonly label: string;
  readonly directive: 'branchtargets' | 'calltargets';
  readonly targets: readonly string[];
  readonly span: Span;
}

/** `proto: .callprototype (.param .b32 _) _ (.param .b32 _);` */
export interface CallPrototype {
  readonly kind: 'callprototype';
  readonly label: string;
  readonly returns: readonly VariableDeclaration[];
  readonly params: readonly VariableDeclaration[];
  readonly span: Span;
}

export type Statement =
  | Instruction
  | Label
  | VariableDeclaration
  | ScopeBlock
  | DirectiveStatement
  | TargetList
  | CallPrototype;

export interface PerformanceDirectives {
  readonly maxntid?: readonly number[];
  readonly reqntid?: readonly number[];
  readonly minnctapersm?: number;
  readonly maxnctapersm?: number;
  readonly maxnreg?: number;
  readonly maxclusterrank?: number;
  readonly reqnctapercluster?: readonly number[];
  readonly explicitcluster?: boolean;
  readonly noreturn?: boolean;
  readonly pragmas?: readonly string[];
}

/** `.entry` (a kernel) or `.func` (a device function). */
export interface FunctionDeclaration {
  readonly kind: 'function';
  readonly isEntry: boolean;
  readonly linkage?: 'visible' | 'extern' | 'weak';
  readonly name: string;
  /** `.func (.param .b32 ret) f (...)`: the return parameters. Empty for entries. */
  readonly returns: readonly VariableDeclaration[];
  readonly params: readonly VariableDeclaration[];
  readonly directives: PerformanceDirectives;
  /** `undefined` for a prototype (`.extern .func f(...);`). */
  readonly body?: readonly Statement[];
  readonly span: Span;
  readonly nameSpan: Span;
}

export interface FileDirective {
  readonly kind: 'file';
  readonly index: number;
  readonly path: string;
  readonly span: Span;
}

export type ModuleItem = FunctionDeclaration | VariableDeclaration | FileDirective | DirectiveStatement;

export interface Module {
  readonly kind: 'module';
  readonly version: { readonly major: number; readonly minor: number };
  /** `.target sm_80, texmode_independent` → ['sm_80', 'texmode_independent']. */
  readonly target: readonly string[];
  readonly addressSize: 32 | 64;
  readonly items: readonly ModuleItem[];
  readonly span: Span;
}
