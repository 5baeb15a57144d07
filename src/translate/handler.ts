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

/**
 * The instruction as it is written in the source (`mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`),
 * for diagnostics; without the source text, its opcode and modifiers printed back.
 */
export function instructionName(inst: Ast.Instruction, text?: string): string {
  const spelled = text?.slice(inst.opcodeSpan.start, inst.opcodeSpan.end);
  if (spelled && spelled.startsWith(inst.opcode)) return spelled;
  return inst.opcode + printModifiers(inst.opcode, inst.modifiers);
}

/** `instructionName` of an instruction being translated in `cx`. */
export function writtenName(cx: BuildContext, inst: Ast.Instruction): string {
  return instructionName(inst, cx.symbols.text);
}

/**
 * L001 at the instruction, as for an opcode with no handler: `` instruction `name` is not supported yet``,
 * with what is (`note`) in parentheses. For forms of a handled opcode that are not implemented.
 */
export function notSupported(cx: BuildContext, inst: Ast.Instruction, note?: string): void {
  const message = `instruction \`${writtenName(cx, inst)}\` is not supported yet${note ? ` (${note})` : ''}`;
  cx.diagnostics.push({ code: DiagnosticCode.LowerUnsupportedInstruction, severity: 'error', span: inst.opcodeSpan, message });
}

/** L002 at the instruction, naming it as written: `` `name` why`` (a supported form used in a way that is not). */
export function unsupported(cx: BuildContext, inst: Ast.Instruction, why: string): void {
  cx.diagnostics.push({ code: DiagnosticCode.LowerUnsupportedFeature, severity: 'error', span: inst.opcodeSpan, message: `\`${writtenName(cx, inst)}\` ${why}` });
}
