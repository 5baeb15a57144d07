/**
 * The emitter's top level and the only writer of WGSL text (with the files it calls):
 * declarations (overrides, the launch uniform, one storage binding per global slot,
 * workgroup and private memory), run-time address dispatch helpers, the linked helper
 * library, and the entry point, which derives %ctaid from a linearised workgroup id so
 * launches larger than 65535 workgroups per dimension work.
 */
import type { NativeFloat } from './native-float.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { FunctionMemory, IrFunction, MemoryView } from '../../src/ir/function.js';
import { LAUNCH_HEADER_BYTES, type BindingLayout, type CompiledKernel, type KernelLayout, type OverrideName, type ParamLayout } from '../layout.js';
import { GENERIC_TAG } from '../pass.js';
import { FunctionEmitter, type ReplayMode } from './emit-function.js';
import { linkedLibrary, type LinkedLibrary } from './library.js';
import { clockDeclarations, ownedDeclarations } from './emit-owned.js';
import { MODULE_GLOBAL_TAG } from '../layout.js';
import { barrierDeclarations } from './emit-barrier.js';
import { mbarrierDeclarations } from './emit-mbarrier.js';
import { atomicLockDeclarations, SUBGROUP_LANE_MARKER } from './emit-atomic.js';
import { deferredAddsDeclarations, deferredIn } from './emit-deferred-adds.js';
import { halfWordHelpers, regionPlace } from './emit-memory.js';
import { warpDeclarations, warpPaths } from './emit-warp.js';
import type { WarpReport } from '../layout.js';
import type { MatrixReport } from '../matrix-path.js';
import type { InstOf } from '../../src/ir/inst.js';
import { ldmatrixDeclarations, ldmatrixStageHalves, MATRIX_ENABLES, stagingDeclarations } from './emit-matrix.js';

const MATRIX_FEATURES: readonly string[] = ['subgroups', 'shader-f16', 'chromium-experimental-subgroup-matrix'];

function usesMatrices(fn: IrFunction): boolean {
  return fn.blockIds().some((b) => fn.block(b).insts.some((id) => { const op = fn.inst(id).inst.op; return op.startsWith('matrix_'); }));
}

/** The path's report, saying how many mma operands come straight from ldmatrix tiles. */
function matrixReport(report: MatrixReport, ldmatrices: readonly InstOf<'matrix_ldmatrix'>[], direct: boolean): MatrixReport {
  if (ldmatrices.length === 0) return report;
  const proven = ldmatrices.filter((i) => i.stride !== undefined).length;
  const how = !direct ? 'staged (shared memory cannot be viewed as halves here)'
    : proven === ldmatrices.length ? 'loaded from shared memory as strided matrices (strides proven at compile time)'
      : `loaded from shared memory where their lane addresses form a strided matrix (${proven} proven at compile time, the rest tested at run time), else staged`;
  return { ...report, reason: `${report.reason}; ${ldmatrices.length} A/B operands come from ldmatrix tiles, ${how}` };
}

function placedOf<K extends 'matrix_stage' | 'matrix_ldmatrix'>(fn: IrFunction, op: K): InstOf<K>[] {
  return fn.blockIds().flatMap((b) => fn.block(b).insts.map((id) => fn.inst(id).inst).filter((i): i is InstOf<K> => i.op === op));
}

/** The element bits of the matrices `matrix_unstage` reads back (16 or 32). */
function unstagedBits(fn: IrFunction): Set<number> {
  const bits = new Set<number>();
  for (const b of fn.blockIds()) for (const id of fn.block(b).insts) {
    const i = fn.inst(id).inst;
    if (i.op === 'matrix_unstage') { const t = fn.typeOf(i.value); if (t.kind === 'matrix') bits.add(t.element.bits); }
  }
  return bits;
}

const VIEW_BYTES: Record<MemoryView, number> = { 'u32': 4, 'vec2<u32>': 8, 'vec4<u32>': 16, 'atomic<u32>': 4, 'f16': 2, 'f32': 4 };

