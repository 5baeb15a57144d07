// Plain WMMA GEMMs for the tensor-core path (issue 14): D = A * B with no epilogue, so every
// fragment flows only between wmma instructions. A row-major (m x k, f16), B col-major
// (k x n, f16), D row-major (m x n). m, n multiples of 64 (32 for gemm_warp32), k of 16.
//
// - gemm_plain16: one warp per 16x16 tile of D (f32), fragments straight from global memory.
// - gemm_plain16_h: the same with f16 accumulators and an f16 D.
// - gemm_warp32: one warp per 32x32 tile of D (2x2 fragments), from global memory.
//
// Compile: nvcc -ptx -arch=sm_80 -O3 wmma_gemm_plain.cu -o wmma_gemm_plain.ptx
#include <mma.h>
#include <cuda_fp16.h>

using namespace nvcuda;

typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> FragA;
typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> FragB;

// grid (n / 16, m / 64), block 128: warp w of a block takes tile row blockIdx.y * 4 + w.
template <typename Acc>
__device__ void plain16(const __half *a, const __half *b, Acc *d, unsigned m, unsigned n, unsigned k) {
  const unsigned row = (blockIdx.y * 4 + threadIdx.x / 32) * 16;
  const unsigned col = blockIdx.x * 16;
  if (row >= m || col >= n) return;
  wmma::fragment<wmma::accumulator, 16, 16, 16, Acc> acc;
  wmma::fill_fragment(acc, Acc(0.0f));
  for (unsigned kk = 0; kk < k; kk += 16) {
    FragA fa;
    FragB fb;
    wmma::load_matrix_sync(fa, a + row * k + kk, k);
    wmma::load_matrix_sync(fb, b + col * k + kk, k);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + row * n + col, acc, n, wmma::mem_row_major);
}

extern "C" __global__ void gemm_plain16(const __half *a, const __half *b, float *d, unsigned m, unsigned n, unsigned k) {
  plain16<float>(a, b, d, m, n, k);
}

extern "C" __global__ void gemm_plain16_h(const __half *a, const __half *b, __half *d, unsigned m, unsigned n, unsigned k) {
  plain16<__half>(a, b, d, m, n, k);
}

// grid (n / 32, m / 128), block 128: warp w of a block takes the 32x32 tile row blockIdx.y * 4 + w.
extern "C" __global__ void gemm_warp32(const __half *a, const __half *b, float *d, unsigned m, unsigned n, unsigned k) {
  const unsigned row = (blockIdx.y * 4 + threadIdx.x / 32) * 32;
  const unsigned col = blockIdx.x * 32;
  if (row >= m || col >= n) return;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
  for (unsigned kk = 0; kk < k; kk += 16) {
    FragA fa[2];
    FragB fb[2];
    for (int i = 0; i < 2; i++) wmma::load_matrix_sync(fa[i], a + (row + i * 16) * k + kk, k);
    for (int j = 0; j < 2; j++) wmma::load_matrix_sync(fb[j], b + (col + j * 16) * k + kk, k);
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) wmma::store_matrix_sync(d + (row + i * 16) * n + col + j * 16, acc[i][j], n, wmma::mem_row_major);
}
