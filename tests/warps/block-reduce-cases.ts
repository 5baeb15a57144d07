/**
 * The block-reduction kernels (tests/kernels/block_reduce.cu): launch shapes, inputs and JS
 * references. Float references add in the kernel's order (each thread's strided loop, then the
 * warp's shuffle tree lane by lane, then the second level over the warp sums) with
 * Math.fround, and fuse where nvcc emitted fma.rn.f32 (fma32), so sums compare bit for bit;
 * only values behind approximate instructions (rsqrt.approx, ex2.approx) get a tolerance.
 */
import { fmaf32 as fma32 } from '../e2e/reference.js';

const f = Math.fround;

/** An argument: a buffer (copied in, and read back when it is an output) or a scalar (int or float, as the parameter is). */
export type BrArg = { readonly buffer: Float32Array | Int32Array; readonly output?: true } | { readonly scalar: number };

export interface BrCase {
  readonly name: string;
  readonly kernel: string;
  readonly grid: number;
  readonly block: number;
  readonly args: () => BrArg[];
  /** Expected contents of the output buffers, in argument order. */
  readonly reference: (args: BrArg[]) => (Float32Array | Int32Array)[];
  /** Per output: absolute tolerance relative to max(1, |expected|); undefined: bit-exact. */
  readonly tolerance?: readonly (number | undefined)[];
}

/** Deterministic floats in [lo, hi), exactly representable (multiples of 1/1024). */
export function floats(n: number, seed: number, lo = -2, hi = 2): Float32Array {
  const a = new Float32Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    a[i] = lo + Math.floor(((x >>> 8) / 0x1000000) * (hi - lo) * 1024) / 1024;
  }
  return a;
}

function ints(n: number, seed: number): Int32Array {
  let x = seed >>> 0;
  return Int32Array.from({ length: n }, () => { x = (Math.imul(x, 1664525) + 1013904223) >>> 0; return ((x >>> 12) % 20001) - 10000; });
}

// ---- one warp, lane by lane, as the shuffles move values ----

/** `v += __shfl_down_sync(full, v, o)` for o = w/2 .. 1: lanes whose source is past lane 31 add their own value. */
function sumDown(v: number[], w = 32): number[] {
  let r = v;
  for (let o = w / 2; o > 0; o >>= 1) r = r.map((x, l) => f(x + (l + o < 32 ? (r[l + o] as number) : x)));
  return r;
}

/** `v += __shfl_xor_sync(full, v, o)` for o = 16 .. 1. */
function sumXor(v: number[]): number[] {
  let r = v;
  for (let o = 16; o > 0; o >>= 1) r = r.map((x, l) => f(x + (r[l ^ o] as number)));
  return r;
}

/** The lanes of `block` threads' values, as warps of 32 (the last may be shorter). */
function warps<T>(vals: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < vals.length; i += 32) out.push(vals.slice(i, i + 32));
  return out;
}

/** Warp w's sums in lanes below the warp count, `pad` above (the second level's input). */
const secondLevel = (sums: number[], pad = 0): number[] => Array.from({ length: 32 }, (_, l) => (l < sums.length ? (sums[l] as number) : pad));

/** Each thread's strided partial over `row`: `acc = step(acc, x)` for x = row[t], row[t + block], ... */
function strided(row: ArrayLike<number>, block: number, step: (acc: number, x: number) => number, init = 0): number[] {
  return Array.from({ length: block }, (_, t) => { let a = init; for (let i = t; i < row.length; i += block) a = step(a, row[i] as number); return a; });
}

const buf = (a: BrArg): Float32Array | Int32Array => { if (!('buffer' in a)) throw new Error('not a buffer'); return a.buffer; };
const out = (n: number): BrArg => ({ buffer: new Float32Array(n).fill(Number.NaN), output: true });
const outInt = (n: number): BrArg => ({ buffer: new Int32Array(n).fill(-0x21524111), output: true });
const rsqrt = (x: number): number => f(1 / Math.sqrt(x));

