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
import { regionPlace, wordAt, type Place } from './emit-memory.js';
import { wgslType } from './types.js';
import { blockOf, isRowMajor, placement } from '../matrix-placement.js';

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
 * matrix_stage / matrix_unstage (mma on tensor cores): each thread writes its registers into
 * its warp's staging area in the ISA's fragment layout (groupID g = lane / 4, q = 2 * (lane %
 * 4)) and the warp loads them as one subgroup matrix; D goes the other way. Per warp: A (16 x K,
 * row-major) at half 0, B (K x 8, column-major) at 256, .f16 C/D (16 x 8, row-major) at 384;
 * .f32 C/D (16 x 8) in a float area. The writes and the load of one fragment are emitted
 * together, so no other staging comes between them. No barrier separates them: WGSL has none
 * narrower than the workgroup, and a warp runs them converged (.aligned mma requires it).
 */
const WARPS_IN_BLOCK = '((ptx_ntid_x * ptx_ntid_y * ptx_ntid_z + 31u) / 32u)';
const HALVES_PER_WARP = 512;
const FLOATS_PER_WARP = 128;
const HALF_AREA = `(ptx_tid_linear >> 5u) * ${HALVES_PER_WARP}u`;
const FLOAT_AREA = `(ptx_tid_linear >> 5u) * ${FLOATS_PER_WARP}u`;

const resultIsF32 = (t: T.MatrixType): boolean => t.element.bits === 32;
type Staged = InstOf<'matrix_stage'> | InstOf<'matrix_ldmatrix'>;
const stageName = (i: Staged, t: T.MatrixType): string => `ptx_mma_put_${i.fragment}${i.fragment === 'c' ? (resultIsF32(t) ? '_f32' : '_f16') : i.k}`;

/** The staging load of fragment a or b (written by its ptx_mma_put_* just before). */
function stagedLoad(i: Staged, t: T.MatrixType): string {
  const f32 = i.fragment === 'c' && resultIsF32(t);
  const [area, at, stride] = i.fragment === 'a' ? ['ptx_mma_h', HALF_AREA, `${i.k}u`]
    : i.fragment === 'b' ? ['ptx_mma_h', `${HALF_AREA} + 256u`, `${i.k}u`]
      : f32 ? ['ptx_mma_f', FLOAT_AREA, '8u'] : ['ptx_mma_h', `${HALF_AREA} + 384u`, '8u'];
  return `subgroupMatrixLoad<${matrixType(t)}, ${i.fragment === 'b' ? 'col_major' : 'row_major'}>(&${area}, ${at}, ${stride})`;
}

export function matrixStage(cx: InstContext, i: InstOf<'matrix_stage'>): string {
  const t = i.type as T.MatrixType;
  const f32 = i.fragment === 'c' && resultIsF32(t);
  const parts = i.parts.map((v) => cx.ref(v));
  const vec = parts.length === 1 ? parts[0] as string : `vec${parts.length}<${f32 ? 'f32' : 'u32'}>(${parts.join(', ')})`;
  cx.line(`${stageName(i, t)}(ptx_tid_linear, ${vec});`);
  return stagedLoad(i, t);
}

export function matrixUnstage(cx: InstContext, i: InstOf<'matrix_unstage'>): string {
  const f32 = resultIsF32(cx.typeOf(i.value) as T.MatrixType);
  cx.line(f32 ? `subgroupMatrixStore<row_major>(&ptx_mma_f, ${FLOAT_AREA}, ${cx.ref(i.value)}, 8u);` : `subgroupMatrixStore<row_major>(&ptx_mma_h, ${HALF_AREA} + 384u, ${cx.ref(i.value)}, 8u);`);
  return f32 ? 'ptx_mma_get_d_f32(ptx_tid_linear)' : 'ptx_mma_get_d_f16(ptx_tid_linear)';
}

/**
 * The staging areas and the functions the staged fragments of a kernel use. `unstaged`: the
 * element bits of the matrices D leaves through (a D carried across a loop, lowering/carry-matrices.ts,
 * may leave a kernel with no stage of its C left).
 */