export function entryPointName(ptxName: string): string {
  return `k_${ptxName.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

function paramLayouts(fn: IrFunction, memory: FunctionMemory): ParamLayout[] {
  const pointers = new Set(memory.slots.flatMap((s) => [s.param, ...s.aliases]));
  return fn.kernelParams.map((p, i) => ({
    name: p.name, type: p.ptxType, offset: p.offset, size: p.size, align: p.align,
    ...(p.arrayLength !== undefined ? { arrayLength: p.arrayLength } : {}),
    isPointer: pointers.has(i),
  }));
}

/**
 * Where the staging area of the direct ldmatrix loads starts in shared memory viewed as halves
 * (a multiple of 8 halves, as Vulkan aligns matrix loads), or undefined without one.
 */
function ldmatrixStage(memory: FunctionMemory, ldmatrices: boolean): string | undefined {
  const sh = memory.shared;
  if (!ldmatrices || sh.view !== 'f16') return undefined;
  const words = Math.ceil(sh.staticBytes / 4);
  return sh.dynamic ? `(((${words}u + ptx_dynamic_smem_words) * 2u + 7u) & ~7u)` : `${Math.ceil(words / 4) * 8}u`;
}

function sharedDeclaration(memory: FunctionMemory, stage: string | undefined): string | undefined {
  const sh = memory.shared;
  if (!sh.used && !sh.dynamic) return undefined;
  const words = Math.ceil(sh.staticBytes / 4);
  if (sh.view === 'f16') {
    const halves = stage ? `${stage} + ${ldmatrixStageHalves}` : sh.dynamic ? `max((${words}u + ptx_dynamic_smem_words) * 2u, 1u)` : `${Math.max(1, words * 2)}`;
    return `var<workgroup> ptx_shared: array<f16, ${halves}>;`;
  }
  const per = VIEW_BYTES[sh.view] / 4;
  const count = sh.dynamic
    ? `max((${words}u + ptx_dynamic_smem_words + ${per - 1}u) / ${per}u, 1u)`
    : `${Math.max(1, Math.ceil(words / per))}`;
  return `var<workgroup> ptx_shared: array<${sh.view}, ${count}>;`;
}

/** `ptx_dyn_*`: loads and stores through addresses whose region is only known at run time. */
function dynamicHelpers(fn: IrFunction, memory: FunctionMemory, slotNames: readonly string[]): string {
  const cases: { cond: string; name: string; view: MemoryView; private: boolean; readOnly?: boolean }[] = [];
  if (memory.dynamicGeneric && (memory.shared.used || memory.shared.dynamic)) cases.push({ cond: `a.y == ${GENERIC_TAG.shared}u`, name: 'ptx_shared', view: memory.shared.view, private: false });
  if (memory.dynamicGeneric && memory.local.used) cases.push({ cond: `a.y == ${GENERIC_TAG.local}u`, name: 'ptx_local', view: 'u32', private: true });
  if (memory.dynamicGeneric && memory.constant.used) cases.push({ cond: `a.y == ${GENERIC_TAG.const}u`, name: 'ptx_const', view: memory.constant.view, private: false, readOnly: true });
  if (memory.moduleGlobal.used) cases.push({ cond: `a.y == ${MODULE_GLOBAL_TAG}u`, name: 'ptx_globals', view: memory.moduleGlobal.view, private: false });
  memory.slots.forEach((s, i) => {
    const hi = LAUNCH_HEADER_BYTES + (fn.kernelParams[s.param]?.offset ?? 0) + 4;
    // A slot no store can reach is bound read-only (assignSlots counts run-time dispatched stores).
    cases.push({ cond: `a.y == ptx_launch[${hi >> 4}].${'xyzw'[(hi >> 2) & 3]}`, name: slotNames[i] as string, view: s.view, private: false, readOnly: !s.writable && s.view !== 'atomic<u32>' });
  });
  const word = (c: (typeof cases)[number]): string =>
    c.view === 'vec4<u32>' ? `${c.name}[a.x >> 4u][(a.x >> 2u) & 3u]` : c.view === 'vec2<u32>' ? `${c.name}[a.x >> 3u][(a.x >> 2u) & 1u]` : `${c.name}[a.x >> 2u]`;
  const load = cases.map((c) => `  if (${c.cond}) { return ${c.view === 'atomic<u32>' ? `atomicLoad(&${word(c)})` : word(c)}; }`);
  const writable = cases.filter((c) => !c.readOnly);
  const store = writable.map((c) => `  if (${c.cond}) { ${c.view === 'atomic<u32>' ? `atomicStore(&${word(c)}, w)` : `${word(c)} = w`}; return; }`);
  const bits = writable.map((c) => c.view === 'atomic<u32>'
    ? `  if (${c.cond}) { atomicAnd(&${word(c)}, ~(m << s)); atomicOr(&${word(c)}, (w & m) << s); return; }`
    : `  if (${c.cond}) { ${word(c)} = insertBits(${word(c)}, w, s, n); return; }`);
  return [
    'fn ptx_dyn_load(a: vec2<u32>) -> u32 {', ...load, '  return 0u;', '}',
    'fn ptx_dyn_store(a: vec2<u32>, w: u32) {', ...store, '}',
    'fn ptx_dyn_store_bits(a: vec2<u32>, w: u32, n: u32) {', '  let s = (a.x & 3u) * 8u;', '  let m = select(0xffu, 0xffffu, n == 16u);', ...bits, '}',
  ].join('\n');
}

/**
 * What emitKernel needs besides the function. Every field is always present, undefined where
 * absent: one object shape, where optional fields made as many shapes as their combinations and
 * each new one made V8 optimise emitKernel again (issue 13).
 */
export interface KernelInfo {
  readonly reqntid: readonly number[] | undefined;
  readonly maxntid: readonly number[] | undefined;
  readonly nativeFma: boolean;
  readonly nativeFloat: NativeFloat | undefined;
  readonly warp: WarpReport | undefined;
  readonly matrix: MatrixReport | undefined;
  readonly subgroupOps: boolean | undefined;
  readonly replayRegions: ReplayMode | undefined;
  readonly lineOf: ((offset: number) => number) | undefined;
}

export function emitKernel(fn: IrFunction, sourceName: string, diagnostics: Diagnostic[], info: KernelInfo): CompiledKernel {
  const memory = fn.memory;
  const structured = fn.structured;
  if (!memory || !structured) throw new Error('ptx-wgsl internal error: emitKernel needs address-spaces and structurize to have run');
  const dynamicShared = memory.shared.dynamic;
  const warp = info.warp ?? { path: 'none', reason: 'the kernel uses no warp-level instructions' };
  warpPaths.set(fn, warp.path);
  const warpDecls = warpDeclarations(warp);
  const fe = new FunctionEmitter(fn, diagnostics, dynamicShared ? '(ptx_dynamic_smem_words * 4u)' : '0u', info.nativeFma, info.nativeFloat, info.subgroupOps === true, info.replayRegions);
  fe.emitBody(structured.body);

  const params = paramLayouts(fn, memory);
  const last = fn.kernelParams.at(-1);
  const paramBytes = last ? last.offset + last.size : 0;
  const uniformBytes = Math.ceil((LAUNCH_HEADER_BYTES + paramBytes) / 16) * 16;
  // Arrays that emitKernel reads are built by push, not `map`: V8's optimised `map` returns a
  // holey array where its builtin returns a packed one, and each new kind made V8 optimise this
  // large function again, 5 times over a compile of the repository's kernels (issue 13).
  const slotNames: string[] = [];
  for (let i = 0; i < memory.slots.length; i++) slotNames.push(`ptx_slot${i}`);
  const bindings: BindingLayout[] = [{ kind: 'launch-params', binding: 0 }];
  // 64-bit atomics grouped by subgroup (emit-atomic.ts) need the subgroup lane id and the
  // subgroup built-ins outside uniform control flow, whatever the warp path.
  const laneId = fe.library.has(SUBGROUP_LANE_MARKER);
  const matrices = usesMatrices(fn);
  const enables = [
    ...new Set([
      ...(laneId ? [...warpDecls.enables, 'enable subgroups;', 'diagnostic(off, subgroup_uniformity);'] : warpDecls.enables),
      ...(matrices ? MATRIX_ENABLES : []),
      ...(memory.shared.view === 'f16' ? ['enable f16;'] : []),
    ]),
  ];
  const decls: string[] = [
    ...enables,
    `// ptx-wgsl: kernel \`${fn.name}\` from ${sourceName}`,
    'override ptx_ntid_x: u32 = 1u;',
    'override ptx_ntid_y: u32 = 1u;',
    'override ptx_ntid_z: u32 = 1u;',
  ];
  decls.push('override ptx_grid_direct: bool = false;');
  const overrides: OverrideName[] = ['ptx_ntid_x', 'ptx_ntid_y', 'ptx_ntid_z', 'ptx_grid_direct'];
  if (dynamicShared) { decls.push('override ptx_dynamic_smem_words: u32 = 1u;'); overrides.push('ptx_dynamic_smem_words'); }
  decls.push(`@group(0) @binding(0) var<uniform> ptx_launch: array<vec4<u32>, ${uniformBytes / 16}>;`);
  memory.slots.forEach((s, i) => {
    const access = s.writable || s.view === 'atomic<u32>' ? 'read_write' : 'read';
    decls.push(`@group(0) @binding(${i + 1}) var<storage, ${access}> ${slotNames[i]}: array<${s.view}>;`);
    bindings.push({ kind: 'global-slot', binding: i + 1, param: s.param, aliases: s.aliases, access, element: s.view });
  });
  decls.push(...ownedDeclarations(memory, fe.traps, bindings));
  decls.push(...clockDeclarations(fe.library));
  const ldmatrices = placedOf(fn, 'matrix_ldmatrix');
  const stage = ldmatrixStage(memory, ldmatrices.length > 0);
  const shared = sharedDeclaration(memory, stage);
  if (shared) decls.push(shared);
  if (shared && memory.shared.view === 'f16') decls.push(...halfWordHelpers('ptx_shared'));
  decls.push(...warpDecls.decls);
  decls.push(...barrierDeclarations(fn), ...mbarrierDeclarations(fn));
  // the direct ldmatrix loads stage in shared memory when it is viewed as halves, else as matrix_stage does
  decls.push(...stagingDeclarations([...placedOf(fn, 'matrix_stage'), ...(stage ? [] : ldmatrices)], unstagedBits(fn)));
  decls.push(...ldmatrixDeclarations(ldmatrices, regionPlace(memory, { kind: 'shared' }), stage ?? ''));
  if (memory.local.used) decls.push(`var<private> ptx_local: array<u32, ${Math.max(1, Math.ceil(memory.local.staticBytes / 4))}>;`);
  if (memory.dynamicGlobal || memory.dynamicGeneric) decls.push(dynamicHelpers(fn, memory, slotNames));
  decls.push(...atomicLockDeclarations(fe.library, bindings));
  const entryPoint = entryPointName(fn.name);
  const deferred = deferredIn(fn);
  const target = deferred && regionPlace(memory, deferred.region);
  const epilogueEntryPoint = target ? `${entryPoint}_deferred_adds` : undefined;
  if (target && epilogueEntryPoint) decls.push(...deferredAddsDeclarations(target.name, epilogueEntryPoint, bindings));
  if (laneId) decls.push('var<private> ptx_sg_lane: u32;');

  const head = [
    ['@compute @workgroup_size(ptx_ntid_x, ptx_ntid_y, ptx_ntid_z)', ...warpDecls.attributes].join(' '),
    `fn ${entryPoint}(@builtin(local_invocation_id) ptx_tid: vec3<u32>, @builtin(local_invocation_index) ptx_tid_linear: u32, @builtin(workgroup_id) ptx_wid: vec3<u32>${laneId ? ', @builtin(subgroup_invocation_id) ptx_sg_lane_in: u32' : ''}) {`,
    ...GRID_PROLOGUE,
    ...warpDecls.prologue,
    ...(laneId ? ['  ptx_sg_lane = ptx_sg_lane_in;'] : []),
    ...fe.declarations(),
    ...(structured.usesExitFlag ? ['  var ptx_exit: u32 = 0u;'] : []),
    ...(structured.usesStateMachine ? [`  var ptx_state: u32 = ${structured.entryState}u;`] : []),
  ];
  const library = linkedLibrary(fe.library);
  const wgsl = [...decls, '', ...(library.text ? [library.text, ''] : []), ...head, ...fe.lines, '}', ''].join('\n');
  const lineMap = wgslLineMap(wgsl, decls, library, head, fe, info.lineOf);
  const layout: KernelLayout = {
    entry: fn.name, overrides, params, paramBytes, uniformBytes, bindings,
    staticSharedBytes: memory.shared.used ? memory.shared.staticBytes : 0,
    dynamicSharedBytes: 0,
    features: [
      ...(warp.path === 'subgroups' && warp.pinnedSubgroupSize ? ['subgroups', 'subgroup-size-control'] : warp.path === 'subgroups' || laneId ? ['subgroups'] : []),
      ...(matrices ? MATRIX_FEATURES.filter((f) => f !== 'subgroups' || !(warp.path === 'subgroups' || laneId)) : []),
      ...(!matrices && memory.shared.view === 'f16' ? ['shader-f16'] : []),
    ],
    warp,
    ...(info.matrix ? { matrix: matrixReport(info.matrix, ldmatrices, stage !== undefined) } : {}),
    ...(fe.trapReasons.size ? { trapReasons: Object.fromEntries(fe.trapReasons) } : {}),
    ...(info.reqntid ? { reqntid: info.reqntid } : {}),
    ...(info.maxntid ? { maxntid: info.maxntid } : {}),
  };
  return { layout, wgsl, entryPoint, lineMap, ...(epilogueEntryPoint ? { epilogueEntryPoint } : {}) };
}

