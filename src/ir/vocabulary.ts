/**
 * The IR's own words for the modifiers its instructions carry. They are spelled as PTX spells
 * them (names are PTX's own), but they belong to the IR: the frontend's AST types are never
 * imported here, and src/translate/vocabulary.ts maps each PTX spelling onto these, so a
 * change to the parser's modifiers cannot silently change what the passes and the emitter see
 * (naga's `ir` knows no frontend).
 */

/** `atom`/`red`/`redux` operations. */
export type AtomicOp = 'and' | 'or' | 'xor' | 'cas' | 'exch' | 'add' | 'inc' | 'dec' | 'min' | 'max';

/** Float compares: ordered ones are false on NaN; `u`-suffixed ones are true on NaN (PTX setp semantics). */
export type FloatCompare =
  | 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'
  | 'equ' | 'neu' | 'ltu' | 'leu' | 'gtu' | 'geu' | 'num' | 'nan';

/** Memory ordering of an atomic (PTX memory consistency model). */
export type MemorySemantics = 'relaxed' | 'acquire' | 'release' | 'acq_rel' | 'sc' | 'weak' | 'volatile' | 'mmio';

/** The set of threads a memory operation or fence orders against. */
export type MemoryScope = 'cta' | 'cluster' | 'gpu' | 'sys';

/** `shfl` source-lane modes. */
export type ShflMode = 'up' | 'down' | 'bfly' | 'idx';

/** `vote` modes. */
export type VoteMode = 'all' | 'any' | 'uni' | 'ballot';

/** `prmt` byte-selection modes (null on the instruction: the generic selector form). */
export type PrmtMode = 'f4e' | 'b4e' | 'rc8' | 'ecl' | 'ecr' | 'rc16';

/**
 * A kernel parameter's declared element type, kept so the runtime can pack launch arguments
 * as the PTX `.param` space lays them out (lowering/layout.ts `ParamLayout.type`).
 */
export type ParamType =
  | 'pred'
  | 'b8' | 'b16' | 'b32' | 'b64' | 'b128'
  | 'u8' | 'u16' | 'u32' | 'u64'
  | 's8' | 's16' | 's32' | 's64'
  | 's16x2' | 'u16x2'
  | 'f16' | 'f16x2' | 'bf16' | 'bf16x2' | 'tf32' | 'f32' | 'f64'
  | 'e4m3' | 'e5m2' | 'e4m3x2' | 'e5m2x2' | 'e2m1x2' | 'e2m3x2' | 'e3m2x2' | 'ue8m0x2'
  | 'e4m3x4' | 'e5m2x4' | 'e2m3x4' | 'e3m2x4' | 'e2m1x4'
  | 's4' | 'u4' | 'b1' | 's2' | 'u2';
