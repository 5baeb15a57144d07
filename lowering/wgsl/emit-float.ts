/**
 * WGSL expressions for f32/f16/bf16 instructions (f64 goes to emit-f64.ts). f16 and bf16 values
 * are their bits in a u32; every rounding that WGSL cannot do exactly (directed modes, division,
 * square root, all half arithmetic, conversions) is integer arithmetic on bit patterns
 * (shaders/round32.wgsl, cvt32.wgsl), exact on every device. Only add/sub/mul.rn use WGSL's own
 * + and *, guarded where a device could flush subnormals. NaN results are NVIDIA's canonical
 * NaNs; `.ftz` follows the hardware (tininess detected before rounding for mul/fma); forms
 * without a lowering are L002 errors.
 */
import { operandsOf, type Inst, type InstOf } from '../../src/ir/inst.js';
import type { FloatRounding } from '../../src/ir/inst.js';
import type { ValueId } from '../../src/ir/entities.js';
import * as T from '../../src/ir/types.js';
import type { ExprContext } from './expr-context.js';
import { roundingOperand, widenHalf } from './rounding.js';
import * as F64 from './emit-f64.js';
import { nativeApprox, type ApproxFunction } from './native-float.js';

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

const mode = roundingOperand;

/** (fraction bits, exponent bits) of the f32/f16/bf16 formats, as helper arguments. */
function fmt(t: T.IrType): [string, string] {
  if (t.kind === 'float' && t.bits === 32) return ['23u', '8u'];
  return t.kind === 'float' && t.format === 'bf16' ? ['7u', '8u'] : ['10u', '5u'];
}
const isHalf = (t: T.IrType): boolean => T.isFloat(t, 16);

/** An operand as f32 bits (halves widen exactly), flushed when `.ftz`. */
function bitsIn(cx: ExprContext, v: ValueId, ftz: boolean): string {
  const t = cx.typeOf(v);
  if (isHalf(t)) return widenHalf(cx, ftz ? cx.call('fr_ftz', cx.ref(v), ...fmt(t)) : cx.ref(v), t);
  const raw = `bitcast<u32>(${cx.ref(v)})`;
  return ftz && !cx.notSubnormal(v) ? cx.call('f32r_ftz', raw) : raw;
}

/** Result bits of type t: `.ftz` flushes a subnormal result, `.sat` clamps; f32 becomes a WGSL f32. */
function bitsOut(cx: ExprContext, t: T.IrType, bits: string, ftz: boolean, sat: boolean, clamp: { relu?: boolean; satfinite?: boolean } = {}): string {
  let r = bits;
  if (isHalf(t)) {
    if (ftz) r = cx.call('fr_ftz', r, ...fmt(t));
    if (sat) r = cx.call('fr_narrow', cx.call('f32r_sat', widenHalf(cx, r, t)), ...fmt(t));
    if (clamp.relu || clamp.satfinite) r = cx.call('fr_clamp', r, String(!!clamp.relu), String(!!clamp.satfinite), ...fmt(t));
    return r;
  }
  if (clamp.relu || clamp.satfinite) cx.unsupported('.relu/.satfinite on f32');
  if (ftz) r = cx.call('f32r_ftz', r);
  if (sat) r = cx.call('f32r_sat', r);
  return `bitcast<f32>(${r})`;
}

const checkFloat = (cx: ExprContext, t: T.IrType, what: string): boolean => (T.isFloat(t, 32) || isHalf(t) ? true : (cx.unsupported(`${what} on ${T.typeName(t)}`), false));

