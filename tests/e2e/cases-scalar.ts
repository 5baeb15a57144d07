// Scalar-ISA kernels (issue 4): atomics, f64, calls and module memory, integer hashing and
// division, switches, the stack.
import { defineCase, withOutputs, poisoned, poisonedCopy, type E2ECase } from './case-kit.ts';
import { Rng } from './reference.ts';
import * as F64 from '../conformance/ref/f64.ts';

const cases: E2ECase[] = [];

// atom_float_max(const float *in, float *maxOut, double *sums, unsigned *counts, int n):
// float atomicMax via atomicCAS on maxOut[i % 4], atomicAdd(double) of in[i] * 0.5 on
// sums[i % 3] and of each block's shared-memory double sum on sums[3], atomicInc(counts[i % 2],
// 100). Inputs are small integers, so every double sum is exact in any order.
function atomFloatMax(name: string, n: number, grid: number, block: number): E2ECase {
  return defineCase({
    name,
    ptxFile: 'atom_float_max.ptx',
    entry: 'atom_float_max',
    grid,
    block,
    params: ['in', 'maxOut', 'sums', 'counts', 'n'],
    build(rng) {
      const input = new Float32Array(n);
      for (let i = 0; i < n; i++) input[i] = rng.int(-100000, 100000);
      const maxOut = new Float32Array([-1e30, 5e4, -0, 123456]);
      const sums = new Float64Array([0.25, -3, 7, 0]);
      const counts = new Uint32Array([0, 97]);
      const expMax = Float32Array.from(maxOut);
      const expSums = Float64Array.from(sums);
      const expCounts = Uint32Array.from(counts);
      for (let i = 0; i < n; i++) {
        const v = input[i] as number;
        if (v > (expMax[i % 4] as number)) expMax[i % 4] = v;
        expSums[i % 3] = (expSums[i % 3] as number) + v * 0.5;
        expSums[3] = (expSums[3] as number) + v;
        const c = expCounts[i % 2] as number;
        expCounts[i % 2] = c >= 100 ? 0 : c + 1;
      }
      return withOutputs([input, maxOut, sums, counts, n], { 1: expMax, 2: expSums, 3: expCounts });
    },
  });
}

// atom_last_block(const unsigned *in, unsigned *partial, unsigned *count, unsigned *total, int n):
// per-block sums (shared atomicAdd) published with __threadfence(), a ticket from atomicInc
// (wrapping to 0 again), and the last block adding the partial sums into *total.
function atomLastBlock(name: string, n: number, grid: number, block: number): E2ECase {
  return defineCase({
    name,
    ptxFile: 'atom_last_block.ptx',
    entry: 'atom_last_block',
    grid,
    block,
    params: ['in', 'partial', 'count', 'total', 'n'],
    build(rng) {
      const input = new Uint32Array(n);
      for (let i = 0; i < n; i++) input[i] = rng.int(0, 0xffffffff) >>> 0;
      const partial = poisoned((k) => new Uint32Array(k), grid, 1);
      const count = new Uint32Array([0]);
      const total = new Uint32Array([12345]);
      const expPartial = poisonedCopy(partial);
      let all = 12345;
      for (let b = 0; b < grid; b++) {
        let s = 0;
        for (let i = b * block; i < Math.min(n, (b + 1) * block); i++) s = (s + (input[i] as number)) >>> 0;
        expPartial[b] = s;
        all = (all + s) >>> 0;
      }
      return withOutputs([input, partial, count, total, n], { 1: expPartial, 2: new Uint32Array([0]), 3: new Uint32Array([all]) });
    },
  });
}

cases.push(
  atomLastBlock('atom_last_block/one-block', 100, 1, 128),
  // 37 blocks, the last one partial: one of them (whichever finishes last) sums the others
  atomLastBlock('atom_last_block/partial-blocks', 4700, 37, 128),
  atomFloatMax('atom_float_max/one-block', 77, 1, 128),
  // 8 blocks, the last one partial: every address is hit from several workgroups
  atomFloatMax('atom_float_max/partial-blocks', 1000, 8, 128),
);

