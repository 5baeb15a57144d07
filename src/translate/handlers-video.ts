/**
 * The PTX video instructions (ISA 9.7.18), built from integer IR:
 *  - scalar: vadd vsub vabsdiff vmin vmax vshl vshr (`vop.dtype.atype.btype{.sat}{.op2} d{.dsel},
 *    a{.asel}, b{.bsel}{, c}`), vset, vmad;
 *  - SIMD: vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 vset2 and their 4-lane forms.
 * The scalar forms follow what an NVIDIA H100 was recorded doing where that differs from the ISA
 * pseudo-code (`.sat` ranges, the `.h1` merge, what `.min`/`.max` compare, how vmad reads its
 * operands); tests/conformance/ref/video.ts states each rule with an example. Scalar operations
 * whose inputs are both byte/half-word parts fit 32 bits; the others run on i64 values (the
 * emitter's 64-bit helpers, or 32 bits where narrow-int64 finds the high word unobserved); vmad
 * fits i64 exactly. SIMD lanes are 17-bit at most and run in 32 bits.
 *
 * Forms ptxas refuses are refused here with the same reasons (S005, naming the instruction).
 */
import type * as Ast from '../ptx/ast.js';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import type { Span } from '../diagnostics/span.js';
import type { ValueId } from '../ir/entities.js';
import type { IntBinaryOp, IntCompare } from '../ir/inst.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { operand } from './handler.js';

type IntT = typeof T.i32;
type Signed = boolean;

/** A source operand: its 32-bit value, its selector and whether it is negated (`-a`, vmad only). */
interface Source { readonly value: ValueId; readonly sel: string | undefined; readonly neg: boolean }

/** Small IR-building helpers bound to one instruction's span. */
class Ops {
  constructor(readonly cx: BuildContext, readonly span: Span) {}
  k(t: IntT, v: bigint): ValueId { return this.cx.constant(t, v, this.span); }
  bin(kind: IntBinaryOp, t: IntT, a: ValueId, b: ValueId): ValueId { return this.cx.emit({ op: 'ibinary', kind, type: t, a, b }, this.span); }
  cmp(cond: IntCompare, a: ValueId, b: ValueId): ValueId { return this.cx.emit({ op: 'icmp', type: T.pred, cond, a, b }, this.span); }
  sel(t: IntT, cond: ValueId, a: ValueId, b: ValueId): ValueId { return this.cx.emit({ op: 'select', type: t, cond, a, b }, this.span); }
  not(t: IntT, v: ValueId): ValueId { return this.cx.emit({ op: 'iunary', kind: 'not', type: t, value: v }, this.span); }
  abs(t: IntT, v: ValueId): ValueId { return this.cx.emit({ op: 'iunary', kind: 'abs', type: t, value: v }, this.span); }
  ext(v: ValueId, signed: Signed): ValueId { return this.cx.emit({ op: 'extend', type: T.i64, signed, value: v }, this.span); }
  trunc(v: ValueId): ValueId { return this.cx.emit({ op: 'truncate', type: T.i32, value: v }, this.span); }
  /** Clamp to [lo, hi] (signed compares: every clamped value here is a signed quantity). */
  clamp(t: IntT, v: ValueId, lo: bigint, hi: bigint): ValueId {
    return this.bin('max_s', t, this.bin('min_s', t, v, this.k(t, hi)), this.k(t, lo));
  }
  /** Bits [pos, pos+bits) of a 32-bit value, sign- or zero-extended to 32 bits. */
  field(x: ValueId, pos: number, bits: number, signed: Signed): ValueId {
    if (bits === 32) return x;
    if (signed) {
      const up = 32 - bits - pos;
      const hi = up === 0 ? x : this.bin('shl', T.i32, x, this.k(T.i32, BigInt(up)));
      return this.bin('shr_s', T.i32, hi, this.k(T.i32, BigInt(32 - bits)));
    }
    const down = pos === 0 ? x : this.bin('shr_u', T.i32, x, this.k(T.i32, BigInt(pos)));
    return pos + bits === 32 ? down : this.bin('and', T.i32, down, this.k(T.i32, (1n << BigInt(bits)) - 1n));
  }
}

