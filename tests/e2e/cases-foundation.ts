// The foundation kernels (issue 2): vector add, saxpy, block sum, sgemm, histogram, transpose,
// 2D grids, control flow, 64-bit integers, bytes/halves/float4.
import { defineCase, withOutputs, ceilDiv, poisoned, poisonedCopy, type CaseSpec, type E2ECase } from './case-kit.ts';
import { Rng, cloneArray, fmaf32, poison } from './reference.ts';

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

export { cases };
