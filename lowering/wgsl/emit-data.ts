/**
 * WGSL expressions for constants, reinterpretation, vectors, selection, special registers
 * and kernel parameters (read from the launch uniform buffer).
 */
import { LAUNCH_HEADER_BYTES } from '../layout.js';
import type { IrFunction } from '../../src/ir/function.js';
import type { InstOf } from '../../src/ir/inst.js';
import type { ValueId } from '../../src/ir/entities.js';
import * as T from '../../src/ir/types.js';
import type { IrType } from '../../src/ir/types.js';
import type { ExprContext } from './expr-context.js';
import { wgslType } from './types.js';
import { CLOCK_TICK } from './emit-owned.js';

const hex = (n: bigint): string => `0x${n.toString(16)}u`;

/**
 * A constant's WGSL text. `call` links a helper (ExprContext.call): infinities and NaNs reach
 * the shader through `ptx_f32_bits(bits)`, a call, because WGSL evaluates an expression of
 * constants when the shader is created and rejects a non-finite result (Tint: "value -inf
 * cannot be represented as 'f32'"), and `-INFINITY` is the first value of every max-reduction.
 */
export function constant(t: T.IrType, bits: bigint, call: (name: string, ...args: string[]) => string): string {
  switch (t.kind) {
    case 'pred': return bits ? 'true' : 'false';
    case 'int':
      if (t.bits <= 32) return bits < 10n ? `${bits}u` : hex(bits);
      return `vec2<u32>(${hex(bits & 0xffffffffn)}, ${hex(bits >> 32n)})`;
    case 'float':
      if (t.bits === 32) return (Number(bits) & 0x7f800000) === 0x7f800000 ? call('ptx_f32_bits', hex(bits)) : f32Literal(bits);
      if (t.bits === 64) return `vec2<u32>(${hex(bits & 0xffffffffn)}, ${hex(bits >> 32n)})`;
      return hex(bits); // f16 and bf16 travel as their bits in a u32
    case 'vector': {
      // lanes of up to 32 bits, lane 0 in the low bits (a `mov.b32` of a constant into a
      // `.v2 .b16` register); wider lanes keep the zero form
      const eb = T.bitWidth(t.element);
      if (eb > 32 || t.count > 4 || wgslType(t).startsWith('array')) return `${wgslType(t)}()`;
      const mask = (1n << BigInt(eb)) - 1n;
      const lanes = Array.from({ length: t.count }, (_, k) => constant(t.element, (bits >> BigInt(k * eb)) & mask, call));
      return `${wgslType(t)}(${lanes.join(', ')})`;
    }
    default:
      return `${wgslType(t)}()`;
  }
}

const scratch = new DataView(new ArrayBuffer(4));
function f32Literal(bits: bigint): string {
  scratch.setUint32(0, Number(bits), true);
  const x = scratch.getFloat32(0, true);
  if (Number.isFinite(x) && !Object.is(x, -0)) {
    const s = String(x);
    if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/.test(s) && Math.fround(Number(s)) === x && Math.abs(x) < 3e38 && (x === 0 || Math.abs(x) > 1.2e-38)) {
      return s.includes('.') || s.includes('e') ? `${s}f` : `${s}.0f`;
    }
  }
  return `bitcast<f32>(${hex(bits)})`;
}

export function bitcast(cx: ExprContext, i: InstOf<'bitcast'>): string {
  const from = cx.typeOf(i.value);
  const v = cx.ref(i.value);
  const lanes = narrowLanes(i.type) ?? narrowLanes(from);
  if (lanes && from.kind !== 'vector') return splitLanes(v, T.bitWidth(from), lanes);
  if (lanes && i.type.kind !== 'vector') return joinLanes(v, T.bitWidth(i.type), lanes);
  const fw = wgslType(from);
  const tw = wgslType(i.type);
  return fw === tw ? v : `bitcast<${tw}>(${v})`;
}