const TYPES = new Set(['u32', 's32']);
const PART = /^(b[0-3]|h[01])$/;
const SCALAR_OPS = new Set(['vadd', 'vsub', 'vabsdiff', 'vmin', 'vmax', 'vshl', 'vshr']);

function name(inst: Ast.Instruction): string {
  return [inst.opcode, ...inst.modifiers.types].join('.');
}

function refuse(cx: BuildContext, inst: Ast.Instruction, why: string): void {
  cx.write(operand(inst, 0), cx.fail(DiagnosticCode.SemaTypeMismatch, `${name(inst)}: ${why}`, inst.span, T.i32));
}

function source(cx: BuildContext, op: Ast.Operand): Source {
  if (op.kind === 'expression' && op.op === 'neg' && op.args.length === 1 && op.args[0]?.kind === 'register') {
    const r = op.args[0];
    return { value: cx.read(r, T.i32), sel: r.selector, neg: true };
  }
  return { value: cx.read(op, T.i32), sel: op.kind === 'register' ? op.selector : undefined, neg: false };
}

/** The destination selector (`d.b1`, `d.h10`), if any. */
const destSel = (inst: Ast.Instruction): string | undefined => {
  const d = operand(inst, 0);
  return d.kind === 'register' ? d.selector : undefined;
};

/** Types `.dtype.atype.btype` (vset: `.atype.btype`), each `.u32` or `.s32`; null after a diagnostic. */
function videoTypes(cx: BuildContext, inst: Ast.Instruction, count: number): Signed[] | null {
  const ts = inst.modifiers.types;
  if (ts.length !== count || ts.some((t) => !TYPES.has(t))) {
    refuse(cx, inst, `takes ${count} types, each .u32 or .s32`);
    return null;
  }
  return ts.map((t) => t === 's32');
}

/** partSelectSignExtend to 32 bits: the byte or half-word part (selector), or the whole word. */
function part(o: Ops, x: ValueId, sel: string | undefined, signed: Signed): ValueId {
  if (!sel) return x;
  const bits = sel[0] === 'b' ? 8 : 16;
  return o.field(x, bits * Number(sel[1]), bits, signed);
}

/**
 * optMerge(dsel, tmp, c): tmp's low byte/half-word at the selected position of c, except `.h1`,
 * which keeps tmp's own bits 31..16 (recorded H100 behaviour; see ref/video.ts optMerge).
 */
function merge(o: Ops, dsel: string, tmp: ValueId, c: ValueId): ValueId {
  const bits = dsel[0] === 'b' ? 8 : 16;
  const at = BigInt(bits * Number(dsel[1]));
  const low = (1n << BigInt(bits)) - 1n;
  const field = low << at;
  const placed = dsel === 'h1'
    ? o.bin('and', T.i32, tmp, o.k(T.i32, field))
    : at === 0n ? o.bin('and', T.i32, tmp, o.k(T.i32, low)) : o.bin('shl', T.i32, o.bin('and', T.i32, tmp, o.k(T.i32, low)), o.k(T.i32, at));
  const kept = o.bin('and', T.i32, c, o.k(T.i32, BigInt.asUintN(32, ~field)));
  return o.bin('or', T.i32, placed, kept);
}

/**
 * `.sat` of vadd vsub vabsdiff vmin vmax on the exact intermediate (type `t`), as recorded on the
 * H100 (ref/video.ts saturateArith): merged, an unsigned clamp to the byte/half-word top (a
 * negative value is above it); whole word, `.u32` only lifts negatives to 0 and `.s32` clamps to
 * the s32 range.
 */
