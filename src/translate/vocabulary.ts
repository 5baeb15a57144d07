/**
 * PTX modifier spellings (src/ptx/ast.ts) onto the IR's own vocabulary (src/ir/vocabulary.ts).
 * The tables are total over the PTX side, so a modifier added to the parser fails to
 * type-check here until someone decides what the IR makes of it.
 */
import type * as Ast from '../ptx/ast.js';
import type * as Ir from '../ir/vocabulary.js';

const ATOMIC_OPS: { readonly [K in Ast.AtomicOp]: Ir.AtomicOp } = {
  and: 'and', or: 'or', xor: 'xor', cas: 'cas', exch: 'exch', add: 'add', inc: 'inc', dec: 'dec', min: 'min', max: 'max',
};

/** Unsigned integer compares (lo/ls/hi/hs) have no float meaning: undefined. */
const FLOAT_COMPARES: { readonly [K in Ast.CompareOp]: Ir.FloatCompare | undefined } = {
  eq: 'eq', ne: 'ne', lt: 'lt', le: 'le', gt: 'gt', ge: 'ge',
  lo: undefined, ls: undefined, hi: undefined, hs: undefined,
  equ: 'equ', neu: 'neu', ltu: 'ltu', leu: 'leu', gtu: 'gtu', geu: 'geu', num: 'num', nan: 'nan',
};

const SEMANTICS: { readonly [K in Ast.MemorySemantics]: Ir.MemorySemantics } = {
  relaxed: 'relaxed', acquire: 'acquire', release: 'release', acq_rel: 'acq_rel', sc: 'sc', weak: 'weak', volatile: 'volatile', mmio: 'mmio',
};

const SCOPES: { readonly [K in Ast.MemoryScope]: Ir.MemoryScope } = { cta: 'cta', cluster: 'cluster', gpu: 'gpu', sys: 'sys' };

const SHFL_MODES: { readonly [K in Ast.ShflMode]: Ir.ShflMode } = { up: 'up', down: 'down', bfly: 'bfly', idx: 'idx' };

const VOTE_MODES: { readonly [K in Ast.VoteMode]: Ir.VoteMode } = { all: 'all', any: 'any', uni: 'uni', ballot: 'ballot' };

const PRMT_MODES: { readonly [K in Ast.PrmtMode]: Ir.PrmtMode } = { f4e: 'f4e', b4e: 'b4e', rc8: 'rc8', ecl: 'ecl', ecr: 'ecr', rc16: 'rc16' };

const PARAM_TYPES: { readonly [K in Ast.ScalarType]: Ir.ParamType } = {
  pred: 'pred',
  b8: 'b8', b16: 'b16', b32: 'b32', b64: 'b64', b128: 'b128',
  u8: 'u8', u16: 'u16', u32: 'u32', u64: 'u64',
  s8: 's8', s16: 's16', s32: 's32', s64: 's64',
  s16x2: 's16x2', u16x2: 'u16x2',
  f16: 'f16', f16x2: 'f16x2', bf16: 'bf16', bf16x2: 'bf16x2', tf32: 'tf32', f32: 'f32', f64: 'f64',
  e4m3: 'e4m3', e5m2: 'e5m2', e4m3x2: 'e4m3x2', e5m2x2: 'e5m2x2', e2m1x2: 'e2m1x2', e2m3x2: 'e2m3x2', e3m2x2: 'e3m2x2', ue8m0x2: 'ue8m0x2',
  e4m3x4: 'e4m3x4', e5m2x4: 'e5m2x4', e2m3x4: 'e2m3x4', e3m2x4: 'e3m2x4', e2m1x4: 'e2m1x4',
  s4: 's4', u4: 'u4', b1: 'b1', s2: 's2', u2: 'u2',
};

export const atomicOp = (op: Ast.AtomicOp): Ir.AtomicOp => ATOMIC_OPS[op];
export const floatCompare = (op: Ast.CompareOp): Ir.FloatCompare | undefined => FLOAT_COMPARES[op];
export const memorySemantics = (s: Ast.MemorySemantics): Ir.MemorySemantics => SEMANTICS[s];
export const memoryScope = (s: Ast.MemoryScope): Ir.MemoryScope => SCOPES[s];
export const shflMode = (m: Ast.ShflMode): Ir.ShflMode => SHFL_MODES[m];
export const voteMode = (m: Ast.VoteMode): Ir.VoteMode => VOTE_MODES[m];
export const prmtMode = (m: Ast.PrmtMode): Ir.PrmtMode => PRMT_MODES[m];
export const paramType = (t: Ast.ScalarType): Ir.ParamType => PARAM_TYPES[t];
