// End-to-end test cases: real nvcc-generated PTX (tests/kernels/*.ptx, built from
// the .cu next to them by tests/kernels/build.sh) with JS references computed
// from what the CUDA source specifies (never from any transpiler output).
//
// Host-agnostic: no Node, Deno or DOM imports; bundled into a browser page and run
// under Deno and vitest.
//
// Conventions for every case:
//  - makeArgs() returns fresh arguments in PTX parameter order (TypedArrays for
//    pointers, numbers for <=32-bit scalars, bigint for 64-bit scalars). Inputs
//    are deterministic (seeded from the case name). Pure outputs are POISONED
//    (0xDEADBEEF / 0xBEEF / 0xEF / 0xDEADBEEFDEADBEEF bit patterns); in-out buffers
//    (saxpy y, histogram bins) hold real initial values.
//  - check(args) compares EVERY pointer argument after the run: outputs against the
//    reference and inputs against their original contents (a stray write into an
//    input is caught too). Some outputs carry trailing guard elements past what the
//    kernel may write; they must keep their poison.
//  - All comparisons are exact (floats bitwise). Float kernels whose result could
//    depend on evaluation order use small-integer inputs so every partial sum is an
//    exactly representable integer (see each kernel).
//  - Every kernel runs with several blocks and a partial last block, plus a
//    one-block case; exceptions are documented at the case.

import {
  Rng,
  POISON_U32,
  cloneArray,
  compareArray,
  fmaf32,
  isNumArray,
  poison,
  type NumArray,
} from './reference.ts';
import * as F64 from '../conformance/ref/f64.ts';
import { WARP_CASES, expected as warpExpected, outputWords as warpOutputWords } from '../warps/cases.ts';
import { warpInput } from '../warps/reference.ts';
import { CONV_FACTORIES, convInput } from '../warps/convergence-cases.ts';

export interface E2ECase {
  name: string;
  ptxFile: string;
  entry?: string;
  grid: number | [number, number?, number?];
  block: number | [number, number?, number?];
  sharedBytes?: number;
  makeArgs(): unknown[];
  check(args: unknown[]): string | null;
  /** Self-test helper: overwrites the pointer arguments of `args` (from makeArgs) with the expected post-run contents. */
  expected?(args: unknown[]): void;
}

// ----------------------------------------------------------------- plumbing

type Dim = number | [number, number?, number?];

interface Built {
  /** Arguments as passed to the kernel (fresh, outputs poisoned). */
  args: unknown[];
  /** Expected post-run value of each argument: arrays are compared, scalars ignored. */
  expected: unknown[];
}

interface CaseSpec {
  name: string;
  ptxFile: string;
  entry: string;
  grid: Dim;
  block: Dim;
  sharedBytes?: number;
  /** Parameter names, in order (for messages). */
  params: string[];
  /** Optional index descriptions per parameter name (e.g. a 2D position or struct field). */
  where?: Record<string, (i: number) => string>;
  build(rng: Rng): Built;
}

function defineCase(spec: CaseSpec): E2ECase {
  const build = (): Built => spec.build(new Rng(spec.name));
  const c: E2ECase = {
    name: spec.name,
    ptxFile: spec.ptxFile,
    entry: spec.entry,
    grid: spec.grid,
    block: spec.block,
    makeArgs: () => build().args,
    check(args: unknown[]): string | null {
      const { expected } = build();
      if (args.length !== expected.length) {
        return `${spec.name}: ${args.length} arguments, expected ${expected.length}`;
      }
      const problems: string[] = [];
      for (let j = 0; j < expected.length; j++) {
        const exp = expected[j];
        if (!isNumArray(exp)) continue;
        const label = spec.params[j] ?? `arg${j}`;
        const msg = compareArray(`${spec.name}: ${label}`, args[j], exp, spec.where?.[label]);
        if (msg !== null) problems.push(msg);
      }
      return problems.length === 0 ? null : problems.join('\n');
    },
    expected(args: unknown[]): void {
      const { expected } = build();
      for (let j = 0; j < expected.length; j++) {
        const exp = expected[j];
        const dst = args[j];
        if (isNumArray(exp) && isNumArray(dst) && dst.length === exp.length) {
          (dst as unknown as { set(a: ArrayLike<unknown>): void }).set(exp as ArrayLike<unknown>);
        }
      }
    },
  };
  if (spec.sharedBytes !== undefined) c.sharedBytes = spec.sharedBytes;
  return c;
}