/**
 * A vector of 8- or 16-bit lanes (`mov.b32 %r, {%rs0, %rs1}`, `{b8 x 4}`, f16x2 halves): WGSL
 * holds each lane's bits in its own u32, so reinterpreting the packed scalar (a u32, or the
 * vec2<u32> of a 64-bit value) moves bit fields rather than bitcasting.
 */
function narrowLanes(t: IrType): { readonly bits: number; readonly count: number } | undefined {
  if (t.kind !== 'vector' || (t.element.kind !== 'int' && t.element.kind !== 'float')) return undefined;
  const bits = T.bitWidth(t.element);
  return bits < 32 && t.count <= 4 ? { bits, count: t.count } : undefined;
}

const WORD = ['x', 'y', 'z', 'w'];
const wordOf = (v: string, scalarBits: number, k: number): string => (scalarBits <= 32 ? v : `${v}.${WORD[k]}`);

function splitLanes(v: string, scalarBits: number, lanes: { bits: number; count: number }): string {
  const mask = `0x${((1 << lanes.bits) - 1).toString(16)}u`;
  const parts = Array.from({ length: lanes.count }, (_, j) => {
    const at = j * lanes.bits;
    const word = wordOf(v, scalarBits, Math.floor(at / 32));
    const shifted = at % 32 === 0 ? word : `(${word} >> ${at % 32}u)`;
    return at % 32 + lanes.bits === 32 ? shifted : `(${shifted} & ${mask})`;
  });
  return `vec${lanes.count}<u32>(${parts.join(', ')})`;
}

function joinLanes(v: string, scalarBits: number, lanes: { bits: number; count: number }): string {
  const words = Array.from({ length: Math.max(1, scalarBits / 32) }, (_, k) => {
    const fields: string[] = [];
    for (let j = 0; j < lanes.count; j++) {
      const at = j * lanes.bits;
      if (Math.floor(at / 32) !== k) continue;
      fields.push(at % 32 === 0 ? `${v}[${j}]` : `(${v}[${j}] << ${at % 32}u)`);
    }
    return fields.length === 1 ? (fields[0] as string) : `(${fields.join(' | ')})`;
  });
  return words.length === 1 ? (words[0] as string) : `vec${words.length}<u32>(${words.join(', ')})`;
}

export function extract(cx: ExprContext, i: InstOf<'extract'>): string {
  return `${cx.ref(i.value)}[${i.index}]`;
}

export function compose(cx: ExprContext, i: InstOf<'compose'>): string {
  return `${wgslType(i.type)}(${i.parts.map((p) => cx.ref(p)).join(', ')})`;
}

export function select(cx: ExprContext, i: InstOf<'select'>): string {
  return `select(${cx.ref(i.b)}, ${cx.ref(i.a)}, ${cx.ref(i.cond)})`;
}

const AXES = ['x', 'y', 'z'] as const;

