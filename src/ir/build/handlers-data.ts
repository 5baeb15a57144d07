/**
 * Comparison, selection, moves and conversions (ISA "Comparison and Selection", "Data
 * Movement and Conversion": mov, cvt, cvta, setp, set, selp).
 */
import type * as Ast from '../../ptx/ast.js';
import type { ValueId } from '../entities.js';
import type { FloatCompare, IntCompare, MemorySpace } from '../inst.js';
import * as T from '../types.js';
import type { BuildContext } from './context.js';
import { DiagnosticCode } from '../../diagnostics/diagnostic.js';
import type { Handler } from './handler.js';
import { operand, typeOf } from './handler.js';
import { isFloatType, isSigned } from './ptx-types.js';
import { irTypeOf, packLanes, packedLane, rounding } from './handlers-float.js';

function intCompare(op: Ast.CompareOp, signed: boolean): IntCompare | undefined {
  switch (op) {
    case 'eq': return 'eq';
    case 'ne': return 'ne';
    case 'lt': return signed ? 'slt' : 'ult';
    case 'le': return signed ? 'sle' : 'ule';
    case 'gt': return signed ? 'sgt' : 'ugt';
    case 'ge': return signed ? 'sge' : 'uge';
    case 'lo': return 'ult';
    case 'ls': return 'ule';
    case 'hi': return 'ugt';
    case 'hs': return 'uge';
    default: return undefined;
  }
}

/** The compare of setp/set: a predicate, from integer or float operands. */
function compare(cx: BuildContext, inst: Ast.Instruction, typeIndex: number): ValueId {
  const pt = typeOf(inst, typeIndex);
  if (packedLane(pt)) return cx.fail(DiagnosticCode.LowerUnsupportedFeature, `${inst.opcode} on .${pt} is not supported yet`, inst.span, T.pred);
  const t = irTypeOf(pt);
  const signed = isSigned(pt);
  const a = cx.read(operand(inst, 1), t, signed);
  const b = cx.read(operand(inst, 2), t, signed);
  const cmp = inst.modifiers.compare ?? 'eq';
  if (isFloatType(pt)) {
    return cx.emit({ op: 'fcmp', type: T.pred, cond: cmp as FloatCompare, a, b, ftz: !!inst.modifiers.ftz }, inst.span);
  }
  const cond = intCompare(cmp, signed) ?? 'eq';
  return cx.emit({ op: 'icmp', type: T.pred, cond, a, b }, inst.span);
}

/** `.and/.or/.xor` combining with the optional c operand (`setp.lt.and.s32 p|q, a, b, c`). */
function combine(cx: BuildContext, inst: Ast.Instruction, cmp: ValueId, cIndex: number): [ValueId, ValueId] {
  const notCmp = cx.emit({ op: 'iunary', kind: 'not', type: T.pred, value: cmp }, inst.span);
  const op = inst.modifiers.boolOp;
  if (!op || op === 'popc' || !inst.operands[cIndex]) return [cmp, notCmp];
  const c = cx.read(operand(inst, cIndex), T.pred);
  const kind = op;
  return [
    cx.emit({ op: 'ibinary', kind, type: T.pred, a: cmp, b: c }, inst.span),
    cx.emit({ op: 'ibinary', kind, type: T.pred, a: notCmp, b: c }, inst.span),
  ];
}

const setp: Handler = (cx, inst) => {
  const [p, q] = combine(cx, inst, compare(cx, inst, 0), 3);
  const dst = operand(inst, 0);
  if (dst.kind === 'pair') {
    cx.write(dst.first, p);
    cx.write(dst.second, q);
  } else cx.write(dst, p);
};

/** `set.cmp.dtype.stype d, a, b`: all-ones (or 1.0f) when true, 0 otherwise. */
const set: Handler = (cx, inst) => {
  const [p] = combine(cx, inst, compare(cx, inst, 1), 3);
  const dt = irTypeOf(typeOf(inst, 0));
  const oneBits = dt.kind !== 'float' ? -1n : dt.bits === 32 ? 0x3f800000n : dt.bits === 64 ? 0x3ff0000000000000n : dt.format === 'bf16' ? 0x3f80n : 0x3c00n;
  const one = cx.constant(dt, oneBits, inst.span);
  cx.write(operand(inst, 0), cx.emit({ op: 'select', type: dt, cond: p, a: one, b: cx.constant(dt, 0n, inst.span) }, inst.span));
};