function sumDownCase(grid: number, n: number): BrCase {
  return {
    name: `br_sum_down ${grid}x256 n=${n}`, kernel: 'br_sum_down', grid, block: 256,
    args: () => [{ buffer: floats(grid * n, 1) }, out(grid), { scalar: n }],
    reference: ([x]) => [Float32Array.from({ length: grid }, (_, b) => {
      const part = strided(buf(x!).subarray(b * n, (b + 1) * n), 256, (a, v) => f(a + v));
      const sums = warps(part).map((w) => sumDown(w)[0] as number);
      return sumDown(secondLevel(sums), 8)[0] as number;
    })],
  };
}

function allreduceCase(grid: number, block: number): BrCase {
  return {
    name: `br_allreduce_xor ${grid}x${block}`, kernel: 'br_allreduce_xor', grid, block,
    args: () => [{ buffer: ints(grid * block, 2) }, outInt(2 * grid * block)],
    reference: ([x]) => {
      const r = new Int32Array(2 * grid * block);
      for (let b = 0; b < grid; b++) {
        const v = [...buf(x!).subarray(b * block, (b + 1) * block)];
        const sum = v.reduce((a, c) => (a + c) | 0, 0);
        const max = Math.max(...v);
        for (let t = 0; t < block; t++) r.set([sum, max], 2 * (b * block + t));
      }
      return [r];
    },
  };
}

interface Norm { readonly mean: number; readonly rstd: number }

/** out, mean, rstd, inp, weight, bias (the layernorm kernels' buffers). */
function layernormArgs(rows: number, C: number): BrArg[] {
  return [out(rows * C), out(rows), out(rows), { buffer: floats(rows * C, 3, -3, 5) }, { buffer: floats(C, 4, 0.5, 1.5) }, { buffer: floats(C, 5, -0.5, 0.5) }];
}

function normalised(args: BrArg[], rows: number, C: number, stats: (row: Float32Array) => Norm): (Float32Array | Int32Array)[] {
  const x = buf(args[3]!); const w = buf(args[4]!); const b = buf(args[5]!);
  const y = new Float32Array(rows * C); const mean = new Float32Array(rows); const rstd = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    const row = x.subarray(r * C, (r + 1) * C) as Float32Array;
    const s = stats(row);
    mean[r] = s.mean; rstd[r] = s.rstd;
    for (let i = 0; i < C; i++) y[r * C + i] = fma32(f(s.rstd * f((row[i] as number) - s.mean)), w[i] as number, b[i] as number);
  }
  return [y, mean, rstd];
}

const APPROX = 1e-5;

function layernormCase(rows: number, block: number, C: number): BrCase {
  return {
    name: `br_layernorm ${rows}x${block} C=${C}`, kernel: 'br_layernorm', grid: rows, block,
    args: () => [...layernormArgs(rows, C), { scalar: C }],
    reference: (args) => normalised(args, rows, C, (row) => {
      const sum = strided(row, block, (a, v) => f(a + v));
      const sum2 = strided(row, block, (a, v) => fma32(v, v, a));
      const level = (p: number[]): number => sumXor(secondLevel(warps(p).map((w) => sumXor(w)[0] as number)))[0] as number;
      const mean = f(level(sum) / C);
      return { mean, rstd: rsqrt(f(f(f(level(sum2) / C) - f(mean * mean)) + f(1e-5))) };
    }),
    tolerance: [APPROX, undefined, APPROX],
  };
}

function layernormWarpCase(grid: number, block: number, rows: number, C: number): BrCase {
  return {
    name: `br_layernorm_warp ${grid}x${block} N=${rows} C=${C}`, kernel: 'br_layernorm_warp', grid, block,
    args: () => [...layernormArgs(rows, C), { scalar: rows }, { scalar: C }],
    reference: (args) => normalised(args, rows, C, (row) => {
      const mean = f((sumXor(strided(row, 32, (a, v) => f(a + v)))[0] as number) / C);
      const ss = sumXor(strided(row, 32, (a, v) => { const d = f(v - mean); return fma32(d, d, a); }))[0] as number;
      return { mean, rstd: rsqrt(f(f(ss / C) + f(1e-5))) };
    }),
    tolerance: [APPROX, undefined, APPROX],
  };
}

