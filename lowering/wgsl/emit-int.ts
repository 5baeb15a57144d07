/**
 * WGSL expressions for integer instructions. 32-bit values are `u32`; narrow ones keep
 * zero upper bits (so results are masked and signed inputs sign-extended); 64-bit values
 * are `vec2<u32>` handled by shaders/int64.wgsl.
 */
import type { InstOf } from '../../src/ir/inst.js';
import * as T from '../../src/ir/types.js';
import type { ExprContext } from './expr-context.js';

const mask = (bits: number): string => `0x${((1n << BigInt(bits)) - 1n).toString(16)}u`;

/** Wraps a 32-bit expression to `bits` (no-op at 32). */
export function wrap(expr: string, bits: number): string {
  return bits >= 32 ? expr : `((${expr}) & ${mask(bits)})`;
}

/** The operand sign-extended to 32 bits when it is narrow. */
function sext(cx: ExprContext, v: string, bits: number): string {
  return bits >= 32 ? v : cx.call('sext_bits', v, `${bits}u`);
}

export function intBinary(cx: ExprContext, i: InstOf<'ibinary'>): string {
  const bits = T.bitWidth(i.type);
  const a = cx.ref(i.a);
  const b = cx.ref(i.b);
  if (i.type.kind === 'pred') return predBinary(i.kind, a, b);
  if (bits === 64) return int64Binary(cx, i.kind, a, b);
  const sa = (): string => sext(cx, a, bits);
  const sb = (): string => sext(cx, b, bits);
  switch (i.kind) {
    case 'add': return wrap(`${a} + ${b}`, bits);
    case 'sub': return wrap(`${a} - ${b}`, bits);
    case 'mul': return wrap(`${a} * ${b}`, bits);
    case 'and': return `(${a} & ${b})`;
    case 'or': return `(${a} | ${b})`;
    case 'xor': return `(${a} ^ ${b})`;
    case 'shl': return bits === 32 ? cx.call('shl_u32', a, b) : wrap(cx.call('shl_u32', a, `min(${b}, ${bits}u)`), bits);
    case 'shr_u': return bits === 32 ? cx.call('shr_u32', a, b) : cx.call('shr_u32', a, `min(${b}, ${bits}u)`);
    case 'shr_s': return wrap(cx.call('shr_s32', sa(), b), bits);
    case 'mulhi_u': return bits === 32 ? cx.call('mulhi_u32', a, b) : `((${a} * ${b}) >> ${bits}u)`;
    case 'mulhi_s': return bits === 32 ? cx.call('mulhi_s32', a, b) : wrap(`u32((i32(${sa()}) * i32(${sb()})) >> ${bits}u)`, bits);
    case 'div_u': return wrap(cx.call('div_u32', a, b), bits);
    case 'rem_u': return wrap(cx.call('rem_u32', a, b), bits);
    case 'div_s': return wrap(cx.call('div_s32', sa(), sb()), bits);
    case 'rem_s': return wrap(cx.call('rem_s32', sa(), sb()), bits);
    case 'min_u': return `min(${a}, ${b})`;
    case 'max_u': return `max(${a}, ${b})`;
    case 'min_s': return wrap(`u32(min(i32(${sa()}), i32(${sb()})))`, bits);
    case 'max_s': return wrap(`u32(max(i32(${sa()}), i32(${sb()})))`, bits);
  }
}

// `&`/`|` rather than `&&`/`||`: both operands are already evaluated, and WGSL's short-circuit
// forms become branches that SwiftShader compiles very slowly inside loops.
function predBinary(kind: string, a: string, b: string): string {
  switch (kind) {
    case 'and': return `(${a} & ${b})`;
    case 'or': return `(${a} | ${b})`;
    default: return `(${a} != ${b})`;
  }
}

function int64Binary(cx: ExprContext, kind: InstOf<'ibinary'>['kind'], a: string, b: string): string {
  switch (kind) {
    case 'add': return cx.call('i64_add', a, b);
    case 'sub': return cx.call('i64_sub', a, b);
    case 'mul': return cx.call('i64_mul', a, b);
    case 'and': return `(${a} & ${b})`;
    case 'or': return `(${a} | ${b})`;
    case 'xor': return `(${a} ^ ${b})`;
    case 'shl': return cx.call('i64_shl', a, b);
    case 'shr_u': return cx.call('i64_shr_u', a, b);
    case 'shr_s': return cx.call('i64_shr_s', a, b);
    case 'mulhi_u': return cx.call('i64_mulhi_u', a, b);
    case 'mulhi_s': return cx.call('i64_mulhi_s', a, b);
    case 'div_u': return cx.call('i64_div_u', a, b);
    case 'rem_u': return cx.call('i64_rem_u', a, b);
    case 'div_s': return cx.call('i64_div_s', a, b);
    case 'rem_s': return cx.call('i64_rem_s', a, b);
    case 'min_u': return `select(${b}, ${a}, ${cx.call('i64_ult', a, b)})`;
    case 'max_u': return `select(${a}, ${b}, ${cx.call('i64_ult', a, b)})`;
    case 'min_s': return `select(${b}, ${a}, ${cx.call('i64_slt', a, b)})`;
    case 'max_s': return `select(${a}, ${b}, ${cx.call('i64_slt', a, b)})`;
  }
}