/**
 * %ctaid and the linear block index `ptx_lin` (runtime/grid.ts): a grid that fits the dispatch
 * limits is dispatched as it is, so the workgroup id is %ctaid; a linearised grid returns its
 * padding workgroups and derives %ctaid, dividing only for 2D and 3D grids. Which of the two is
 * a pipeline constant, not a test of the launch header: with a run-time test, NVIDIA's code for
 * the linearised row layernorm ran 4.5% slower, and with the test as selects, the direct stencil
 * 3% slower (H200, 2026-11-29).
 */
const GRID_PROLOGUE: readonly string[] = [
  '  var ptx_ctaid = ptx_wid;',
  '  var ptx_lin = ptx_wid.x + ptx_launch[0].x * (ptx_wid.y + ptx_launch[0].y * ptx_wid.z);',
  '  if (!ptx_grid_direct) {',
  '    ptx_lin = ptx_wid.x + ptx_wid.y * ptx_launch[0].w;',
  '    if (ptx_lin >= ptx_launch[0].x * ptx_launch[0].y * ptx_launch[0].z) { return; }',
  '    ptx_ctaid = vec3<u32>(ptx_lin, 0u, 0u);',
  '    if (ptx_launch[0].y * ptx_launch[0].z != 1u) { ptx_ctaid = vec3<u32>(ptx_lin % ptx_launch[0].x, (ptx_lin / ptx_launch[0].x) % ptx_launch[0].y, ptx_lin / (ptx_launch[0].x * ptx_launch[0].y)); }',
  '  }',
];

