/**
 * Floating-point instructions (ISA "Floating-Point Instructions"). Rounding, `.ftz`,
 * `.sat` and `.approx` travel on the IR instruction so later lowering can be exact.
 */
import type * as Ast from '../ptx/ast.js';
import type { FloatBinaryOp, FloatRounding, FloatUnaryOp } from '../ir/inst.js';
import type { Handler } from './handler.js';
import type { BuildContext } from './context.js';
import { operand, typeOf } from './handler.js';
import { irTypeOf as registerTypeOf } from './ptx-types.js';

/** IR type of an instruction type; `.bf16` arithmetic and cvt see a bf16 float (registers hold its bits). */
export function irTypeOf(t: Ast.ScalarType): T.IrType {
  return t === 'bf16' ? T.bf16 : registerTypeOf(t);
}
import type { ValueId } from '../ir/entities.js';
import * as T from '../ir/types.js';

export function rounding(inst: Ast.Instruction): FloatRounding {
  const m = inst.modifiers;
  if (m.approx) return 'approx';
  if (m.full) return 'full';
  const r = m.rounding;
  return r === 'rn' || r === 'rz' || r === 'rm' || r === 'rp' ? r : 'default';
}

/** The half format of a packed `.f16x2`/`.bf16x2` instruction type, or null. */
export function packedLane(t: Ast.ScalarType): T.FloatType | null {
  return t === 'f16x2' ? T.f16 : t === 'bf16x2' ? T.bf16 : null;
}

/** The two halves of a packed 32-bit value as `lane` floats: [low, high]. */
export function unpackLanes(cx: BuildContext, v: ValueId, lane: T.FloatType, span: Ast.Instruction['span']): [ValueId, ValueId] {
  const vec = cx.emit({ op: 'bitcast', type: T.vector(T.i16, 2), value: v }, span);
  const part = (index: number): ValueId => cx.emit({ op: 'bitcast', type: lane, value: cx.emit({ op: 'extract', type: T.i16, value: vec, index }, span) }, span);
  return [part(0), part(1)];
}

/** Two half floats packed into 32 bits, `lo` in the low half. */
export function packLanes(cx: BuildContext, lo: ValueId, hi: ValueId, span: Ast.Instruction['span']): ValueId {
  const parts = [lo, hi].map((p) => cx.emit({ op: 'bitcast', type: T.i16, value: p }, span));
  return cx.emit({ op: 'bitcast', type: T.i32, value: cx.emit({ op: 'compose', type: T.vector(T.i16, 2), parts }, span) }, span);
}

/**
 * Reads the operands, applies `one` per lane (packed types) or once, and writes the result.
 * `one` gets the operand values and the scalar float type.
 */
function lanewise(cx: BuildContext, inst: Ast.Instruction, count: number, one: (ops: ValueId[], t: T.FloatType) => ValueId): void {
  const pt = typeOf(inst);
  const lane = packedLane(pt);
  const idx = Array.from({ length: count }, (_, k) => k + 1);
  if (!lane) {
    const t = irTypeOf(pt) as T.FloatType;
    cx.write(operand(inst, 0), one(idx.map((k) => cx.read(operand(inst, k), t)), t));
    return;
  }
  const split = idx.map((k) => unpackLanes(cx, cx.read(operand(inst, k), T.i32), lane, inst.span));
  const lo = one(split.map((p) => p[0]), lane);
  const hi = one(split.map((p) => p[1]), lane);
  cx.write(operand(inst, 0), packLanes(cx, lo, hi, inst.span));
}

function binary(kind: FloatBinaryOp): Handler {
  return (cx, inst) => {
    const m = inst.modifiers;
    const minmax = kind === 'min' || kind === 'max' ? { nan: !!m.nan, xorsignAbs: !!m.xorsign && !!m.abs } : undefined;
    lanewise(cx, inst, 2, ([a, b], t) => cx.emit({
      op: 'fbinary', kind, type: t, a: a as ValueId, b: b as ValueId, rounding: rounding(inst), ftz: !!m.ftz, sat: !!m.sat,
      ...(minmax ? { minmax } : {}), ...(m.relu ? { relu: true } : {}),
    }, inst.span));
  };
}