export function floatBinary(cx: ExprContext, i: InstOf<'fbinary'>): string {
  if (T.isFloat(i.type, 64)) return F64.f64Binary(cx, i);
  if (!checkFloat(cx, i.type, i.kind)) return '0.0f';
  const a = bitsIn(cx, i.a, i.ftz);
  const b = bitsIn(cx, i.b, i.ftz);
  const rm = mode(i.rounding);
  const half = isHalf(i.type);
  const [fb, eb] = fmt(i.type);
  const native = (op: string): string => canonical(cx, `(bitcast<f32>(${a}) ${op} bitcast<f32>(${b}))`);
  // Default rounding (which lets PTX contract add and mul) on a device the probe showed exact for
  // the form (.ftz or not): WGSL's own + - *; an explicit .rn keeps the checked helpers.
  const arith = !half && i.rounding === 'default' && (i.kind === 'add' || i.kind === 'sub' || i.kind === 'mul');
  const op = i.kind === 'add' ? '+' : i.kind === 'sub' ? '-' : '*';
  if (arith && (i.ftz ? cx.nativeFloat.ftz : cx.nativeFloat.addMul && !i.sat)) {
    const x = `(${cx.ref(i.a)} ${op} ${cx.ref(i.b)})`;
    if (i.sat) return bitsOut(cx, i.type, canonical(cx, x), false, true);
    return cx.nativeFloat.canonicalNaN ? x : `bitcast<f32>(${cx.call('f32r_canon', x)})`;
  }
  // an exact product that is never subnormal (the portable mma's f16 and fp8 products): nothing
  // for a flushing device to get wrong. Its only reader is the mma's sum, whose add makes a NaN
  // canonical (natively where the device does, else through its check), so this one need not.
  if (i.exact && i.kind === 'mul' && !half && !i.ftz && !i.sat) return `(${cx.ref(i.a)} * ${cx.ref(i.b)})`;
  const plain = arith && cx.nativeFloat.addMul;
  let e: string;
  switch (i.kind) {
    // .rn: WGSL's own f32 + and * with an integer path where a device could flush subnormals
    case 'add': e = plain ? native('+') : !half && rm === '0u' ? cx.call('f32r_add_rn', a, b) : cx.call('fr_add', a, b, rm, fb, eb); break;
    case 'sub': e = plain ? native('-') : !half && rm === '0u' ? cx.call('f32r_add_rn', a, `(${b} ^ 0x80000000u)`) : cx.call('fr_add', a, `(${b} ^ 0x80000000u)`, rm, fb, eb); break;
    case 'mul':
      e = plain ? native('*') : !half && rm === '0u' ? cx.call('f32r_mul_rn', a, b) : cx.call('fr_mul', a, b, rm, fb, eb);
      if (i.ftz) e = cx.call('fr_tiny', e, a, b, '0u', 'false', fb, eb);
      break;
    case 'div':
      if (half) return cx.unsupported(`div on ${T.typeName(i.type)}`);
      e = i.rounding === 'approx' || i.rounding === 'full' ? native('/') : rm === '0u' && cx.nativeFma ? cx.call('f32r_div_rn', a, b) : cx.call('f32r_div', a, b, rm);
      break;
    case 'min': case 'max': {
      const m = i.minmax ?? { nan: false, xorsignAbs: false };
      const native = !half && !m.nan && !m.xorsignAbs ? nativeMinMax(cx, i) : undefined;
      if (native) return native;
      e = cx.call('f32r_minmax', a, b, String(i.kind === 'max'), String(m.nan), String(m.xorsignAbs));
      if (half) e = cx.call('fr_narrow', e, fb, eb);
      break;
    }
  }
  return bitsOut(cx, i.type, e, i.ftz, i.sat, i);
}

/**
 * min/max.f32 through WGSL's min()/max() where the probe proved them PTX's (native-float.ts): as
 * they are where they are exact, else checked: a result that is zero, subnormal or NaN takes the
 * exact helper (a flushed operand, the order of signed zeros or the choice between two NaNs can
 * only have changed such a result). The .ftz forms take the flushed operands' bits. A softmax's
 * row maximum took an H200 0.23 ms of 1.61 through the bit-level helper alone.
 */
function nativeMinMax(cx: ExprContext, i: InstOf<'fbinary'>): string | undefined {
  const kind = cx.nativeFloat.minMax;
  if (kind === 'none') return undefined;
  if (kind === 'exact' && !i.ftz) return `${i.kind}(${cx.ref(i.a)}, ${cx.ref(i.b)})`;
  return `bitcast<f32>(${cx.call('f32r_minmax_checked', bitsIn(cx, i.a, i.ftz), bitsIn(cx, i.b, i.ftz), String(i.kind === 'max'))})`;
}