function saturateArith(o: Ops, t: IntT, tmp: ValueId, signed: Signed, dsel: string | undefined): ValueId {
  if (dsel) {
    const bits = BigInt(dsel[0] === 'b' ? 8 : 16);
    return o.bin('min_u', t, tmp, o.k(t, signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n));
  }
  if (!signed) return o.bin('max_s', t, tmp, o.k(t, 0n));
  // In 32 bits the intermediate comes from two parts (|tmp| < 2^17): already in range.
  return t === T.i32 ? tmp : o.clamp(t, tmp, -(1n << 31n), (1n << 31n) - 1n);
}

/**
 * `.sat` of vshl/vshr (ref/video.ts saturateShift): the i64 shift result's low 34 bits as .s34,
 * clamped to dtype's 32-bit range, merged or not.
 */
function saturateShift(o: Ops, tmp: ValueId, signed: Signed): ValueId {
  const s34 = o.bin('shr_s', T.i64, o.bin('shl', T.i64, tmp, o.k(T.i32, 30n)), o.k(T.i32, 30n));
  return signed ? o.clamp(T.i64, s34, -(1n << 31n), (1n << 31n) - 1n) : o.clamp(T.i64, s34, 0n, 0xffffffffn);
}

/** Checks shared by the scalar forms: part selectors on a/b, none on c, dsel xor op2, c present when needed. */
function scalarShapeOk(cx: BuildContext, inst: Ast.Instruction, a: Source, b: Source, dsel: string | undefined): boolean {
  const op2 = inst.modifiers.mode;
  const c = inst.operands[3];
  let why: string | null = null;
  if ((a.sel && !PART.test(a.sel)) || (b.sel && !PART.test(b.sel))) why = 'source selectors are .b0-.b3, .h0, .h1';
  else if (dsel && !PART.test(dsel)) why = 'the destination selector is one of .b0-.b3, .h0, .h1';
  else if (dsel && op2) why = 'a destination selector and a secondary operation cannot be combined';
  else if ((dsel || op2) && !c) why = 'a destination selector or secondary operation needs operand c';
  else if (op2 && op2 !== 'add' && op2 !== 'min' && op2 !== 'max') why = 'the secondary operation is .add, .min or .max';
  else if (c?.kind === 'register' && c.selector) why = 'operand c takes no selector';
  if (why) refuse(cx, inst, why);
  return !why;
}

/**
 * The tail of every scalar form, after `.sat`: the merge into c, the secondary operation, or tmp;
 * the low 32 bits written. `.min`/`.max` compare `key()` (an i64, or for vset the i32 0/1) with c
 * extended by `cSigned`: unsigned on the two's-complement patterns (a negative key is above every
 * c) or signed, as recorded on the H100 (ref/video.ts secondaryMinMax).
 */
function finishScalar(
  cx: BuildContext, inst: Ast.Instruction, o: Ops, t: IntT, tmp: ValueId,
  keyT: IntT, key: () => ValueId, cSigned: Signed, dsel: string | undefined,
): void {
  let d = t === T.i64 ? o.trunc(tmp) : tmp;
  const cOp = inst.operands[3];
  const op2 = inst.modifiers.mode;
  if (cOp && (dsel || op2)) {
    const c = cx.read(cOp, T.i32);
    if (dsel) d = merge(o, dsel, d, c);
    else if (op2 === 'add') d = o.bin('add', T.i32, d, c);
    else {
      const cw = keyT === T.i64 ? o.ext(c, cSigned) : c;
      const above = o.cmp(cSigned ? 'sgt' : 'ugt', key(), cw);
      d = op2 === 'min' ? o.sel(T.i32, above, c, d) : o.sel(T.i32, above, d, c);
    }
  } else if (cOp) {
    cx.read(cOp, T.i32); // ptxas accepts an unused c; it must still be a declared register
  }
  cx.write(operand(inst, 0), d);
}

