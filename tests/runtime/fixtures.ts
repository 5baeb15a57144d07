/**
 * Hand-written WGSL kernels with their KernelLayouts, standing in for compile() so the runtime
 * is tested on its own. Each follows the binding contract of lowering/layout.ts.
 */
import type { BindingLayout, CompiledKernel, KernelLayout, OverrideName, ParamLayout } from '../../lowering/layout.js';
import type { CompiledModule, CompileOptions, RuntimeCompiler } from '../../src/compile-types.js';
import { SourceFile } from '../../src/diagnostics/source.js';

const NTID: readonly OverrideName[] = ['ptx_ntid_x', 'ptx_ntid_y', 'ptx_ntid_z', 'ptx_grid_direct'];
const NTID_WGSL = `override ptx_ntid_x: u32 = 1u;\noverride ptx_ntid_y: u32 = 1u;\noverride ptx_ntid_z: u32 = 1u;\noverride ptx_grid_direct: bool = false;`;

function param(name: string, type: ParamLayout['type'], offset: number, size: number, isPointer = false, arrayLength?: number): ParamLayout {
  return { name, type, offset, size, align: Math.min(size, 8), isPointer, ...(arrayLength !== undefined ? { arrayLength } : {}) };
}

function slot(binding: number, p: number, access: 'read' | 'read_write', aliases: number[] = []): BindingLayout {
  return { kind: 'global-slot', binding, param: p, aliases, access, element: 'u32' };
}

function layout(entry: string, params: ParamLayout[], paramBytes: number, bindings: BindingLayout[], extra: Partial<KernelLayout> = {}): KernelLayout {
  return {
    entry,
    overrides: NTID,
    params,
    paramBytes,
    uniformBytes: 16 + Math.ceil(paramBytes / 16) * 16,
    bindings: [{ kind: 'launch-params', binding: 0 }, ...bindings],
    staticSharedBytes: 0,
    dynamicSharedBytes: 0,
    features: [],
    warp: { path: 'none', reason: 'test fixture' },
    ...extra,
  };
}

/**
 * echo(out, a.u8, b.s16, c.f32, d.f64, e.u64, agg.b8[12], n.u32): thread i < 16 copies uniform
 * word i to out[low word of out / 4 + i], so a test sees the header and packing byte for byte.
 */
export const ECHO_PARAMS = [
  param('out', 'u64', 0, 8, true),
  param('a', 'u8', 8, 1),
  param('b', 's16', 10, 2),
  param('c', 'f32', 12, 4),
  param('d', 'f64', 16, 8),
  param('e', 'u64', 24, 8),
  param('agg', 'b8', 32, 12, false, 12),
  param('n', 'u32', 44, 4),
];
const echo: CompiledKernel = {
  entryPoint: 'main',
  layout: layout('echo', ECHO_PARAMS, 48, [slot(1, 0, 'read_write')]),
  wgsl: `${NTID_WGSL}
@group(0) @binding(0) var<uniform> u: array<vec4<u32>, 4>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(ptx_ntid_x, ptx_ntid_y, ptx_ntid_z)
fn main(@builtin(local_invocation_index) li: u32) {
  let base = u[1].x / 4u;
  if (li < 16u) { out[base + li] = u[li / 4u][li % 4u]; }
}`,
};

/**
 * blocks(out, count): every block takes its %ctaid from the workgroup id, or computes it from
 * the linearised one, as the pipeline constant says (runtime/grid.ts); thread 0 writes ctaid.x + 1000 ctaid.y + 1000000 ctaid.z to out[lin] and
 * counts itself in count[0].
 */
const blocks: CompiledKernel = {
  entryPoint: 'main',
  layout: layout('blocks', [param('out', 'u64', 0, 8, true), param('count', 'u64', 8, 8, true)], 16, [
    slot(1, 0, 'read_write'),
    { kind: 'global-slot', binding: 2, param: 1, aliases: [], access: 'read_write', element: 'atomic<u32>' },
  ]),
  wgsl: `${NTID_WGSL}
@group(0) @binding(0) var<uniform> u: array<vec4<u32>, 2>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<storage, read_write> count: array<atomic<u32>>;
@compute @workgroup_size(ptx_ntid_x, ptx_ntid_y, ptx_ntid_z)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) li: u32) {
  let h = u[0];
  var lin = wid.x + h.x * (wid.y + h.y * wid.z);
  var c = wid;
  if (!ptx_grid_direct) {
    lin = wid.x + wid.y * h.w;
    if (lin >= h.x * h.y * h.z) { return; }
    c = vec3u(lin % h.x, (lin / h.x) % h.y, lin / (h.x * h.y));
  }
  if (li == 0u) {
    out[lin] = c.x + 1000u * c.y + 1000000u * c.z;
    atomicAdd(&count[0], 1u);
  }
}`,
};

