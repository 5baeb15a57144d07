/**
 * The tensor-core path's instructions (src/ir/inst.ts `matrix_*`) as WGSL subgroup-matrix
 * built-ins (Dawn's `chromium_experimental_subgroup_matrix`): loads and stores through the
 * region's typed array (a slot viewed as `array<f16>` or `array<f32>`, address-spaces.ts) at
 * an element offset. The majorness is a template argument, `subgroupMatrixLoad<T, row_major>(&a,
 * offset, stride)`: Dawn 0.6.2 warns that the older form with a bool argument is deprecated.
 */
import type { InstOf } from '../../src/ir/inst.js';
import type * as T from '../../src/ir/types.js';
import type { InstContext } from './expr-context.js';
import { regionPlace } from './emit-memory.js';
import { wgslType } from './types.js';

/** The directives a kernel with subgroup matrices needs. Tint's analysis requires subgroup
 *  matrix built-ins in control flow it can prove subgroup-uniform, and it proves nothing derived
 *  from `local_invocation_id` (not even `subgroupBroadcastFirst` of it) while PTX computes a
 *  warp's tile from `%tid`; the `chromium_experimental.subgroup_matrix_uniformity` diagnostic
 *  silences the operand check but not the control-flow check (measured on the H100 and H200,
 *  Dawn 0.6.2). `.aligned` wmma already obliges the PTX to run every wmma warp-uniformly, so
 *  the analysis is switched off; the extension is offered under `allow_unsafe_apis`, the same
 *  toggle subgroup matrices need. */
export const MATRIX_ENABLES: readonly string[] = [
  'enable f16;',
  'enable subgroups;',
  'enable chromium_experimental_subgroup_matrix;',
  'enable chromium_disable_uniformity_analysis;',
];

const matrixType = (t: T.MatrixType): string => wgslType(t);
const elementName = (t: T.MatrixType): string => (t.element.bits === 16 ? 'f16' : 'f32');

function array(cx: InstContext, i: InstOf<'matrix_load' | 'matrix_store'>, t: T.MatrixType): { name: string; offset: string } | undefined {
  const memory = cx.fn.memory;
  const p = memory && i.region ? regionPlace(memory, i.region) : undefined;
  const want = elementName(t);
  if (!p || p.hi !== undefined || p.view !== want) { cx.unsupported(`a subgroup matrix in the ${i.region?.kind ?? 'unresolved'} region`); return undefined; }
  const shift = t.element.bits === 16 ? 1 : 2;
  return { name: p.name, offset: `(${cx.ref(i.address)} >> ${shift}u)` };
}

const major = (i: InstOf<'matrix_load' | 'matrix_store'>): string => (i.colMajor ? 'col_major' : 'row_major');

export function matrixLoad(cx: InstContext, i: InstOf<'matrix_load'>): string {
  const t = i.type as T.MatrixType;
  const a = array(cx, i, t);
  if (!a) return `${matrixType(t)}()`;
  return `subgroupMatrixLoad<${matrixType(t)}, ${major(i)}>(&${a.name}, ${a.offset}, ${cx.ref(i.stride)})`;
}

export function matrixStore(cx: InstContext, i: InstOf<'matrix_store'>): undefined {
  const t = cx.typeOf(i.value) as T.MatrixType;
  const a = array(cx, i, t);
  if (a) cx.line(`subgroupMatrixStore<${major(i)}>(&${a.name}, ${a.offset}, ${cx.ref(i.value)}, ${cx.ref(i.stride)});`);
  return undefined;
}

export function matrixMma(cx: InstContext, i: InstOf<'matrix_mma'>): string {
  const t = i.type as T.MatrixType;
  return `subgroupMatrixMultiplyAccumulate(${cx.ref(i.a)}, ${cx.ref(i.b)}, ${cx.ref(i.c)})`;
}

const scratch = new DataView(new ArrayBuffer(4));

/** A matrix of one constant element: an f32 literal (f16 values are exact in f32). */
export function matrixFill(_cx: InstContext, i: InstOf<'matrix_fill'>): string {
  const t = i.type as T.MatrixType;
  let x: number;
  if (t.element.bits === 16) { x = halfToNumber(Number(i.bits)); }
  else { scratch.setUint32(0, Number(i.bits), true); x = scratch.getFloat32(0, true); }
  const s = String(x);
  const literal = Object.is(x, -0) ? '-0.0' : s.includes('.') || s.includes('e') ? s : `${s}.0`;
  // the translator fills only with finite constants (wmma-subgroup-matrix.ts)
  return `${matrixType(t)}(${elementName(t)}(${literal}))`;
}

function halfToNumber(h: number): number {
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  const v = e === 0 ? m * 2 ** -24 : e === 31 ? (m ? NaN : Infinity) : (1 + m / 1024) * 2 ** (e - 15);
  return h & 0x8000 ? -v : v;
}