export function fma(cx: ExprContext, i: InstOf<'fma'>): string {
  if (T.isFloat(i.type, 64)) return F64.f64Fma(cx, i);
  if (isHalf(i.type)) return halfFma(cx, i);
  if (T.isFloat(i.type, 32) && (i.rounding === 'rz' || i.rounding === 'rm' || i.rounding === 'rp')) {
    const [a, b, c] = [bitsIn(cx, i.a, i.ftz), bitsIn(cx, i.b, i.ftz), bitsIn(cx, i.c, i.ftz)];
    // a fused fma() gives the nearest result and the sign of the residual (fma32.wgsl)
    const r = cx.call(cx.nativeFma ? 'f32r_fma_directed' : 'f32r_fma', a, b, c, mode(i.rounding));
    return bitsOut(cx, i.type, i.ftz ? cx.call('fr_tiny', r, a, b, c, 'true', '23u', '8u') : r, i.ftz, i.sat);
  }
  if (!check32(cx, i.type, 'fma') || !roundingOk(cx, i.rounding, 'fma')) return '0.0f';
  // fma.rn: WGSL fma() where the device fuses it, else the exact integer emulation; then NVIDIA's
  // canonical NaN, and `.ftz` flushing inputs and results that are tiny before rounding.
  if (cx.nativeFma && i.ftz && cx.nativeFloat.ftzFma) {
    // the device flushes as .ftz does (probed with fma too)
    const x = `fma(${cx.ref(i.a)}, ${cx.ref(i.b)}, ${cx.ref(i.c)})`;
    if (i.sat) return bitsOut(cx, i.type, canonical(cx, x), false, true);
    return cx.nativeFloat.canonicalNaN ? x : `bitcast<f32>(${cx.call('f32r_canon', x)})`;
  }
  const bits = [bitsIn(cx, i.a, i.ftz), bitsIn(cx, i.b, i.ftz), bitsIn(cx, i.c, i.ftz)] as const;
  const args = i.ftz ? bits.map((b) => `bitcast<f32>(${b})`) : [cx.ref(i.a), cx.ref(i.b), cx.ref(i.c)];
  let r: string;
  if (!cx.nativeFma) r = cx.call('f32r_canon', `bitcast<f32>(${cx.call('f32_fma_exact', ...bits)})`);
  else if (!cx.nativeFloat.addMul) r = cx.call('f32_fma_checked', ...bits); // the device may flush subnormals
  else {
    const e = `fma(${args.join(', ')})`;
    if (cx.nativeFloat.canonicalNaN && !i.ftz && !i.sat) return e;
    r = canonical(cx, e);
  }
  return bitsOut(cx, i.type, i.ftz ? cx.call('fr_tiny', r, ...bits, 'true', '23u', '8u') : r, i.ftz, i.sat);
}

/**
 * The f32 arithmetic written as WGSL's own operation checked for a result a flushing device
 * could have got wrong (f32r_add_rn, f32r_mul_rn, f32_fma_checked): a replay region
 * (replay-regions.ts) may take it, with one test for the region instead of a branch per operation.
 */
export type CheckedArith = 'add' | 'sub' | 'mul' | 'fma';

export function checkedArith(cx: ExprContext, inst: Inst): CheckedArith | undefined {
  if (inst.op !== 'fbinary' && inst.op !== 'fma') return undefined;
  if (!T.isFloat(inst.type, 32) || inst.ftz || inst.sat || (inst.rounding !== 'default' && inst.rounding !== 'rn')) return undefined;
  if (inst.op === 'fma') return cx.nativeFma && !cx.nativeFloat.addMul ? 'fma' : undefined;
  if (inst.kind !== 'add' && inst.kind !== 'sub' && inst.kind !== 'mul') return undefined;
  if (inst.exact) return undefined;
  return inst.rounding === 'default' && cx.nativeFloat.addMul ? undefined : inst.kind;
}

