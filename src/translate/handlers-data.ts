/**
 * Comparison, selection, moves and conversions (ISA "Comparison and Selection", "Data
 * Movement and Conversion": mov, cvt, cvta, setp, set, selp).
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import type { IntCompare, MemorySpace } from '../ir/inst.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import type { Handler } from './handler.js';
import { operand, typeOf } from './handler.js';
import { isFloatType, isSigned } from './ptx-types.js';
import { irTypeOf, packLanes, packedLane, rounding, unpackLanes } from './handlers-float.js';
import { minifloat } from './cvt-minifloat.js';
import { floatCompare } from './vocabulary.js';

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
    const cond = floatCompare(cmp);
    if (!cond) return cx.fail(DiagnosticCode.ParseBadModifier, `.${cmp} compares unsigned integers, not .${pt}`, inst.opcodeSpan, T.pred);
    return cx.emit({ op: 'fcmp', type: T.pred, cond, a, b, ftz: !!inst.modifiers.ftz }, inst.span);
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

/**
 * The lane compares of a `.f16x2`/`.bf16x2` setp/set, [low, high], each combined with c by the
 * boolean op (ISA "Half Precision Comparison Instructions"), or null for other types.
 */
function packedCompare(cx: BuildContext, inst: Ast.Instruction, typeIndex: number): [ValueId, ValueId] | null {
  const lane = packedLane(typeOf(inst, typeIndex));
  if (!lane) return null;
  const [a0, a1] = unpackLanes(cx, cx.read(operand(inst, 1), T.i32), lane, inst.span);
  const [b0, b1] = unpackLanes(cx, cx.read(operand(inst, 2), T.i32), lane, inst.span);
  const cmp = inst.modifiers.compare ?? 'eq';
  const cond = floatCompare(cmp);
  if (!cond) {
    const bad = cx.fail(DiagnosticCode.ParseBadModifier, `.${cmp} compares unsigned integers, not .${typeOf(inst, typeIndex)}`, inst.opcodeSpan, T.pred);
    return [bad, bad];
  }
  const one = (a: ValueId, b: ValueId): ValueId => {
    const t = cx.emit({ op: 'fcmp', type: T.pred, cond, a, b, ftz: !!inst.modifiers.ftz }, inst.span);
    const op = inst.modifiers.boolOp;
    if (!op || op === 'popc' || !inst.operands[3]) return t;
    return cx.emit({ op: 'ibinary', kind: op, type: T.pred, a: t, b: cx.read(operand(inst, 3), T.pred) }, inst.span);
  };
  return [one(a0, b0), one(a1, b1)];
}

const setp: Handler = (cx, inst) => {
  const lanes = packedCompare(cx, inst, 0);
  if (lanes) {
    const dst = operand(inst, 0);
    if (dst.kind === 'pair') {
      cx.write(dst.first, lanes[0]);
      cx.write(dst.second, lanes[1]);
    } else cx.write(dst, lanes[0]);
    return;
  }
  const [p, q] = combine(cx, inst, compare(cx, inst, 0), 3);
  const dst = operand(inst, 0);
  if (dst.kind === 'pair') {
    cx.write(dst.first, p);
    cx.write(dst.second, q);
  } else cx.write(dst, p);
};

/** `set.cmp.dtype.stype d, a, b`: all-ones (or 1.0f) when true, 0 otherwise. */
const set: Handler = (cx, inst) => {
  const lanes = packedCompare(cx, inst, 1);
  if (lanes) {
    // each half: 1.0 in the destination's half format, or all ones for .u32/.s32
    const dt = typeOf(inst, 0);
    const oneBits = dt === 'f16x2' ? 0x3c00n : dt === 'bf16x2' ? 0x3f80n : 0xffffn;
    const half = (p: ValueId): ValueId => cx.emit({ op: 'select', type: T.i16, cond: p, a: cx.constant(T.i16, oneBits, inst.span), b: cx.constant(T.i16, 0n, inst.span) }, inst.span);
    const vec = cx.emit({ op: 'compose', type: T.vector(T.i16, 2), parts: [half(lanes[0]), half(lanes[1])] }, inst.span);
    cx.write(operand(inst, 0), cx.emit({ op: 'bitcast', type: T.i32, value: vec }, inst.span));
    return;
  }
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
  // An integer immediate of a bit-size mov is a bit pattern (`mov.b32 %f1, 0x7F800000` is +inf)
  const dt = cx.registerType(dst);
  const readAs = src.kind === 'integer' && dt?.kind === 'float' ? t : dt ?? t;
  cx.write(dst, cx.read(src, readAs));
};