export function intUnary(cx: ExprContext, i: InstOf<'iunary'>): string {
  const vt = cx.typeOf(i.value);
  const bits = T.bitWidth(vt);
  const v = cx.ref(i.value);
  if (vt.kind === 'pred') return `!${v}`;
  if (bits === 64) {
    switch (i.kind) {
      case 'not': return `~${v}`;
      case 'neg': return cx.call('i64_neg', v);
      case 'popc': return `(countOneBits(${v}.x) + countOneBits(${v}.y))`;
      case 'clz': return cx.call('i64_clz', v);
      case 'brev': return cx.call('i64_brev', v);
      case 'abs': return cx.call('i64_abs', v);
    }
  }
  switch (i.kind) {
    case 'not': return wrap(`~${v}`, bits);
    case 'neg': return wrap(`0u - ${v}`, bits);
    case 'popc': return `countOneBits(${v})`;
    case 'clz': return bits === 32 ? `countLeadingZeros(${v})` : `(countLeadingZeros(${v}) - ${32 - bits}u)`;
    case 'brev': return bits === 32 ? `reverseBits(${v})` : `(reverseBits(${v}) >> ${32 - bits}u)`;
    case 'abs': return wrap(`u32(abs(i32(${sext(cx, v, bits)})))`, bits);
  }
}

export function mulWide(cx: ExprContext, i: InstOf<'mul_wide'>): string {
  const bits = T.bitWidth(cx.typeOf(i.a));
  const a = cx.ref(i.a);
  const b = cx.ref(i.b);
  if (bits === 32) return cx.call(i.signed ? 'mul_wide_s32' : 'mul_wide_u32', a, b);
  if (!i.signed) return `(${a} * ${b})`;
  return wrap(`u32(i32(${sext(cx, a, bits)}) * i32(${sext(cx, b, bits)}))`, bits * 2);
}

export function intCompare(cx: ExprContext, i: InstOf<'icmp'>): string {
  const t = cx.typeOf(i.a);
  const bits = T.bitWidth(t);
  const a = cx.ref(i.a);
  const b = cx.ref(i.b);
  if (bits === 64) {
    switch (i.cond) {
      case 'eq': return `all(${a} == ${b})`;
      case 'ne': return `any(${a} != ${b})`;
      case 'ult': return cx.call('i64_ult', a, b);
      case 'ugt': return cx.call('i64_ult', b, a);
      case 'ule': return `!${cx.call('i64_ult', b, a)}`;
      case 'uge': return `!${cx.call('i64_ult', a, b)}`;
      case 'slt': return cx.call('i64_slt', a, b);
      case 'sgt': return cx.call('i64_slt', b, a);
      case 'sle': return `!${cx.call('i64_slt', b, a)}`;
      case 'sge': return `!${cx.call('i64_slt', a, b)}`;
    }
  }
  const op = { eq: '==', ne: '!=', ult: '<', ule: '<=', ugt: '>', uge: '>=', slt: '<', sle: '<=', sgt: '>', sge: '>=' }[i.cond];
  if (i.cond.startsWith('s')) return `(i32(${sext(cx, a, bits)}) ${op} i32(${sext(cx, b, bits)}))`;
  return `(${a} ${op} ${b})`;
}

export function extend(cx: ExprContext, i: InstOf<'extend'>): string {
  const from = T.bitWidth(cx.typeOf(i.value));
  const to = T.bitWidth(i.type);
  const v = cx.ref(i.value);
  const v32 = i.signed && from < 32 ? sext(cx, v, from) : v;
  if (to === 64) return i.signed ? cx.call('i64_sext32', v32) : `vec2<u32>(${v}, 0u)`;
  return wrap(v32, to);
}

