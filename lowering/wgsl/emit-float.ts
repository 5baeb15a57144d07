/**
 * WGSL expressions for floating-point instructions. What WGSL cannot express exactly
 * (directed rounding, PTX NaN rules of min/max, ftz) goes through helpers or is reported
 * as unsupported rather than silently rounded to nearest.
 */
import type { InstOf } from '../../src/ir/inst.js';
import type { FloatRounding } from '../../src/ir/inst.js';
import * as T from '../../src/ir/types.js';
import type { ExprContext } from './expr-context.js';

function check32(cx: ExprContext, t: T.IrType, what: string): boolean {
  if (T.isFloat(t, 32)) return true;
  cx.unsupported(`${what} on ${T.typeName(t)}`);
  return false;
}

/** Nearest-even is WGSL's own rounding; other modes need emulation (issue: exact scalar ISA). */
function roundingOk(cx: ExprContext, r: FloatRounding, what: string): boolean {
  if (r === 'default' || r === 'rn' || r === 'approx' || r === 'full') return true;
  cx.unsupported(`rounding mode .${r} on ${what}`);
  return false;
}

export function floatBinary(cx: ExprContext, i: InstOf<'fbinary'>): string {
  if (!check32(cx, i.type, `${i.kind}`) || !roundingOk(cx, i.rounding, i.kind)) return '0.0f';
  const a = cx.ref(i.a);
  const b = cx.ref(i.b);
  let e: string;
  switch (i.kind) {
    case 'add': e = `(${a} + ${b})`; break;
    case 'sub': e = `(${a} - ${b})`; break;
    case 'mul': e = `(${a} * ${b})`; break;
    case 'div': e = i.rounding === 'approx' || i.rounding === 'full' ? `(${a} / ${b})` : cx.call('f32_div_rn', a, b); break;
    case 'min': e = cx.call('f32_min', a, b); break;
    case 'max': e = cx.call('f32_max', a, b); break;
  }
  return i.sat ? cx.call('f32_sat', e) : e;
}

export function fma(cx: ExprContext, i: InstOf<'fma'>): string {
  if (!check32(cx, i.type, 'fma') || !roundingOk(cx, i.rounding, 'fma')) return '0.0f';
  const args = [cx.ref(i.a), cx.ref(i.b), cx.ref(i.c)] as const;
  const e = cx.nativeFma ? `fma(${args.join(', ')})` : cx.call('f32_fma_exact', ...args);
  return i.sat ? cx.call('f32_sat', e) : e;
}

export function floatUnary(cx: ExprContext, i: InstOf<'funary'>): string {
  if (!check32(cx, i.type, i.kind)) return '0.0f';
  const v = cx.ref(i.value);
  switch (i.kind) {
    case 'neg': return `(-${v})`;
    case 'abs': return `abs(${v})`;
    case 'sqrt': return i.rounding === 'approx' ? `sqrt(${v})` : cx.call('f32_sqrt_rn', v);
    case 'rcp': return i.rounding === 'approx' ? `(1.0f / ${v})` : cx.call('f32_div_rn', '1.0f', v);
    case 'rsqrt': return `inverseSqrt(${v})`;
    case 'sin': return `sin(${v})`;
    case 'cos': return `cos(${v})`;
    case 'lg2': return `log2(${v})`;
    case 'ex2': return `exp2(${v})`;
    case 'tanh': return `tanh(${v})`;
  }
}

export function floatCompare(cx: ExprContext, i: InstOf<'fcmp'>): string {
  if (!check32(cx, cx.typeOf(i.a), `setp.${i.cond}`)) return 'false';
  const a = cx.ref(i.a);
  const b = cx.ref(i.b);
  const nan = (): string => `(${cx.call('f32_isnan', a)} || ${cx.call('f32_isnan', b)})`;
  switch (i.cond) {
    case 'eq': return `(${a} == ${b})`;
    case 'lt': return `(${a} < ${b})`;
    case 'le': return `(${a} <= ${b})`;
    case 'gt': return `(${a} > ${b})`;
    case 'ge': return `(${a} >= ${b})`;
    case 'ne': return `((${a} < ${b}) || (${a} > ${b}))`;
    case 'equ': return `(!((${a} < ${b}) || (${a} > ${b})))`;
    case 'neu': return `(!(${a} == ${b}))`;
    case 'ltu': return `(!(${a} >= ${b}))`;
    case 'leu': return `(!(${a} > ${b}))`;
    case 'gtu': return `(!(${a} <= ${b}))`;
    case 'geu': return `(!(${a} < ${b}))`;
    case 'num': return `(!${nan()})`;
    case 'nan': return nan();
  }
}

/** cvt between integers and f32 (other float widths wait for the f16/f64 work). */
export function convert(cx: ExprContext, i: InstOf<'convert'>): string {
  const from = cx.typeOf(i.value);
  const to = i.type;
  const v = cx.ref(i.value);
  if (T.isFloat(to, 32) && from.kind === 'int' && T.bitWidth(from) <= 32) {
    if (i.rounding !== 'default' && i.rounding !== 'rn') return cx.unsupported(`cvt.${i.rounding}.f32 from an integer`);
    const bits = T.bitWidth(from);
    if (i.fromSigned) return `f32(i32(${bits < 32 ? cx.call('sext_bits', v, `${bits}u`) : v}))`;
    return `f32(${v})`;
  }
  if (from.kind === 'float' && T.isFloat(from, 32) && to.kind === 'int' && T.bitWidth(to) === 32) {
    const rounded = i.rounding === 'rni' ? `round(${v})` : i.rounding === 'rmi' ? `floor(${v})` : i.rounding === 'rpi' ? `ceil(${v})` : v;
    return cx.call(i.toSigned ? 'f32_to_s32' : 'f32_to_u32', rounded);
  }
  if (T.isFloat(from, 32) && T.isFloat(to, 32)) {
    if (i.rounding === 'rni') return `round(${v})`;
    if (i.rounding === 'rmi') return `floor(${v})`;
    if (i.rounding === 'rpi') return `ceil(${v})`;
    if (i.rounding === 'rzi') return `trunc(${v})`;
    return i.sat ? cx.call('f32_sat', v) : v;
  }
  return cx.unsupported(`cvt from ${T.typeName(from)} to ${T.typeName(to)}`);
}