// ---------------------------------------------------------------- f64_math
// f64_math(const double *x, const double *y, double *out, int n, double scale) and
// f64_kahan_dot(const double *x, const double *y, double *partial, int n) (see f64_math.cu).
// Doubles travel as their bits (BigUint64Array) so NaN and -0 compare exactly; the reference
// uses JS doubles (correctly rounded like the PTX .rn ops) and an exact fma for fma.rn.f64.

const F64_FIELDS = ['horner', 'div', 'sqrt', 'f32trip', 'floor', 's64trip', 'minmax', 'select'];

function f64Input(rng: Rng, k: number): number {
  const frac = rng.u32() / 2 ** 32;
  switch (k % 8) {
    case 0: return 0;
    case 1: return (rng.u32() % 2 ? -1 : 1) * 2 ** -1074 * (1 + (rng.u32() % 1000));
    case 2: return (frac - 0.5) * 2 ** (rng.u32() % 200);
    case 3: return (frac - 0.5) * 2 ** -(rng.u32() % 1000);
    default: return (frac - 0.5) * 4 + (rng.u32() % 3) * 1e-9;
  }
}

export function f64MathRef(i: number, a: number, b: number, scale: number): number[] {
  const fma = (x: number, y: number, z: number): number => F64.toNumber(F64.fma(F64.fromNumber(x), F64.fromNumber(y), F64.fromNumber(z), 'rn'));
  let p = 1 / 3;
  for (const c of [0.0625, -0.125, 0.25, -0.5, 1]) p = fma(p, a, c);
  const sq = b * b;
  const s64 = (v: number): number => (Number.isNaN(v) ? 0 : v >= 2 ** 63 ? 2 ** 63 : v <= -(2 ** 63) ? -(2 ** 63) : Math.trunc(v) + 0);
  const u = Number.isNaN(sq) || sq <= 0 ? 0 : sq >= 4294967296 ? 4294967295 : Math.trunc(sq);
  return [p, a / b, Math.sqrt(Math.abs(b)), Math.fround(a) + i, Math.floor(a * scale), s64(b * 1e6),
    Math.min(a, b) - Math.max(a, b), a < b ? a + 0.5 : u];
}

const f64Bits = (xs: number[]): BigUint64Array => BigUint64Array.from(xs, (x) => F64.fromNumber(x));

function f64Math(name: string, n: number, grid: number, block: number): E2ECase {
  return defineCase({
    name, ptxFile: 'f64_math.ptx', entry: 'f64_math', grid, block,
    params: ['x', 'y', 'out', 'n', 'scale'],
    where: { out: (i) => `element ${Math.floor(i / 8)} field ${F64_FIELDS[i % 8] ?? '?'}` },
    build(rng) {
      const xs = Array.from({ length: n }, (_, i) => f64Input(rng, i));
      const ys = Array.from({ length: n }, (_, i) => f64Input(rng, i * 5 + 3) || 0.75);
      const scale = 1e3 / 7;
      const out = poisoned((m) => new BigUint64Array(m), 8 * n, 8);
      const exp = poisonedCopy(out);
      for (let i = 0; i < n; i++) f64MathRef(i, xs[i] as number, ys[i] as number, scale).forEach((v, k) => { exp[8 * i + k] = F64.fromNumber(v); });
      return withOutputs([f64Bits(xs), f64Bits(ys), out, n, scale], { 2: exp });
    },
  });
}

function f64KahanDot(name: string, n: number, grid: number, block: number): E2ECase {
  return defineCase({
    name, ptxFile: 'f64_math.ptx', entry: 'f64_kahan_dot', grid, block,
    params: ['x', 'y', 'partial', 'n'],
    build(rng) {
      const xs = Array.from({ length: n }, () => (rng.u32() / 2 ** 32 - 0.5) * 2 ** (rng.u32() % 40));
      const ys = Array.from({ length: n }, () => rng.u32() / 2 ** 32 + 1e-3);
      const threads = grid * block;
      const partial = poisoned((m) => new BigUint64Array(m), threads, 4);
      const exp = poisonedCopy(partial);
      for (let g = 0; g < threads; g++) {
        let sum = 0; let c = 0;
        for (let k = g; k < n; k += threads) {
          const v = (xs[k] as number) * (ys[k] as number) - c;
          const t = sum + v;
          c = t - sum - v;
          sum = t;
        }
        exp[g] = F64.fromNumber(sum);
      }
      return withOutputs([f64Bits(xs), f64Bits(ys), partial, n], { 2: exp });
    },
  });
}