const selp: Handler = (cx, inst) => {
  const t = irTypeOf(typeOf(inst));
  const a = cx.read(operand(inst, 1), t);
  const b = cx.read(operand(inst, 2), t);
  const c = cx.read(operand(inst, 3), T.pred);
  cx.write(operand(inst, 0), cx.emit({ op: 'select', type: t, cond: c, a, b }, inst.span));
};

/** `slct.dtype.ctype d, a, b, c`: a when c >= 0 (-0 included; a NaN c selects b). */
const slct: Handler = (cx, inst) => {
  const t = irTypeOf(typeOf(inst, 0));
  const ct = typeOf(inst, 1);
  const cIr = irTypeOf(ct);
  const a = cx.read(operand(inst, 1), t);
  const b = cx.read(operand(inst, 2), t);
  const c = cx.read(operand(inst, 3), cIr, true);
  const zero = cx.constant(cIr, 0n, inst.span);
  const ge = isFloatType(ct)
    ? cx.emit({ op: 'fcmp', type: T.pred, cond: 'ge', a: c, b: zero, ftz: !!inst.modifiers.ftz }, inst.span)
    : cx.emit({ op: 'icmp', type: T.pred, cond: 'sge', a: c, b: zero }, inst.span);
  cx.write(operand(inst, 0), cx.emit({ op: 'select', type: t, cond: ge, a, b }, inst.span));
};

/** `mov`, including packing `{lo, hi}` into a wider register and unpacking it again. */
const mov: Handler = (cx, inst) => {
  const t = irTypeOf(typeOf(inst));
  const dst = operand(inst, 0);
  const src = operand(inst, 1);
  if (src.kind === 'vector') {
    const partBits = T.bitWidth(t) / src.elements.length;
    const pt = T.int(partBits as T.IntBits);
    const parts = src.elements.map((e) => cx.read(e, pt));
    const vec = cx.emit({ op: 'compose', type: T.vector(pt, parts.length as 2 | 4), parts }, inst.span);
    cx.write(dst, cx.emit({ op: 'bitcast', type: t, value: vec }, inst.span));
    return;
  }
  if (dst.kind === 'vector') {
    const partBits = T.bitWidth(t) / dst.elements.length;
    const pt = T.int(partBits as T.IntBits);
    const whole = cx.read(src, t);
    const vec = cx.emit({ op: 'bitcast', type: T.vector(pt, dst.elements.length as 2 | 4), value: whole }, inst.span);
    dst.elements.forEach((e, index) => cx.write(e, cx.emit({ op: 'extract', type: pt, value: vec, index }, inst.span)));
    return;
  }
  cx.write(dst, cx.read(src, cx.registerType(dst) ?? t));
};

