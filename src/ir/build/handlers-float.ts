/**
 * Floating-point instructions (ISA "Floating-Point Instructions"). Rounding, `.ftz`,
 * `.sat` and `.approx` travel on the IR instruction so later lowering can be exact.
 */
import type * as Ast from '../../ptx/ast.js';
import type { FloatBinaryOp, FloatRounding, FloatUnaryOp } from '../inst.js';
import type { Handler } from './handler.js';
import { operand, typeOf } from './handler.js';
import { irTypeOf } from './ptx-types.js';

export function rounding(inst: Ast.Instruction): FloatRounding {
  const m = inst.modifiers;
  if (m.approx) return 'approx';
  if (m.full) return 'full';
  const r = m.rounding;
  return r === 'rn' || r === 'rz' || r === 'rm' || r === 'rp' ? r : 'default';
}

function binary(kind: FloatBinaryOp): Handler {
  return (cx, inst) => {
    const t = irTypeOf(typeOf(inst));
    const a = cx.read(operand(inst, 1), t);
    const b = cx.read(operand(inst, 2), t);
    const m = inst.modifiers;
    const r = cx.emit({ op: 'fbinary', kind, type: t, a, b, rounding: rounding(inst), ftz: !!m.ftz, sat: !!m.sat }, inst.span);
    cx.write(operand(inst, 0), r);
  };
}

const fma: Handler = (cx, inst) => {
  const t = irTypeOf(typeOf(inst));
  const a = cx.read(operand(inst, 1), t);
  const b = cx.read(operand(inst, 2), t);
  const c = cx.read(operand(inst, 3), t);
  const m = inst.modifiers;
  const r = cx.emit({ op: 'fma', type: t, a, b, c, rounding: rounding(inst), ftz: !!m.ftz, sat: !!m.sat }, inst.span);
  cx.write(operand(inst, 0), r);
};

function unary(kind: FloatUnaryOp): Handler {
  return (cx, inst) => {
    const t = irTypeOf(typeOf(inst));
    const v = cx.read(operand(inst, 1), t);
    const r = cx.emit({ op: 'funary', kind, type: t, value: v, rounding: rounding(inst), ftz: !!inst.modifiers.ftz }, inst.span);
    cx.write(operand(inst, 0), r);
  };
}

export const FLOAT_HANDLERS: Readonly<Record<string, Handler>> = {
  add: binary('add'),
  sub: binary('sub'),
  mul: binary('mul'),
  div: binary('div'),
  min: binary('min'),
  max: binary('max'),
  fma,
  mad: fma,
  neg: unary('neg'),
  abs: unary('abs'),
  sqrt: unary('sqrt'),
  rcp: unary('rcp'),
  rsqrt: unary('rsqrt'),
  sin: unary('sin'),
  cos: unary('cos'),
  lg2: unary('lg2'),
  ex2: unary('ex2'),
  tanh: unary('tanh'),
};

export const isFloatInstruction = (inst: Ast.Instruction): boolean => irTypeOf(typeOf(inst)).kind === 'float';