/** Builds `expected` from `args`: inputs are expected unchanged; `outputs` maps an arg index to its expected array. */
function withOutputs(args: unknown[], outputs: Record<number, NumArray>): Built {
  const expected = args.map((a, j) => {
    const out = outputs[j];
    if (out !== undefined) return out;
    return isNumArray(a) ? cloneArray(a) : a;
  });
  return { args, expected };
}

const ceilDiv = (a: number, b: number): number => Math.ceil(a / b);

/** A poisoned array of `len` elements plus `guard` trailing guard elements. */
function poisoned<T extends NumArray>(make: (n: number) => T, len: number, guard = 0): T {
  return poison(make(len + guard));
}

/** Expected contents of a poisoned output: starts as all poison (so guards stay poison). */
function poisonedCopy<T extends NumArray>(arr: T): T {
  return poison(cloneArray(arr));
}

const cases: E2ECase[] = [];

// ------------------------------------------------------------- vector_add
// vector_add(const float *a, const float *b, float *c, int n), grid-stride loop.
// a + b of two f32 is correctly rounded by Math.fround(a + b) (f64 is wide enough
// that double rounding cannot occur for a single + of f32 operands).

function vectorAdd(name: string, n: number, grid: number, block: number, guard: number): E2ECase {
  return defineCase({
    name,
    ptxFile: 'vector_add.ptx',
    entry: 'vector_add',
    grid,
    block,
    params: ['a', 'b', 'c', 'n'],
    build(rng) {
      const a = new Float32Array(n);
      const b = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        a[i] = rng.f32(-1000, 1000);
        // every 17th element cancels exactly (+0.0 result)
        b[i] = i % 17 === 5 ? -(a[i] as number) : rng.f32(-1000, 1000);
      }
      const c = poisoned((k) => new Float32Array(k), n, guard);
      const exp = poisonedCopy(c);
      for (let i = 0; i < n; i++) exp[i] = Math.fround((a[i] as number) + (b[i] as number));
      return withOutputs([a, b, c, n], { 2: exp });
    },
  });
}

cases.push(
  // 1 block, 200 of 256 threads active
  vectorAdd('vector_add/one-block', 200, 1, 256, 4),
  // 8 blocks of 128, last block has 104 of 128 threads active; 3 guard elements
  vectorAdd('vector_add/partial-last-block', 1000, 8, 128, 3),
  // 1172 blocks of 256 (300032 threads) for 300001 elements
  vectorAdd('vector_add/large-grid', 300_001, 1172, 256, 0),
  // 13 blocks of 64 = 832 threads, each loops ~120 times over 100003 elements
  vectorAdd('vector_add/grid-stride', 100_003, 13, 64, 2),
);

// ----------------------------------------------------------------- saxpy
// saxpy(int n, float a, const float *x, float *y): y[i] = a*x[i] + y[i].
// nvcc contracts this into `fma.rn.f32 y, x, a, y` (single rounding). The reference
// is a correctly rounded f32 fma (fmaf32 in reference.ts, TwoSum + round-to-odd).
//  - saxpy/exact-inputs: a*x is exact in f32 and a*x+y is exact too, so fused and
//    unfused evaluation agree (isolates everything except fma rounding).
//  - saxpy/fma-rounding: random full-mantissa floats; a lowering of fma.rn.f32 to a
//    separately rounded mul + add gets a sizeable fraction of elements wrong here.

function saxpy(name: string, n: number, grid: number, block: number, exact: boolean): E2ECase {
  return defineCase({
    name,
    ptxFile: 'saxpy.ptx',
    entry: 'saxpy',
    grid,
    block,
    params: ['n', 'a', 'x', 'y'],
    build(rng) {
      const a = exact ? 2.5 : Math.fround(1.1);
      const x = new Float32Array(n);
      const y = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        if (exact) {
          x[i] = rng.int(-4096, 4096) / 4; // multiples of 0.25: 2.5*x is a multiple of 0.125, < 2^14
          y[i] = rng.int(-100_000, 100_000) / 8;
        } else {
          x[i] = rng.f32(-100, 100);
          y[i] = rng.f32(-100, 100);
        }
      }
      const exp = new Float32Array(n);
      for (let i = 0; i < n; i++) exp[i] = fmaf32(a, x[i] as number, y[i] as number);
      return withOutputs([n, a, x, y], { 3: exp });
    },
  });
}