/** `cvt.dtype.atype`: integer resizing, int<->float and float<->float conversions. */
const cvt: Handler = (cx, inst) => {
  const dt = typeOf(inst, 0);
  const st = typeOf(inst, 1);
  const dIr = irTypeOf(dt);
  const sIr = irTypeOf(st);
  const m = inst.modifiers;
  const exotic = (t: Ast.ScalarType): boolean => /^(e\d|ue|tf32|[su][24]$|b1$)/.test(t);
  if (exotic(dt) || exotic(st) || m.rounding === 'rna' || m.rounding === 'rs') {
    cx.write(operand(inst, 0), cx.fail(DiagnosticCode.LowerUnsupportedFeature, `cvt.${dt}.${st}${m.rounding ? ` .${m.rounding}` : ''}: fp8/fp6/fp4/tf32 and .rna/.rs conversions are not supported yet`, inst.span, dIr));
    return;
  }
  const lane = packedLane(dt);
  const extra = { ...(m.relu ? { relu: true } : {}), ...(m.satfinite ? { satfinite: true } : {}) };
  if (lane) {
    // cvt.frnd{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a converted into the high half, b the low
    const one = (k: number): ValueId => cx.emit({
      op: 'convert', type: lane, value: cx.read(operand(inst, k), sIr), fromSigned: false, toSigned: false, rounding: rounding(inst), sat: false, ftz: false, ...extra,
    }, inst.span);
    const hi = one(1);
    cx.write(operand(inst, 0), packLanes(cx, one(2), hi, inst.span));
    return;
  }
  const v = cx.read(operand(inst, 1), sIr, isSigned(st));
  let r: ValueId;
  if (!isFloatType(dt) && !isFloatType(st)) {
    r = m.sat ? saturateInt(cx, v, st, dt, inst) : resizeInt(cx, v, dIr as T.IntType, isSigned(st), inst);
  } else {
    const rnd = m.rounding === 'rni' || m.rounding === 'rzi' || m.rounding === 'rmi' || m.rounding === 'rpi' ? m.rounding : rounding(inst);
    r = cx.emit({ op: 'convert', type: dIr, value: v, fromSigned: isSigned(st), toSigned: isSigned(dt), rounding: rnd, sat: !!m.sat, ftz: !!m.ftz, ...extra }, inst.span);
  }
  cx.write(operand(inst, 0), r, isSigned(dt));
};

function resizeInt(cx: BuildContext, v: ValueId, to: T.IntType, signed: boolean, inst: Ast.Instruction): ValueId {
  const from = cx.fn.typeOf(v) as T.IntType;
  if (from.bits === to.bits) return v;
  return from.bits > to.bits
    ? cx.emit({ op: 'truncate', type: to, value: v }, inst.span)
    : cx.emit({ op: 'extend', type: to, signed, value: v }, inst.span);
}

/** `cvt.sat` between integer types clamps to the destination range, compared in the source type. */
function saturateInt(cx: BuildContext, v: ValueId, st: Ast.ScalarType, dt: Ast.ScalarType, inst: Ast.Instruction): ValueId {
  const s = inst.span;
  const t = cx.fn.typeOf(v);
  const sbits = BigInt(T.bitWidth(irTypeOf(st)));
  const dbits = BigInt(T.bitWidth(irTypeOf(dt)));
  const sSigned = isSigned(st);
  const srcMin = sSigned ? -(1n << (sbits - 1n)) : 0n;
  const srcMax = sSigned ? (1n << (sbits - 1n)) - 1n : (1n << sbits) - 1n;
  const maxD = isSigned(dt) ? (1n << (dbits - 1n)) - 1n : (1n << dbits) - 1n;
  const minD = isSigned(dt) ? -(1n << (dbits - 1n)) : 0n;
  let r = v;
  if (maxD < srcMax) {
    const hi = cx.emit({ op: 'icmp', type: T.pred, cond: sSigned ? 'sgt' : 'ugt', a: r, b: cx.constant(t, maxD, s) }, s);
    r = cx.emit({ op: 'select', type: t, cond: hi, a: cx.constant(t, maxD, s), b: r }, s);
  }
  if (minD > srcMin) {
    const lo = cx.emit({ op: 'icmp', type: T.pred, cond: 'slt', a: r, b: cx.constant(t, minD, s) }, s);
    r = cx.emit({ op: 'select', type: t, cond: lo, a: cx.constant(t, minD, s), b: r }, s);
  }
  return resizeInt(cx, r, irTypeOf(dt) as T.IntType, sSigned, inst);
}

const cvta: Handler = (cx, inst) => {
  const t = irTypeOf(typeOf(inst));
  const space = (inst.modifiers.space?.space ?? 'global') as MemorySpace;
  const v = cx.read(operand(inst, 1), t);
  cx.write(operand(inst, 0), cx.emit({ op: 'cvta', type: t, value: v, space, toGeneric: !inst.modifiers.to }, inst.span));
};

export const DATA_HANDLERS: Readonly<Record<string, Handler>> = { setp, set, selp, slct, mov, cvt, cvta };
