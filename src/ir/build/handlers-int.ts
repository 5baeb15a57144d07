/**
 * Integer and logic instructions (ISA "Integer Arithmetic", "Logic and Shift"). Each
 * handler reads operands in the instruction's type and writes the destination, leaving
 * exact wrap-around, shift clamping and division corner cases to the emitter.
 */
import type * as Ast from '../../ptx/ast.js';
import type { ValueId } from '../entities.js';
import type { IntBinaryOp, IntUnaryOp } from '../inst.js';
import * as T from '../types.js';
import type { BuildContext } from './context.js';
import { irTypeOf, isSigned } from './ptx-types.js';
import type { Handler } from './handler.js';
import { operand, typeOf } from './handler.js';

function binary(kind: (signed: boolean) => IntBinaryOp): Handler {
  return (cx, inst) => {
    const pt = typeOf(inst);
    const t = irTypeOf(pt);
    const signed = isSigned(pt);
    const a = cx.read(operand(inst, 1), t, signed);
    const b = cx.read(operand(inst, 2), t, signed);
    let r = cx.emit({ op: 'ibinary', kind: kind(signed), type: t, a, b }, inst.span);
    if (inst.modifiers.sat && pt === 's32') r = saturateAddSub(cx, inst, a, b, r);
    cx.write(operand(inst, 0), r, signed);
  };
}

/** `add.sat.s32` / `sub.sat.s32`: clamp on signed overflow, detected from the operand and result signs. */
function saturateAddSub(cx: BuildContext, inst: Ast.Instruction, a: ValueId, b: ValueId, r: ValueId): ValueId {
  const s = inst.span;
  const zero = cx.constant(T.i32, 0n, s);
  const bEff = inst.opcode === 'sub' ? cx.emit({ op: 'iunary', kind: 'not', type: T.i32, value: b }, s) : b;
  // overflow iff a and bEff have the same sign and r's sign differs
  const x1 = cx.emit({ op: 'ibinary', kind: 'xor', type: T.i32, a: r, b: a }, s);
  const x2 = cx.emit({ op: 'ibinary', kind: 'xor', type: T.i32, a: r, b: bEff }, s);
  const both = cx.emit({ op: 'ibinary', kind: 'and', type: T.i32, a: x1, b: x2 }, s);
  const overflow = cx.emit({ op: 'icmp', type: T.pred, cond: 'slt', a: both, b: zero }, s);
  const aNeg = cx.emit({ op: 'icmp', type: T.pred, cond: 'slt', a, b: zero }, s);
  const clamp = cx.emit({ op: 'select', type: T.i32, cond: aNeg, a: cx.constant(T.i32, 0x80000000n, s), b: cx.constant(T.i32, 0x7fffffffn, s) }, s);
  return cx.emit({ op: 'select', type: T.i32, cond: overflow, a: clamp, b: r }, s);
}

function mulLike(withAddend: boolean): Handler {
  return (cx, inst) => {
    const pt = typeOf(inst);
    const t = irTypeOf(pt) as T.IntType;
    const signed = isSigned(pt);
    const a = cx.read(operand(inst, 1), t, signed);
    const b = cx.read(operand(inst, 2), t, signed);
    const mode = inst.modifiers.mulMode ?? 'lo';
    let r: ValueId;
    let rt: T.IntType = t;
    if (mode === 'wide') {
      rt = T.int((t.bits * 2) as T.IntBits);
      r = cx.emit({ op: 'mul_wide', type: rt, signed, a, b }, inst.span);
    } else {
      const kind: IntBinaryOp = mode === 'hi' ? (signed ? 'mulhi_s' : 'mulhi_u') : 'mul';
      r = cx.emit({ op: 'ibinary', kind, type: t, a, b }, inst.span);
    }
    if (withAddend) {
      const c = cx.read(operand(inst, 3), rt, signed);
      r = cx.emit({ op: 'ibinary', kind: 'add', type: rt, a: r, b: c }, inst.span);
    }
    cx.write(operand(inst, 0), r, signed);
  };
}

function unary(kind: IntUnaryOp, resultIs32 = false): Handler {
  return (cx, inst) => {
    const pt = typeOf(inst);
    const t = irTypeOf(pt);
    const v = cx.read(operand(inst, 1), t, isSigned(pt));
    const r = cx.emit({ op: 'iunary', kind, type: resultIs32 ? T.i32 : t, value: v }, inst.span);
    cx.write(operand(inst, 0), r, isSigned(pt));
  };
}

const shift: Handler = (cx, inst) => {
  const pt = typeOf(inst);
  const t = irTypeOf(pt);
  const signed = isSigned(pt);
  const a = cx.read(operand(inst, 1), t, signed);
  const b = cx.read(operand(inst, 2), T.i32);
  const kind: IntBinaryOp = inst.opcode === 'shl' ? 'shl' : signed ? 'shr_s' : 'shr_u';
  cx.write(operand(inst, 0), cx.emit({ op: 'ibinary', kind, type: t, a, b }, inst.span), signed);
};

const cnot: Handler = (cx, inst) => {
  const t = irTypeOf(typeOf(inst));
  const a = cx.read(operand(inst, 1), t);
  const isZero = cx.emit({ op: 'icmp', type: T.pred, cond: 'eq', a, b: cx.constant(t, 0n, inst.span) }, inst.span);
  cx.write(operand(inst, 0), cx.emit({ op: 'select', type: t, cond: isZero, a: cx.constant(t, 1n, inst.span), b: cx.constant(t, 0n, inst.span) }, inst.span));
};

export const INT_HANDLERS: Readonly<Record<string, Handler>> = {
  add: binary(() => 'add'),
  sub: binary(() => 'sub'),
  mul: mulLike(false),
  mad: mulLike(true),
  div: binary((s) => (s ? 'div_s' : 'div_u')),
  rem: binary((s) => (s ? 'rem_s' : 'rem_u')),
  min: binary((s) => (s ? 'min_s' : 'min_u')),
  max: binary((s) => (s ? 'max_s' : 'max_u')),
  and: binary(() => 'and'),
  or: binary(() => 'or'),
  xor: binary(() => 'xor'),
  not: unary('not'),
  neg: unary('neg'),
  abs: unary('abs'),
  popc: unary('popc', true),
  clz: unary('clz', true),
  brev: unary('brev'),
  shl: shift,
  shr: shift,
  cnot,
};
