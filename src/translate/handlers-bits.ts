/**
 * Bit-field, funnel-shift and byte instructions (ISA "Integer Arithmetic": bfind bfe bfi fns
 * szext bmsk dp4a dp2a; "Logic and Shift": shf lop3; prmt). Each becomes one `ibits`
 * instruction carrying its modifiers; the emitter owns the exact semantics.
 */
import type * as Ast from '../ptx/ast.js';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import type { ValueId } from '../ir/entities.js';
import type { IntBitsFn } from '../ir/inst.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { operand, typeOf } from './handler.js';
import { irTypeOf, isSigned } from './ptx-types.js';
import { prmtMode } from './vocabulary.js';

/** Emits `ibits` over operands 1.. read as `types` (the first may be the instruction type). */
function emitBits(cx: BuildContext, inst: Ast.Instruction, fn: IntBitsFn, types: readonly T.IrType[], result: T.IrType): ValueId {
  const args = types.map((t, k) => cx.read(operand(inst, k + 1), t, k === 0 && isSigned(typeOf(inst))));
  return cx.emit({ op: 'ibits', type: result, fn, args }, inst.span);
}

function simple(make: (inst: Ast.Instruction) => IntBitsFn, operandTypes: (t: T.IrType) => T.IrType[], resultOf: (t: T.IrType) => T.IrType): Handler {
  return (cx, inst) => {
    const t = irTypeOf(typeOf(inst));
    cx.write(operand(inst, 0), emitBits(cx, inst, make(inst), operandTypes(t), resultOf(t)), isSigned(typeOf(inst)));
  };
}

const i32 = (): T.IrType => T.i32;
const same = (t: T.IrType): T.IrType => t;

/** lop3's LUT must be an immediate: its bits select the operation. */
function lutOf(cx: BuildContext, inst: Ast.Instruction): number {
  const op = operand(inst, 4);
  if (op.kind === 'integer') return Number(op.value & 0xffn);
  cx.fail(DiagnosticCode.ParseBadOperand, 'lop3: the lookup table must be an integer constant', op.span, T.i32);
  return 0;
}

/** `lop3.b32 d, a, b, c, lut` and `lop3.{and,or}.b32 d|p, a, b, c, lut, q` (p = (d != 0) op q). */
const lop3: Handler = (cx, inst) => {
  const s = inst.span;
  const fn: IntBitsFn = { kind: 'lop3', lut: lutOf(cx, inst) };
  const args = [1, 2, 3].map((k) => cx.read(operand(inst, k), T.i32));
  const d = cx.emit({ op: 'ibits', type: T.i32, fn, args }, s);
  const dst = operand(inst, 0);
  if (dst.kind !== 'pair') { cx.write(dst, d); return; }
  const nonzero = cx.emit({ op: 'icmp', type: T.pred, cond: 'ne', a: d, b: cx.constant(T.i32, 0n, s) }, s);
  const q = cx.read(operand(inst, 5), T.pred);
  const p = cx.emit({ op: 'ibinary', kind: inst.modifiers.boolOp === 'or' ? 'or' : 'and', type: T.pred, a: nonzero, b: q }, s);
  cx.write(dst.first, d);
  cx.write(dst.second, p);
};

const dot = (hiOf: (inst: Ast.Instruction) => boolean | null): Handler => (cx, inst) => {
  const aSigned = isSigned(typeOf(inst, 0));
  const bSigned = isSigned(typeOf(inst, 1));
  const hi = hiOf(inst);
  const fn: IntBitsFn = hi === null ? { kind: 'dp4a', aSigned, bSigned } : { kind: 'dp2a', hi, aSigned, bSigned };
  const args = [1, 2, 3].map((k) => cx.read(operand(inst, k), T.i32));
  cx.write(operand(inst, 0), cx.emit({ op: 'ibits', type: T.i32, fn, args }, inst.span));
};

export const BITS_HANDLERS: Readonly<Record<string, Handler>> = {
  bfind: simple((i) => ({ kind: 'bfind', signed: isSigned(typeOf(i)), shiftamt: i.modifiers.shiftamt === true }), (t) => [t], i32),
  bfe: simple((i) => ({ kind: 'bfe', signed: isSigned(typeOf(i)) }), (t) => [t, T.i32, T.i32], same),
  bfi: simple(() => ({ kind: 'bfi' }), (t) => [t, t, T.i32, T.i32], same),
  fns: simple(() => ({ kind: 'fns' }), () => [T.i32, T.i32, T.i32], i32),
  szext: simple((i) => ({ kind: 'szext', signed: isSigned(typeOf(i)), clamp: i.modifiers.shift === 'clamp' }), () => [T.i32, T.i32], i32),
  bmsk: simple((i) => ({ kind: 'bmsk', clamp: i.modifiers.shift === 'clamp' }), () => [T.i32, T.i32], i32),
  shf: simple((i) => ({ kind: 'shf', left: i.modifiers.mode === 'l', clamp: i.modifiers.shift === 'clamp' }), () => [T.i32, T.i32, T.i32], i32),
  prmt: simple((i) => ({ kind: 'prmt', mode: i.modifiers.prmt ? prmtMode(i.modifiers.prmt) : null }), () => [T.i32, T.i32, T.i32], i32),
  lop3,
  dp4a: dot(() => null),
  dp2a: dot((i) => i.modifiers.mode === 'hi'),
};
