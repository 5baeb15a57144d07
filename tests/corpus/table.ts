/**
 * The corpus table (tests/corpus/cases.json) as TypeScript sees it: one case per kernel launch
 * sequence, run once per PTX variant it lists. record_native.py reads the same JSON.
 * Host-agnostic: no Node, Deno or DOM imports.
 *
 * A case names its source (kernels/<source>.<variant>.ptx, built by build.sh from <source>.cu;
 * variant `hand` is a hand-written kernels/<source>.ptx), its buffers (type, length, generator),
 * optional __constant__/__device__ symbols filled before the launches, the launches (entry, grid,
 * block, dynamic shared bytes, arguments: a buffer name or a typed scalar), and how each buffer
 * the kernels write is compared with the recording. Every other buffer must come back unchanged.
 */

export const SCALAR_TYPES = ['f16', 'f32', 'f64', 'i8', 'u8', 'i16', 'u16', 'i32', 'u32', 'i64', 'u64'] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

/** How a buffer's initial contents are made (inputs.ts and record_native.py implement each). */
export type Generator =
  | 'poison'
  | { gen: 'poison' }
  | { gen: 'fill'; value: number; set?: [number, number][] }
  | { gen: 'iota'; start?: number; step?: number }
  | { gen: 'unif'; lo: number; hi: number; bits?: number; set?: [number, number][] }
  | { gen: 'int'; lo: number; hi: number; set?: [number, number][] }
  | { gen: 'bool'; p: number; set?: [number, number][] }
  | { gen: 'csr_rowptr'; rows: number; nnz: number }
  | { gen: 'perm' };

export interface BufferSpec {
  name: string;
  type: ScalarType;
  /** Element count (of `type`: a float4 buffer of k vectors is f32 with n = 4k). */
  n: number;
  init: Generator;
}

/** A scalar argument, by PTX parameter type; `struct` packs fields with C alignment. */
export type ScalarArg =
  | { u8: Num }
  | { f16: Num }
  | { f32: Num }
  | { f64: Num }
  | { i32: Num }
  | { u32: Num }
  | { i64: Num }
  | { u64: Num }
  | { struct: ScalarArg[] };

/** A number, or the name of one of the case's `dims`. */
export type Num = number | string;

export type Arg = string | ScalarArg;
export type Dim = number | number[];

export interface LaunchSpec {
  entry: string;
  grid: Dim;
  block: Dim;
  shared?: number;
  args: Arg[];
}

/** A launch, or a group of launches repeated `repeat` times. */
export type LaunchItem = LaunchSpec | { repeat: number; launches: LaunchItem[] };

export type CheckSpec =
  /** Bit for bit (floats too). */
  | { cmp: 'exact' }
  /** Floats: within `ulp` units in the last place of the recording, or within `abs`. */
  | { cmp: 'ulp'; ulp: number; abs?: number; why: string }
  /** Floats: |got - want| <= rel * |want| + abs. */
  | { cmp: 'rel'; rel: number; abs?: number; why: string }
  /** The same elements in any order (bitwise). */
  | { cmp: 'multiset'; why: string }
  /** Written but not compared. */
  | { cmp: 'ignore'; why: string };

export interface CorpusCase {
  name: string;
  category: string;
  source: string;
  /** Variants to run (default ['sm80']). */
  variants?: string[];
  /** Named sizes the scalar arguments and the JS reference use. */
  dims?: Record<string, number>;
  buffers: BufferSpec[];
  symbols?: BufferSpec[];
  launches: LaunchItem[];
  check: Record<string, CheckSpec>;
  /** Per-variant replacements of `check` entries (e.g. looser tolerances for `fast`). */
  variantCheck?: Record<string, Record<string, CheckSpec>>;
  /** Name of the JS reference (reference.ts), when one exists. */
  ref?: string;
  /** Float tolerance of the JS reference (which follows the CUDA source, not the PTX's rounding). */
  refTol?: { rel: number; abs: number };
  /**
   * Why the case is too slow for the lavapipe/SwiftShader test runs (they leave it out unless
   * PTXW_CORPUS_SLOW=1); the GPU machine always runs it.
   */
  slow?: string;
  notes?: string;
}

