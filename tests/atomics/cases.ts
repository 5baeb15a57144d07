/**
 * Deterministic one-address-per-thread cases of atom/red (edge values from the ISA: zeros,
 * subnormals, infinities, NaNs, rounding ties, wrap limits), shared by the WebGPU test and the
 * native recording (native/record.py reads native/each-cases.json written from these).
 */
import type { AtomSpec } from './kernels.js';
import { f32Bits, f64Bits, type Bits, type Op } from './reference.js';

export interface EachCase {
  readonly name: string; readonly op: Op; readonly spec: AtomSpec; readonly init: Bits[]; readonly vals: Bits[]; readonly cmps: Bits[];
  /** Added after the native recording (tests/atomics/native/each.json): checked against the JS reference only. */
  readonly unrecorded?: true;
}

function xs(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x; };
}

const F32_EDGE = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x00400000, 0x3f800000, 0xbf800000,
  0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00001, 0x33800000, 0x33800001, 0x4b800000, 0x00800001, 0x80800001, 0x3f800001, 0x34000000,
  // around the scaled-sum thresholds of shaders/atomic.wgsl (2^-63, 2^64) and cancellation near 2^-101
  0x5f7fffff, 0x5f800000, 0x1fffffff, 0x20000000, 0x9fffffff, 0x0d000001, 0x8d000000, 0x0c800003];
/** Pairs of edge values plus random ones, and pairs whose sum is tiny (cancellation into subnormals). */
function f32Pairs(seed: number): [Bits[], Bits[]] {
  const a: number[] = []; const b: number[] = [];
  for (const x of F32_EDGE) for (const y of F32_EDGE) { a.push(x); b.push(y); }
  const r = xs(seed);
  for (let k = 0; k < 200; k++) {
    const x = r(); a.push(x); b.push(r() & 1 ? r() : (x ^ 0x80000000) + (r() % 64) - 32);
    const t = (r() % 0x01800000) >>> 0; a.push(t); b.push(((r() & 1) << 31 | (r() % 0x01800000)) >>> 0);
  }
  return [a.map((x) => BigInt(x >>> 0)), b.map((x) => BigInt(x >>> 0))];
}

const H_EDGE = [0, 0x8000, 1, 0x8001, 0x3ff, 0x83ff, 0x400, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0x1400, 0x1401, 0x3c01, 0x0200];
const BF_EDGE = [0, 0x8000, 1, 0x8001, 0x7f, 0x807f, 0x80, 0x3f80, 0xbf80, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x7fa0, 0x3b80, 0x3b81, 0x3f81, 0x0040];
function halfPairs(edge: readonly number[], seed: number): [Bits[], Bits[]] {
  const a: number[] = []; const b: number[] = [];
  const r = xs(seed);
  for (const x of edge) for (const y of edge) { a.push(x | (((r() & 0xffff) ^ 0) << 16)); b.push(y | ((r() & 0xffff) << 16)); }
  for (let k = 0; k < 300; k++) { a.push(r()); b.push(r()); }
  return [a.map((x) => BigInt(x >>> 0)), b.map((x) => BigInt(x >>> 0))];
}

const F64_EDGE = [0, -0, 5e-324, -5e-324, 2.2250738585072014e-308, -2.2250738585072009e-308, 1, -1, 1 + 2 ** -52, 2 ** -53, 2 ** -54 + 2 ** -106, 1.7976931348623157e308, Infinity, -Infinity, 3.5, -0.1];
function f64Pairs(seed: number): [Bits[], Bits[]] {
  const a: Bits[] = []; const b: Bits[] = [];
  for (const x of F64_EDGE) for (const y of F64_EDGE) { a.push(f64Bits(x)); b.push(f64Bits(y)); }
  const r = xs(seed);
  for (let k = 0; k < 200; k++) {
    a.push((BigInt(r()) << 32n) | BigInt(r()));
    b.push(k & 1 ? (BigInt(r()) << 32n) | BigInt(r()) : (a[a.length - 1] as Bits) ^ (1n << 63n) ^ BigInt(r() % 16));
  }
  return [a.filter((_, i) => true).map((x) => x & 0x7fefffffffffffffn | (x & (1n << 63n))), b.map((x) => x & 0x7fefffffffffffffn | (x & (1n << 63n)))];
}

const INC_EDGE = [0, 1, 2, 5, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];
function incPairs(): [Bits[], Bits[]] {
  const a: Bits[] = []; const b: Bits[] = [];
  for (const x of INC_EDGE) for (const y of INC_EDGE) { a.push(BigInt(x)); b.push(BigInt(y)); }
  return [a, b];
}