/** The unchecked f32 expression of checked arithmetic (the region's test follows it). */
export function fastArith(cx: ExprContext, inst: Inst, arith: CheckedArith): string {
  const ops = operandsOf(inst).map((v) => cx.ref(v));
  if (arith === 'fma') return `fma(${ops.join(', ')})`;
  return `(${ops[0] as string} ${arith === 'add' ? '+' : arith === 'sub' ? '-' : '*'} ${ops[1] as string})`;
}

/** fma on f16/bf16: halves widen exactly to f32; the integer fma rounds once into the half format. */
function halfFma(cx: ExprContext, i: InstOf<'fma'>): string {
  const [fb, eb] = fmt(i.type);
  const [a, b, c] = [bitsIn(cx, i.a, i.ftz), bitsIn(cx, i.b, i.ftz), bitsIn(cx, i.c, i.ftz)];
  const r = cx.call('fr_fma', a, b, c, mode(i.rounding), fb, eb);
  return bitsOut(cx, i.type, i.ftz ? cx.call('fr_tiny', r, a, b, c, 'true', fb, eb) : r, i.ftz, i.sat, i);
}

export function floatUnary(cx: ExprContext, i: InstOf<'funary'>): string {
  if (T.isFloat(i.type, 64)) return F64.f64Unary(cx, i);
  if (!checkFloat(cx, i.type, i.kind)) return '0.0f';
  const half = isHalf(i.type);
  if (half) {
    const v = cx.ref(i.value);
    const [fb, eb] = fmt(i.type);
    const flushed = i.ftz ? cx.call('fr_ftz', v, fb, eb) : v;
    if (i.kind === 'neg' || i.kind === 'abs') return cx.call('fr_absneg', flushed, String(i.kind === 'neg'), fb, eb);
    // ex2/tanh.approx on halves: the f32 approximation of the exactly widened input, rounded to
    // nearest (within the half-precision bounds of the ISA)
    if ((i.kind === 'ex2' || i.kind === 'tanh') && i.rounding === 'approx') {
      if (i.kind === 'tanh') return cx.call('fr_tanh', flushed, fb, eb);
      return cx.call('fr_narrow', cx.call('f32r_ex2', widenHalf(cx, flushed, i.type)), fb, eb);
    }
    return cx.unsupported(`${i.kind} on ${T.typeName(i.type)}`);
  }
  // sin/cos flush subnormal inputs even without .ftz (ISA result tables; an H100 agrees)
  const u = bitsIn(cx, i.value, i.ftz || i.kind === 'sin' || i.kind === 'cos');
  const rm = mode(i.rounding);
  let e: string;
  switch (i.kind) {
    case 'neg': case 'abs': e = cx.call('fr_absneg', u, String(i.kind === 'neg'), '23u', '8u'); break;
    case 'sqrt': e = i.rounding === 'approx' ? cx.call('f32r_sqrt_approx', u) : rm === '0u' && cx.nativeFma ? cx.call('f32r_sqrt_rn', u) : cx.call('f32r_sqrt', u, rm); break;
    case 'rcp': e = i.rounding === 'approx' ? canonical(cx, `(1.0f / bitcast<f32>(${u}))`) : rm === '0u' && cx.nativeFma ? cx.call('f32r_div_rn', '0x3f800000u', u) : cx.call('f32r_div', '0x3f800000u', u, rm); break;
    // rsqrt and lg2 of an operand that is not subnormal are the same with and without .ftz, and
    // never subnormal themselves: such an operand may take the .ftz built-in, unflushed
    case 'rsqrt': e = approx(cx, 'rsqrt', u, () => cx.call('f32r_rsqrt', u), i.ftz, cx.notSubnormal(i.value)); break;
    case 'sin': e = approx(cx, 'sin', u, () => cx.call('f32r_sincos', u, 'false')); break;
    case 'cos': e = approx(cx, 'cos', u, () => cx.call('f32r_sincos', u, 'true')); break;
    case 'lg2': e = approx(cx, 'lg2', u, () => cx.call('f32r_lg2', u), i.ftz, cx.notSubnormal(i.value)); break;
    case 'ex2': e = approx(cx, 'ex2', u, () => cx.call('f32r_ex2', u), i.ftz); break;
    case 'tanh': e = approx(cx, 'tanh', u, () => cx.call('f32r_tanh', u), i.ftz); break;
  }
  return bitsOut(cx, i.type, e, i.ftz && i.kind !== 'rsqrt' && i.kind !== 'lg2', false);
}