/** Special registers: builtins, the launch header, overrides, or fixed values for one SM and cluster size 1. */
export function special(cx: ExprContext, i: InstOf<'special'>, dynamicSmemBytes: string, staticSmemBytes: number): string {
  const axis = AXES[i.component];
  switch (i.register) {
    case 'tid': return `ptx_tid.${axis}`;
    case 'ntid': return `ptx_ntid_${axis}`;
    case 'ctaid': case 'clusterid': return `ptx_ctaid.${axis}`;
    case 'nctaid': case 'nclusterid': return `ptx_launch[0].${axis}`;
    case 'laneid': return '(ptx_tid_linear & 31u)';
    case 'warpid': return '(ptx_tid_linear >> 5u)';
    case 'nwarpid': return '((ptx_ntid_x * ptx_ntid_y * ptx_ntid_z + 31u) >> 5u)';
    case 'warpsize': return '32u';
    case 'lanemask_eq': return '(1u << (ptx_tid_linear & 31u))';
    case 'lanemask_lt': return '((1u << (ptx_tid_linear & 31u)) - 1u)';
    case 'lanemask_le': return '(((1u << (ptx_tid_linear & 31u)) - 1u) | (1u << (ptx_tid_linear & 31u)))';
    case 'lanemask_gt': return '(~(((1u << (ptx_tid_linear & 31u)) - 1u) | (1u << (ptx_tid_linear & 31u))))';
    case 'lanemask_ge': return '(~((1u << (ptx_tid_linear & 31u)) - 1u))';
    case 'smid': case 'cluster_ctarank': return '0u';
    case 'nsmid': case 'cluster_nctarank': return '1u';
    case 'cluster_ctaid': return '0u';
    case 'cluster_nctaid': return '1u';
    case 'is_explicit_cluster': return 'false';
    case 'gridid': return 'vec2<u32>(0u, 0u)';
    case 'dynamic_smem_size': return dynamicSmemBytes;
    case 'total_smem_size': return `(${staticSmemBytes}u + ${dynamicSmemBytes})`;
    // WebGPU shaders have no clock: a per-thread counter that ticks at every read (emit-owned.ts,
    // which declares it for the kernels that call it).
    case 'clock': return `${cx.call(CLOCK_TICK)}.x`;
    case 'clock64': case 'globaltimer': return cx.call(CLOCK_TICK);
  }
}

/** One 32-bit word of the uniform buffer at a byte offset known at compile time. */
function uniformWord(offset: number): string {
  return `ptx_launch[${offset >> 4}].${'xyzw'[(offset >> 2) & 3]}`;
}

export function kernelParam(cx: ExprContext & { readonly fn: IrFunction }, i: InstOf<'kernel_param'>): string {
  if (i.dynamic !== null) return dynamicKernelParam(cx, i, i.dynamic);
  const p = cx.fn.kernelParams[i.param];
  const at = LAUNCH_HEADER_BYTES + (p?.offset ?? 0) + i.offset;
  const bits = T.bitWidth(i.type);
  if (bits === 64) {
    return `vec2<u32>(${uniformWord(at)}, ${uniformWord(at + 4)})`;
  }
  const word = uniformWord(at & ~3);
  const raw = bits >= 32 ? word : `extractBits(${word}, ${(at & 3) * 8}u, ${bits}u)`;
  return fromParamBits(i.type, raw);
}

/**
 * A parameter read at a run-time byte address (naturally aligned, as the ISA requires); a
 * vector (a generic `ld.v4` through a `cvta.param` address) element by element.
 */
function dynamicKernelParam(cx: ExprContext, i: InstOf<'kernel_param'>, dynamic: ValueId): string {
  const at = cx.temp('param_at');
  cx.line(`let ${at} = ${LAUNCH_HEADER_BYTES + i.offset}u + ${cx.ref(dynamic)};`);
  const word = (plus: number): string => `ptx_launch[(${at} + ${plus}u) >> 4u][((${at} + ${plus}u) >> 2u) & 3u]`;
  const scalar = (type: IrType, plus: number): string => {
    const bits = T.bitWidth(type);
    if (bits === 64) return `vec2<u32>(${word(plus)}, ${word(plus + 4)})`;
    return fromParamBits(type, bits >= 32 ? word(plus) : `extractBits(${word(plus)}, ((${at} + ${plus}u) & 3u) * 8u, ${bits}u)`);
  };
  if (i.type.kind !== 'vector') return scalar(i.type, 0);
  const e = i.type.element;
  const parts = Array.from({ length: i.type.count }, (_, k) => scalar(e, (k * T.bitWidth(e)) / 8));
  return `${wgslType(i.type)}(${parts.join(', ')})`;
}

function fromParamBits(type: IrType, raw: string): string {
  if (T.isFloat(type, 32)) return `bitcast<f32>(${raw})`;
  if (type.kind === 'pred') return `(${raw} != 0u)`;
  return raw;
}
