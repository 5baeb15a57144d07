/**
 * Which `mma` an instruction is (ISA "Multiply-and-Accumulate Instruction: mma", its syntax
 * blocks and "Specific shapes have type restrictions"), or an L001 naming it as written and
 * saying what is supported. The accepted forms:
 *  - .f16: m8n8k4 with any .row/.col layouts, D and C .f16 or .f32 (C .f32 needs D .f32), and
 *    m16n8k8/m16n8k16 .row.col with D and C both .f16 or both .f32;
 *  - .bf16 m16n8k8/m16n8k16, .tf32 m16n8k4/m16n8k8, .f32 accumulators;
 *  - .e4m3/.e5m2 (A and B either) m16n8k16/m16n8k32, D and C both .f32 or both .f16;
 *  - .s8/.u8 m8n8k16/m16n8k16/m16n8k32 and .s4/.u4 m8n8k32/m16n8k32/m16n8k64 (A and B of either
 *    signedness), .s32 accumulators, with or without .satfinite;
 *  - .b1 m8n8k128/m16n8k128/m16n8k256 with .and.popc or .xor.popc, .s32 accumulators;
 *  - .f64 m8n8k4.
 * Not (yet): sparse `mma.sp` (A stored 2:4 with its metadata operand), the sm_100a/sm_120a
 * `.kind::` and block-scaled forms, .f64 m16n8k*.
 */
import type * as Ast from '../ptx/ast.js';
import type { BuildContext } from './context.js';
import { notSupported } from './handler.js';
import { INPUT_BITS, mmaShape, type MmaInput } from './matrix-fragments.js';
import { quadOperands, type MmaOperands } from './mma-operands.js';
import { quadPairOperands, type Layout } from './mma-quad-pair.js';

export type Accumulator = 'f16' | 'f32' | 'f64' | 's32';

export interface MmaForm {
  readonly a: MmaInput;
  readonly b: MmaInput;
  readonly d: Accumulator;
  readonly c: Accumulator;
  readonly satfinite: boolean;
  /** .b1 only: the bit operation before popc. */
  readonly bitOp: 'and' | 'xor' | null;
  readonly operands: MmaOperands;
}

/** Types whose A and B may differ (each of the pair either). */
const FAMILY: Readonly<Partial<Record<MmaInput, string>>> = { s8: 'i8', u8: 'i8', s4: 'i4', u4: 'i4', e4m3: 'f8', e5m2: 'f8' };
const isInput = (t: string): t is MmaInput => t in INPUT_BITS;
export const isIntegerInput = (t: MmaInput): boolean => FAMILY[t] === 'i8' || FAMILY[t] === 'i4' || t === 'b1';

/** The accumulator types (D, C) an input type allows at a shape. */
function accumulatorsOk(a: MmaInput, shape: string, d: string, c: string): boolean {
  if (a === 'f16' && shape === 'm8n8k4') return (d === 'f16' || d === 'f32') && (c === 'f16' || (c === 'f32' && d === 'f32'));
  if (a === 'f16' || FAMILY[a] === 'f8') return (d === 'f16' || d === 'f32') && c === d;
  if (a === 'f64') return d === 'f64' && c === 'f64';
  if (isIntegerInput(a)) return d === 's32' && c === 's32';
  return d === 'f32' && c === 'f32';
}

function unsupportedModifier(m: Ast.Modifiers, a: MmaInput): string | undefined {
  const extra = m.extra ?? [];
  if (extra.length > 0) return 'the `.kind::` and block-scaled forms are not';
  if (a === 'b1' && (!m.boolOp || m.mode !== 'popc')) return '.b1 mma needs `.and.popc` or `.xor.popc`';
  if (a !== 'b1' && (m.boolOp || m.mode)) return '`.and.popc`/`.xor.popc` are .b1 only';
  if (m.satfinite && FAMILY[a] !== 'i8' && FAMILY[a] !== 'i4') return '`.satfinite` is .s8/.u8/.s4/.u4 only';
  if (m.rounding !== undefined && a !== 'f64') return 'a rounding modifier is .f64 only';
  return undefined;
}

function operandsOf(shape: string, a: MmaInput, layouts: readonly Layout[], c: Accumulator, d: Accumulator): MmaOperands | string {
  if (shape === 'm8n8k4' && a === 'f16') {
    const [al, bl] = layouts;
    if (layouts.length !== 2 || !al || !bl) return 'm8n8k4 .f16 needs an A and a B layout (`.row`/`.col`)';
    return quadPairOperands(al, bl, c as 'f16' | 'f32', d as 'f16' | 'f32');
  }
  if (layouts.join('.') !== 'row.col') return `shape .${shape} with .${a} inputs is \`.row.col\` only`;
  const s = mmaShape(shape, a);
  return s ? quadOperands(s, { c: c === 'f16', d: d === 'f16' }) : `shape .${shape} with .${a} inputs is not`;
}

/** The form of `inst`, or undefined after an L001 saying what is supported. */
export function mmaForm(cx: BuildContext, inst: Ast.Instruction): MmaForm | undefined {
  const m = inst.modifiers;
  const [d, a, b, c] = m.types;
  const fail = (note: string): undefined => { notSupported(cx, inst, note); return undefined; };
  if ((m.extra ?? []).some((e) => e.startsWith('sp'))) return fail('sparse `mma.sp` may come later');
  if (!m.sync || !m.aligned) return fail('mma needs `.sync.aligned`');
  if (m.types.length !== 4 || !a || !b || !d || !c || !isInput(a) || !isInput(b)) {
    return fail('mma inputs are .f16, .bf16, .tf32, .e4m3, .e5m2, .f64, .s8, .u8, .s4, .u4 or .b1');
  }
  if (a !== b && (FAMILY[a] === undefined || FAMILY[a] !== FAMILY[b])) return fail('A and B of different types are .s8/.u8, .s4/.u4 or .e4m3/.e5m2 pairs only');
  const bad = unsupportedModifier(m, a);
  if (bad) return fail(bad);
  const shape = m.shape ?? '?';
  if (!accumulatorsOk(a, shape, d, c)) return fail(`.${a} inputs with .${d} D and .${c} C are not`);
  const operands = operandsOf(shape, a, m.layouts ?? [], c as Accumulator, d as Accumulator);
  if (typeof operands === 'string') return fail(operands);
  return { a, b, d: d as Accumulator, c: c as Accumulator, satfinite: !!m.satfinite, bitOp: m.boolOp === 'and' || m.boolOp === 'xor' ? m.boolOp : null, operands };
}