const fma: Handler = (cx, inst) => {
  const m = inst.modifiers;
  lanewise(cx, inst, 3, ([a, b, c], t) => cx.emit({
    op: 'fma', type: t, a: a as ValueId, b: b as ValueId, c: c as ValueId, rounding: rounding(inst), ftz: !!m.ftz, sat: !!m.sat, ...(m.relu ? { relu: true } : {}),
  }, inst.span));
};

function unary(kind: FloatUnaryOp): Handler {
  return (cx, inst) => {
    lanewise(cx, inst, 1, ([v], t) => cx.emit({ op: 'funary', kind, type: t, value: v as ValueId, rounding: rounding(inst), ftz: !!inst.modifiers.ftz }, inst.span));
  };
}

/** The raw bits of a float operand, and its sign-bit and exponent-field masks. */
function floatBits(cx: Parameters<Handler>[0], inst: Ast.Instruction, index: number): { v: ValueId; it: T.IntType; sign: bigint; exp: bigint } {
  const t = irTypeOf(typeOf(inst)) as T.FloatType;
  const it = T.int(t.bits);
  const v = cx.emit({ op: 'bitcast', type: it, value: cx.read(operand(inst, index), t) }, inst.span);
  const exp = t.bits === 64 ? 0x7ff0000000000000n : t.bits === 32 ? 0x7f800000n : t.format === 'bf16' ? 0x7f80n : 0x7c00n;
  return { v, it, sign: 1n << BigInt(t.bits - 1), exp };
}

/** `copysign.ftype d, a, b`: b's magnitude with a's sign, on the bits (NaNs included). */
const copysign: Handler = (cx, inst) => {
  const s = inst.span;
  const a = floatBits(cx, inst, 1);
  const b = floatBits(cx, inst, 2);
  const sign = cx.emit({ op: 'ibinary', kind: 'and', type: a.it, a: a.v, b: cx.constant(a.it, a.sign, s) }, s);
  const mag = cx.emit({ op: 'ibinary', kind: 'and', type: a.it, a: b.v, b: cx.constant(a.it, a.sign - 1n, s) }, s);
  const r = cx.emit({ op: 'ibinary', kind: 'or', type: a.it, a: sign, b: mag }, s);
  cx.write(operand(inst, 0), cx.emit({ op: 'bitcast', type: irTypeOf(typeOf(inst)), value: r }, s));
};

/**
 * `testp.mode.ftype p, a`: unsigned compares of |a|'s bits against the exponent field.
 * testp.normal is true for zeros too ("as a special case", ISA; an H100 agrees for f64).
 */
const testp: Handler = (cx, inst) => {
  const s = inst.span;
  const { v, it, sign, exp } = floatBits(cx, inst, 1);
  const mag = cx.emit({ op: 'ibinary', kind: 'and', type: it, a: v, b: cx.constant(it, sign - 1n, s) }, s);
  const minNormal = exp & -exp;
  const inRange = (lo: bigint, hi: bigint): ValueId => {
    const d = cx.emit({ op: 'ibinary', kind: 'sub', type: it, a: mag, b: cx.constant(it, lo, s) }, s);
    return cx.emit({ op: 'icmp', type: T.pred, cond: 'ult', a: d, b: cx.constant(it, hi - lo, s) }, s);
  };
  const cmp = (cond: 'ult' | 'eq' | 'ule' | 'ugt'): ValueId => cx.emit({ op: 'icmp', type: T.pred, cond, a: mag, b: cx.constant(it, exp, s) }, s);
  const normalOrZero = (): ValueId => {
    const sub = inRange(1n, minNormal);
    const notSub = cx.emit({ op: 'iunary', kind: 'not', type: T.pred, value: sub }, s);
    return cx.emit({ op: 'ibinary', kind: 'and', type: T.pred, a: cmp('ult'), b: notSub }, s);
  };
  const mode = inst.modifiers.mode;
  const p = mode === 'finite' ? cmp('ult') : mode === 'infinite' ? cmp('eq') : mode === 'number' ? cmp('ule')
    : mode === 'notanumber' ? cmp('ugt') : mode === 'normal' ? normalOrZero() : inRange(1n, minNormal);
  cx.write(operand(inst, 0), p);
};

export const FLOAT_HANDLERS: Readonly<Record<string, Handler>> = {
  copysign,
  testp,
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

export const isFloatInstruction = (inst: Ast.Instruction): boolean => irTypeOf(typeOf(inst)).kind === 'float' || packedLane(typeOf(inst)) !== null;
