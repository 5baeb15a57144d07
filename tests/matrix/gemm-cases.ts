// The GEMM kernels of tests/matrix/kernels/gemm_mma.cu with their inputs and JS references:
// shared by gemm-mma.gpu.test.ts and the native recorder's case list.
import type { NativeRun } from './native.js';
import { Random, gemmS8Reference } from './reference.js';

export interface GemmCase {
  readonly kernel: string;
  readonly run: NativeRun;
  /** The D words the reference computes. */
  readonly expected: () => Uint32Array;
}

const words = (n: number, r: Random): Uint32Array => Uint32Array.from({ length: n }, () => r.next());

/** D = A * B + C over s8, B given by its columns (Bt, N x K), wrapping in 32 bits. */
function gemmS8(M: number, N: number, K: number, seed: number): GemmCase {
  const r = new Random(seed);
  const A = new Int8Array(words((M * K) / 4, r).buffer);
  const Bt = new Int8Array(words((N * K) / 4, r).buffer);
  // C small enough that the sums stay far from wrapping, and some near the ends so they wrap
  const C = Int32Array.from({ length: M * N }, (_, i) => (i % 97 === 0 ? 0x7fffff00 : (r.next() % 200001) - 100000));
  const expected = (): Uint32Array => gemmS8Reference(A, Bt, C, M, N, K);
  const u32 = (a: Int8Array | Int32Array): Uint32Array => new Uint32Array(a.buffer);
  return {
    kernel: 'gemm_s8_mma', expected,
    run: { ptx: 'gemm_mma', kernel: 'gemm_s8_mma', grid: [N / 32, M / 64], block: 128, inputs: [u32(A), u32(Bt), u32(C)], outputWords: [M * N], scalars: [{ u32: M }, { u32: N }, { u32: K }] },
  };
}

/** D[i][j] = K - 2 popc(A_i xor B_j): the +1/-1 dot product of bit rows. */
function gemmB1(M: number, N: number, K: number, seed: number): GemmCase {
  const r = new Random(seed);
  const w = K / 32;
  const A = words(M * w, r);
  const Bt = words(N * w, r);
  const popc = (x: number): number => { let n = 0; for (let v = x >>> 0; v; v &= v - 1) n++; return n; };
  const expected = (): Uint32Array => Uint32Array.from({ length: M * N }, (_, e) => {
    const i = Math.floor(e / N); const j = e % N;
    let p = 0;
    for (let x = 0; x < w; x++) p += popc(((A[i * w + x] as number) ^ (Bt[j * w + x] as number)) >>> 0);
    return (K - 2 * p) >>> 0;
  });
  return {
    kernel: 'gemm_b1_xor', expected,
    run: { ptx: 'gemm_mma', kernel: 'gemm_b1_xor', grid: [N / 16, M / 16], block: 64, inputs: [A, Bt], outputWords: [M * N], scalars: [{ u32: M }, { u32: N }, { u32: K }] },
  };
}

export const GEMM_CASES: readonly GemmCase[] = [gemmS8(128, 64, 96, 0x51ed270b), gemmB1(32, 32, 512, 0x2545f491)];

export const gemmNativeRuns = (): NativeRun[] => GEMM_CASES.map((c) => c.run);