/** vadd vsub vabsdiff vmin vmax vshl vshr. */
const scalarOp: Handler = (cx, inst) => {
  const op = inst.opcode;
  const signs = videoTypes(cx, inst, 3);
  if (!signs) return;
  const [dS, aS, bS] = signs as [Signed, Signed, Signed];
  const a = source(cx, operand(inst, 1));
  const b = source(cx, operand(inst, 2));
  const dsel = destSel(inst);
  if (!scalarShapeOk(cx, inst, a, b, dsel)) return;
  const shift = op === 'vshl' || op === 'vshr';
  if (a.neg || b.neg) return refuse(cx, inst, 'operands cannot be negated');
  if (shift && bS) return refuse(cx, inst, 'the shift amount type is .u32');
  if (shift && !inst.modifiers.shift) return refuse(cx, inst, 'needs .clamp or .wrap');
  if (!shift && inst.modifiers.shift) return refuse(cx, inst, `.${inst.modifiers.shift} is for vshl/vshr`);
  if (inst.modifiers.compare || inst.modifiers.extra?.length) return refuse(cx, inst, 'unexpected modifier');
  const o = new Ops(cx, inst.span);
  const ta32 = part(o, a.value, a.sel, aS);
  const tb32 = part(o, b.value, b.sel, bS);
  const sat = inst.modifiers.sat === true;
  // Two byte/half-word parts: every intermediate fits 32 bits (shifts excepted).
  const t: IntT = a.sel && b.sel && !shift ? T.i32 : T.i64;
  const wide = (x: ValueId, s: Signed): ValueId => (t === T.i64 ? o.ext(x, s) : x);
  const ta = wide(ta32, aS);
  let tmp: ValueId;
  if (shift) {
    const amount = inst.modifiers.shift === 'clamp'
      ? o.bin('min_u', T.i32, tb32, o.k(T.i32, 32n))
      : o.bin('and', T.i32, tb32, o.k(T.i32, 31n));
    // The exact shift in i64 bits: an s32 << 32 fits, a u32 << 32 fits as u64 (see `key` below).
    tmp = o.bin(op === 'vshr' ? 'shr_s' : 'shl', T.i64, ta, amount);
    if (sat) tmp = saturateShift(o, tmp, dS);
  } else {
    const tb = wide(tb32, bS);
    switch (op) {
      case 'vadd': tmp = o.bin('add', t, ta, tb); break;
      case 'vsub': tmp = o.bin('sub', t, ta, tb); break;
      case 'vabsdiff': tmp = o.abs(t, o.bin('sub', t, ta, tb)); break;
      case 'vmin': tmp = o.bin('min_s', t, ta, tb); break;
      default: tmp = o.bin('max_s', t, ta, tb); break;
    }
    if (sat) tmp = saturateArith(o, t, tmp, dS, dsel);
  }
  const result = tmp;
  // The value `.min`/`.max` compares (H100, ref/video.ts scalar): the low word sign-extended for
  // vadd/vsub and saturated shifts; otherwise the exact value, which for a vshl of a .u32 by 32
  // is its 64-bit pattern read as signed (2^63 and above compare as negative, as recorded).
  const key = (): ValueId => {
    if (op === 'vadd' || op === 'vsub' || (shift && sat)) return o.ext(t === T.i64 ? o.trunc(result) : result, true);
    if (t === T.i32) return o.ext(result, true);
    return result;
  };
  finishScalar(cx, inst, o, t, result, T.i64, key, dS, dsel);
};

const VSET_CMP: Readonly<Record<string, IntCompare>> = { eq: 'eq', ne: 'ne', lt: 'slt', le: 'sle', gt: 'sgt', ge: 'sge' };
const UNSIGNED_CMP: Readonly<Record<string, IntCompare>> = { eq: 'eq', ne: 'ne', slt: 'ult', sle: 'ule', sgt: 'ugt', sge: 'uge' };