export function stagingDeclarations(stages: readonly Staged[], unstaged: ReadonlySet<number> = new Set()): string[] {
  if (stages.length === 0 && unstaged.size === 0) return [];
  const names = new Set(stages.map((i) => stageName(i, i.type as T.MatrixType)));
  if (unstaged.has(32)) names.add('ptx_mma_put_c_f32');
  if (unstaged.has(16)) names.add('ptx_mma_put_c_f16');
  const f32 = names.has('ptx_mma_put_c_f32');
  const out = [`var<workgroup> ptx_mma_h: array<f16, ${WARPS_IN_BLOCK} * ${HALVES_PER_WARP}u>;`];
  if (f32) out.push(`var<workgroup> ptx_mma_f: array<f32, ${WARPS_IN_BLOCK} * ${FLOATS_PER_WARP}u>;`);
  out.push('fn ptx_mma_put(i: u32, w: u32) { let v = bitcast<vec2<f16>>(w); ptx_mma_h[i] = v.x; ptx_mma_h[i + 1u] = v.y; }');
  const head = (name: string, arg: string): string[] => [`fn ${name}(t: u32, x: ${arg}) {`, `  let h = (t >> 5u) * ${HALVES_PER_WARP}u;`, '  let g = (t >> 2u) & 7u;', '  let q = (t & 3u) * 2u;'];
  for (const k of [16, 8]) {
    const regs = k / 4; // A: rows g and g + 8, then (k = 16) the same rows 8 columns on
    if (names.has(`ptx_mma_put_a${k}`)) out.push([...head(`ptx_mma_put_a${k}`, regs === 4 ? 'vec4<u32>' : 'vec2<u32>'), ...Array.from({ length: regs }, (_, j) => `  ptx_mma_put(h + (g + ${(j & 1) * 8}u) * ${k}u + q + ${(j >> 1) * 8}u, x.${'xyzw'[j]});`), '}'].join('\n'));
    if (names.has(`ptx_mma_put_b${k}`)) out.push([...head(`ptx_mma_put_b${k}`, k === 16 ? 'vec2<u32>' : 'u32'), ...Array.from({ length: k / 8 }, (_, j) => `  ptx_mma_put(h + 256u + g * ${k}u + q + ${j * 8}u, x${k === 16 ? `.${'xy'[j]}` : ''});`), '}'].join('\n'));
  }
  if (f32) {
    out.push(['fn ptx_mma_put_c_f32(t: u32, x: vec4<f32>) {', `  let o = (t >> 5u) * ${FLOATS_PER_WARP}u + ((t >> 2u) & 7u) * 8u + (t & 3u) * 2u;`,
      '  ptx_mma_f[o] = x.x; ptx_mma_f[o + 1u] = x.y; ptx_mma_f[o + 64u] = x.z; ptx_mma_f[o + 65u] = x.w;', '}'].join('\n'));
    out.push(['fn ptx_mma_get_d_f32(t: u32) -> vec4<f32> {', `  let o = (t >> 5u) * ${FLOATS_PER_WARP}u + ((t >> 2u) & 7u) * 8u + (t & 3u) * 2u;`,
      '  return vec4<f32>(ptx_mma_f[o], ptx_mma_f[o + 1u], ptx_mma_f[o + 64u], ptx_mma_f[o + 65u]);', '}'].join('\n'));
  }
  if (names.has('ptx_mma_put_c_f16')) {
    out.push('fn ptx_mma_get(i: u32) -> u32 { return bitcast<u32>(vec2<f16>(ptx_mma_h[i], ptx_mma_h[i + 1u])); }');
    out.push(['fn ptx_mma_put_c_f16(t: u32, x: vec2<u32>) {', `  let o = (t >> 5u) * ${HALVES_PER_WARP}u + 384u + ((t >> 2u) & 7u) * 8u + (t & 3u) * 2u;`,
      '  ptx_mma_put(o, x.x); ptx_mma_put(o + 64u, x.y);', '}'].join('\n'));
    out.push(['fn ptx_mma_get_d_f16(t: u32) -> vec2<u32> {', `  let o = (t >> 5u) * ${HALVES_PER_WARP}u + 384u + ((t >> 2u) & 7u) * 8u + (t & 3u) * 2u;`,
      '  return vec2<u32>(ptx_mma_get(o), ptx_mma_get(o + 64u));', '}'].join('\n'));
  }
  return out;
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

/**
 * matrix_ldmatrix: an mma operand from the shared tile an ldmatrix reads, through a helper per
 * form (ldmatrixDeclarations). Where shared memory is viewed as halves (address-spaces.ts) and
 * the warp's lane addresses form a strided matrix, one `subgroupMatrixLoad` from the tile
 * replaces the ldmatrix's shuffles and loads and the staging of its registers. Where
 * lowering/ldmatrix-strides.ts proved the stride, the helper loads at once whenever the block's
 * x size is a multiple of 32 (a pipeline constant, so the driver drops the other way). Otherwise
 * a test runs per execution, since whether an ldmatrix reads a strided matrix depends on run-time
 * addresses, and where it fails the helper does what ldmatrix does and stages the registers in a
 * per-warp area at the end of shared memory, in the layout of the direct load, so that both ways
 * end in the same load. Measured on an H200 (our pipelined GEMM, 4096^3): staged 10.3 ms, the
 * test 7.0-7.7 ms, the same without the test and the fallback code 3.8 ms. Loads in both
 * branches, or a fallback that copies the lanes' rows instead of shuffling, ran slower (13.4 and
 * 10.7 ms). Without the half view the helper stages through ptx_mma_h as matrix_stage does.
 */
/** The helper's name: its form, and the proven stride where shared memory is viewed as halves (the only view that uses it). */
const ldmatrixName = (i: InstOf<'matrix_ldmatrix'>, halves: boolean): string =>
  `ptx_ldsm_${i.fragment}${i.k}_${i.trans ? 't' : 'n'}${i.matrices.join('')}${i.stride !== undefined && halves ? `_s${i.stride}` : ''}`;

export function matrixLdmatrix(cx: InstContext, i: InstOf<'matrix_ldmatrix'>): string {
  return `${ldmatrixName(i, cx.fn.memory?.shared.view === 'f16')}(${cx.ref(i.address)}, ptx_tid_linear)`;
}

/** Halves of the per-warp staging area of the direct loads' fallback (A 16 x 16 and B 16 x 8 fit). */
export const LDMATRIX_STAGE_HALVES = 256;
/** The staging area's size in halves, for the shared memory declaration. */
export const ldmatrixStageHalves = `${WARPS_IN_BLOCK} * ${LDMATRIX_STAGE_HALVES}u`;

/**
 * One helper per distinct form of the kernel's matrix_ldmatrix. `shared`: shared memory's place;
 * `stage`: where the staging area starts in it (halves, a multiple of 8) when it is viewed as halves.
 */
export function ldmatrixDeclarations(insts: readonly InstOf<'matrix_ldmatrix'>[], shared: Place | undefined, stage: string): string[] {
  const forms = new Map<string, InstOf<'matrix_ldmatrix'>>();
  for (const i of insts) forms.set(ldmatrixName(i, shared?.view === 'f16'), i);
  return [...forms].map(([name, i]) => ldmatrixHelper(name, i, shared, stage));
}

function ldmatrixHelper(name: string, i: InstOf<'matrix_ldmatrix'>, shared: Place | undefined, stage: string): string {
  const t = i.type as T.MatrixType;
  const word = (byte: string): string => (shared ? wordAt(shared, `(${byte})`) : '0u');
  const half = (at: string): string => `extractBits(${word(`${at} & ~3u`)}, (${at} & 2u) * 8u, 16u)`;
  // what ldmatrix gives this thread: (row g, columns 2q, 2q + 1) of matrix m, from lane 8m + g's
  // row; with .trans (rows 2q and 2q + 1, column g), from lanes 8m + 2q and 8m + 2q + 1
  const fetch = ['let g = (ptx_tid_linear >> 2u) & 7u;', 'let q = ptx_tid_linear & 3u;'];
  const regs = i.matrices.map((m, j) => {
    if (!i.trans) {
      fetch.push(`let r${j} = subgroupShuffle(addr, ${8 * m}u + g) + 4u * q;`);
      return word(`r${j}`);
    }
    fetch.push(`let r${j} = subgroupShuffle(addr, ${8 * m}u + 2u * q) + 2u * g;`, `let s${j} = subgroupShuffle(addr, ${8 * m + 1}u + 2u * q) + 2u * g;`);
    return `(${half(`r${j}`)} | (${half(`s${j}`)} << 16u))`;
  });
  const head = `fn ${name}(addr: u32, ptx_tid_linear: u32) -> ${matrixType(t)} {`;
  if (shared?.view !== 'f16') {
    const staged = `${stageName(i, t)}(ptx_tid_linear, ${regs.length === 1 ? regs[0] as string : `vec${regs.length}<u32>(${regs.join(', ')})`});`;
    return [head, ...fetch.map((l) => `  ${l}`), `  ${staged}`, `  return ${stagedLoad(i, t)};`, '}'].join('\n');
  }
  const rowMajor = isRowMajor(i);
  const [rows, cols] = i.fragment === 'a' ? [16, i.k] : [i.k, 8];
  const at = (r: string, c: string): string => (rowMajor ? `(${r}) * ${cols}u + ${c}` : `(${c}) * ${rows}u + ${r}`);
  const puts = regs.flatMap((w, j) => {
    const [br, bc] = blockOf(i, j);
    // A: (row 8R + g, columns 8C + 2q + e); B: (rows 8R + 2q + e, column g)
    const cell = (e: number): string => (i.fragment === 'a' ? at(`${8 * br}u + g`, `${8 * bc + e}u + 2u * q`) : at(`${8 * br + e}u + 2u * q`, 'g'));
    return [`let w${j} = bitcast<vec2<f16>>(${w});`, `${shared.name}[h + ${cell(0)}] = w${j}.x;`, `${shared.name}[h + ${cell(1)}] = w${j}.y;`];
  });
  const load = (at: string, ld: string): string => `subgroupMatrixLoad<${matrixType(t)}, ${rowMajor ? 'row_major' : 'col_major'}>(&${shared.name}, ${at}, ${ld})`;
  // a stride ldmatrix-strides.ts proved holds wherever the block's x size is a multiple of 32,
  // a pipeline constant: the driver keeps one of the two ways
  const proven = i.stride === undefined ? [] : [
    '  if ((ptx_ntid_x & 31u) == 0u) {',
    `    return ${load(`subgroupBroadcast(addr, ${8 * (i.matrices[0] as number)}u) >> 1u`, `${i.stride / 2}u`)};`,
    '  }',
  ];
  return [
    head,
    ...proven,
    ...directTest(i),
    '  var at = base >> 1u;',
    '  var ld = stride >> 1u;',
    '  if (!strided) {',
    ...fetch.map((l) => `    ${l}`),
    `    let h = ${stage} + (ptx_tid_linear >> 5u) * ${LDMATRIX_STAGE_HALVES}u;`,
    ...puts.map((l) => `    ${l}`),
    '    at = h;',
    `    ld = ${rowMajor ? cols : rows}u;`,
    '  }',
    `  return ${load('at', 'ld')};`,
    '}',
  ].join('\n');
}

/**
 * Whether the warp's lane addresses form a strided matrix: the rows of the block in memory matrix m
 * start at lane 8m's address, and lane 8m + j must point at base + (8 * along + j) * stride + 16 *
 * across bytes, where (along, across) is the block's position in memory rows and 8-half columns
 * (register 0's block is the origin). Vulkan wants the base and the stride 16-byte aligned, as
 * ldmatrix's rows are. Rows that go down in memory (a negative stride, which wraps to a large
 * one) take the staging: the load's element offsets do not wrap.
 */
function directTest(i: InstOf<'matrix_ldmatrix'>): string[] {
  const { used, along, across } = placement(i);
  const l0 = 8 * (i.matrices[0] as number);
  return [
    `  let base = subgroupBroadcast(addr, ${l0}u);`,
    `  let stride = subgroupBroadcast(addr, ${l0 + 1}u) - base;`,
    '  let m = (ptx_tid_linear >> 3u) & 3u;',
    `  let expect = base + (8u * ((${along}u >> m) & 1u) + (ptx_tid_linear & 7u)) * stride + 16u * ((${across}u >> m) & 1u);`,
    `  let strided = subgroupAll((((${used}u >> m) & 1u) == 0u) | (addr == expect)) & (((base | stride) & 15u) == 0u) & (stride != 0u) & (stride < 0x4000u);`,
  ];
}