/** A case of at most 1024 threads (one block), from pair `from` on. */
function make(name: string, op: Op, spec: AtomSpec, [init, vals]: [Bits[], Bits[]], cmps?: Bits[], from = 0): EachCase {
  const end = Math.min(init.length, from + 1024);
  return { name, op, spec, init: init.slice(from, end), vals: vals.slice(from, end), cmps: (cmps ?? init.map(() => 0n)).slice(from, end) };
}

const s32 = (x: number): Bits => BigInt(x >>> 0);
export const EACH_CASES: readonly EachCase[] = [
  make('add.f32.global', 'add', { space: 'global', op: 'add', type: 'f32' }, f32Pairs(1)),
  make('add.f32.shared', 'add', { space: 'shared', op: 'add', type: 'f32' }, f32Pairs(1)),
  make('red.add.f32.global', 'add', { space: 'global', op: 'add', type: 'f32', red: true }, f32Pairs(2)),
  make('add.f32.global.random', 'add', { space: 'global', op: 'add', type: 'f32' }, f32Pairs(8), undefined, 1024),
  make('add.f32.shared.random', 'add', { space: 'shared', op: 'add', type: 'f32' }, f32Pairs(9), undefined, 1024),
  make('add.f16x2.global', 'add', { space: 'global', op: 'add.noftz', type: 'f16x2' }, halfPairs(H_EDGE, 3)),
  make('add.f16x2.shared', 'add', { space: 'shared', op: 'add.noftz', type: 'f16x2' }, halfPairs(H_EDGE, 4)),
  make('add.bf16x2.global', 'add', { space: 'global', op: 'add.noftz', type: 'bf16x2' }, halfPairs(BF_EDGE, 5)),
  make('add.f64.global', 'add', { space: 'global', op: 'add', type: 'f64' }, f64Pairs(6)),
  make('add.f64.shared', 'add', { space: 'shared', op: 'add', type: 'f64' }, f64Pairs(7)),
  make('inc.u32.global', 'inc', { space: 'global', op: 'inc', type: 'u32' }, incPairs()),
  make('dec.u32.shared', 'dec', { space: 'shared', op: 'dec', type: 'u32' }, incPairs()),
  make('min.s32.global', 'min', { space: 'global', op: 'min', type: 's32' }, [[-5, 3, 0x7fffffff, -0x80000000, 0, -1].map(s32), [3, -5, -0x80000000, 0x7fffffff, -1, 0].map(s32)]),
  make('max.s64.shared', 'max', { space: 'shared', op: 'max', type: 's64' }, [[0n, 0xffffffffffffffffn, 0x8000000000000000n, 1n], [0xffffffffffffffffn, 0n, 0x7fffffffffffffffn, 0x100000000n]]),
  make('cas.b64.global', 'cas', { space: 'global', op: 'cas', type: 'b64' }, [[1n, 0x100000001n, 0x100000001n, 5n], [9n, 9n, 9n, 9n]], [1n, 1n, 0x100000001n, 0x500000000n]),
  make('cas.b32.shared', 'cas', { space: 'shared', op: 'cas', type: 'b32' }, [[1n, 2n, 0xffffffffn], [9n, 9n, 9n]], [1n, 1n, 0xffffffffn]),
  { ...make('add.bf16.global', 'add', { space: 'global', op: 'add.noftz', type: 'bf16' }, lanes(halfPairs(BF_EDGE, 10))), unrecorded: true },
  { ...make('add.bf16.shared', 'add', { space: 'shared', op: 'add.noftz', type: 'bf16' }, lanes(halfPairs(BF_EDGE, 11))), unrecorded: true },
  { ...make('add.f16.global', 'add', { space: 'global', op: 'add.noftz', type: 'f16' }, lanes(halfPairs(H_EDGE, 12))), unrecorded: true },
  { ...make('add.f16.shared', 'add', { space: 'shared', op: 'add.noftz', type: 'f16' }, lanes(halfPairs(H_EDGE, 13))), unrecorded: true },
  { ...make('cas.b16.shared', 'cas', { space: 'shared', op: 'cas', type: 'b16' }, [[1n, 2n, 0xffffn, 7n], [9n, 9n, 9n, 9n]], [1n, 1n, 0xffffn, 8n]), unrecorded: true },
];

/** 16-bit lanes of 32-bit pairs: the low halves. */
function lanes([a, b]: [Bits[], Bits[]]): [Bits[], Bits[]] {
  return [a.map((x) => x & 0xffffn), b.map((x) => x & 0xffffn)];
}