/** vset: a 0/1 compare result, then the secondary operation or merge. */
const vset: Handler = (cx, inst) => {
  const signs = videoTypes(cx, inst, 2);
  if (!signs) return;
  const [aS, bS] = signs as [Signed, Signed];
  const a = source(cx, operand(inst, 1));
  const b = source(cx, operand(inst, 2));
  const dsel = destSel(inst);
  if (!scalarShapeOk(cx, inst, a, b, dsel)) return;
  const cond = VSET_CMP[inst.modifiers.compare ?? ''];
  if (!cond) return refuse(cx, inst, 'the comparison is .eq, .ne, .lt, .le, .gt or .ge');
  if (a.neg || b.neg) return refuse(cx, inst, 'operands cannot be negated');
  if (inst.modifiers.sat || inst.modifiers.shift || inst.modifiers.extra?.length) return refuse(cx, inst, 'takes no .sat, .clamp/.wrap, .po or scale');
  const o = new Ops(cx, inst.span);
  const ta32 = part(o, a.value, a.sel, aS);
  const tb32 = part(o, b.value, b.sel, bS);
  // Signed compare of the exact .s33 values: in 32 bits when both fit (parts, or both .s32).
  const narrow = (a.sel && b.sel) || (aS && bS);
  const c = !narrow && !aS && !bS
    ? o.cmp(UNSIGNED_CMP[cond] as IntCompare, ta32, tb32)
    : narrow ? o.cmp(cond, ta32, tb32) : o.cmp(cond, o.ext(ta32, aS), o.ext(tb32, bS));
  const tmp = o.sel(T.i32, c, o.k(T.i32, 1n), o.k(T.i32, 0n));
  // `.min`/`.max` read c with atype's sign (H100, ref/video.ts vset); tmp is 0 or 1.
  finishScalar(cx, inst, o, T.i32, tmp, T.i32, () => tmp, aS, dsel);
};

/**
 * vmad: ±(ta*tb) + ±c (+1 for .po) in i64, optionally shifted right by 7 or 15 and saturated to
 * the .s32/.u32 range of the final sign (signedFinal).
 */
const vmad: Handler = (cx, inst) => {
  const signs = videoTypes(cx, inst, 3);
  if (!signs) return;
  const [, aS, bS] = signs as [Signed, Signed, Signed];
  const a = source(cx, operand(inst, 1));
  const b = source(cx, operand(inst, 2));
  const cOp = operand(inst, 3);
  const cSrc = inst.operands[3] ? source(cx, cOp) : undefined;
  const extra = inst.modifiers.extra ?? [];
  const po = extra.includes('po');
  const scale = extra.includes('shr7') ? 7n : extra.includes('shr15') ? 15n : 0n;
  const negP = a.neg !== b.neg;
  let why: string | null = null;
  if (!cSrc) why = 'takes operand c';
  else if ((a.sel && !PART.test(a.sel)) || (b.sel && !PART.test(b.sel))) why = 'source selectors are .b0-.b3, .h0, .h1';
  else if (destSel(inst)) why = 'the destination takes no selector';
  else if (cSrc.sel) why = 'operand c takes no selector';
  else if ((a.neg || b.neg) && cSrc.neg) why = 'negation is limited to either (a xor b) or c';
  else if (po && (a.neg || b.neg || cSrc.neg)) why = '.po cannot be combined with negated operands';
  else if (inst.modifiers.mode || inst.modifiers.shift || inst.modifiers.compare) why = 'takes no secondary operation, .clamp/.wrap or comparison';
  else if (extra.includes('shr7') && extra.includes('shr15')) why = 'takes one scale';
  if (why || !cSrc) return refuse(cx, inst, why ?? '');
  const o = new Ops(cx, inst.span);
  const signedFinal = aS || bS || negP || cSrc.neg;
  // H100 (ref/video.ts vmad): the selected words of a and b and the word c are all read as .s32,
  // so every value fits i64 exactly (|ta * tb| <= 2^62); signedFinal picks the scale's shift
  // (arithmetic, or logical on the 64-bit pattern) and the `.sat` range.
  const ta = o.ext(part(o, a.value, a.sel, aS), true);
  const tb = o.ext(part(o, b.value, b.sel, bS), true);
  let tmp = o.bin('mul', T.i64, ta, tb);
  let cw = cSrc.value;
  let lsb = po;
  if (negP) { tmp = o.not(T.i64, tmp); lsb = true; }
  else if (cSrc.neg) { cw = o.not(T.i32, cw); lsb = true; }
  tmp = o.bin('add', T.i64, tmp, o.ext(cw, true));
  if (lsb) tmp = o.bin('add', T.i64, tmp, o.k(T.i64, 1n));
  if (scale) tmp = o.bin(signedFinal ? 'shr_s' : 'shr_u', T.i64, tmp, o.k(T.i32, scale));
  if (inst.modifiers.sat) {
    tmp = signedFinal ? o.clamp(T.i64, tmp, -(1n << 31n), (1n << 31n) - 1n) : o.clamp(T.i64, tmp, 0n, 0xffffffffn);
  }
  cx.write(operand(inst, 0), o.trunc(tmp));
};