/** `cvt.dtype.atype`: integer resizing, int<->float and float<->float conversions. */
const cvt: Handler = (cx, inst) => {
  const dt = typeOf(inst, 0);
  const st = typeOf(inst, 1);
  const dIr = irTypeOf(dt);
  const sIr = irTypeOf(st);
  const m = inst.modifiers;
  const exotic = (t: Ast.ScalarType): boolean => /^(e\d|ue|tf32|[su][24]$|b1$)/.test(t);
  if (m.rounding === 'rs') {
    // cvt.rs rounds by adding the caller's random bits (rbits operand): sm_100a, not lowered yet
    cx.write(operand(inst, 0), cx.fail(DiagnosticCode.LowerUnsupportedFeature, `cvt.rs.${dt}.${st}: stochastic rounding (.rs) is not supported yet`, inst.span, dIr));
    return;
  }
  if (exotic(dt) || exotic(st)) {
    if (minifloat(cx, inst, dt, st)) return;
    cx.write(operand(inst, 0), cx.fail(DiagnosticCode.LowerUnsupportedFeature, `cvt${m.rounding ? `.${m.rounding}` : ''}.${dt}.${st}: this cvt form is not supported (the fp8/fp6/fp4/ue8m0/tf32 forms are those of the ISA's cvt syntax)`, inst.span, dIr));
    return;
  }
  if (m.rounding === 'rna') {
    cx.write(operand(inst, 0), cx.fail(DiagnosticCode.LowerUnsupportedFeature, `cvt.rna.${dt}.${st} is not supported`, inst.span, dIr));
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

/**
 * `cvt.pack.sat.ct.abt{.b32} d, a, b{, c}` (ISA cvt.pack): a and b clamped to ct's range, a above b
 * in a field of twice ct's width; for 2/4/8-bit ct, c's low bits fill d above that field.
 */
const cvtPack: Handler = (cx, inst) => {
  const s = inst.span;
  const ct = typeOf(inst, 0);
  const abt = typeOf(inst, 1);
  const size = ct.endsWith('16') ? 16 : ct.endsWith('8') ? 8 : ct.endsWith('4') ? 4 : 2;
  const abSigned = isSigned(abt);
  const signed = isSigned(ct);
  const max = signed ? (1n << BigInt(size - 1)) - 1n : (1n << BigInt(size)) - 1n;
  const min = signed ? -(1n << BigInt(size - 1)) : 0n;
  const k = (v: bigint): ValueId => cx.constant(T.i32, BigInt.asUintN(32, v), s);
  const clamp = (index: number): ValueId => {
    let v = cx.read(operand(inst, index), T.i32, abSigned);
    const hi = cx.emit({ op: 'icmp', type: T.pred, cond: abSigned ? 'sgt' : 'ugt', a: v, b: k(max) }, s);
    v = cx.emit({ op: 'select', type: T.i32, cond: hi, a: k(max), b: v }, s);
    if (abSigned) {
      const lo = cx.emit({ op: 'icmp', type: T.pred, cond: 'slt', a: v, b: k(min) }, s);
      v = cx.emit({ op: 'select', type: T.i32, cond: lo, a: k(min), b: v }, s);
    }
    return cx.emit({ op: 'ibinary', kind: 'and', type: T.i32, a: v, b: k((1n << BigInt(size)) - 1n) }, s);
  };
  const ta = cx.emit({ op: 'ibinary', kind: 'shl', type: T.i32, a: clamp(1), b: k(BigInt(size)) }, s);
  let d = cx.emit({ op: 'ibinary', kind: 'or', type: T.i32, a: ta, b: clamp(2) }, s);
  if (size < 16) {
    if (!inst.operands[3]) {
      cx.write(operand(inst, 0), cx.fail(DiagnosticCode.LowerUnsupportedFeature, `cvt.pack.${ct} needs the c operand`, s, T.i32));
      return;
    }
    const c = cx.emit({ op: 'ibinary', kind: 'shl', type: T.i32, a: cx.read(operand(inst, 3), T.i32), b: k(BigInt(2 * size)) }, s);
    d = cx.emit({ op: 'ibinary', kind: 'or', type: T.i32, a: d, b: c }, s);
  }
  cx.write(operand(inst, 0), d);
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
  // `.param`: a kernel parameter's generic address (PTX 7.7; nvcc's form for a __grid_constant__
  // parameter whose address escapes), read by generic loads (lowering/address-spaces.ts)
  const space = (inst.modifiers.space?.space ?? 'global') as MemorySpace | 'param';
  const v = cx.read(operand(inst, 1), t);
  cx.write(operand(inst, 0), cx.emit({ op: 'cvta', type: t, value: v, space, toGeneric: !inst.modifiers.to }, inst.span));
};

export const DATA_HANDLERS: Readonly<Record<string, Handler>> = { setp, set, selp, slct, mov, cvt, 'cvt.pack': cvtPack, cvta };