cases.push(
  saxpy('saxpy/one-block', 17, 1, 32, true),
  saxpy('saxpy/exact-inputs', 1000, 4, 256, true),
  saxpy('saxpy/fma-rounding', 5000, 40, 128, false),
);

// -------------------------------------------------------------- block_sum
// block_sum(const float *in, float *out, int n) with __shared__ float s[256];
// block_sum_dyn: same with extern __shared__ (sharedBytes = blockDim.x * 4).
// out[b] = sum of in[b*blockDim .. b*blockDim + blockDim - 1] (missing elements = 0).
// Inputs are integers in [-8, 8]: every partial sum is an integer of magnitude
// <= 2048, exact in f32, so the tree order does not matter.

function blockSum(
  name: string,
  entry: 'block_sum' | 'block_sum_dyn',
  n: number,
  grid: number,
  block: number,
  guard: number,
): E2ECase {
  const spec: CaseSpec = {
    name,
    ptxFile: 'block_sum.ptx',
    entry,
    grid,
    block,
    params: ['in', 'out', 'n'],
    build(rng) {
      const input = new Float32Array(n);
      for (let i = 0; i < n; i++) input[i] = rng.int(-8, 8);
      const out = poisoned((k) => new Float32Array(k), grid, guard);
      const exp = poisonedCopy(out);
      for (let b = 0; b < grid; b++) {
        let s = 0;
        for (let t = 0; t < block; t++) {
          const i = b * block + t;
          if (i < n) s += input[i] as number;
        }
        exp[b] = s;
      }
      return withOutputs([input, out, n], { 1: exp });
    },
  };
  if (entry === 'block_sum_dyn') spec.sharedBytes = block * 4;
  return defineCase(spec);
}

cases.push(
  // inherently one full block (n = 256 = blockDim) to test the plain reduction
  blockSum('block_sum/one-block', 'block_sum', 256, 1, 256, 1),
  // 4 blocks, last has 232 of 256 elements
  blockSum('block_sum/partial-last-block', 'block_sum', 1000, 4, 256, 2),
  // blockDim 64 < 256: only part of s[] is used
  blockSum('block_sum/block-64', 'block_sum', 1000, 16, 64, 0),
  // 1172 blocks
  blockSum('block_sum/large-grid', 'block_sum', 300_000, 1172, 256, 0),
  // dynamic shared memory (sharedBytes = 512), 40 blocks, last has 8 of 128 elements
  blockSum('block_sum_dyn/partial-last-block', 'block_sum_dyn', 5000, 40, 128, 1),
  blockSum('block_sum_dyn/one-block-32', 'block_sum_dyn', 20, 1, 32, 0),
);

// ------------------------------------------------------------ sgemm_tiled
// sgemm_tiled(const float *A, const float *B, float *C, int M, int N, int K):
// C[M x N] = A[M x K] * B[K x N], row-major, block (16,16), grid (ceil(N/16), ceil(M/16)).
// Inputs are integers in [-4, 4]: |partial sums| <= 16 * K < 2^24, exact in f32 in any
// order and with or without fma contraction (nvcc emits fma.rn.f32).

function sgemm(name: string, M: number, N: number, K: number, guard: number): E2ECase {
  return defineCase({
    name,
    ptxFile: 'sgemm_tiled.ptx',
    entry: 'sgemm_tiled',
    grid: [ceilDiv(N, 16), ceilDiv(M, 16)],
    block: [16, 16],
    params: ['A', 'B', 'C', 'M', 'N', 'K'],
    where: { C: (i) => (i < M * N ? `row ${Math.floor(i / N)}, col ${i % N}` : 'guard') },
    build(rng) {
      const A = new Float32Array(M * K);
      const B = new Float32Array(K * N);
      for (let i = 0; i < A.length; i++) A[i] = rng.int(-4, 4);
      for (let i = 0; i < B.length; i++) B[i] = rng.int(-4, 4);
      const C = poisoned((k) => new Float32Array(k), M * N, guard);
      const exp = poisonedCopy(C);
      for (let r = 0; r < M; r++) {
        for (let c = 0; c < N; c++) {
          let s = 0;
          for (let k = 0; k < K; k++) s += (A[r * K + k] as number) * (B[k * N + c] as number);
          exp[r * N + c] = s;
        }
      }
      return withOutputs([A, B, C, M, N, K], { 2: exp });
    },
  });
}

