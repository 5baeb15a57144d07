/**
 * Integer and logic instructions (ISA "Integer Arithmetic", "Logic and Shift"). Each
 * handler reads operands in the instruction's type and writes the destination, leaving
 * exact wrap-around, shift clamping and division corner cases to the emitter.
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import type { IntBinaryOp, IntUnaryOp } from '../ir/inst.js';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import { BITS_HANDLERS } from './handlers-bits.js';
import { CARRY_HANDLERS, withCarry } from './handlers-carry.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import { irTypeOf, isSigned } from './ptx-types.js';
import type { Handler } from './handler.js';
import { operand, typeOf } from './handler.js';

function binary(kind: (signed: boolean) => IntBinaryOp): Handler {
  return (cx, inst) => {
    const pt = typeOf(inst);
    if (!integerFormOk(cx, inst, pt)) return;
    if (isPacked(pt)) {
      halfLanes(cx, inst, kind(pt === 's16x2'));
      return;
    }
    const t = irTypeOf(pt);
    const signed = isSigned(pt);
    const a = cx.read(operand(inst, 1), t, signed);
    const b = cx.read(operand(inst, 2), t, signed);
    let r = cx.emit({ op: 'ibinary', kind: kind(signed), type: t, a, b }, inst.span);
    if (inst.modifiers.sat && pt === 's32') r = saturateAddSub(cx, inst, a, b, r);
    if (inst.modifiers.relu) r = cx.emit({ op: 'ibinary', kind: 'max_s', type: t, a: r, b: cx.constant(t, 0n, inst.span) }, inst.span);
    cx.write(operand(inst, 0), r, signed);
  };
}

const isPacked = (pt: Ast.ScalarType): boolean => pt === 's16x2' || pt === 'u16x2';

/**
 * What ptxas 13 refuses of the integer forms the opcode rows (shared with the float forms) let
 * through: a third source (integer min/max take two; only `.f32` has three-input forms), `.relu`
 * outside min/max `.s32`/`.s16x2`, and `.sat`/`.cc` or immediates on packed lanes.
 */
function integerFormOk(cx: BuildContext, inst: Ast.Instruction, pt: Ast.ScalarType): boolean {
  const name = `${inst.opcode}.${pt}`;
  const minmax = inst.opcode === 'min' || inst.opcode === 'max';
  let why: string | null = null;
  if (inst.operands.length !== 3) why = `${name} takes two source operands (three-input min/max is defined for .f32 only)`;
  else if (inst.modifiers.relu && !(minmax && (pt === 's32' || pt === 's16x2'))) why = `${name}: .relu is defined for min/max .s32 and .s16x2 only`;
  else if (isPacked(pt) && (inst.modifiers.sat || inst.modifiers.cc)) why = `${name} takes neither .sat nor .cc`;
  else if (isPacked(pt) && inst.operands.some((o) => o.kind !== 'register' && o.kind !== 'sink')) why = `${name} takes registers only (no immediate operands)`;
  if (!why) return true;
  cx.write(operand(inst, 0), cx.fail(DiagnosticCode.SemaTypeMismatch, why, inst.span, T.i32));
  return false;
}

/**
 * `.s16x2`/`.u16x2`: the operation on each 16-bit half independently (signed or unsigned
 * lanes), `.relu` clamping each lane at 0; the halves are packed back, lane 0 in the low bits.
 */
function halfLanes(cx: BuildContext, inst: Ast.Instruction, kind: IntBinaryOp): void {
  const s = inst.span;
  const lanes = [1, 2].map((k) => {
    const vec = cx.emit({ op: 'bitcast', type: T.vector(T.i16, 2), value: cx.read(operand(inst, k), T.i32) }, s);
    return [0, 1].map((index) => cx.emit({ op: 'extract', type: T.i16, value: vec, index }, s));
  }) as [ValueId[], ValueId[]];
  const parts = [0, 1].map((l) => {
    const r = cx.emit({ op: 'ibinary', kind, type: T.i16, a: lanes[0][l] as ValueId, b: lanes[1][l] as ValueId }, s);
    return inst.modifiers.relu ? cx.emit({ op: 'ibinary', kind: 'max_s', type: T.i16, a: r, b: cx.constant(T.i16, 0n, s) }, s) : r;
  });
  cx.write(operand(inst, 0), cx.emit({ op: 'bitcast', type: T.i32, value: cx.emit({ op: 'compose', type: T.vector(T.i16, 2), parts }, s) }, s));
}

