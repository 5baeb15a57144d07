/**
 * The playground's examples: CUDA sources (demo/examples/*.cu) and the PTX nvcc made of them
 * (`nvcc -ptx -arch=sm_80 -O3`), each with a launch that exercises it.
 */
import vectorAddCu from './examples/vector_add.cu';
import vectorAddPtx from './examples/vector_add.ptx';
import blockReduceCu from './examples/block_reduce.cu';
import blockReducePtx from './examples/block_reduce.ptx';
import softmaxCu from './examples/softmax.cu';
import softmaxPtx from './examples/softmax.ptx';
import sgemmCu from './examples/sgemm.cu';
import sgemmPtx from './examples/sgemm.ptx';
import warpScanCu from './examples/warp_scan.cu';
import warpScanPtx from './examples/warp_scan.ptx';
import wmmaGemmCu from './examples/wmma_gemm.cu';
import wmmaGemmPtx from './examples/wmma_gemm.ptx';
import type { ArgFile } from './arg-file.js';

export type Dtype = 'f16' | 'f32' | 'i32' | 'u32';
export type Generator = 'linear' | 'fill' | 'random' | 'file';

/**
 * A pointer argument: `length` elements of `dtype` made by `gen` (linear: i * value; fill:
 * value; random: [0, value); file: the elements of `file`, a .npy or raw file the user picked).
 * f16 elements are the generated values rounded to the nearest half.
 */
export interface BufferArg {
  readonly kind: 'buffer'; readonly dtype: Dtype; readonly length: number; readonly gen: Generator; readonly value: number;
  readonly shape?: readonly [number, number];
  readonly file?: ArgFile;
}
export interface ScalarArg { readonly kind: 'scalar'; readonly value: number }
export type ArgSpec = BufferArg | ScalarArg;

export interface Example {
  readonly id: string;
  readonly title: string;
  readonly cuda: string;
  readonly ptx: string;
  readonly grid: string;
  readonly block: string;
  readonly args: readonly ArgSpec[];
}

const buf = (dtype: Dtype, length: number, gen: Generator, value: number, shape?: readonly [number, number]): BufferArg =>
  shape ? { kind: 'buffer', dtype, length, gen, value, shape } : { kind: 'buffer', dtype, length, gen, value };
const scalar = (value: number): ScalarArg => ({ kind: 'scalar', value });

const M = 96, N = 128, K = 64, ROWS = 48, COLS = 500;
/**
 * The wmma GEMM's size: small, since a software WebGPU (SwiftShader, lavapipe) runs the portable
 * matrix path's shuffles slowly. C starts at -1, which A * B of inputs in [0, 1) never is.
 */
const WM = 64, WN = 64, WK = 64;

export const EXAMPLES: readonly Example[] = [
  { id: 'vector_add', title: 'vector add', cuda: vectorAddCu, ptx: vectorAddPtx, grid: '4', block: '256',
    args: [buf('f32', 1000, 'linear', 1), buf('f32', 1000, 'random', 1), buf('f32', 1000, 'fill', 0), scalar(1000)] },
  { id: 'block_reduce', title: 'block reduction (shared memory)', cuda: blockReduceCu, ptx: blockReducePtx, grid: '8', block: '256',
    args: [buf('f32', 100_000, 'random', 1), buf('f32', 8, 'fill', 0), scalar(100_000)] },
  { id: 'softmax', title: 'softmax (row per block)', cuda: softmaxCu, ptx: softmaxPtx, grid: String(ROWS), block: '128',
    args: [buf('f32', ROWS * COLS, 'random', 8, [ROWS, COLS]), buf('f32', ROWS * COLS, 'fill', 0, [ROWS, COLS]), scalar(COLS)] },
  { id: 'sgemm', title: 'SGEMM (16x16 shared tiles)', cuda: sgemmCu, ptx: sgemmPtx, grid: `${N / 16},${M / 16}`, block: '16,16',
    args: [scalar(M), scalar(N), scalar(K), scalar(1), buf('f32', M * K, 'random', 1, [M, K]), buf('f32', K * N, 'random', 1, [K, N]), scalar(0.5), buf('f32', M * N, 'fill', 1, [M, N])] },
  { id: 'warp_scan', title: 'warp shuffle scan', cuda: warpScanCu, ptx: warpScanPtx, grid: '4', block: '256',
    args: [buf('i32', 1000, 'random', 10), buf('i32', 1000, 'fill', 0), buf('i32', 32, 'fill', 0), scalar(1000)] },
  { id: 'wmma_gemm', title: 'WMMA GEMM (tensor-core style)', cuda: wmmaGemmCu, ptx: wmmaGemmPtx, grid: `${WN / 16},${WM / 64}`, block: '128',
    args: [buf('f16', WM * WK, 'random', 1, [WM, WK]), buf('f16', WK * WN, 'random', 1, [WK, WN]), buf('f32', WM * WN, 'fill', -1, [WM, WN]), scalar(WM), scalar(WN), scalar(WK)] },
];