cases.push(
  // one full 16x16 tile: inherently a single full block (checks the plain tiled path)
  sgemm('sgemm_tiled/one-tile-16x16x16', 16, 16, 16, 1),
  // 4 x 5 blocks, partial tiles in M, N and K
  sgemm('sgemm_tiled/70x50x33', 70, 50, 33, 2),
  // single row, 3 blocks across N, 7 K tiles (last partial)
  sgemm('sgemm_tiled/1x37x100', 1, 37, 100, 0),
  // K smaller than a tile
  sgemm('sgemm_tiled/45x3x7', 45, 3, 7, 0),
);

// -------------------------------------------------------------- histogram
// histogram(const unsigned char *data, int n, unsigned int *bins): 256 bins,
// shared-memory histogram with atomicAdd, merged into global bins with atomicAdd.
// bins is ACCUMULATED into, so it starts with random counts (not poison) and the
// reference is initial + count (mod 2^32).

function histogram(
  name: string,
  n: number,
  grid: number,
  block: number,
  gen: (rng: Rng, i: number) => number,
): E2ECase {
  return defineCase({
    name,
    ptxFile: 'histogram.ptx',
    entry: 'histogram',
    grid,
    block,
    params: ['data', 'n', 'bins'],
    where: { bins: (i) => `bin ${i}` },
    build(rng) {
      const data = new Uint8Array(n);
      for (let i = 0; i < n; i++) data[i] = gen(rng, i);
      const bins = new Uint32Array(256);
      for (let j = 0; j < 256; j++) bins[j] = j === 255 ? 0xfffffff0 : rng.int(0, 1_000_000);
      const exp = cloneArray(bins);
      for (let i = 0; i < n; i++) {
        const d = data[i] as number;
        exp[d] = ((exp[d] as number) + 1) >>> 0;
      }
      return withOutputs([data, n, bins], { 2: exp });
    },
  });
}

cases.push(
  // 1 block of 256, 1000 bytes (grid-stride loop runs 4 times, last partially)
  histogram('histogram/one-block', 1000, 1, 256, (r) => r.int(0, 255)),
  // 64 blocks x 256 threads over 100003 bytes (odd byte length: buffer not a multiple of 4)
  histogram('histogram/random-bytes', 100_003, 64, 256, (r) => r.int(0, 255)),
  // heavy contention: ~90% of the bytes are 7 (and 255, whose bin wraps past 2^32);
  // blockDim 128 so each thread clears/merges two shared bins
  histogram('histogram/skewed', 50_001, 100, 128, (r) => {
    const u = r.int(0, 99);
    return u < 90 ? 7 : u < 95 ? 255 : r.int(0, 255);
  }),
  // 3 bytes, 2 blocks: most threads and the whole second block see no data
  histogram('histogram/tiny', 3, 2, 256, (_r, i) => [200, 0, 200][i] ?? 0),
);

// -------------------------------------------------------------- transpose
// transpose(float *out, const float *in, int width, int height): in is height x width,
// out is width x height; 32x33 padded shared tile, block (32,8), grid
// (ceil(width/32), ceil(height/32)). Pure data movement: random finite normal f32 bit
// patterns (and a few -0.0), compared bitwise.

function transpose(name: string, width: number, height: number): E2ECase {
  return defineCase({
    name,
    ptxFile: 'transpose.ptx',
    entry: 'transpose',
    grid: [ceilDiv(width, 32), ceilDiv(height, 32)],
    block: [32, 8],
    params: ['out', 'in', 'width', 'height'],
    where: { out: (i) => `out row ${Math.floor(i / height)}, col ${i % height}` },
    build(rng) {
      const input = new Float32Array(width * height);
      const bits = new Uint32Array(input.buffer);
      for (let i = 0; i < bits.length; i++) bits[i] = i % 29 === 3 ? 0x80000000 : rng.normalF32Bits();
      const out = poisoned((k) => new Float32Array(k), width * height);
      const exp = new Float32Array(width * height);
      const expBits = new Uint32Array(exp.buffer);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) expBits[x * height + y] = bits[y * width + x] as number;
      }
      return withOutputs([out, input, width, height], { 0: exp });
    },
  });
}

