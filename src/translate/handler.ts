/**
 * The shape of an opcode handler and small accessors shared by all handler files. Handlers
 * live in a table keyed by PTX opcode (TypeGPU `Transpilers`), never in one big switch.
 */
import type * as Ast from '../ptx/ast.js';
import { printModifiers } from '../ptx/printer.js';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import type { BuildContext } from './context.js';

export type Handler = (cx: BuildContext, inst: Ast.Instruction) => void;

const MISSING: Ast.SinkOperand = { kind: 'sink', span: { start: 0, end: 0 } };

/** The i-th operand; a missing one reads as `_` (the parser has checked operand counts). */
export function operand(inst: Ast.Instruction, i: number): Ast.Operand {
  return inst.operands[i] ?? { ...MISSING, span: inst.span };
}

/** The instruction's (first) type, e.g. `s32` of `add.s32`. */
export function typeOf(inst: Ast.Instruction, i = 0): Ast.ScalarType {
  return inst.modifiers.types[i] ?? 'b32';
}

/** The instruction as written (`mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`), for diagnostics. */
export function writtenName(inst: Ast.Instruction): string {
  return inst.opcode + printModifiers(inst.opcode, inst.modifiers);
}

/** L002 at the instruction, naming it as written: `` `name` why``. */
export function unsupported(cx: BuildContext, inst: Ast.Instruction, why: string): void {
  cx.diagnostics.push({ code: DiagnosticCode.LowerUnsupportedFeature, severity: 'error', span: inst.opcodeSpan, message: `\`${writtenName(inst)}\` ${why}` });
}