cases.push(
  f64Math('f64_math/one-block', 100, 1, 128),
  f64Math('f64_math/partial-last-block', 1000, 8, 128),
  f64KahanDot('f64_kahan_dot/strided', 5000, 4, 64),
  f64KahanDot('f64_kahan_dot/one-block', 300, 1, 64), // the same pipeline as above: no second compile
);

// ------------------------------------------------------------- memory (issue 4)
// mem_calls_flat: __noinline__ device functions with a struct passed by value, a struct return, nested calls and a store through a pointer argument.
// mem_local: a local array indexed by loaded data, and a generic pointer chosen at run time
// among shared, local and global memory (isspacep). mem_special: extern dynamic shared memory.

function memCalls(name: string, n: number, grid: number, block: number): E2ECase {
  return defineCase({
    name, ptxFile: 'mem_calls.ptx', entry: 'mem_calls_flat', grid, block,
    params: ['scale', 'bias', 'k', 'in', 'out', 'fout', 'n'],
    build(rng) {
      const scale = 1.75, bias = -12345, k = 7;
      const input = Int32Array.from({ length: n }, () => rng.i32());
      const out = poisoned((m) => new Int32Array(m), n * 4, 4);
      const fout = poisoned((m) => new Float32Array(m), n, 2);
      const exp = poisonedCopy(out);
      const expF = poisonedCopy(fout);
      for (let i = 0; i < n; i++) {
        const v = input[i] as number;
        exp[i * 4] = Math.imul(v, 3) + i;
        exp[i * 4 + 1] = (v & 0xffff) + bias;
        exp[i * 4 + 2] = Math.imul(v >> 16, k);
        exp[i * 4 + 3] = Math.imul(v, 3) ^ 0x5a5a;
        expF[i] = Math.fround(scale * (v & 0xff));
      }
      return withOutputs([scale, bias, k, input, out, fout, n], { 4: exp, 5: expF });
    },
  });
}

function memLocal(name: string, n: number, grid: number): E2ECase {
  return defineCase({
    name, ptxFile: 'mem_local.ptx', entry: 'mem_local', grid, block: 64,
    params: ['idx', 'vals', 'out', 'kinds', 'n'],
    build(rng) {
      const idx = Int32Array.from({ length: n * 4 }, () => rng.u32() & 0x7fffffff);
      const vals = Float32Array.from({ length: n }, () => rng.int(0, 4000) / 8);
      const out = poisoned((m) => new Float32Array(m), n, 3);
      const kinds = poisoned((m) => new Int32Array(m), n, 3);
      const expOut = poisonedCopy(out);
      const expKinds = poisonedCopy(kinds);
      for (let i = 0; i < n; i++) {
        const buf = Array.from({ length: 32 }, (_, k) => vals[(i + k) % n] as number);
        let acc = 0;
        for (let k = 0; k < 4; k++) acc = Math.fround(acc + (buf[(idx[i * 4 + k] as number) & 31] as number));
        buf[(idx[i * 4] as number) & 31] = acc;
        const sel = (idx[i * 4 + 1] as number) % 3;
        const v = sel === 0 ? Math.fround((i % 64) * 0.5) : sel === 1 ? (buf[(idx[i * 4 + 2] as number) & 31] as number) : (vals[i] as number);
        expKinds[i] = [1, 2, 4][sel] as number;
        expOut[i] = Math.fround(acc + v);
      }
      return withOutputs([idx, vals, out, kinds, n], { 2: expOut, 3: expKinds });
    },
  });
}

function memDynamicShared(name: string, grid: number, block: number): E2ECase {
  return defineCase({
    name, ptxFile: 'mem_special.ptx', entry: 'mem_special', grid, block, sharedBytes: block * 4,
    params: ['in', 'out', 'regs'],
    build(rng) {
      const n = grid * block;
      const input = Int32Array.from({ length: n }, () => rng.i32());
      const out = poisoned((m) => new Int32Array(m), n);
      const regs = poisoned((m) => new Uint32Array(m), grid * 12, 2);
      const exp = poisonedCopy(out);
      for (let i = 0; i < n; i++) exp[i] = input[Math.floor(i / block) * block + block - 1 - (i % block)] as number;
      // regs: [dynamic_smem_size, total_smem_size (= static + dynamic here), smid<nsmid, nwarpid ok,
      // clusterid, nclusterid, cluster_ctarank, cluster_nctarank, clock64 rises, clock rises, globaltimer rises, marker]
      const expRegs = poisonedCopy(regs);
      for (let b = 0; b < grid; b++) expRegs.set([block * 4, block * 4, 1, 1, b, grid, 0, 1, 1, 1, 1, 0x600d], b * 12);
      return withOutputs([input, out, regs], { 1: exp, 2: expRegs });
    },
  });
}