/** The bits of f32 expression `x`, NaN canonicalised unless the device's NaNs already are. */
function canonical(cx: ExprContext, x: string): string {
  return cx.nativeFloat.canonicalNaN ? `bitcast<u32>(${x})` : cx.call('f32r_canon', x);
}

/**
 * An `.approx` function: the WGSL built-in where the device probe matched the helper's bits;
 * `asFtz`: the operand is not subnormal and the function's result never is, so the `.ftz`
 * form's probe answers for it too.
 */
function approx(cx: ExprContext, f: ApproxFunction, u: string, helper: () => string, ftz = false, asFtz = false): string {
  const native = (ftz ? cx.nativeFloat.approxFtz : cx.nativeFloat.approx).includes(f) || (asFtz && cx.nativeFloat.approxFtz.includes(f));
  return native ? nativeApprox(f, u) : helper();
}

/** Outcome masks of f32r_cmp (bit 0 less, 1 equal, 2 greater, 3 unordered) per PTX compare. */
const CMP_MASK: Readonly<Record<string, number>> = {
  eq: 2, ne: 5, lt: 1, le: 3, gt: 4, ge: 6, equ: 10, neu: 13, ltu: 9, leu: 11, gtu: 12, geu: 14, num: 7, nan: 8,
};

export function floatCompare(cx: ExprContext, i: InstOf<'fcmp'>): string {
  if (T.isFloat(cx.typeOf(i.a), 64)) return F64.f64Compare(cx, i);
  if (!checkFloat(cx, cx.typeOf(i.a), `setp.${i.cond}`)) return 'false';
  return cx.call('f32r_setp', bitsIn(cx, i.a, i.ftz), bitsIn(cx, i.b, i.ftz), `${CMP_MASK[i.cond] ?? 0}u`);
}

/** Integer operand as a 64-bit two's complement value (narrow signed ones sign-extended). */
function int64In(cx: ExprContext, v: ValueId, signed: boolean): string {
  const t = cx.typeOf(v) as T.IntType;
  const r = cx.ref(v);
  if (t.bits === 64) return r;
  const lo = signed && t.bits < 32 ? cx.call('sext_bits', r, `${t.bits}u`) : r;
  return signed ? cx.call('i64_sext32', lo) : `vec2<u32>(${lo}, 0u)`;
}

/**
 * cvt to f32 of an integer of at most 32 bits through WGSL's own conversion, as u32 bits, where
 * that is exact: WGSL converts an exactly representable integer exactly, so a value of at most 16
 * bits needs nothing more (in any rounding mode), and a 32-bit one rounded to nearest is the f32
 * sum of two exactly representable parts (one rounding, by the IEEE add). Real kernels convert
 * indices and random bits this way in inner loops (a Monte Carlo sampler: two per sample), where
 * the integer helper costs tens of instructions; anything else keeps it.
 */
function nativeIntToF32(cx: ExprContext, v: ValueId, bits: number, signed: boolean, rm: string): string | undefined {
  const r = cx.ref(v);
  if (bits <= 16) return `bitcast<u32>(f32(${signed ? `i32(${cx.call('sext_bits', r, `${bits}u`)})` : r}))`;
  if (bits !== 32 || rm !== '0u') return undefined;
  return cx.call(signed ? 's32_to_f32_rn' : 'u32_to_f32_rn', r);
}