// ------------------------------------------------------------------ SIMD

/** Lanes of the selector over the pair {b, a}: `h32` -> [2, 3] (lane 0 first). */
function laneIndices(sel: string, lanes: 2 | 4): number[] {
  const digits = sel.slice(1);
  return Array.from({ length: lanes }, (_, i) => Number(digits[digits.length - 1 - i]));
}

function simdSelectorOk(sel: string, lanes: 2 | 4): boolean {
  return lanes === 2 ? /^h[0-3]{2}$/.test(sel) : /^b[0-7]{4}$/.test(sel);
}

/** `.h0 .h1 .h10` / `.b0`..`.b3210`: digits strictly decreasing, within the lanes. */
function maskOk(mask: string, lanes: 2 | 4): boolean {
  if (mask[0] !== (lanes === 2 ? 'h' : 'b') || mask.length < 2) return false;
  const d = mask.slice(1).split('').map(Number);
  return d.every((x, i) => x < lanes && (i === 0 || x < (d[i - 1] as number)));
}

const SIMD_OPS: Readonly<Record<string, readonly [string, 2 | 4]>> = Object.fromEntries(
  ['vadd', 'vsub', 'vavrg', 'vabsdiff', 'vmin', 'vmax', 'vset'].flatMap((n) => [[`${n}2`, [n, 2]], [`${n}4`, [n, 4]]]),
);