// mem_globals: __constant__ tables and __device__ variables with initialisers, including a
// table of generic pointers to another variable (`generic(gdata)+8`). The counter's old value
// is only checked to be >= its initial 1000, so repeated runs of one module agree.
function memGlobals(name: string, n: number, grid: number): E2ECase {
  return defineCase({
    name, ptxFile: 'mem_globals.ptx', entry: 'mem_globals', grid, block: 32,
    params: ['in', 'out', 'fout', 'n'],
    build(rng) {
      const ctab = [3, 1, 4, 1, 5, 9, 2, 6];
      const gdata = [10, 20, 30, 40];
      const input = Int32Array.from({ length: n }, () => rng.int(0, 0xffff));
      const out = poisoned((m) => new Int32Array(m), n * 4, 4);
      const fout = poisoned((m) => new Float32Array(m), n, 2);
      const exp = poisonedCopy(out);
      const expF = poisonedCopy(fout);
      for (let i = 0; i < n; i++) {
        const v = input[i] as number;
        exp[i * 4] = (ctab[v & 7] as number) * 100 + (ctab[(v >> 3) & 7] as number);
        exp[i * 4 + 1] = gdata[(v & 1) * 2 + ((v >> 1) & 1)] as number;
        exp[i * 4 + 2] = 1;
        exp[i * 4 + 3] = (v % 6) + 1;
        expF[i] = Math.fround([0.5, -2.25][v & 1] as number * v);
      }
      return withOutputs([input, out, fout, n], { 1: exp, 2: expF });
    },
  });
}

// mem_switch: a dense switch (nvcc -O3 lowers it to a compare tree, hand-written brx.idx
// tables are tested in tests/memory/special.gpu.test.ts); selectors cover every case and default.
function memSwitch(name: string, n: number, grid: number, block: number): E2ECase {
  return defineCase({
    name, ptxFile: 'mem_switch.ptx', entry: 'mem_switch', grid, block,
    params: ['in', 'out', 'n'],
    build(rng) {
      const input = Int32Array.from({ length: n }, () => (rng.int(0, 9) === 9 ? rng.i32() : rng.int(-1, 8)));
      const out = poisoned((m) => new Int32Array(m), n, 3);
      const exp = poisonedCopy(out);
      for (let i = 0; i < n; i++) {
        const v = input[i] as number;
        const at = (k: number): number => input[(i + k) % n] as number;
        const r = [Math.imul(at(1), 3), v ^ 0x1234, Math.imul(i, i), (at(2) - 7) | 0, -i, 0x55, at(3) << 2, i + 1000][v];
        exp[i] = r ?? -1;
      }
      return withOutputs([input, out, n], { 1: exp });
    },
  });
}

cases.push(
  memCalls('mem_calls/one-block', 50, 1, 64),
  memSwitch('mem_switch/blocks', 500, 4, 128),
  memSwitch('mem_switch/one-block', 100, 1, 128),
  memGlobals('mem_globals/blocks', 90, 3),
  memGlobals('mem_globals/one-block', 25, 1),
  memCalls('mem_calls/partial-last-block', 300, 5, 64),
  memLocal('mem_local/partial-last-block', 150, 3),
  memLocal('mem_local/one-block', 64, 1),
  memDynamicShared('mem_dynamic_shared/blocks', 4, 64),
  memDynamicShared('mem_dynamic_shared/one-block', 1, 256),
);

// ------------------------------------------------------------- int_* (integer kernels)
// int_hash64(seed, out, n), int_divrem64(a, b, out, n), int_switch(code, init, out, n, len):
// see tests/kernels/int_*.cu; references below follow the CUDA source.

const U64 = (x: bigint): bigint => BigInt.asUintN(64, x);

