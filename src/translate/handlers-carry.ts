/**
 * Extended-precision arithmetic (ISA "Extended-Precision Integer Arithmetic"): add.cc addc
 * sub.cc subc mad.cc madc. The condition code's carry flag CC.CF is an implicit register: a
 * predicate SSA variable that `.cc` forms write and addc/subc/madc read, so carries flow
 * through blocks like any register (undefined before the first write, as in PTX).
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { operand } from './handler.js';
import type { Variable } from './ssa.js';

const CC_CF: Variable = { key: '%cc.cf', type: T.pred, hint: 'cc_cf' };

function carryIn(cx: BuildContext, s: Ast.Instruction['span']): ValueId {
  const cf = cx.ssa.read(CC_CF, cx.block, s);
  return cx.emit({ op: 'select', type: T.i32, cond: cf, a: cx.constant(T.i32, 1n, s), b: cx.constant(T.i32, 0n, s) }, s);
}

const bin = (cx: BuildContext, kind: 'add' | 'sub' | 'or', a: ValueId, b: ValueId, s: Ast.Instruction['span'], type: T.IrType = T.i32): ValueId =>
  cx.emit({ op: 'ibinary', kind, type, a, b }, s);
const ult = (cx: BuildContext, a: ValueId, b: ValueId, s: Ast.Instruction['span']): ValueId =>
  cx.emit({ op: 'icmp', type: T.pred, cond: 'ult', a, b }, s);

/**
 * a + b (+ CF) or a - b (- CF) in 32 bits; writes the carry/borrow out to CC.CF when `cc`.
 * Carry out of a + b + c: (a + b < a) or (a + b + c < a + b); borrow of a - b - c likewise.
 */
function addSub(cx: BuildContext, sub: boolean, a: ValueId, b: ValueId, withCarryIn: boolean, cc: boolean, s: Ast.Instruction['span']): ValueId {
  const t = bin(cx, sub ? 'sub' : 'add', a, b, s);
  const cin = withCarryIn ? carryIn(cx, s) : null;
  const r = cin === null ? t : bin(cx, sub ? 'sub' : 'add', t, cin, s);
  if (cc) {
    const first = sub ? ult(cx, a, b, s) : ult(cx, t, a, s);
    const out = cin === null ? first : bin(cx, 'or', first, sub ? ult(cx, t, cin, s) : ult(cx, r, t, s), s, T.pred);
    cx.ssa.write(CC_CF, cx.block, out);
  }
  return r;
}

function addSubHandler(sub: boolean, withCarryIn: boolean): Handler {
  return (cx, inst) => {
    const a = cx.read(operand(inst, 1), T.i32);
    const b = cx.read(operand(inst, 2), T.i32);
    cx.write(operand(inst, 0), addSub(cx, sub, a, b, withCarryIn, inst.modifiers.cc === true, inst.span));
  };
}

function madHandler(withCarryIn: boolean): Handler {
  return (cx, inst) => {
    const s = inst.span;
    const a = cx.read(operand(inst, 1), T.i32);
    const b = cx.read(operand(inst, 2), T.i32);
    const c = cx.read(operand(inst, 3), T.i32);
    const signed = inst.modifiers.types[0] === 's32';
    const kind = inst.modifiers.mulMode === 'hi' ? (signed ? 'mulhi_s' : 'mulhi_u') : 'mul';
    const p = cx.emit({ op: 'ibinary', kind, type: T.i32, a, b }, s);
    cx.write(operand(inst, 0), addSub(cx, false, p, c, withCarryIn, inst.modifiers.cc === true, s));
  };
}

/** add/sub/mad: the `.cc` forms go through the carry chain, the others to `plain`. */
export function withCarry(plain: Handler): Handler {
  return (cx, inst) => {
    if (!inst.modifiers.cc) return plain(cx, inst);
    return (inst.opcode === 'mad' ? madHandler(false) : addSubHandler(inst.opcode === 'sub', false))(cx, inst);
  };
}

export const CARRY_HANDLERS: Readonly<Record<string, Handler>> = {
  addc: addSubHandler(false, true),
  subc: addSubHandler(true, true),
  madc: madHandler(true),
};
