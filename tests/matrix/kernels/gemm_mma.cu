// Two GEMMs written the way inline-asm tensor-core code is written, for tests/matrix/gemm-mma.gpu.test.ts.
// nvcc -ptx -arch=sm_80 -O3 gemm_mma.cu -o gemm_mma.ptx
//
// gemm_s8_mma: D (s32, M x N) = A (s8, M x K, row-major) * B + C, with B given by its columns
// (Bt: N x K, row-major), as int8 inference GEMMs store weights. A block of 4 warps computes a
// 64 x 32 tile: the A and B slices of 32 k pass through shared memory, each warp then runs
// mma.sync m16n8k32 for its 16 rows and the 4 column tiles of 8, fragments loaded by the ISA's
// m16n8k32 layout (a0 = row g bytes 4t..4t+3, a1 = row g + 8, a2 and a3 the same at k + 16; b0 =
// column g bytes 4t.., b1 at k + 16; c0, c1 = row g columns 2t, 2t + 1, c2, c3 row g + 8).
// M % 64 == 0, N % 32 == 0, K % 32 == 0.
//
// gemm_b1_xor: a binarized (+1/-1) GEMM: bit k of row i of A and of column j of B code +1 (1) or
// -1 (0), both stored as 32-bit words of 32 k (bit b of word w is k = 32w + b), and D[i][j] =
// sum over k of a*b = K - 2 popc(A_i xor B_j), with mma.sync m16n8k256 .xor.popc: one warp per
// 16 x 8 tile, fragments straight from global memory (a0 = row g word t, a1 = row g + 8 word t,
// a2 and a3 words 4 + t; b0 = column g word t, b1 word 4 + t). M % 16 == 0, N % 16 == 0,
// K % 256 == 0.

#define BM 64
#define BN 32
#define BK 32

extern "C" __global__ void gemm_s8_mma(const signed char *A, const signed char *Bt, const int *C, int *D,
                                       unsigned M, unsigned N, unsigned K) {
  __shared__ __align__(16) signed char As[BM][BK + 16];
  __shared__ __align__(16) signed char Bs[BN][BK + 16];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const unsigned row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const unsigned r = row0 + warp * 16 + g;
  int acc[4][4];
  for (int j = 0; j < 4; j++) {
    const unsigned c = col0 + j * 8 + 2 * t;
    acc[j][0] = C[r * N + c];
    acc[j][1] = C[r * N + c + 1];
    acc[j][2] = C[(r + 8) * N + c];
    acc[j][3] = C[(r + 8) * N + c + 1];
  }
  for (unsigned k0 = 0; k0 < K; k0 += BK) {
    for (unsigned i = threadIdx.x; i < BM * BK / 4; i += blockDim.x) {
      const unsigned rr = i / (BK / 4), w = i % (BK / 4);
      *(int *)&As[rr][4 * w] = *(const int *)&A[(row0 + rr) * K + k0 + 4 * w];
    }
    for (unsigned i = threadIdx.x; i < BN * BK / 4; i += blockDim.x) {
      const unsigned rr = i / (BK / 4), w = i % (BK / 4);
      *(int *)&Bs[rr][4 * w] = *(const int *)&Bt[(col0 + rr) * K + k0 + 4 * w];
    }
    __syncthreads();
    const unsigned ar = warp * 16 + g;
    const unsigned a0 = *(const unsigned *)&As[ar][4 * t], a1 = *(const unsigned *)&As[ar + 8][4 * t];
    const unsigned a2 = *(const unsigned *)&As[ar][16 + 4 * t], a3 = *(const unsigned *)&As[ar + 8][16 + 4 * t];
    for (int j = 0; j < 4; j++) {
      const unsigned b0 = *(const unsigned *)&Bs[j * 8 + g][4 * t], b1 = *(const unsigned *)&Bs[j * 8 + g][16 + 4 * t];
      asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                   : "+r"(acc[j][0]), "+r"(acc[j][1]), "+r"(acc[j][2]), "+r"(acc[j][3])
                   : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
    __syncthreads();
  }
  for (int j = 0; j < 4; j++) {
    const unsigned c = col0 + j * 8 + 2 * t;
    D[r * N + c] = acc[j][0];
    D[r * N + c + 1] = acc[j][1];
    D[(r + 8) * N + c] = acc[j][2];
    D[(r + 8) * N + c + 1] = acc[j][3];
  }
}

extern "C" __global__ void gemm_b1_xor(const unsigned *A, const unsigned *Bt, int *D, unsigned M, unsigned N, unsigned K) {
  const unsigned lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const unsigned r = blockIdx.y * 16 + g, col = (blockIdx.x * 2 + threadIdx.x / 32) * 8;
  const unsigned words = K / 32;
  int acc[4] = {0, 0, 0, 0};
  for (unsigned w0 = 0; w0 < words; w0 += 8) {
    const unsigned a0 = A[r * words + w0 + t], a1 = A[(r + 8) * words + w0 + t];
    const unsigned a2 = A[r * words + w0 + 4 + t], a3 = A[(r + 8) * words + w0 + 4 + t];
    const unsigned b0 = Bt[(col + g) * words + w0 + t], b1 = Bt[(col + g) * words + w0 + 4 + t];
    asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3])
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  const unsigned c = col + 2 * t;
  D[r * N + c] = (int)K - 2 * acc[0];
  D[r * N + c + 1] = (int)K - 2 * acc[1];
  D[(r + 8) * N + c] = (int)K - 2 * acc[2];
  D[(r + 8) * N + c + 1] = (int)K - 2 * acc[3];
}