export function intHash64Ref(i: number, seed: bigint): bigint[] {
  let x = U64(seed + 0x9e3779b97f4a7c15n);
  x = U64((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n);
  x = U64((x ^ (x >> 27n)) * 0x94d049bb133111ebn);
  const h = x ^ (x >> 31n);
  let s = h | 1n;
  for (let k = 0; k < 4; k++) {
    s ^= s >> 12n;
    s = U64(s ^ (s << 25n));
    s ^= s >> 27n;
  }
  const r = BigInt(i & 63);
  const rot = U64((h << r) | (h >> ((64n - r) & 63n)));
  const popc = BigInt([...h.toString(2)].filter((c) => c === '1').length);
  const clz = s === 0n ? 64n : BigInt(64 - s.toString(2).length);
  const ffs = h === 0n ? 0n : BigInt((h & -h).toString(2).length);
  const hi = (h * s) >> 64n;
  return [h, U64(s * 0x2545f4914f6cdd1dn), rot ^ (h >> 7n), U64(popc | (clz << 8n) | (ffs << 16n) | (hi << 24n))];
}

function intHash64(name: string, n: number, grid: number, block: number): E2ECase {
  return defineCase({
    name, ptxFile: 'int_hash64.ptx', entry: 'int_hash64', grid, block, params: ['seed', 'out', 'n'],
    where: { out: (i) => `element ${Math.floor(i / 4)} field ${i % 4}` },
    build(rng) {
      const seed = new BigUint64Array(n);
      for (let i = 0; i < n; i++) seed[i] = i < 4 ? [0n, 1n, U64(-1n), 1n << 63n][i] as bigint : U64(rng.i64());
      const out = poisoned((k) => new BigUint64Array(k), 4 * n);
      const exp = new BigUint64Array(4 * n);
      for (let i = 0; i < n; i++) exp.set(intHash64Ref(i, seed[i] as bigint), 4 * i);
      return withOutputs([seed, out, n], { 1: exp });
    },
  });
}

function intDivrem64(name: string, n: number, grid: number, block: number): E2ECase {
  return defineCase({
    name, ptxFile: 'int_divrem64.ptx', entry: 'int_divrem64', grid, block, params: ['a', 'b', 'out', 'n'],
    where: { out: (i) => `element ${Math.floor(i / 4)} ${['s/', 's%', 'u/', 'u%'][i % 4]}` },
    build(rng) {
      const a = new BigInt64Array(n);
      const b = new BigInt64Array(n);
      for (let i = 0; i < n; i++) {
        const kind = rng.int(0, 5);
        // 0: both fit 32 bits (nvcc's fast path); 1: small signed; 2: big / small; 3+: random 64-bit
        a[i] = kind === 0 ? BigInt(rng.u32()) : kind === 1 ? BigInt(rng.int(-100000, 100000)) : rng.i64();
        b[i] = kind === 0 ? BigInt(rng.u32() >>> rng.int(0, 31)) : kind <= 2 ? BigInt(rng.int(-1000, 1000)) : rng.sbits(rng.int(1, 63));
        if (b[i] === 0n || (b[i] === -1n && a[i] === -(1n << 63n))) b[i] = 7n;
      }
      const out = poisoned((k) => new BigInt64Array(k), 4 * n);
      const exp = new BigInt64Array(4 * n);
      for (let i = 0; i < n; i++) {
        const x = a[i] as bigint;
        const y = b[i] as bigint;
        exp.set([x / y, x % y, BigInt.asIntN(64, U64(x) / U64(y)), BigInt.asIntN(64, U64(x) % U64(y))], 4 * i);
      }
      return withOutputs([a, b, out, n], { 2: exp });
    },
  });
}

export function intSwitchRef(i: number, code: Uint8Array, init: number, n: number, len: number): number {
  let acc = init >>> 0;
  let x = i >>> 0;
  const popc = (v: number): number => { let c = 0; for (let k = v >>> 0; k; k >>>= 1) c += k & 1; return c; };
  const brev = (v: number): number => { let r = 0; for (let k = 0; k < 32; k++) r = (r << 1) | ((v >>> k) & 1); return r >>> 0; };
  for (let pc = 0; pc < len; pc++) {
    const op = (code[(i * 7 + pc) % (n + len)] as number) % 16;
    switch (op) {
      case 0: acc = (acc + x) >>> 0; break;
      case 1: acc = (acc - Math.imul(x, 3)) >>> 0; break;
      case 2: acc = (acc ^ (acc >>> 7)) >>> 0; break;
      case 3: acc = Math.imul(acc, 0x9e3779b1) >>> 0; break;
      case 4: acc = ((acc << 5) | (acc >>> 27)) >>> 0; break;
      case 5: x = (Math.imul(x, 1664525) + 1013904223) >>> 0; break;
      case 6: acc = ~acc >>> 0; break;
      case 7: acc = Math.floor(acc / ((x | 1) >>> 0)) >>> 0; break;
      case 8: acc = acc % 1000003; break;
      case 9: acc = (acc + popc(x)) >>> 0; break;
      case 10: acc = (acc | 0) >> 3 >>> 0; break;
      case 11: x = (x ^ acc) >>> 0; break;
      case 12: acc = brev(acc); break;
      case 13: acc = (acc + Math.clz32(x)) >>> 0; break;
      case 14: acc = Math.max(acc | 0, x | 0) >>> 0; break;
      default: acc = (Math.imul(acc, 2) + 1) >>> 0; break;
    }
  }
  return acc;
}

function intSwitch(name: string, n: number, len: number, grid: number, block: number): E2ECase {
  return defineCase({
    name, ptxFile: 'int_switch.ptx', entry: 'int_switch', grid, block, params: ['code', 'init', 'out', 'n', 'len'],
    build(rng) {
      const code = new Uint8Array(n + len);
      for (let k = 0; k < code.length; k++) code[k] = rng.int(0, 255);
      const init = new Uint32Array(n);
      for (let k = 0; k < n; k++) init[k] = rng.u32();
      const out = poisoned((k) => new Uint32Array(k), n);
      const exp = new Uint32Array(n);
      for (let k = 0; k < n; k++) exp[k] = intSwitchRef(k, code, init[k] as number, n, len);
      return withOutputs([code, init, out, n, len], { 2: exp });
    },
  });
}

cases.push(
  intHash64('int_hash64/partial-last-block', 1000, 8, 128),
  intHash64('int_hash64/one-block', 64, 1, 64),
  intDivrem64('int_divrem64/partial-last-block', 2000, 16, 128),
  intDivrem64('int_divrem64/one-block', 100, 1, 128),
  intSwitch('int_switch/partial-last-block', 700, 40, 6, 128),
  intSwitch('int_switch/one-block', 50, 64, 1, 64),
);

// ------------------------------------------------------------ int_simd16
// int_simd16(o, a, b, c), tests/kernels/int_simd16.cu: 20 CUDA SIMD intrinsics on packed 16-bit
// lanes (and three s32 ones), o[j * 32 + i] for intrinsic j and thread i. References from the
// CUDA Math API's definitions: per 16-bit lane, min/max signed or unsigned, .relu clamps at 0,
// __vib{max,min} also return per-lane predicates (hi: bit 0, lo: bit 1 here).

const lane16 = (x: number, k: number): number => (x >>> (16 * k)) & 0xffff;
const sx16 = (v: number): number => (v << 16) >> 16;
function lanes16(op: 'min' | 'max' | 'add', x: number, y: number, signed: boolean, relu = false): number {
  let r = 0;
  for (const k of [0, 1]) {
    const p = lane16(x, k);
    const q = lane16(y, k);
    let v: number;
    if (op === 'add') v = (p + q) & 0xffff;
    else {
      const [P, Q] = signed ? [sx16(p), sx16(q)] : [p, q];
      let m = op === 'max' ? Math.max(P, Q) : Math.min(P, Q);
      if (relu && m < 0) m = 0;
      v = m & 0xffff;
    }
    r |= v << (16 * k);
  }
  return r >>> 0;
}

export function intSimd16Ref(x: number, y: number, z: number): number[] {
  const L = lanes16;
  const relu32 = (m: number): number => (Math.max(m, 0) >>> 0);
  const withPreds = (m: number): number => (m + (lane16(m, 1) === lane16(x, 1) ? 1 : 0) + 2 * (lane16(m, 0) === lane16(x, 0) ? 1 : 0)) >>> 0;
  return [
    L('min', x, y, true), L('min', x, y, false), L('max', x, y, true), L('max', x, y, false),
    L('min', x, y, true, true), L('max', x, y, true, true),
    L('min', L('min', x, y, true), z, true), L('min', L('min', x, y, false), z, false),
    L('max', L('max', x, y, true), z, true), L('max', L('max', x, y, false), z, false),
    L('min', L('min', x, y, true, true), z, true, true), L('max', L('max', x, y, true, true), z, true, true),
    L('max', L('add', x, y, false), z, true), L('max', L('add', x, y, false), z, false), L('min', L('add', x, y, false), z, true, true),
    withPreds(L('max', x, y, true)),
    Math.min(x | 0, y | 0, z | 0) >>> 0, relu32(Math.max(x | 0, y | 0, z | 0)), relu32(Math.max(x | 0, y | 0)),
    withPreds(L('min', x, y, false)),
  ];
}

/** `edgeRows`: how many threads take lane edge values (the rest random, seeded by the case name). */
const intSimd16 = (name: string, edgeRows: number): E2ECase => defineCase({
  name, ptxFile: 'int_simd16.ptx', entry: 'int_simd16', grid: 1, block: 32, params: ['o', 'a', 'b', 'c'],
  where: { o: (i) => `intrinsic ${Math.floor(i / 32)} thread ${i % 32}` },
  build(rng) {
    const edges = [0, 1, 0x7fff, 0x8000, 0xffff, 0x8001, 0x7ffe, 2];
    const a = new Uint32Array(32);
    const b = new Uint32Array(32);
    const c = new Uint32Array(32);
    for (let i = 0; i < 32; i++) {
      const e = (k: number): number => edges[(i + k) % 8] as number;
      a[i] = i < edgeRows ? (e(0) | (e(3) << 16)) >>> 0 : rng.u32();
      b[i] = i < edgeRows ? (e(i >> 3) | (e(1 + (i >> 3)) << 16)) >>> 0 : rng.u32();
      c[i] = rng.u32();
    }
    const o = poisoned((k) => new Uint32Array(k), 20 * 32);
    const exp = new Uint32Array(20 * 32);
    for (let i = 0; i < 32; i++) intSimd16Ref(a[i] as number, b[i] as number, c[i] as number).forEach((v, j) => { exp[j * 32 + i] = v; });
    return withOutputs([o, a, b, c], { 0: exp });
  },
});
cases.push(intSimd16('int_simd16/edges-and-random', 8), intSimd16('int_simd16/edge-pairs', 32));

// ------------------------------------------------------------ mem_stack (alloca)
// mem_stack(const int* in, int* out, int n), hand-written PTX: 8 rounds of stacksave, alloca of
// ((in[i] >> 4r) & 15) + 1 words (align 16), fill, fold, stackrestore. out[2i] is the fold,
// out[2i+1] is 1 when every round's alloca returned the first round's address: the stack grows
// down from the end of its 1024 bytes (handlers-stack.ts), as NVIDIA's does.

function memStack(name: string, n: number, grid: number, block: number): E2ECase {
  return defineCase({
    name, ptxFile: 'mem_stack.ptx', entry: 'mem_stack', grid, block, params: ['in', 'out', 'n'],
    build(rng) {
      const input = Int32Array.from({ length: n }, () => rng.i32());
      const out = poisoned((k) => new Int32Array(k), 2 * n, 4);
      const exp = poisonedCopy(out);
      for (let i = 0; i < n; i++) {
        const v = input[i] as number;
        let acc = 0;
        let same = 1;
        let first = 0;
        for (let r = 0; r < 8; r++) {
          const k = ((v >>> (4 * r)) & 15) + 1;
          const at = (1024 - 4 * k) & ~15;
          if (r === 0) first = at;
          else if (at !== first) same = 0;
          for (let j = 0; j < k; j++) {
            const word = (input[(i + (k - 1 - j) + r) % n] as number) ^ Math.imul(k - 1 - j, -1640531527);
            acc = (Math.imul(acc, 31) + word) | 0;
          }
        }
        exp[2 * i] = acc;
        exp[2 * i + 1] = same;
      }
      return withOutputs([input, out, n], { 1: exp });
    },
  });
}

cases.push(memStack('mem_stack/partial-last-block', 150, 3, 64), memStack('mem_stack/one-block', 32, 1, 32));

export { cases };
