/**
 * The narrow-float forms of cvt (ISA cvt: fp8 on sm_89+, fp4/fp6/ue8m0 on sm_100a, tf32), exactly
 * the forms ptxas 13 accepts:
 *
 *   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m1x2,e2m3x2,e3m2x2}.f32   d, a, b
 *   cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m1x2}.f16x2               d, a
 *   cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2,e2m1x2,e2m3x2,e3m2x2}           d, a
 *   cvt.{rz,rp}{.satfinite}.ue8m0x2.f32 d, a, b;  cvt.{rz,rp}{.satfinite}.ue8m0x2.bf16x2 d, a
 *   cvt.rn.bf16x2.ue8m0x2 d, a
 *   cvt.rna{.satfinite}.tf32.f32 d, a;  cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32 d, a
 *
 * Each lane is one `convert` whose integer side holds the narrow bits; the first source `a` (or
 * the high half of a packed source) goes to the high lane of d. e2m1x2 is a .b8 value (4-bit
 * lanes); the fp6 lanes are bytes whose 2 high bits are zero.
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import type { ConvertInst } from '../ir/inst.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import { operand } from './handler.js';
import { packLanes, unpackLanes } from './handlers-float.js';

type Format = NonNullable<ConvertInst['minifloat']>['format'];

/** The two-lane narrow types: their lane format and lane width in bits. */
const X2: Readonly<Record<string, { readonly format: Format; readonly bits: number }>> = {
  e4m3x2: { format: 'e4m3', bits: 8 }, e5m2x2: { format: 'e5m2', bits: 8 }, e2m1x2: { format: 'e2m1', bits: 4 },
  e2m3x2: { format: 'e2m3', bits: 8 }, e3m2x2: { format: 'e3m2', bits: 8 }, ue8m0x2: { format: 'ue8m0', bits: 8 },
};

/** Whether ptxas accepts this narrowing (to `f`) or widening (from `f`) with source/destination `other`. */
function accepted(f: Format, narrowing: boolean, other: Ast.ScalarType, inst: Ast.Instruction): boolean {
  const m = inst.modifiers;
  if (m.ftz || m.sat) return false;
  const pair = other === 'f32' && inst.operands.length === 3;
  if (f === 'ue8m0') {
    if (m.relu) return false;
    if (!narrowing) return m.rounding === 'rn' && !m.satfinite && other === 'bf16x2';
    return (m.rounding === 'rz' || m.rounding === 'rp') && (pair || other === 'bf16x2');
  }
  if (m.rounding !== 'rn') return false;
  if (!narrowing) return !m.satfinite && other === 'f16x2';
  const fromHalves = other === 'f16x2' && f !== 'e2m3' && f !== 'e3m2';
  return !!m.satfinite && (pair || fromHalves);
}

/** Lowers the narrow-float and tf32 forms of cvt; false for other forms (the caller reports them). */
export function minifloat(cx: BuildContext, inst: Ast.Instruction, dt: Ast.ScalarType, st: Ast.ScalarType): boolean {
  const s = inst.span;
  const m = inst.modifiers;
  const flags = { ...(m.relu ? { relu: true } : {}), ...(m.satfinite ? { satfinite: true } : {}) };
  const rounding = m.rounding === 'rz' || m.rounding === 'rp' ? m.rounding : 'rn';
  const conv = (value: ValueId, type: T.IrType, format: Format, tiesAway = false): ValueId => cx.emit({
    op: 'convert', type, value, fromSigned: false, toSigned: false, rounding, sat: false, ftz: false, ...flags,
    minifloat: { format, tiesAway },
  }, s);
  const i16 = (v: number): ValueId => cx.constant(T.i16, BigInt(v), s);
  const bin = (kind: 'shl' | 'shr_u' | 'and' | 'or', a: ValueId, b: ValueId): ValueId => cx.emit({ op: 'ibinary', kind, type: T.i16, a, b }, s);
  const to = X2[dt];
  if (to && accepted(to.format, true, st, inst)) {
    const [lo, hi] = st === 'f32'
      ? [cx.read(operand(inst, 2), T.f32), cx.read(operand(inst, 1), T.f32)]
      : unpackLanes(cx, cx.read(operand(inst, 1), T.i32), st === 'bf16x2' ? T.bf16 : T.f16, s);
    const d = bin('or', bin('shl', conv(hi, T.i16, to.format), i16(to.bits)), conv(lo, T.i16, to.format));
    cx.write(operand(inst, 0), d);
    return true;
  }
  const from = X2[st];
  if (from && accepted(from.format, false, dt, inst)) {
    const a = cx.read(operand(inst, 1), T.i16);
    const mask = i16((1 << from.bits) - 1);
    const lane = from.format === 'ue8m0' ? T.bf16 : T.f16;
    const lo = conv(bin('and', a, mask), lane, from.format);
    const hi = conv(bin('and', bin('shr_u', a, i16(from.bits)), mask), lane, from.format);
    cx.write(operand(inst, 0), packLanes(cx, lo, hi, s));
    return true;
  }
  if (dt === 'tf32' && st === 'f32' && (m.rounding === 'rna' || m.rounding === 'rn' || m.rounding === 'rz')) {
    cx.write(operand(inst, 0), conv(cx.read(operand(inst, 1), T.f32), T.i32, 'tf32', m.rounding === 'rna'));
    return true;
  }
  return false;
}
