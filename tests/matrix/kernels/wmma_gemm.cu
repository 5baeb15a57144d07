// Two WMMA GEMMs of the kind real code writes, D = alpha * A * B + beta * C, A row-major
// (m x k, f16), B col-major (k x n, f16), C and D row-major (m x n, f32). m, n multiples of 64,
// k a multiple of 32.
//
// - gemm_tile16: one warp per 16x16 tile of D, fragments straight from global memory.
// - gemm_tile32_shared: a block of 4 warps computes a 64x64 block of D; each k-step of 32 stages
//   the block's A and B panels in shared memory and each warp accumulates 2x2 fragments (32x32).
// Both scale the accumulator element by element (frag.x[i]), as epilogues do.
//
// Compile: nvcc -ptx -arch=sm_80 -O3 wmma_gemm.cu -o wmma_gemm.ptx
#include <mma.h>
#include <cuda_fp16.h>

using namespace nvcuda;

typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> FragA;
typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> FragB;
typedef wmma::fragment<wmma::accumulator, 16, 16, 16, float> FragC;

__device__ void epilogue(FragC &acc, const float *c, float *d, unsigned ldc, float alpha, float beta) {
  FragC old;
  wmma::load_matrix_sync(old, c, ldc, wmma::mem_row_major);
  for (int i = 0; i < acc.num_elements; i++) acc.x[i] = alpha * acc.x[i] + beta * old.x[i];
  wmma::store_matrix_sync(d, acc, ldc, wmma::mem_row_major);
}

// grid (n / 16, m / 64), block 128: warp w of a block takes tile row blockIdx.y * 4 + w.
extern "C" __global__ void gemm_tile16(const __half *a, const __half *b, const float *c, float *d,
                                       unsigned m, unsigned n, unsigned k, float alpha, float beta) {
  const unsigned row = (blockIdx.y * 4 + threadIdx.x / 32) * 16;
  const unsigned col = blockIdx.x * 16;
  if (row >= m || col >= n) return;
  FragC acc;
  wmma::fill_fragment(acc, 0.0f);
  for (unsigned kk = 0; kk < k; kk += 16) {
    FragA fa;
    FragB fb;
    wmma::load_matrix_sync(fa, a + row * k + kk, k);
    wmma::load_matrix_sync(fb, b + col * k + kk, k);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  epilogue(acc, c + row * n + col, d + row * n + col, n, alpha, beta);
}

#define PANEL_K 32
// Padded by 8 halves so the rows of a panel fall on different banks; ldm stays a multiple of 8.
#define PANEL_LD (PANEL_K + 8)

// grid (n / 64, m / 64), block 128: warp w computes rows (w / 2) * 32, cols (w % 2) * 32.
extern "C" __global__ void gemm_tile32_shared(const __half *a, const __half *b, const float *c, float *d,
                                              unsigned m, unsigned n, unsigned k, float alpha, float beta) {
  __shared__ __half sa[64 * PANEL_LD];  // A rows of the block, row-major
  __shared__ __half sb[64 * PANEL_LD];  // B cols of the block, col-major
  const unsigned warp = threadIdx.x / 32;
  const unsigned row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  const unsigned wr = (warp / 2) * 32, wc = (warp % 2) * 32;
  FragC acc[2][2];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
  for (unsigned kk = 0; kk < k; kk += PANEL_K) {
    for (unsigned e = threadIdx.x; e < 64 * PANEL_K; e += blockDim.x) {
      const unsigned r = e / PANEL_K, q = e % PANEL_K;
      sa[r * PANEL_LD + q] = a[(row0 + r) * k + kk + q];
      sb[r * PANEL_LD + q] = b[(col0 + r) * k + kk + q];
    }
    __syncthreads();
    for (unsigned ks = 0; ks < PANEL_K; ks += 16) {
      FragA fa[2];
      FragB fb[2];
      for (int i = 0; i < 2; i++) wmma::load_matrix_sync(fa[i], sa + (wr + i * 16) * PANEL_LD + ks, PANEL_LD);
      for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], sb + (wc + j * 16) * PANEL_LD + ks, PANEL_LD);
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      const unsigned at = (row0 + wr + i * 16) * n + col0 + wc + j * 16;
      epilogue(acc[i][j], c + at, d + at, n, alpha, beta);
    }
}