cases.push(
  // exactly one full 32x32 tile (inherently full, checks the tile indexing alone)
  transpose('transpose/one-tile-32x32', 32, 32),
  // 4 x 3 blocks, partial tiles in both dimensions
  transpose('transpose/100x70', 100, 70),
  // a single row: 2 blocks in x, one in y with only threadIdx.y == 0 active rows
  transpose('transpose/33x1', 33, 1),
  // 9 x 5 blocks
  transpose('transpose/257x129', 257, 129),
);

// ----------------------------------------------------------------- grid2d
// grid2d(const int *in, int *coord, int *lap, int w, int h): 2D grid and block;
// x = blockIdx.x*blockDim.x + threadIdx.x (bounds-checked), rows by a grid-stride loop
// over y (blockIdx.y*blockDim.y + threadIdx.y, step blockDim.y*gridDim.y).
// coord[y*w+x] = x*1000 + y; lap = 4*in[y][x] - in-bounds 4-neighbours (int32 wrap).

function grid2d(name: string, w: number, h: number, grid: [number, number], block: [number, number]): E2ECase {
  return defineCase({
    name,
    ptxFile: 'grid2d.ptx',
    entry: 'grid2d',
    grid,
    block,
    params: ['in', 'coord', 'lap', 'w', 'h'],
    where: {
      coord: (i) => `x ${i % w}, y ${Math.floor(i / w)}`,
      lap: (i) => `x ${i % w}, y ${Math.floor(i / w)}`,
    },
    build(rng) {
      const input = new Int32Array(w * h);
      for (let i = 0; i < input.length; i++) input[i] = rng.i32();
      const coord = poisoned((k) => new Int32Array(k), w * h);
      const lap = poisoned((k) => new Int32Array(k), w * h);
      const expCoord = new Int32Array(w * h);
      const expLap = new Int32Array(w * h);
      const at = (x: number, y: number): number => input[y * w + x] as number;
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          expCoord[y * w + x] = x * 1000 + y;
          let s = 0;
          if (x > 0) s = (s + at(x - 1, y)) | 0;
          if (x + 1 < w) s = (s + at(x + 1, y)) | 0;
          if (y > 0) s = (s + at(x, y - 1)) | 0;
          if (y + 1 < h) s = (s + at(x, y + 1)) | 0;
          expLap[y * w + x] = (Math.imul(4, at(x, y)) - s) | 0;
        }
      }
      return withOutputs([input, coord, lap, w, h], { 1: expCoord, 2: expLap });
    },
  });
}

cases.push(
  // a single 8x4 block covering 5x3
  grid2d('grid2d/one-block', 5, 3, [1, 1], [8, 4]),
  // 7 x 5 blocks of 16x8 over 100 x 37: partial blocks in x and y, one row pass
  grid2d('grid2d/partial-both', 100, 37, [7, 5], [16, 8]),
  // 7 x 3 blocks of 8x8 over 50 x 90: y grid-stride (24 rows per pass, 4 passes, last partial)
  grid2d('grid2d/y-grid-stride', 50, 90, [7, 3], [8, 8]),
  // 32 x 88 blocks of 32x8 (720896 threads) over 1000 x 700
  grid2d('grid2d/large', 1000, 700, [32, 88], [32, 8]),
);

// ----------------------------------------------------------- control_flow
// control_flow(const int *in, int *out, int n): early return, for/while/do-while with
// break/continue, nested loops, switch with fallthrough (see control_flow.cu);
// out[4i..4i+3] = {acc, steps, nested, sw + d}, or all -1 for negative inputs.

export function controlFlowRef(i: number, v: number): [number, number, number, number] {
  if (v < 0) return [-1, -1, -1, -1];
  let acc = 0;
  for (let k = 0; k < v; k++) {
    if (k % 3 === 0) continue;
    if (acc > 1000) break;
    acc = (acc + Math.imul(k, i & 7)) | 0;
  }
  let x = (v + 1) >>> 0;
  let steps = 0;
  while (x !== 1) {
    if (steps >= 60) break;
    x = x & 1 ? (Math.imul(3, x) + 1) >>> 0 : x >>> 1;
    steps++;
  }
  let nested = 0;
  for (let a = 0; a < (v & 15); a++) {
    if (a === 7) continue;
    for (let b = 0; b < a; b++) {
      if ((a * b + i) % 5 === 4) break;
      nested += a ^ b;
    }
    if (nested > 200) break;
  }
  let sw = 0;
  switch (v % 7) {
    case 0:
      sw = acc;
      break;
    case 1:
      sw = steps * 3;
      break;
    case 2:
    case 3:
      if (v % 7 === 2) sw = nested; // case 2 falls through into case 3
      sw += 11;
      break;
    case 5:
      sw = -steps;
      break;
    default:
      sw = i % 13;
      break;
  }
  let d = 0;
  do {
    d += 2;
  } while (d < (v & 7));
  return [acc, steps, nested, (sw + d) | 0];
}