/** saxpy(x, y, out, a, n): out[i] = a * x[i] + y[i]; variants for out aliasing x or y. */
const SAXPY_PARAMS = [
  param('x', 'u64', 0, 8, true),
  param('y', 'u64', 8, 8, true),
  param('out', 'u64', 16, 8, true),
  param('a', 'f32', 24, 4),
  param('n', 'u32', 28, 4),
];
const SAXPY_BODY = `
@compute @workgroup_size(ptx_ntid_x, ptx_ntid_y, ptx_ntid_z)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  if (i >= u[2].w) { return; }
  let a = bitcast<f32>(u[2].z);
  OUT[u[2].x / 4u + i] = bitcast<u32>(a * bitcast<f32>(X[u[1].x / 4u + i]) + bitcast<f32>(Y[u[1].z / 4u + i]));
}`;
function saxpy(aliases: readonly (readonly number[])[]): CompiledKernel {
  const decl = `${NTID_WGSL}\n@group(0) @binding(0) var<uniform> u: array<vec4<u32>, 3>;`;
  const key = JSON.stringify(aliases);
  if (key === '[]') {
    return {
      entryPoint: 'main',
      layout: layout('saxpy', SAXPY_PARAMS, 32, [slot(1, 0, 'read'), slot(2, 1, 'read'), slot(3, 2, 'read_write')]),
      wgsl: `${decl}
@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read> y: array<u32>;
@group(0) @binding(3) var<storage, read_write> o: array<u32>;
${SAXPY_BODY.replace('OUT', 'o').replace('X[', 'x[').replace('Y[', 'y[')}`,
    };
  }
  if (key === '[[1,2]]') {
    return {
      entryPoint: 'main',
      layout: layout('saxpy', SAXPY_PARAMS, 32, [slot(1, 0, 'read'), slot(2, 1, 'read_write', [2])]),
      wgsl: `${decl}
@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<storage, read_write> y: array<u32>;
${SAXPY_BODY.replace('OUT', 'y').replace('X[', 'x[').replace('Y[', 'y[')}`,
    };
  }
  throw new Error(`fixture has no saxpy variant for aliases ${key}`);
}

/** smem(out): uses dynamic shared memory sized by the override; reports the word count. */
const smem: CompiledKernel = {
  entryPoint: 'main',
  layout: layout('smem', [param('out', 'u64', 0, 8, true)], 8, [slot(1, 0, 'read_write')], {
    overrides: [...NTID, 'ptx_dynamic_smem_words'],
    staticSharedBytes: 1024,
  }),
  wgsl: `${NTID_WGSL}
override ptx_dynamic_smem_words: u32 = 1u;
var<workgroup> dyn: array<u32, ptx_dynamic_smem_words>;
@group(0) @binding(0) var<uniform> u: array<vec4<u32>, 2>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(ptx_ntid_x, ptx_ntid_y, ptx_ntid_z)
fn main(@builtin(local_invocation_index) li: u32) {
  dyn[li] = li * 3u;
  workgroupBarrier();
  if (li == 0u) { out[0] = ptx_dynamic_smem_words; out[1] = dyn[ptx_ntid_x - 1u]; }
}`,
};

/** A kernel whose WGSL does not compile, as a compiler bug would produce. */
const broken: CompiledKernel = {
  entryPoint: 'main',
  layout: layout('broken', [], 0, []),
  wgsl: `${NTID_WGSL}
@compute @workgroup_size(ptx_ntid_x) fn main() { let x: u32 = undefined_thing; }`,
};

/** PTX-shaped source texts: only the `.entry` names matter to the runtime. */
export const SOURCES = {
  echo: '.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry echo()\n{ ret; }\n',
  blocks: '.visible .entry blocks() { ret; }',
  saxpy: '// .entry not_this_one\n.visible .entry saxpy() { ret; }',
  smem: '.visible .entry smem() { ret; }',
  broken: '.visible .entry broken() { ret; }',
  two: '.visible .entry echo() { ret; }\n.visible .entry blocks() { ret; }',
};

export interface FakeCompiler extends RuntimeCompiler {
  /** The options of every kernel compile, in order. */
  readonly calls: CompileOptions[];
}

const NO_VARIABLES = { offsets: new Map<string, number>(), bytes: 0, init: new Uint8Array(0) };

/** A compiler stand-in returning the fixtures (no device probes); it records its kernel compiles for the tests. */
export function fakeCompiler(): FakeCompiler {
  const calls: CompileOptions[] = [];
  const kernels = (source: string, options: CompileOptions): CompiledKernel[] => {
    calls.push(options);
    const all: Record<string, () => CompiledKernel> = {
      echo: () => echo,
      blocks: () => blocks,
      smem: () => smem,
      broken: () => broken,
      saxpy: () => saxpy(options.paramAliases ?? []),
    };
    const wanted = entryNames(source).filter((n) => n in all && (options.entry === undefined || n === options.entry));
    return wanted.map((n) => (all[n] as () => CompiledKernel)());
  };
  const compileModule = (source: string, options: { fileName?: string } = {}): CompiledModule => {
    const fileName = options.fileName ?? 'kernel.ptx';
    return {
      fileName,
      source: new SourceFile(fileName, source),
      entries: entryNames(source),
      variables: () => ({ global: NO_VARIABLES, const: NO_VARIABLES, sizes: new Map() }),
      kernels: (o) => kernels(source, o),
    };
  };
  return { compileModule, calls };
}

/** `.entry` names, skipping line comments (SOURCES.saxpy has one naming another entry). */
function entryNames(source: string): string[] {
  return [...source.replace(/\/\/[^\n]*/g, '').matchAll(/\.entry\s+(\w+)/g)].map((m) => m[1] ?? '');
}