function rmsnormCase(rows: number, block: number, C: number): BrCase {
  return {
    name: `br_rmsnorm ${rows}x${block} C=${C}`, kernel: 'br_rmsnorm', grid: rows, block,
    args: () => [out(rows * C), { buffer: floats(rows * C, 6) }, { buffer: floats(C, 7, 0.5, 1.5) }, { scalar: C }],
    reference: ([, xa, wa]) => {
      const x = buf(xa!); const w = buf(wa!); const y = new Float32Array(rows * C);
      for (let r = 0; r < rows; r++) {
        const row = x.subarray(r * C, (r + 1) * C);
        const sums = warps(strided(row, block, (a, v) => fma32(v, v, a))).map((wp) => sumDown(wp)[0] as number);
        const ss = sumDown(secondLevel(sums))[0] as number;
        const s = rsqrt(f(f(ss / C) + f(1e-6)));
        for (let i = 0; i < C; i++) y[r * C + i] = f(f(s * (row[i] as number)) * (w[i] as number));
      }
      return [y];
    },
    tolerance: [APPROX],
  };
}

function softmaxCase(rows: number, block: number, C: number): BrCase {
  return {
    name: `br_softmax ${rows}x${block} C=${C}`, kernel: 'br_softmax', grid: rows, block,
    args: () => [out(rows * C), { buffer: floats(rows * C, 8, -6, 6) }, { scalar: C }],
    reference: ([, xa]) => {
      const x = buf(xa!); const y = new Float32Array(rows * C);
      for (let r = 0; r < rows; r++) {
        const row = x.subarray(r * C, (r + 1) * C);
        const m = Math.max(...row);
        let sum = 0;
        for (let i = 0; i < C; i++) sum += Math.exp((row[i] as number) - m);
        for (let i = 0; i < C; i++) y[r * C + i] = Math.exp((row[i] as number) - m) / sum;
      }
      return [y];
    },
    tolerance: [APPROX],
  };
}

function loopCase(grid: number, block: number, k: number): BrCase {
  return {
    name: `br_loop ${grid}x${block} k=${k}`, kernel: 'br_loop', grid, block,
    args: () => [{ buffer: floats(grid * k * block, 10) }, out(grid * k), { scalar: k }],
    reference: ([xa]) => {
      const x = buf(xa!); const r = new Float32Array(grid * k);
      for (let b = 0; b < grid; b++) {
        for (let j = 0; j < k; j++) {
          const v = Array.from(x.subarray((b * k + j) * block, (b * k + j + 1) * block), (e) => f(e * (j + 1)));
          r[b * k + j] = sumDown(secondLevel(warps(v).map((w) => sumDown(w)[0] as number)))[0] as number;
        }
      }
      return [r];
    },
  };
}

/** The odd-block kernel's shuffle loop over the `width` lanes of one warp. */
function sumDownWidth(v: number[], width: number): number {
  let r = v.slice(0, width);
  for (let o = 16; o > 0; o >>= 1) r = r.map((x, l) => (l + o < width ? f(x + (r[l + o] as number)) : x));
  return r[0] as number;
}

function oddBlockCase(grid: number, block: number): BrCase {
  return {
    name: `br_odd_block ${grid}x${block}`, kernel: 'br_odd_block', grid, block,
    args: () => [{ buffer: floats(grid * block, 11) }, out(grid)],
    reference: ([xa]) => [Float32Array.from({ length: grid }, (_, b) => {
      const sums = warps([...buf(xa!).subarray(b * block, (b + 1) * block)]).map((w) => sumDownWidth(w, w.length));
      return sumDownWidth(secondLevel(sums), Math.min(32, block));
    })],
  };
}