const CF_FIELDS = ['acc', 'steps', 'nested', 'sw+d'];

function controlFlow(name: string, n: number, grid: number, block: number): E2ECase {
  return defineCase({
    name,
    ptxFile: 'control_flow.ptx',
    entry: 'control_flow',
    grid,
    block,
    params: ['in', 'out', 'n'],
    where: {
      out: (i) => `element ${Math.floor(i / 4)} field ${CF_FIELDS[i % 4] ?? '?'}`,
      in: (i) => `element ${i}`,
    },
    build(rng) {
      const input = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const u = rng.int(0, 99);
        input[i] = u < 8 ? rng.int(-50, -1) : u < 12 ? rng.int(0, 2) : u < 20 ? rng.int(1000, 5000) : rng.int(0, 300);
      }
      const out = poisoned((k) => new Int32Array(k), 4 * n);
      const exp = new Int32Array(4 * n);
      for (let i = 0; i < n; i++) exp.set(controlFlowRef(i, input[i] as number), 4 * i);
      return withOutputs([input, out, n], { 1: exp });
    },
  });
}

cases.push(
  controlFlow('control_flow/one-block', 50, 1, 64),
  // 8 blocks of 128, last has 104 active threads
  controlFlow('control_flow/partial-last-block', 1000, 8, 128),
  // 79 blocks of 256 (20224 threads) for 20000 elements
  controlFlow('control_flow/large', 20_000, 79, 256),
);

// ------------------------------------------------------------- int64_math
// int64_math(const int *a, const int *b, const long long *src, long long *out,
//            long long *rev, int n, long long bias)  (see int64_math.cu)
// out[8i + 0..7] = {(a*b + (i<<33)) >> 3, src[i] - src[i-1] (src[0] for i = 0),
//   s > bias ? s + bias : bias - s, hash, rotr(s, i & 63), (u64)s < (u64)bias,
//   s / dv, s % dv} with s = src[i], dv = (b[i] | 1) * 3;  rev[i] = src[n-1-i].
// Values keep |src|, |bias| < 2^62 so no signed C overflow occurs. Some elements have
// small non-negative s and dv to exercise nvcc's 32-bit fast path of the division.

const I64_FIELDS = ['mulshift', 'diff', 'cmpadd', 'hash', 'rotr', 'ultbias', 'div', 'rem'];

export function int64Ref(i: number, a: number, b: number, s: bigint, prev: bigint | null, bias: bigint): bigint[] {
  const W = (x: bigint): bigint => BigInt.asIntN(64, x);
  const U = (x: bigint): bigint => BigInt.asUintN(64, x);
  const o0 = W(W(BigInt(a) * BigInt(b)) + (BigInt(i) << 33n)) >> 3n;
  const o1 = prev === null ? s : W(s - prev);
  const o2 = s > bias ? W(s + bias) : W(bias - s);
  const u = U(s);
  let h = U(u * 0x9e3779b97f4a7c15n);
  h ^= h >> 29n;
  const r = BigInt(i & 63);
  const rot = U((u >> r) | (u << ((64n - r) & 63n)));
  const o5 = u < U(bias) ? 1n : 0n;
  const dv = BigInt(b | 1) * 3n;
  return [o0, o1, o2, W(h), W(rot), o5, s / dv, s % dv];
}

