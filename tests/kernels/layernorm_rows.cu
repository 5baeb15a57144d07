// Row layernorm as llm.c writes its forward kernel: one block per row; each thread sums x and x*x
// over a block-stride loop, warps reduce with __shfl_xor_sync butterflies, warp leaders meet in
// shared memory, and every thread normalises: y = (x - mean) * rstd * weight + bias, with mean
// and rstd also stored per row.
__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

extern "C" __global__ void layernorm_rows(float* __restrict__ out, float* __restrict__ mean, float* __restrict__ rstd,
                                          const float* __restrict__ inp, const float* __restrict__ weight,
                                          const float* __restrict__ bias, int C) {
  __shared__ float shared_sum[32];
  __shared__ float shared_sum2[32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  const float* x = inp + (size_t)blockIdx.x * C;
  float sum = 0.0f, sum2 = 0.0f;
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    float v = __ldg(x + i);
    sum += v;
    sum2 += v * v;
  }
  sum = warp_sum(sum);
  sum2 = warp_sum(sum2);
  if (lane == 0) { shared_sum[warp] = sum; shared_sum2[warp] = sum2; }
  __syncthreads();
  sum = lane < warps ? shared_sum[lane] : 0.0f;
  sum2 = lane < warps ? shared_sum2[lane] : 0.0f;
  sum = warp_sum(sum);
  sum2 = warp_sum(sum2);
  const float m = sum / C;
  const float var = sum2 / C - m * m;
  const float s = rsqrtf(var + 1e-5f);
  if (threadIdx.x == 0) { mean[blockIdx.x] = m; rstd[blockIdx.x] = s; }
  float* y = out + (size_t)blockIdx.x * C;
  for (int i = threadIdx.x; i < C; i += blockDim.x) y[i] = s * (__ldg(x + i) - m) * weight[i] + bias[i];
}

// The same with one warp per row, as llm.c's faster layernorm does with cooperative groups: a
// block holds several rows, and warps past the last row return before the warp reductions.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void layernorm_warp_rows(float* __restrict__ out, float* __restrict__ mean, float* __restrict__ rstd,
                                               const float* __restrict__ inp, const float* __restrict__ weight,
                                               const float* __restrict__ bias, int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row >= N) return;
  const float* x = inp + (size_t)row * C;
  float sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) sum += x[i];
  sum = cg::reduce(warp, sum, cg::plus<float>());
  const float m = sum / C;
  float sum2 = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) { float d = x[i] - m; sum2 += d * d; }
  sum2 = cg::reduce(warp, sum2, cg::plus<float>());
  const float s = rsqrtf(sum2 / C + 1e-5f);
  if (warp.thread_rank() == 0) { mean[row] = m; rstd[row] = s; }
  float* y = out + (size_t)row * C;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) y[i] = s * (__ldcs(x + i) - m) * weight[i] + bias[i];
}
