/**
 * WGSL expressions for `.f64` instructions. WGSL has no f64, so values are their IEEE bits
 * as vec2<u32>(low, high) and every operation is integer arithmetic in shaders/f64.wgsl,
 * correctly rounded in each PTX rounding mode, with IEEE subnormals and NVIDIA's NaNs.
 * emit-float.ts routes here whenever an operand or result is f64.
 */
import type { FloatCompare, InstOf } from '../../src/ir/inst.js';
import * as T from '../../src/ir/types.js';
import type { ExprContext } from './expr-context.js';
import { roundingOperand, widenHalf } from './rounding.js';

const mode = roundingOperand;

const ONE = 'vec2<u32>(0u, 0x3ff00000u)';

export function f64Binary(cx: ExprContext, i: InstOf<'fbinary'>): string {
  const a = cx.ref(i.a);
  const b = cx.ref(i.b);
  const rm = mode(i.rounding);
  switch (i.kind) {
    case 'add': return cx.call('f64_add', a, b, rm);
    case 'sub': return cx.call('f64_sub', a, b, rm);
    case 'mul': return cx.call('f64_mul', a, b, rm);
    case 'div': return cx.call('f64_div', a, b, rm);
    case 'min': return cx.call('f64_minmax', a, b, 'false');
    case 'max': return cx.call('f64_minmax', a, b, 'true');
  }
}

export function f64Fma(cx: ExprContext, i: InstOf<'fma'>): string {
  return cx.call('f64_fma', cx.ref(i.a), cx.ref(i.b), cx.ref(i.c), mode(i.rounding));
}

export function f64Unary(cx: ExprContext, i: InstOf<'funary'>): string {
  const v = cx.ref(i.value);
  switch (i.kind) {
    case 'neg': return cx.call('f64_neg', v);
    case 'abs': return cx.call('f64_abs', v);
    case 'sqrt': return cx.call('f64_sqrt', v, mode(i.rounding));
    case 'rcp':
      return i.rounding === 'approx' && i.ftz ? cx.call('f64_approx_hi', v, 'false') : cx.call('f64_div', ONE, v, mode(i.rounding));
    case 'rsqrt':
      return i.ftz ? cx.call('f64_approx_hi', v, 'true') : cx.call('f64_div', ONE, cx.call('f64_sqrt', v, '0u'), '0u');
    default: return cx.unsupported(`${i.kind}.f64`);
  }
}

/** Bit k of the mask: the compare holds when f64_cmp gives k (0 <, 1 ==, 2 >, 3 unordered). */
const COMPARE_MASK: { readonly [C in FloatCompare]: number } = {
  eq: 0b0010, ne: 0b0101, lt: 0b0001, le: 0b0011, gt: 0b0100, ge: 0b0110,
  equ: 0b1010, neu: 0b1101, ltu: 0b1001, leu: 0b1011, gtu: 0b1100, geu: 0b1110, num: 0b0111, nan: 0b1000,
};

export function f64Compare(cx: ExprContext, i: InstOf<'fcmp'>): string {
  return cx.call('f64_setp', cx.ref(i.a), cx.ref(i.b), `${COMPARE_MASK[i.cond]}u`);
}

/** cvt with an f64 source or destination. */
export function f64Convert(cx: ExprContext, i: InstOf<'convert'>): string {
  const from = cx.typeOf(i.value);
  const to = i.type;
  const v = cx.ref(i.value);
  const rm = mode(i.rounding);
  const sat = (e: string): string => (i.sat ? cx.call('f64_sat', e) : e);
  if (T.isFloat(to, 64)) {
    if (T.isFloat(from, 64)) {
      const integral = i.rounding === 'rni' || i.rounding === 'rzi' || i.rounding === 'rmi' || i.rounding === 'rpi';
      return sat(integral ? cx.call('f64_rint', v, rm) : v);
    }
    if (T.isFloat(from, 32)) return sat(cx.call('f64_from_f32', `bitcast<u32>(${v})`, String(i.ftz)));
    if (from.kind === 'int') {
      const bits = T.bitWidth(from);
      let wide = v;
      if (bits < 64) {
        const w = bits < 32 && i.fromSigned ? cx.call('sext_bits', v, `${bits}u`) : v;
        wide = i.fromSigned ? cx.call('i64_sext32', w) : `vec2<u32>(${w}, 0u)`;
      }
      return sat(cx.call('f64_from_int', wide, String(i.fromSigned), rm));
    }
  }
  if (T.isFloat(from, 64)) {
    if (T.isFloat(to, 32)) {
      const bits = cx.call('f64_to_f32', v, rm, String(i.ftz));
      return `bitcast<f32>(${i.sat ? cx.call('f32_bits_sat', bits) : bits})`;
    }
    if (to.kind === 'int') {
      const bits = T.bitWidth(to);
      const r = cx.call('f64_to_int', v, rm, String(i.toSigned), `${bits}u`);
      if (bits === 64) return r;
      return bits === 32 ? `${r}.x` : `(${r}.x & 0x${((1 << bits) - 1).toString(16)}u)`;
    }
  }
  // f16/bf16 <-> f64: halves widen exactly through f32; f64 rounds once into the half format
  const half = (t: T.IrType): [string, string] | null => (T.isFloat(t, 16) ? (t.kind === 'float' && t.format === 'bf16' ? ['7u', '8u'] : ['10u', '5u']) : null);
  const integral = i.rounding === 'rni' || i.rounding === 'rzi' || i.rounding === 'rmi' || i.rounding === 'rpi';
  const hf = half(from);
  if (hf && T.isFloat(to, 64) && !integral && !i.ftz) return sat(cx.call('f64_from_f32', widenHalf(cx, v, from), 'false'));
  const ht = half(to);
  if (ht && T.isFloat(from, 64) && !integral && !i.ftz && !i.relu && !i.satfinite) {
    const r = cx.call('f64_to_fr', v, rm, ...ht);
    return i.sat ? cx.call('fr_narrow', cx.call('f32_bits_sat', widenHalf(cx, r, to)), ...ht) : r;
  }
  return cx.unsupported(`cvt from ${T.typeName(from)} to ${T.typeName(to)}`);
}