function int64Math(name: string, n: number, grid: number, block: number, bias: bigint): E2ECase {
  return defineCase({
    name,
    ptxFile: 'int64_math.ptx',
    entry: 'int64_math',
    grid,
    block,
    params: ['a', 'b', 'src', 'out', 'rev', 'n', 'bias'],
    where: { out: (i) => `element ${Math.floor(i / 8)} field ${I64_FIELDS[i % 8] ?? '?'}` },
    build(rng) {
      const a = new Int32Array(n);
      const b = new Int32Array(n);
      const src = new BigInt64Array(n);
      for (let i = 0; i < n; i++) {
        const kind = rng.int(0, 9);
        if (kind < 2) {
          // small non-negative: the div.u32 fast path (s and dv both < 2^32)
          a[i] = rng.int(0, 1000);
          b[i] = rng.int(0, 1_000_000);
          src[i] = BigInt(rng.u32());
        } else if (kind < 3) {
          a[i] = rng.int(-1000, 1000);
          b[i] = rng.int(-1000, 1000);
          src[i] = BigInt(rng.int(-1000, 1000));
        } else {
          a[i] = rng.i32();
          b[i] = rng.i32();
          src[i] = rng.sbits(62);
        }
      }
      const out = poisoned((k) => new BigInt64Array(k), 8 * n);
      const rev = poisoned((k) => new BigInt64Array(k), n);
      const expOut = new BigInt64Array(8 * n);
      const expRev = new BigInt64Array(n);
      for (let i = 0; i < n; i++) {
        const s = src[i] as bigint;
        const prev = i > 0 ? (src[i - 1] as bigint) : null;
        expOut.set(int64Ref(i, a[i] as number, b[i] as number, s, prev, bias), 8 * i);
        expRev[i] = src[n - 1 - i] as bigint;
      }
      return withOutputs([a, b, src, out, rev, n, bias], { 3: expOut, 4: expRev });
    },
  });
}

cases.push(
  int64Math('int64_math/one-block', 77, 1, 128, 0x0123_4567_89ab_cdefn),
  // 8 blocks of 128, last has 104 active; negative bias (its u64 value is huge)
  int64Math('int64_math/partial-last-block', 1000, 8, 128, -0x2edc_ba98_7654_3210n),
  // 391 blocks of 256 for 100000 elements: i << 33 reaches 2^49
  int64Math('int64_math/large', 100_000, 391, 256, 0x1000_0000_0000n),
);

// ------------------------------------------------------------ bytes_halfs
// bytes_kernel(const unsigned char *in, unsigned char *out, const signed char *sin,
//              int *sout, int n): out[i] = (in[n-1-i]*3 + i) mod 256, sout[i] = sin[i]*5.
// halfs_kernel(const short *in, short *out, unsigned short *uout, int n):
//   out[i] = (short)(in[i]*-3 + i), uout[i] = (unsigned short)in[i] >> 1.
// float4_kernel(const float4 *in, float4 *out, int n4): out[i] = (w, 2z, y+1, x).
// Each thread writes one byte / halfword, so neighbouring threads share a 32-bit word;
// block sizes are chosen so that words also straddle block boundaries.

function bytesCase(name: string, n: number, grid: number, block: number, guard: number): E2ECase {
  return defineCase({
    name,
    ptxFile: 'bytes_halfs.ptx',
    entry: 'bytes_kernel',
    grid,
    block,
    params: ['in', 'out', 'sin', 'sout', 'n'],
    build(rng) {
      const input = new Uint8Array(n);
      const sin = new Int8Array(n);
      for (let i = 0; i < n; i++) {
        input[i] = rng.int(0, 255);
        sin[i] = rng.int(-128, 127);
      }
      const out = poisoned((k) => new Uint8Array(k), n, guard);
      const sout = poisoned((k) => new Int32Array(k), n);
      const expOut = poisonedCopy(out);
      const expSout = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        expOut[i] = ((input[n - 1 - i] as number) * 3 + i) & 0xff;
        expSout[i] = (sin[i] as number) * 5;
      }
      return withOutputs([input, out, sin, sout, n], { 1: expOut, 3: expSout });
    },
  });
}

function halfsCase(name: string, n: number, grid: number, block: number, guard: number): E2ECase {
  return defineCase({
    name,
    ptxFile: 'bytes_halfs.ptx',
    entry: 'halfs_kernel',
    grid,
    block,
    params: ['in', 'out', 'uout', 'n'],
    build(rng) {
      const input = new Int16Array(n);
      for (let i = 0; i < n; i++) input[i] = rng.int(-32768, 32767);
      const out = poisoned((k) => new Int16Array(k), n, guard);
      const uout = poisoned((k) => new Uint16Array(k), n, guard);
      const expOut = poisonedCopy(out);
      const expU = poisonedCopy(uout);
      for (let i = 0; i < n; i++) {
        const v = input[i] as number;
        expOut[i] = (((v * -3 + i) << 16) >> 16); // Int16Array stores wrap anyway
        expU[i] = (v & 0xffff) >>> 1;
      }
      return withOutputs([input, out, uout, n], { 1: expOut, 2: expU });
    },
  });
}

