// The Triton matmuls of tests/matrix/triton/ (gen.py) with their inputs and JS references: shared
// by triton.gpu.test.ts and the native recorder's case list. Inputs are chosen so that every f32
// sum is exact whatever order the adds take (and, for the f16 output, exactly representable in
// f16), so the references need no tolerance.
import { F16, F32, convert } from '../conformance/ref/float.js';
import type { NativeRun } from './native.js';
import { Random } from './reference.js';

export interface TritonCase {
  readonly kernel: string;
  readonly run: NativeRun;
  /** The C words the reference computes. */
  readonly expected: () => Uint32Array;
  /** Triton's usual tiles: minutes on lavapipe (triton.gpu.test.ts runs them on request). */
  readonly large?: boolean;
}

const DIR = 'triton';
/** The two global-scratch pointers Triton 3.6 appends to every kernel's parameters. */
const SCRATCH = 2;

const f32Bits = (x: number): number => new Uint32Array(new Float32Array([x]).buffer)[0] as number;
const f16Bits = (x: number): number => Number(convert(F32, F16, BigInt(f32Bits(x)), 'rn'));
/** Packs 16-bit elements two to a word, the lower index in the low half. */
const packHalves = (h: readonly number[]): Uint32Array => new Uint32Array(Uint16Array.from(h).buffer);

/** A build's output tile, threads and dynamic shared bytes (gen.py prints them in each header). */
interface Tile { readonly bm: number; readonly bn: number; readonly block: number; readonly shared: number; readonly large: boolean }

/** C = A B over numbers (row-major A M x K, B K x N), each sum exact by construction. */
function matmul(A: readonly number[], B: readonly number[], M: number, N: number, K: number): number[] {
  const C: number[] = [];
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += (A[i * K + k] as number) * (B[k * N + j] as number);
      C.push(s);
    }
  }
  return C;
}

/**
 * f16 out: A integers in [-2, 2], B multiples of 1/8 in [-1, 1], so |C| <= 2K = 256 at K = 128 in
 * steps of 1/8: 11 significant bits, exact in f16 and in every f32 partial sum.
 */
function mmF16(kernel: string, ptx: string, tile: Tile, M: number, N: number, K: number, seed: number): TritonCase {
  const r = new Random(seed);
  const A = Array.from({ length: M * K }, () => r.below(5) - 2);
  const B = Array.from({ length: K * N }, () => (r.below(17) - 8) / 8);
  return {
    kernel, large: tile.large,
    expected: () => packHalves(matmul(A, B, M, N, K).map(f16Bits)),
    run: {
      ptx, dir: DIR, kernel, grid: [M / tile.bm, N / tile.bn], block: tile.block, sharedBytes: tile.shared, scratch: SCRATCH,
      inputs: [packHalves(A.map(f16Bits)), packHalves(B.map(f16Bits))], outputWords: [(M * N) / 2],
      scalars: [{ u32: M }, { u32: N }, { u32: K }],
    },
  };
}

/**
 * f32 out = relu(A B + bias): A and B multiples of 1/8 in [-2, 2] (products multiples of 1/64, |sum|
 * <= 4K), bias multiples of 1/8 in [-8, 8]: every sum fits f32's 24 bits.
 */
function mmBiasRelu(kernel: string, ptx: string, tile: Tile, M: number, N: number, K: number, seed: number): TritonCase {
  const r = new Random(seed);
  const eighths = (n: number, span: number): number[] => Array.from({ length: n }, () => (r.below(16 * span + 1) - 8 * span) / 8);
  const A = eighths(M * K, 2);
  const B = eighths(K * N, 2);
  const bias = eighths(N, 8);
  return {
    kernel, large: tile.large,
    expected: () => Uint32Array.from(matmul(A, B, M, N, K).map((s, e) => f32Bits(Math.max(s + (bias[e % N] as number), 0)))),
    run: {
      ptx, dir: DIR, kernel, grid: [M / tile.bm, N / tile.bn], block: tile.block, sharedBytes: tile.shared, scratch: SCRATCH,
      inputs: [packHalves(A.map(f16Bits)), packHalves(B.map(f16Bits)), Uint32Array.from(bias.map(f32Bits))], outputWords: [M * N],
      scalars: [{ u32: M }, { u32: N }, { u32: K }],
    },
  };
}

/**
 * s32 out over s8 (the full range: K * 128 * 128 stays far below 2^31, so .satfinite never acts), M,
 * N, K not multiples of the 64x64x64 tile: the edge tiles load through zero-filled cp.async and
 * store under masks. C has a poisoned tail beyond M x N that must stay untouched.
 */
function mmS8Masked(kernel: string, ptx: string, tile: Tile, M: number, N: number, K: number, seed: number): TritonCase {
  const r = new Random(seed);
  const A = Array.from({ length: M * K }, () => (r.next() & 0xff) - 128);
  const B = Array.from({ length: K * N }, () => (r.next() & 0xff) - 128);
  const tail = 64;
  return {
    kernel, large: tile.large,
    expected: () => Uint32Array.from([...matmul(A, B, M, N, K).map((s) => s >>> 0), ...new Array<number>(tail).fill(0xdeadbeef)]),
    run: {
      ptx, dir: DIR, kernel, grid: [Math.ceil(M / tile.bm), Math.ceil(N / tile.bn)], block: tile.block, sharedBytes: tile.shared, scratch: SCRATCH,
      inputs: [new Uint32Array(Int8Array.from(A).buffer), new Uint32Array(Int8Array.from(B).buffer)], outputWords: [M * N + tail],
      scalars: [{ u32: M }, { u32: N }, { u32: K }],
    },
  };
}

export const TRITON_CASES: readonly TritonCase[] = [
  mmF16('mm_f16_small', 'mm_f16_small_16x16x32', { bm: 16, bn: 16, block: 32, shared: 4096, large: false }, 32, 32, 96, 0x9b05688c),
  mmBiasRelu('mm_bias_relu_small', 'mm_bias_relu_small_32x16x16', { bm: 32, bn: 16, block: 32, shared: 1536, large: false }, 64, 32, 64, 0x1f83d9ab),
  // K = 80: the last 32-deep step is half zero-filled
  mmS8Masked('mm_s8_masked_small', 'mm_s8_masked_small_16x16x32', { bm: 16, bn: 16, block: 32, shared: 1024, large: false }, 48, 32, 80, 0x5be0cd19),
  mmF16('mm_f16', 'mm_f16_64x64x32', { bm: 64, bn: 64, block: 128, shared: 16384, large: true }, 128, 64, 128, 0x3c6ef372),
  mmBiasRelu('mm_bias_relu', 'mm_bias_relu_128x64x32', { bm: 128, bn: 64, block: 128, shared: 12288, large: true }, 128, 128, 96, 0xa54ff53a),
  // M, N, K all past a tile edge: masked rows, columns and depth
  mmS8Masked('mm_s8_masked', 'mm_s8_masked_64x64x64', { bm: 64, bn: 64, block: 128, shared: 8192, large: true }, 80, 48, 96, 0x510e527f),
];

export const tritonNativeRuns = (): NativeRun[] => TRITON_CASES.map((c) => c.run);