export interface CorpusTable {
  about?: string;
  cases: CorpusCase[];
}

/** One (case, variant) pair: what a test runs. */
export interface CorpusRun {
  id: string;
  c: CorpusCase;
  variant: string;
  ptxFile: string;
}

export function ptxFileOf(source: string, variant: string): string {
  return variant === 'hand' ? `${source}.ptx` : `${source}.${variant}.ptx`;
}

export function runsOf(table: CorpusTable): CorpusRun[] {
  return table.cases.flatMap((c) =>
    (c.variants ?? ['sm80']).map((variant) => ({ id: `${c.name}@${variant}`, c, variant, ptxFile: ptxFileOf(c.source, variant) })),
  );
}

/** The check of `buffer` for `variant`, or undefined for buffers the kernels must not change. */
export function checkOf(c: CorpusCase, variant: string, buffer: string): CheckSpec | undefined {
  return c.variantCheck?.[variant]?.[buffer] ?? c.check[buffer];
}

/** Buffers whose final contents are recorded (checked and not ignored), in table order. */
export function recordedBuffers(c: CorpusCase): BufferSpec[] {
  return c.buffers.filter((b) => c.check[b.name] !== undefined && c.check[b.name]?.cmp !== 'ignore');
}

/** The launches in order, groups expanded. */
export function flatLaunches(items: readonly LaunchItem[]): LaunchSpec[] {
  const out: LaunchSpec[] = [];
  for (const it of items) {
    if ('repeat' in it) for (let k = 0; k < it.repeat; k++) out.push(...flatLaunches(it.launches));
    else out.push(it);
  }
  return out;
}

export function dim3(d: Dim): [number, number, number] {
  const a = typeof d === 'number' ? [d] : d;
  return [a[0] ?? 1, a[1] ?? 1, a[2] ?? 1];
}

/** Structural problems of the table (names, references to buffers, generator fields). */
export function validateTable(table: CorpusTable): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const c of table.cases) {
    if (names.has(c.name)) problems.push(`duplicate case ${c.name}`);
    names.add(c.name);
    const bufs = new Set<string>();
    for (const b of [...c.buffers, ...(c.symbols ?? [])]) {
      if (bufs.has(b.name)) problems.push(`${c.name}: duplicate buffer ${b.name}`);
      bufs.add(b.name);
      if (!SCALAR_TYPES.includes(b.type)) problems.push(`${c.name}: ${b.name} has type ${b.type}`);
      if (!(Number.isInteger(b.n) && b.n > 0)) problems.push(`${c.name}: ${b.name} has length ${b.n}`);
    }
    for (const l of flatLaunches(c.launches)) {
      for (const a of l.args) {
        if (typeof a === 'string' && !c.buffers.some((b) => b.name === a)) problems.push(`${c.name}: ${l.entry} takes unknown buffer ${a}`);
        if (typeof a !== 'string') {
          try {
            scalarsOf(a, c.dims ?? {});
          } catch (e) {
            problems.push(`${c.name}: ${l.entry}: ${(e as Error).message}`);
          }
        }
      }
    }
    for (const [name, chk] of [
      ...Object.entries(c.check),
      ...Object.values(c.variantCheck ?? {}).flatMap((m) => Object.entries(m)),
    ]) {
      if (!c.buffers.some((b) => b.name === name)) problems.push(`${c.name}: check of unknown buffer ${name}`);
      if (chk.cmp !== 'exact' && !('why' in chk && chk.why)) problems.push(`${c.name}: ${name}'s ${chk.cmp} check gives no reason`);
    }
    if (Object.keys(c.check).length === 0) problems.push(`${c.name}: checks nothing`);
  }
  return problems;
}

/** The scalar argument's leaves as [type, value] with dims resolved (a struct gives several). */
export function scalarsOf(a: ScalarArg, dims: Readonly<Record<string, number>>): [string, number][] {
  if ('struct' in a) return a.struct.flatMap((f) => scalarsOf(f, dims));
  const [type, v] = Object.entries(a)[0] as [string, Num];
  const value = typeof v === 'string' ? dims[v] : v;
  if (value === undefined) throw new Error(`unknown dim ${String(v)}`);
  return [[type, value]];
}