/**
 * CompiledKernel.lineMap: null for every line before the body (the declarations, an empty line,
 * the library and another empty line if it is not empty, the entry point's head), the
 * instruction's PTX line for body lines. Newlines are counted in the joined text `wgsl`, the
 * library's once per library: searching each line made V8 flatten it into a copy of its own
 * (the emitter builds lines by concatenation; the join copies them without that), 1% of a
 * compile of the repository's kernels (issue 13).
 */
function wgslLineMap(wgsl: string, decls: readonly string[], library: LinkedLibrary, head: readonly string[], fe: FunctionEmitter, lineOf: ((offset: number) => number) | undefined): (number | null)[] {
  const map: (number | null)[] = [];
  let at = 0;
  // null for each line of `texts`, which start at `at` in `wgsl`, one newline after each
  const nulls = (texts: readonly string[]): void => {
    const end = texts.reduce((n, text) => n + text.length + 1, at);
    for (let n = wgsl.indexOf('\n', at); n >= 0 && n < end; n = wgsl.indexOf('\n', n + 1)) map.push(null);
    at = end;
  };
  nulls([...decls, '']);
  if (library.text) { for (let n = library.lines + 1; n > 0; n--) map.push(null); at += library.text.length + 2; }
  nulls(head);
  let lastOffset = -1;
  let lastLine: number | null = null;
  fe.lines.forEach((text, i) => {
    const offset = fe.lineOffsets[i] ?? -1;
    if (offset !== lastOffset) { lastOffset = offset; lastLine = offset >= 0 && lineOf ? lineOf(offset) : null; }
    // the line, then one per newline inside it; the newline that ends it is at `end`
    const end = at + text.length;
    map.push(lastLine);
    for (let n = wgsl.indexOf('\n', at); n < end; n = wgsl.indexOf('\n', n + 1)) map.push(lastLine);
    at = end + 1;
  });
  map.push(null, null); // the closing brace and the final newline's empty line
  return map;
}
