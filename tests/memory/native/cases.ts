// The mem_* kernel launches recorded with native CUDA (record.py, one GPU run) and replayed on
// WebGPU by tests/memory/native.gpu.test.ts. Inputs are deterministic; every array is poisoned
// before its launch, and every array's bytes after each launch are compared.
import { readFileSync } from 'node:fs';

export type NativeArg =
  | { readonly array: Int32Array | Uint32Array | Float32Array }
  | { readonly i32: number } | { readonly u32: number } | { readonly f32: number };
export interface NativeLaunch {
  readonly entry: string; readonly grid: number; readonly block: number; readonly shared?: number;
  readonly args: readonly NativeArg[];
}
export interface NativeCase {
  readonly name: string;
  /** tests/kernels/<ptx>.ptx */
  readonly ptx: string;
  /** Launches in order on one loaded module (module variables persist between them). */
  readonly launches: readonly NativeLaunch[];
  /** Words not compared: (launch, argument, word) -> true (implementation-defined values). */
  readonly skip?: (launch: number, arg: number, word: number) => boolean;
}

export const POISON = 0xdeadbeef;
export const kernelText = (name: string): string => readFileSync(new URL(`../../kernels/${name}.ptx`, import.meta.url), 'utf8');

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s; };
}
const poisonedI32 = (n: number): Int32Array => new Int32Array(n).fill(POISON | 0);
const poisonedU32 = (n: number): Uint32Array => new Uint32Array(n).fill(POISON);
function poisonedF32(n: number): Float32Array {
  const a = new Float32Array(n);
  new Uint32Array(a.buffer).fill(POISON);
  return a;
}

/** Fresh arguments on every call (launches write their arrays). */
export function nativeCases(): NativeCase[] {
  const calls = (() => {
    const n = 200;
    const next = rng(7);
    const input = Int32Array.from({ length: n }, () => next() | 0);
    return { entry: 'mem_calls_flat', grid: 4, block: 64, args: [{ f32: 1.75 }, { i32: -12345 }, { i32: 7 }, { array: input }, { array: poisonedI32(n * 4 + 8) }, { array: poisonedF32(n + 4) }, { i32: n }] };
  })();
  const local = (() => {
    const n = 100;
    const next = rng(11);
    const idx = Int32Array.from({ length: n * 4 }, () => next() & 0x7fffffff);
    const vals = Float32Array.from({ length: n }, () => (next() % 1000) / 8);
    return { entry: 'mem_local', grid: 2, block: 64, args: [{ array: idx }, { array: vals }, { array: poisonedF32(n + 4) }, { array: poisonedI32(n + 4) }, { i32: n }] };
  })();
  const localCall = (() => {
    const next = rng(5);
    const input = Float32Array.from({ length: 64 }, () => (next() % 4096) / 16);
    const ks = Int32Array.from({ length: 64 }, () => next() & 0x7fff);
    return { entry: 'mem_local_call', grid: 1, block: 64, args: [{ array: input }, { array: ks }, { array: poisonedF32(66) }] };
  })();
  const globals = (() => {
    const n = 77;
    const input = Int32Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 7 & 0xffff);
    const main = (): NativeLaunch => ({ entry: 'mem_globals', grid: 3, block: 32, args: [{ array: input }, { array: poisonedI32(n * 4 + 4) }, { array: poisonedF32(n + 4) }, { i32: n }] });
    const read = (): NativeLaunch => ({ entry: 'mem_read_counter', grid: 1, block: 1, args: [{ array: poisonedI32(4) }] });
    return [main(), main(), read(), read()];
  })();
  const special = [[3, 64], [2, 128], [1, 32]].map(([grid, block]) => {
    const n = (grid as number) * (block as number);
    return { entry: 'mem_special', grid: grid as number, block: block as number, shared: (block as number) * 4, args: [{ array: Int32Array.from({ length: n }, (_, i) => i * 7 + 3) }, { array: poisonedI32(n) }, { array: poisonedU32((grid as number) * 12 + 4) }] };
  });
  const switchIn = (() => {
    const next = rng(3);
    const n = 300;
    return Int32Array.from({ length: n }, (_, i) => (i % 13 === 12 ? (next() | 0) : (next() % 10) - 1));
  })();
  const allocaIn = (() => { const next = rng(23); return Int32Array.from({ length: 150 }, () => next() | 0); })();
  const stackIn = (() => { const next = rng(29); return Int32Array.from({ length: 130 }, () => next() | 0); })();
  return [
    { name: 'mem_calls', ptx: 'mem_calls', launches: [calls] },
    { name: 'mem_local', ptx: 'mem_local', launches: [local] },
    { name: 'mem_local_call', ptx: 'mem_local', launches: [localCall] },
    { name: 'mem_globals', ptx: 'mem_globals', launches: globals },
    // %total_smem_size counts the driver's reserved shared memory on NVIDIA GPUs: not compared.
    { name: 'mem_special', ptx: 'mem_special', launches: special, skip: (_l, arg, word) => arg === 2 && word % 12 === 1 && word < special.length * 12 },
    { name: 'mem_switch', ptx: 'mem_switch', launches: [{ entry: 'mem_switch', grid: 3, block: 128, args: [{ array: switchIn }, { array: poisonedI32(300 + 4) }, { i32: 300 }] }] },
    { name: 'mem_alloca', ptx: 'mem_alloca', launches: [{ entry: 'mem_alloca', grid: 3, block: 64, args: [{ array: allocaIn }, { array: poisonedI32(300 + 4) }, { i32: 150 }] }] },
    { name: 'mem_stack', ptx: 'mem_stack', launches: [
      { entry: 'mem_stack', grid: 2, block: 96, args: [{ array: stackIn }, { array: poisonedI32(260 + 4) }, { i32: 130 }] },
      { entry: 'mem_stack_big', grid: 1, block: 64, args: [{ array: poisonedI32(64 + 4) }, { u32: 256 }] },
    ] },
    { name: 'mem_trap_no_trap', ptx: 'mem_trap', launches: [{ entry: 'mem_trap', grid: 2, block: 32, args: [{ array: Int32Array.from({ length: 64 }, (_, i) => i + 100) }, { array: poisonedI32(64) }, { i32: 60 }] }] },
  ];
}

/** The JSON record.py reads: per case, the PTX file and launches with hex-encoded arrays. */
export function exportCases(): string {
  const hex = (a: Int32Array | Uint32Array | Float32Array): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');
  const arg = (a: NativeArg): unknown => ('array' in a ? { array: hex(a.array) } : a);
  const cases = nativeCases().map((c) => ({ name: c.name, ptx: c.ptx, launches: c.launches.map((l) => ({ ...l, shared: l.shared ?? 0, args: l.args.map(arg) })) }));
  return `${JSON.stringify(cases, null, 1)}\n`;
}