export function truncate(cx: ExprContext, i: InstOf<'truncate'>): string {
  const from = T.bitWidth(cx.typeOf(i.value));
  const to = T.bitWidth(i.type);
  const v = cx.ref(i.value);
  const low = from === 64 ? `${v}.x` : from === 128 ? `${v}.x` : v;
  return wrap(low, to);
}

const ZERO = '0u';
const ONES = '0xffffffffu';

/** x ? hi : lo bitwise, simplified when an arm is constant or both are equal. */
function mux(x: string, hi: string, lo: string): string {
  if (hi === lo) return hi;
  if (hi === ONES && lo === ZERO) return x;
  if (hi === ZERO && lo === ONES) return `(~${x})`;
  if (hi === ZERO) return `(~${x} & ${lo})`;
  if (lo === ZERO) return `(${x} & ${hi})`;
  if (hi === ONES) return `(${x} | ${lo})`;
  if (lo === ONES) return `(~${x} | ${hi})`;
  return `((${x} & ${hi}) | (~${x} & ${lo}))`;
}

/** lop3 as a straight-line expression: Shannon expansion of the LUT on a, then b, then c. */
function lop3Expr(lut: number, a: string, b: string, c: string): string {
  const onC = (l2: number): string => mux(c, l2 & 2 ? ONES : ZERO, l2 & 1 ? ONES : ZERO);
  const onB = (l4: number): string => mux(b, onC((l4 >> 2) & 3), onC(l4 & 3));
  return mux(a, onB((lut >> 4) & 0xf), onB(lut & 0xf));
}

/** prmt modes as the four selector words that c[1:0] picks from (ISA prmt table, byte 0 first). */
function prmtSelectors(mode: NonNullable<InstOf<'ibits'>['fn'] & { kind: 'prmt' }>['mode']): number[] {
  const word = (bytes: (i: number) => number): number => [0, 1, 2, 3].reduce((w, i) => w | ((bytes(i) & 7) << (4 * i)), 0);
  return [0, 1, 2, 3].map((s) => {
    switch (mode) {
      case 'f4e': return word((i) => s + i);
      case 'b4e': return word((i) => s - i);
      case 'rc8': return word(() => s);
      case 'ecl': return word((i) => Math.max(i, s));
      case 'ecr': return word((i) => Math.min(i, s));
      case 'rc16': return word((i) => 2 * (s & 1) + (i & 1));
      default: return 0;
    }
  });
}

export function intBits(cx: ExprContext, i: InstOf<'ibits'>): string {
  const args = i.args.map((v) => cx.ref(v));
  const [a = '0u', b = '0u', c = '0u', d = '0u'] = args;
  const wide = T.bitWidth(cx.typeOf(i.args[0] as (typeof i.args)[number])) === 64;
  const f = i.fn;
  const hex = (n: number): string => `0x${(n >>> 0).toString(16)}u`;
  switch (f.kind) {
    case 'bfind': {
      const r = wide ? cx.call('i64_bfind', a, String(f.signed)) : f.signed ? `u32(firstLeadingBit(i32(${a})))` : `firstLeadingBit(${a})`;
      return f.shiftamt ? cx.call('bfind_shiftamt', r, wide ? '63u' : '31u') : r;
    }
    case 'bfe': return wide ? cx.call('i64_bfe', a, b, c, String(f.signed)) : cx.call(f.signed ? 'bfe_s32' : 'bfe_u32', a, b, c);
    case 'bfi': return wide ? cx.call('i64_bfi', a, b, c, d) : cx.call('bfi_b32', a, b, c, d);
    case 'fns': return cx.call('fns_b32', a, b, c);
    case 'szext': return cx.call('szext_b32', a, b, String(f.clamp), String(f.signed));
    case 'bmsk': return cx.call('bmsk_b32', a, b, String(f.clamp));
    case 'shf': {
      const n = f.clamp ? `min(${c}, 32u)` : `(${c} & 31u)`;
      return cx.call(f.left ? 'shf_l_b32' : 'shf_r_b32', a, b, n);
    }
    case 'prmt': {
      if (f.mode === null) return cx.call('prmt_b32', a, b, c);
      const sel = prmtSelectors(f.mode).map(hex).join(', ');
      return cx.call('prmt_b32', a, b, `vec4<u32>(${sel})[${c} & 3u]`);
    }
    case 'lop3': return lop3Expr(f.lut & 0xff, a, b, c);
    case 'dp4a': return cx.call('dp4a_b32', a, b, c, String(f.aSigned), String(f.bSigned));
    case 'dp2a': return cx.call('dp2a_b32', a, b, c, String(f.hi), String(f.aSigned), String(f.bSigned));
  }
}