function float4Case(name: string, n4: number, grid: number, block: number): E2ECase {
  return defineCase({
    name,
    ptxFile: 'bytes_halfs.ptx',
    entry: 'float4_kernel',
    grid,
    block,
    params: ['in', 'out', 'n4'],
    where: { out: (i) => `float4 ${Math.floor(i / 4)} lane ${'xyzw'[i % 4] ?? '?'}` },
    build(rng) {
      const input = new Float32Array(4 * n4);
      for (let i = 0; i < input.length; i++) input[i] = rng.f32(-1e6, 1e6);
      const out = poisoned((k) => new Float32Array(k), 4 * n4);
      const exp = new Float32Array(4 * n4);
      for (let i = 0; i < n4; i++) {
        const x = input[4 * i] as number;
        const y = input[4 * i + 1] as number;
        const z = input[4 * i + 2] as number;
        const w = input[4 * i + 3] as number;
        exp[4 * i] = w;
        exp[4 * i + 1] = Math.fround(z * 2);
        exp[4 * i + 2] = Math.fround(y + 1);
        exp[4 * i + 3] = x;
      }
      return withOutputs([input, out, n4], { 1: exp });
    },
  });
}

cases.push(
  // 7 bytes (buffer length not a multiple of 4), one block; 1 guard byte
  bytesCase('bytes_kernel/one-block', 7, 1, 32, 1),
  // blockDim 99: 32-bit words straddle block boundaries; 11 blocks, last partial
  bytesCase('bytes_kernel/partial-blocks-99', 1003, 11, 99, 2),
  // 801 blocks of 250
  bytesCase('bytes_kernel/large', 200_001, 801, 250, 0),
  halfsCase('halfs_kernel/one-block', 5, 1, 64, 1),
  // blockDim 33 (odd): a halfword pair straddles every other block boundary
  halfsCase('halfs_kernel/partial-blocks-33', 999, 31, 33, 1),
  halfsCase('halfs_kernel/large', 100_001, 788, 127, 0),
  float4Case('float4_kernel/one-block', 3, 1, 64),
  float4Case('float4_kernel/partial-last-block', 1000, 8, 128),
  float4Case('float4_kernel/large', 50_000, 196, 256),
);

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

// ------------------------------------------------------------- warp-level kernels
// tests/kernels/warp_*.cu (tests/warps/cases.ts): shuffles, votes, match, redux, activemask,
// in uniform and warp-divergent control flow. Each host picks its own warp path (Deno: no
// subgroups; Chromium: subgroups of 4; lavapipe: 8), all emulated.
for (const w of WARP_CASES.flatMap((c) => [c, { ...c, grid: c.grid + 1 }])) {
  cases.push(defineCase({
    name: `warp/${w.kernel}/grid-${w.grid}`, ptxFile: `${w.ptx}.ptx`, entry: w.kernel, grid: w.grid, block: w.block,
    params: ['in', ...w.outputs.map((_, k) => `out${k}`)],
    build() {
      const outs = warpOutputWords(w).map((n) => poison(new Uint32Array(n)));
      const exp = Object.fromEntries(warpExpected(w).map((e, k) => [k + 1, e]));
      return withOutputs([warpInput(w.grid * w.block), ...outs], exp);
    },
  }));
}

// ------------------------------------------------------- convergence (issue 5)
// tests/kernels/conv_*.cu (tests/warps/convergence-cases.ts): barriers after early returns, in
// warp-divergent branches and loops, bar.red (__syncthreads_count/and/or), named barriers.
for (const f of CONV_FACTORIES) {
  for (const c of [f.make(f.grid), f.make(f.grid + 1)]) {
    cases.push(defineCase({
      name: `conv/${c.kernel}/grid-${c.grid}`, ptxFile: `${c.file}.ptx`, entry: c.kernel, grid: c.grid, block: c.block,
      params: ['in', 'out', ...c.scalars.map((_, k) => `n${k}`)],
      build() {
        const input = convInput(c.inputWords);
        return withOutputs([input, poison(new Uint32Array(c.outputWords)), ...c.scalars], { 1: c.reference(input) });
      },
    }));
  }
}

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

// Sanity: names are unique (cheap, runs at import).
{
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.name)) throw new Error(`duplicate e2e case name ${c.name}`);
    seen.add(c.name);
  }
}

/** Poison value used for 32-bit outputs (re-exported for harnesses that print it). */
export const POISON = POISON_U32;