function countAboveCase(grid: number, block: number): BrCase {
  return {
    name: `br_count_above ${grid}x${block}`, kernel: 'br_count_above', grid, block,
    args: () => [{ buffer: floats(grid * block, 12) }, outInt(2 * grid)],
    reference: ([xa]) => {
      const x = buf(xa!); const r = new Int32Array(2 * grid); const bits = new Int32Array(1); const fl = new Float32Array(bits.buffer);
      for (let b = 0; b < grid; b++) {
        const v = [...x.subarray(b * block, (b + 1) * block)];
        const mean = f((sumXor(secondLevel(warps(v).map((w) => sumXor(w)[0] as number)))[0] as number) / block);
        fl[0] = mean;
        r.set([v.filter((e) => e > mean).length, bits[0] as number], 2 * b);
      }
      return [r];
    },
  };
}

function anyAboveCase(grid: number, block: number, limit: number): BrCase {
  return {
    name: `br_any_above ${grid}x${block}`, kernel: 'br_any_above', grid, block,
    args: () => [{ buffer: floats(grid * block, 13) }, outInt(2 * grid), { scalar: limit }],
    reference: ([xa]) => {
      const x = buf(xa!); const r = new Int32Array(2 * grid); const bits = new Int32Array(1); const fl = new Float32Array(bits.buffer);
      for (let b = 0; b < grid; b++) {
        const v = [...x.subarray(b * block, (b + 1) * block)];
        fl[0] = f((sumXor(secondLevel(warps(v).map((w) => sumXor(w)[0] as number)))[0] as number) / block);
        r.set([v.some((e) => e > limit) ? 1 : 0, bits[0] as number], 2 * b);
      }
      return [r];
    },
  };
}

function countShflCase(grid: number, block: number, limit: number): BrCase {
  return {
    name: `br_count_shfl ${grid}x${block}`, kernel: 'br_count_shfl', grid, block,
    args: () => [{ buffer: floats(grid * block, 14) }, outInt(3 * grid), { scalar: limit }],
    reference: ([xa]) => {
      const x = buf(xa!); const r = new Int32Array(3 * grid); const bits = new Int32Array(1); const fl = new Float32Array(bits.buffer);
      for (let b = 0; b < grid; b++) {
        const v = [...x.subarray(b * block, (b + 1) * block)];
        fl[0] = f((sumXor(secondLevel(warps(v).map((w) => sumXor(w)[0] as number)))[0] as number) / block);
        r.set([v.filter((e) => e > limit).length, v.every((e) => e > -limit) ? 1 : 0, bits[0] as number], 3 * b);
      }
      return [r];
    },
  };
}

export const BLOCK_REDUCE_CASES: readonly BrCase[] = [
  sumDownCase(3, 1000),
  allreduceCase(2, 128),
  layernormCase(4, 256, 768),
  layernormCase(3, 64, 200),
  layernormWarpCase(2, 128, 13, 100),
  rmsnormCase(3, 192, 1000),
  softmaxCase(3, 128, 1000),
  loopCase(2, 128, 5),
  oddBlockCase(3, 100),
  oddBlockCase(2, 48),
  oddBlockCase(2, 20),
  countAboveCase(3, 128),
  anyAboveCase(4, 128, 1.97),
  countShflCase(4, 128, 1.99),
];

const bitsOf = (a: Float32Array | Int32Array): Int32Array => (a instanceof Float32Array ? new Int32Array(a.buffer, a.byteOffset, a.length) : a);

/** The first mismatch of `got` against `want` (bits, or within the tolerance), or null. */
export function mismatch(got: Float32Array | Int32Array, want: Float32Array | Int32Array, tol: number | undefined): string | null {
  const gb = bitsOf(got); const wb = bitsOf(want);
  for (let i = 0; i < want.length; i++) {
    const g = got[i] as number; const w = want[i] as number;
    const ok = tol === undefined ? gb[i] === wb[i] : Math.abs(g - w) <= tol * Math.max(1, Math.abs(w));
    if (!ok) return `[${i}] = ${g}, expected ${w}`;
  }
  return null;
}