/** vop2/vop4 and vset2/vset4: per-lane operation, .sat per lane, then merge under the mask or accumulate into c. */
const simdOp: Handler = (cx, inst) => {
  const [op, lanes] = SIMD_OPS[inst.opcode] as readonly [string, 2 | 4];
  const isSet = op === 'vset';
  const signs = videoTypes(cx, inst, isSet ? 2 : 3);
  if (!signs) return;
  const [dS, aS, bS] = (isSet ? [false, ...signs] : signs) as [Signed, Signed, Signed];
  const a = source(cx, operand(inst, 1));
  const b = source(cx, operand(inst, 2));
  const c = source(cx, operand(inst, 3));
  const mask = destSel(inst) ?? (lanes === 2 ? 'h10' : 'b3210');
  const asel = a.sel ?? (lanes === 2 ? 'h10' : 'b3210');
  const bsel = b.sel ?? (lanes === 2 ? 'h32' : 'b7654');
  const accumulate = inst.modifiers.mode === 'add';
  const cond = isSet ? VSET_CMP[inst.modifiers.compare ?? ''] : undefined;
  let why: string | null = null;
  if ([1, 2, 3].some((k) => operand(inst, k).kind !== 'register')) why = 'sources are registers (no immediates)';
  else if (!simdSelectorOk(asel, lanes) || !simdSelectorOk(bsel, lanes)) why = lanes === 2 ? 'lane selectors are .hxy, x and y in 0..3' : 'lane selectors are .bxyzw, digits in 0..7';
  else if (!maskOk(mask, lanes)) why = lanes === 2 ? 'the mask is .h0, .h1 or .h10' : 'the mask is .b0 .. .b3210 (decreasing lanes)';
  else if (c.sel) why = 'operand c takes no selector';
  else if (a.neg || b.neg || c.neg) why = 'operands cannot be negated';
  else if (inst.modifiers.mode && !accumulate) why = 'the only secondary operation is .add';
  else if (accumulate && inst.modifiers.sat) why = '.sat and .add cannot be combined';
  else if (isSet && inst.modifiers.sat) why = 'takes no .sat';
  else if (isSet && !cond) why = 'the comparison is .eq, .ne, .lt, .le, .gt or .ge';
  else if (!isSet && inst.modifiers.compare) why = 'takes no comparison';
  else if (inst.modifiers.shift || inst.modifiers.extra?.length) why = 'unexpected modifier';
  if (why) return refuse(cx, inst, why);
  const o = new Ops(cx, inst.span);
  const bits = lanes === 2 ? 16 : 8;
  const lane = (idx: number, signed: Signed): ValueId => o.field(idx < lanes ? a.value : b.value, (idx % lanes) * bits, bits, signed);
  const va = laneIndices(asel, lanes).map((i) => lane(i, aS));
  const vb = laneIndices(bsel, lanes).map((i) => lane(i, bS));
  const i32 = T.i32;
  const on = new Set(mask.slice(1).split('').map(Number));
  const t = va.map((x, i) => {
    const y = vb[i] as ValueId;
    let r: ValueId;
    switch (op) {
      case 'vadd': r = o.bin('add', i32, x, y); break;
      case 'vsub': r = o.bin('sub', i32, x, y); break;
      case 'vavrg': {
        const sum = o.bin('add', i32, x, y);
        const up = o.sel(i32, o.cmp('sge', sum, o.k(i32, 0n)), o.k(i32, 1n), o.k(i32, 0n));
        r = o.bin('shr_s', i32, o.bin('add', i32, sum, up), o.k(i32, 1n));
        break;
      }
      case 'vabsdiff': r = o.abs(i32, o.bin('sub', i32, x, y)); break;
      case 'vmin': r = o.bin('min_s', i32, x, y); break;
      case 'vmax': r = o.bin('max_s', i32, x, y); break;
      default: r = o.sel(i32, o.cmp(cond as IntCompare, x, y), o.k(i32, 1n), o.k(i32, 0n)); break;
    }
    if (inst.modifiers.sat) {
      const w = BigInt(bits);
      r = dS ? o.clamp(i32, r, -(1n << (w - 1n)), (1n << (w - 1n)) - 1n) : o.clamp(i32, r, 0n, (1n << w) - 1n);
    }
    return r;
  });
  let d: ValueId;
  if (accumulate) {
    d = c.value;
    t.forEach((r, i) => { if (on.has(i)) d = o.bin('add', i32, d, r); });
  } else {
    let keep = 0n;
    for (let i = 0; i < lanes; i++) if (!on.has(i)) keep |= ((1n << BigInt(bits)) - 1n) << BigInt(i * bits);
    d = keep === 0n ? o.k(i32, 0n) : o.bin('and', i32, c.value, o.k(i32, keep));
    t.forEach((r, i) => {
      if (!on.has(i)) return;
      const f = o.bin('and', i32, r, o.k(i32, (1n << BigInt(bits)) - 1n));
      d = o.bin('or', i32, d, i === 0 ? f : o.bin('shl', i32, f, o.k(i32, BigInt(i * bits))));
    });
  }
  cx.write(operand(inst, 0), d);
};

export const VIDEO_HANDLERS: Readonly<Record<string, Handler>> = {
  ...Object.fromEntries([...SCALAR_OPS].map((n) => [n, scalarOp])),
  vset,
  vmad,
  ...Object.fromEntries(Object.keys(SIMD_OPS).map((n) => [n, simdOp])),
};
