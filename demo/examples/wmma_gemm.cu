// C = A * B with the tensor-core API (wmma): A (M x K) and B (K x N) row-major halves, C (M x N)
// row-major floats. One warp computes one 16x16 tile of C, taking 16x16x16 products along K.
// Block 128 (4 warps: a column of 4 tiles), grid (N / 16, M / 64); M, N, K multiples of 64, 16, 16.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

extern "C" __global__ void wmma_gemm(const __half *A, const __half *B, float *C, int M, int N, int K) {
  const int row = (blockIdx.y * 4 + threadIdx.x / 32) * 16;
  const int col = blockIdx.x * 16;
  if (row >= M || col >= N) return;  // a whole warp leaves: wmma needs all 32 lanes
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  // One product per iteration: unrolled, the shader grows with each copy and compiles slowly on
  // software WebGPU.
#pragma unroll 1
  for (int k = 0; k < K; k += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
    wmma::load_matrix_sync(a, A + row * K + k, K);
    wmma::load_matrix_sync(b, B + k * N + col, N);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(C + row * N + col, acc, N, wmma::mem_row_major);
}