/** `add.sat.s32` / `sub.sat.s32` / `mad.hi.sat.s32`: clamp on signed overflow, detected from the operand and result signs. */
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
    if (mode === 'wide' && t.bits > 32) {
      cx.fail(DiagnosticCode.SemaTypeMismatch, `${inst.opcode}.wide is defined for 16- and 32-bit types only`, inst.span, t);
      return;
    }
    if (mode === 'wide') {
      rt = T.int((t.bits * 2) as T.IntBits);
      r = cx.emit({ op: 'mul_wide', type: rt, signed, a, b }, inst.span);
    } else {
      const kind: IntBinaryOp = mode === 'hi' ? (signed ? 'mulhi_s' : 'mulhi_u') : 'mul';
      r = cx.emit({ op: 'ibinary', kind, type: t, a, b }, inst.span);
    }
    if (withAddend) {
      const c = cx.read(operand(inst, 3), rt, signed);
      const sum = cx.emit({ op: 'ibinary', kind: 'add', type: rt, a: r, b: c }, inst.span);
      r = inst.modifiers.sat && pt === 's32' && mode === 'hi' ? saturateAddSub(cx, inst, r, c, sum) : sum;
    }
    cx.write(operand(inst, 0), r, signed);
  };
}

/** mul24/mad24: the 48-bit product of the low 24 bits (sign-extended for .s32); .hi is bits 47..16. */
function mul24(withAddend: boolean): Handler {
  return (cx, inst) => {
    const s = inst.span;
    const signed = isSigned(typeOf(inst));
    const low24 = (v: ValueId): ValueId => signed
      ? cx.emit({ op: 'ibinary', kind: 'shr_s', type: T.i32, a: cx.emit({ op: 'ibinary', kind: 'shl', type: T.i32, a: v, b: cx.constant(T.i32, 8n, s) }, s), b: cx.constant(T.i32, 8n, s) }, s)
      : cx.emit({ op: 'ibinary', kind: 'and', type: T.i32, a: v, b: cx.constant(T.i32, 0xffffffn, s) }, s);
    const a = low24(cx.read(operand(inst, 1), T.i32, signed));
    const b = low24(cx.read(operand(inst, 2), T.i32, signed));
    let r: ValueId;
    if (inst.modifiers.mulMode === 'hi') {
      const wide = cx.emit({ op: 'mul_wide', type: T.i64, signed, a, b }, s);
      const shifted = cx.emit({ op: 'ibinary', kind: 'shr_u', type: T.i64, a: wide, b: cx.constant(T.i32, 16n, s) }, s);
      r = cx.emit({ op: 'truncate', type: T.i32, value: shifted }, s);
    } else {
      r = cx.emit({ op: 'ibinary', kind: 'mul', type: T.i32, a, b }, s);
    }
    if (withAddend) {
      const c = cx.read(operand(inst, 3), T.i32, signed);
      const sum = cx.emit({ op: 'ibinary', kind: 'add', type: T.i32, a: r, b: c }, s);
      r = inst.modifiers.sat && signed && inst.modifiers.mulMode === 'hi' ? saturateAddSub(cx, inst, r, c, sum) : sum;
    }
    cx.write(operand(inst, 0), r, signed);
  };
}

/** sad: c + |a - b|, the difference taken in the instruction's signedness. */
const sad: Handler = (cx, inst) => {
  const s = inst.span;
  const pt = typeOf(inst);
  const t = irTypeOf(pt);
  const signed = isSigned(pt);
  const [a, b, c] = [1, 2, 3].map((k) => cx.read(operand(inst, k), t, signed)) as [ValueId, ValueId, ValueId];
  const lt = cx.emit({ op: 'icmp', type: T.pred, cond: signed ? 'slt' : 'ult', a, b }, s);
  const ab = cx.emit({ op: 'ibinary', kind: 'sub', type: t, a, b }, s);
  const ba = cx.emit({ op: 'ibinary', kind: 'sub', type: t, a: b, b: a }, s);
  const diff = cx.emit({ op: 'select', type: t, cond: lt, a: ba, b: ab }, s);
  cx.write(operand(inst, 0), cx.emit({ op: 'ibinary', kind: 'add', type: t, a: diff, b: c }, s), signed);
};

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

const addPlain = binary(() => 'add');
const addCarried = withCarry(addPlain);
/** `add.{s16x2,u16x2}` has no carry form: it goes to `binary`, which refuses a `.cc` on it. */
const add: Handler = (cx, inst) => (isPacked(typeOf(inst)) ? addPlain : addCarried)(cx, inst);

export const INT_HANDLERS: Readonly<Record<string, Handler>> = {
  add,
  sub: withCarry(binary(() => 'sub')),
  mul: mulLike(false),
  mad: withCarry(mulLike(true)),
  mul24: mul24(false),
  mad24: mul24(true),
  sad,
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
  ...BITS_HANDLERS,
  ...CARRY_HANDLERS,
};