/** cvt between integers, f32, f16 and bf16 (f64 forms go to emit-f64.ts), exactly in every mode. */
export function convert(cx: ExprContext, i: InstOf<'convert'>): string {
  if (i.minifloat) return minifloatConvert(cx, i, i.minifloat);
  if (T.isFloat(i.type, 64) || T.isFloat(cx.typeOf(i.value), 64)) return F64.f64Convert(cx, i);
  const from: T.IrType = cx.typeOf(i.value);
  const to: T.IrType = i.type as T.IrType;
  const rm = mode(i.rounding);
  if (from.kind === 'int' && to.kind === 'float') {
    const native = T.isFloat(to, 32) ? nativeIntToF32(cx, i.value, from.bits, i.fromSigned, rm) : undefined;
    if (native) return bitsOut(cx, to, native, false, i.sat, i);
    return bitsOut(cx, to, cx.call('int_to_fr', int64In(cx, i.value, i.fromSigned), String(i.fromSigned), rm, ...fmt(to)), false, i.sat, i);
  }
  if (from.kind === 'float' && to.kind === 'int') {
    // 32-bit results through WGSL's rounding built-ins and conversion (exact on integral values in
    // range): the integer helper costs tens of instructions where kernels bin or index by a float
    if (to.bits === 32) return cx.call('f32_to_int32', bitsIn(cx, i.value, i.ftz), rm, String(i.toSigned));
    const r = cx.call('f32_to_int', bitsIn(cx, i.value, i.ftz), rm, String(i.toSigned), `${to.bits}u`);
    if (to.bits === 64) return r;
    return `(${r}.x & ${(2 ** to.bits - 1).toString()}u)`;
  }
  if (from.kind === 'float' && to.kind === 'float') {
    const intRound = i.rounding === 'rni' || i.rounding === 'rzi' || i.rounding === 'rmi' || i.rounding === 'rpi';
    let u = bitsIn(cx, i.value, i.ftz);
    if (intRound) u = cx.call('f32_rint', u, rm);
    if (isHalf(to)) {
      const [fb, eb] = fmt(to);
      const narrowed = cx.call('fr_narrow_rm', u, intRound ? '0u' : rm, fb, eb);
      return bitsOut(cx, to, narrowed, i.ftz, i.sat, i);
    }
    // to f32: exact (a half widens exactly, f32 to f32 only rounds to an integer), NaNs canonical
    // (.sat sends NaN to +0 itself)
    return bitsOut(cx, to, i.sat ? u : cx.call('f32r_canon_bits', u), i.ftz, i.sat);
  }
  return cx.unsupported(`cvt from ${T.typeName(from)} to ${T.typeName(to)}`);
}

/** Fraction and exponent bits of the fp4/fp6 formats (no infinities or NaN). */
const F4F6: Readonly<Record<string, readonly [string, string]>> = { e2m1: ['1u', '2u'], e2m3: ['3u', '2u'], e3m2: ['2u', '3u'] };

/**
 * Narrow floats (fp8, fp6, fp4, ue8m0) <-> f32/f16/bf16 lanes and f32 -> tf32 (shaders/cvt8.wgsl);
 * the integer side holds the narrow bits.
 */
function minifloatConvert(cx: ExprContext, i: InstOf<'convert'>, mf: NonNullable<InstOf<'convert'>['minifloat']>): string {
  const relu = String(!!i.relu);
  const narrowing = i.type.kind === 'int';
  switch (mf.format) {
    case 'tf32': {
      const rm = mf.tiesAway ? '4u' : i.rounding === 'rz' ? '1u' : '0u';
      return cx.call('tf32_from_f32', bitsIn(cx, i.value, false), rm, String(!!i.satfinite), relu);
    }
    case 'ue8m0':
      return narrowing
        ? cx.call('ue8m0_from_f32', bitsIn(cx, i.value, false), String(i.rounding === 'rp'), String(!!i.satfinite))
        : cx.call('ue8m0_to_bf16', cx.ref(i.value));
    case 'e4m3': case 'e5m2': {
      const e4m3 = String(mf.format === 'e4m3');
      return narrowing ? cx.call('f8_from_f32', bitsIn(cx, i.value, false), e4m3, relu) : cx.call('f8_to_f16', cx.ref(i.value), e4m3, relu);
    }
    default: {
      const [fb, eb] = F4F6[mf.format] as readonly [string, string];
      return narrowing ? cx.call('f4f6_from_f32', bitsIn(cx, i.value, false), fb, eb, relu) : cx.call('f4f6_to_f16', cx.ref(i.value), fb, eb, relu);
    }
  }
}
