/**
 * The tensor-core path's instructions (src/ir/inst.ts `matrix_*`) as WGSL subgroup-matrix
 * built-ins (Dawn's `chromium_experimental_subgroup_matrix`): loads and stores through the
 * region's typed array (a slot viewed as `array<f16>` or `array<f32>`, address-spaces.ts) at
 * an element offset. The majorness is a template argument, `subgroupMatrixLoad<T, row_major>(&a,
 * offset, stride)`: Dawn 0.6.2 warns that the older form with a bool argument is deprecated.
 */
import type { InstOf } from '../../src/ir/inst.js';
import type { ValueId } from '../../src/ir/entities.js';
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

/**
 * mma_staged: each thread writes its A, B and C registers into its warp's staging area (the
 * ISA's fragment layouts: groupID g = lane / 4, q = 2 * (lane % 4)), the warp loads them as
 * subgroup matrices, multiplies, stores D there and each thread reads its D registers back.
 * Per warp: A (16 x K, row-major) at 0, B (K x 8, column-major) at 256, .f16 C/D (16 x 8) at
 * 384 halves; .f32 C/D (16 x 8) in a float area. No barrier separates the writes from the
 * collective loads: WGSL has none narrower than the workgroup, and the warp runs these
 * straight-line statements converged (.aligned mma requires it).
 */
const WARPS_IN_BLOCK = '((ptx_ntid_x * ptx_ntid_y * ptx_ntid_z + 31u) / 32u)';
const HALVES_PER_WARP = 512;
const FLOATS_PER_WARP = 128;

const stagedName = (i: Pick<InstOf<'mma_staged'>, 'shape' | 'accumulator'>): string => `ptx_mma_${i.shape}_${i.accumulator}`;

export function mmaStaged(cx: InstContext, i: InstOf<'mma_staged'>): string {
  const vec = (ids: readonly ValueId[], t: string): string => (ids.length === 1 ? cx.ref(ids[0] as ValueId) : `vec${ids.length}<${t}>(${ids.map((v) => cx.ref(v)).join(', ')})`);
  return `${stagedName(i)}(ptx_tid_linear, ${vec(i.a, 'u32')}, ${vec(i.b, 'u32')}, ${vec(i.c, i.accumulator === 'f32' ? 'f32' : 'u32')})`;
}

/** The staging areas and the function of each staged mma form a kernel uses. */
export function mmaStagedDeclarations(forms: readonly Pick<InstOf<'mma_staged'>, 'shape' | 'accumulator'>[]): string[] {
  if (forms.length === 0) return [];
  const unique = [...new Map(forms.map((f) => [stagedName(f), f])).values()];
  const out = [`var<workgroup> ptx_mma_h: array<f16, ${WARPS_IN_BLOCK} * ${HALVES_PER_WARP}u>;`];
  if (unique.some((f) => f.accumulator === 'f32')) out.push(`var<workgroup> ptx_mma_f: array<f32, ${WARPS_IN_BLOCK} * ${FLOATS_PER_WARP}u>;`);
  out.push('fn ptx_mma_put(i: u32, w: u32) { let v = bitcast<vec2<f16>>(w); ptx_mma_h[i] = v.x; ptx_mma_h[i + 1u] = v.y; }');
  out.push('fn ptx_mma_get(i: u32) -> u32 { return bitcast<u32>(vec2<f16>(ptx_mma_h[i], ptx_mma_h[i + 1u])); }');
  for (const f of unique) out.push(stagedFunction(f));
  return out;
}

function stagedFunction(f: Pick<InstOf<'mma_staged'>, 'shape' | 'accumulator'>): string {
  const k = f.shape === 'm16n8k16' ? 16 : 8;
  const aRegs = k / 4; // .f16x2 registers of A: rows g and g + 8, then (k = 16) the same 8 columns on
  const bRegs = k / 8;
  const aType = aRegs === 4 ? 'vec4<u32>' : 'vec2<u32>';
  const bType = bRegs === 2 ? 'vec2<u32>' : 'u32';
  const f32 = f.accumulator === 'f32';
  const lines = [
    `fn ${stagedName(f)}(t: u32, a: ${aType}, b: ${bType}, c: ${f32 ? 'vec4<f32>' : 'vec2<u32>'}) -> ${f32 ? 'vec4<f32>' : 'vec2<u32>'} {`,
    `  let h = (t >> 5u) * ${HALVES_PER_WARP}u;`,
    '  let g = (t >> 2u) & 7u;',
    '  let q = (t & 3u) * 2u;',
  ];
  const comp = (n: number, j: number): string => (n === 1 ? '' : `.${'xyzw'[j]}`);
  for (let j = 0; j < aRegs; j++) lines.push(`  ptx_mma_put(h + (g + ${(j & 1) * 8}u) * ${k}u + q + ${(j >> 1) * 8}u, a${comp(aRegs, j)});`);
  for (let j = 0; j < bRegs; j++) lines.push(`  ptx_mma_put(h + 256u + g * ${k}u + q + ${j * 8}u, b${comp(bRegs, j)});`);
  if (f32) {
    lines.push(`  let o = (t >> 5u) * ${FLOATS_PER_WARP}u;`);
    for (let j = 0; j < 4; j++) lines.push(`  ptx_mma_f[o + (g + ${(j >> 1) * 8}u) * 8u + q + ${j & 1}u] = c.${'xyzw'[j]};`);
  } else {
    for (let j = 0; j < 2; j++) lines.push(`  ptx_mma_put(h + 384u + (g + ${j * 8}u) * 8u + q, c.${'xy'[j]});`);
  }
  const acc = f32 ? 'f32' : 'f16';
  const [area, at] = f32 ? ['ptx_mma_f', 'o'] : ['ptx_mma_h', 'h + 384u'];
  lines.push(
    `  let ma = subgroupMatrixLoad<subgroup_matrix_left<f16, ${k}, 16>, row_major>(&ptx_mma_h, h, ${k}u);`,
    `  let mb = subgroupMatrixLoad<subgroup_matrix_right<f16, 8, ${k}>, col_major>(&ptx_mma_h, h + 256u, ${k}u);`,
    `  let mc = subgroupMatrixLoad<subgroup_matrix_result<${acc}, 8, 16>, row_major>(&${area}, ${at}, 8u);`,
    `  subgroupMatrixStore<row_major>(&${area}, ${at}, subgroupMatrixMultiplyAccumulate(ma, mb, mc), 8u);`,
  );
  if (f32) lines.push('  return vec4<f32>(ptx_mma_f[o + g * 8u + q], ptx_mma_f[o + g * 8u + q + 1u], ptx_mma_f[o + (g + 8u) * 8u + q], ptx_mma_f[o + (g + 8u) * 8u + q + 1u]);');
  else lines.push('  return vec2<u32>(ptx_mma_get(h + 384u + g * 8u + q), ptx_mma_get(h + 384u + (g + 8u) * 8u + q));');
  lines.push('}');
  return lines.join('\n');
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
