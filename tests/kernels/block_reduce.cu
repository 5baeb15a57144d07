// Block-wide reductions as CUDA code writes them (llm.c, CUB-less kernels): warp shuffles
// (shfl.down, shfl.xor, shfl.up; template-unrolled and rolled loops), then shared memory across
// warps, feeding normalisations (layernorm, rmsnorm, softmax) and block-wide votes. References:
// tests/warps/block-reduce-cases.ts (the same float additions in the same order). The block
// scan (shfl.up, warp 0 scanning the warp totals) is tests/kernels/block_scan.cu.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
#define FULL 0xffffffffu

template <int W> __device__ __forceinline__ float warpSumDown(float v) {
#pragma unroll
  for (int o = W / 2; o > 0; o >>= 1) v += __shfl_down_sync(FULL, v, o);
  return v;
}

__device__ __forceinline__ float warpSumXor(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
  return v;
}

__device__ __forceinline__ float warpMaxXor(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL, v, o));
  return v;
}

// Rolled loops (no unrolling): the shuffle offset is a loop variable.
__device__ int warpAllSumXorRolled(int v) {
#pragma unroll 1
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);
  return v;
}

__device__ int warpAllMaxXorRolled(int v) {
#pragma unroll 1
  for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_xor_sync(FULL, v, o));
  return v;
}

// Sum over the block, valid in thread 0: warp sums to shared memory, then warp 0 sums them.
template <int BLOCK> __device__ float blockSumDown(float v, float *s) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warpSumDown<32>(v);
  if (lane == 0) s[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < BLOCK / 32 ? s[lane] : 0.f;
    v = warpSumDown<BLOCK / 32>(v);
  }
  return v;
}

// Per-row sums (rows of n floats, one block of 256 per row), template-unrolled shfl.down.
extern "C" __global__ void br_sum_down(const float *x, float *out, int n) {
  __shared__ float s[32];
  const float *row = x + (size_t)blockIdx.x * n;
  float v = 0.f;
  for (int i = threadIdx.x; i < n; i += 256) v += row[i];
  v = blockSumDown<256>(v, s);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

// Every thread gets the block's sum and max (int, rolled shfl.xor loops); every warp runs the
// second level, so no thread waits at a barrier for another warp's shuffles.
extern "C" __global__ void br_allreduce_xor(const int *x, int *out) {
  __shared__ int ssum[32], smax[32];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
  int i = blockIdx.x * blockDim.x + t;
  int v = x[i];
  int s = warpAllSumXorRolled(v), m = warpAllMaxXorRolled(v);
  if (lane == 0) { ssum[warp] = s; smax[warp] = m; }
  __syncthreads();
  s = lane < nw ? ssum[lane] : 0;
  m = lane < nw ? smax[lane] : INT_MIN;
  s = warpAllSumXorRolled(s);
  m = warpAllMaxXorRolled(m);
  out[2 * i] = s;
  out[2 * i + 1] = m;
}

// llm.c-style layernorm, one block per row: block-wide sums of x and x*x (shfl.xor within each
// warp, then warp 0 over the warp sums in shared memory), then y = (x - mean) * rstd * w + b.
extern "C" __global__ void br_layernorm(float *out, float *mean_out, float *rstd_out, const float *inp,
                                        const float *weight, const float *bias, int C) {
  __shared__ float s_sum[32];
  __shared__ float s_sum2[32];
  int row = blockIdx.x;
  const float *x = inp + (size_t)row * C;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int nwarps = blockDim.x / 32;
  float sum = 0.f, sum2 = 0.f;
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    float v = x[i];
    sum += v;
    sum2 += v * v;
  }
  sum = warpSumXor(sum);
  sum2 = warpSumXor(sum2);
  if (lane == 0) { s_sum[warp] = sum; s_sum2[warp] = sum2; }
  __syncthreads();
  if (warp == 0) {
    sum = lane < nwarps ? s_sum[lane] : 0.f;
    sum2 = lane < nwarps ? s_sum2[lane] : 0.f;
    sum = warpSumXor(sum);
    sum2 = warpSumXor(sum2);
    if (lane == 0) { s_sum[0] = sum; s_sum2[0] = sum2; }
  }
  __syncthreads();
  float m = s_sum[0] / C;
  float var = s_sum2[0] / C - m * m;
  float s = rsqrtf(var + 1e-5f);
  for (int i = threadIdx.x; i < C; i += blockDim.x) out[(size_t)row * C + i] = (x[i] - m) * s * weight[i] + bias[i];
  if (threadIdx.x == 0) { mean_out[row] = m; rstd_out[row] = s; }
}

// llm.c's layernorm_forward_kernel3: one warp per row through cooperative groups, rows taken by
// a grid-stride loop (warps run different numbers of rows), two-pass variance.
extern "C" __global__ void br_layernorm_warp(float *out, float *mean_out, float *rstd_out, const float *inp,
                                             const float *weight, const float *bias, int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int warps = gridDim.x * (blockDim.x / 32);
  for (int idx = blockIdx.x * (blockDim.x / 32) + warp.meta_group_rank(); idx < N; idx += warps) {
    const float *x = inp + (size_t)idx * C;
    float sum = 0.f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) sum += x[i];
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    float m = sum / C;
    if (warp.thread_rank() == 0) mean_out[idx] = m;
    sum = 0.f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) { float d = x[i] - m; sum += d * d; }
    sum = cg::reduce(warp, sum, cg::plus<float>{});
    float s = rsqrtf(sum / C + 1e-5f);
    if (warp.thread_rank() == 0) rstd_out[idx] = s;
    float *o = out + (size_t)idx * C;
    for (int c = warp.thread_rank(); c < C; c += warp.size()) o[c] = s * (x[c] - m) * weight[c] + bias[c];
  }
}

// RMSNorm, one block per row: sum of squares with shfl.down, every warp then reduces the warp
// sums itself (the broadcast needs no second barrier), y = x * rsqrt(ss / C + eps) * w.
extern "C" __global__ void br_rmsnorm(float *out, const float *inp, const float *weight, int C) {
  __shared__ float s[32];
  const float *x = inp + (size_t)blockIdx.x * C;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  float ss = 0.f;
  for (int i = threadIdx.x; i < C; i += blockDim.x) ss += x[i] * x[i];
  ss = warpSumDown<32>(ss);
  if (lane == 0) s[warp] = ss;
  __syncthreads();
  ss = lane < nw ? s[lane] : 0.f;
  ss = warpSumDown<32>(ss);
  ss = __shfl_sync(FULL, ss, 0);
  float r = rsqrtf(ss / C + 1e-6f);
  for (int i = threadIdx.x; i < C; i += blockDim.x) out[(size_t)blockIdx.x * C + i] = x[i] * r * weight[i];
}

// Softmax over each row, one block per row: a block max (shfl.xor, shared memory, broadcast by
// thread 0 through shared memory), then a block sum of exp(x - max) the same way.
extern "C" __global__ void br_softmax(float *out, const float *inp, int C) {
  __shared__ float s[32];
  __shared__ float total;
  const float *x = inp + (size_t)blockIdx.x * C;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  float m = -INFINITY;
  for (int i = threadIdx.x; i < C; i += blockDim.x) m = fmaxf(m, x[i]);
  m = warpMaxXor(m);
  if (lane == 0) s[warp] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    float r = s[0];
    for (int w = 1; w < nw; w++) r = fmaxf(r, s[w]);
    total = r;
  }
  __syncthreads();
  m = total;
  float sum = 0.f;
  for (int i = threadIdx.x; i < C; i += blockDim.x) sum += expf(x[i] - m);
  sum = warpSumXor(sum);
  __syncthreads();
  if (lane == 0) s[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < nw ? s[lane] : 0.f;
    sum = warpSumXor(sum);
    if (lane == 0) total = sum;
  }
  __syncthreads();
  sum = total;
  for (int i = threadIdx.x; i < C; i += blockDim.x) out[(size_t)blockIdx.x * C + i] = expf(x[i] - m) / sum;
}

// A block reduction per loop iteration (columns of a row-major k x blockDim matrix, scaled per
// column), with the shared words reused every iteration.
extern "C" __global__ void br_loop(const float *x, float *out, int k) {
  __shared__ float s[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
  for (int j = 0; j < k; j++) {
    float v = x[((size_t)blockIdx.x * k + j) * blockDim.x + threadIdx.x] * (float)(j + 1);
    v = warpSumDown<32>(v);
    if (lane == 0) s[warp] = v;
    __syncthreads();
    if (warp == 0) {
      v = lane < nw ? s[lane] : 0.f;
      v = warpSumDown<32>(v);
      if (lane == 0) out[blockIdx.x * k + j] = v;
    }
    __syncthreads();
  }
}

// A block that is not a multiple of 32: the last warp's member mask and the width of its
// shuffles leave out the lanes it lacks.
extern "C" __global__ void br_odd_block(const float *x, float *out) {
  __shared__ float s[32];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  int nw = (blockDim.x + 31) >> 5;
  int width = min(32, (int)blockDim.x - warp * 32);
  unsigned mask = width == 32 ? FULL : (1u << width) - 1u;
  float v = x[blockIdx.x * blockDim.x + t];
  for (int o = 16; o > 0; o >>= 1) {
    float u = __shfl_down_sync(mask, v, o);
    if (lane + o < width) v += u;
  }
  if (lane == 0) s[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < nw ? s[lane] : 0.f;
    for (int o = 16; o > 0; o >>= 1) {
      float u = __shfl_down_sync(mask, v, o);
      if (lane + o < width) v += u;
    }
    if (lane == 0) out[blockIdx.x] = v;
  }
}

// A block reduction whose result feeds __syncthreads_count: how many elements of the block
// exceed the block's mean (bar.red.popc after warp 0's second level).
extern "C" __global__ void br_count_above(const float *x, int *out) {
  __shared__ float s[32];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
  float v = x[blockIdx.x * blockDim.x + t];
  float sum = warpSumXor(v);
  if (lane == 0) s[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < nw ? s[lane] : 0.f;
    sum = warpSumXor(sum);
    if (lane == 0) s[0] = sum;
  }
  __syncthreads();
  float mean = s[0] / blockDim.x;
  int n = __syncthreads_count(v > mean);
  if (t == 0) { out[2 * blockIdx.x] = n; out[2 * blockIdx.x + 1] = __float_as_int(mean); }
}

// __syncthreads_or as the barrier after warp 0's second level: whether any element exceeds
// the block's mean, and the mean (bar.red.or reached while warp 0 still shuffles).
extern "C" __global__ void br_any_above(const float *x, int *out, float limit) {
  __shared__ float s[32];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
  float v = x[blockIdx.x * blockDim.x + t];
  float sum = warpSumXor(v);
  if (lane == 0) s[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < nw ? s[lane] : 0.f;
    sum = warpSumXor(sum);
    if (lane == 0) s[0] = sum;
  }
  int any = __syncthreads_or(v > limit);
  float mean = s[0] / blockDim.x;
  if (t == 0) { out[2 * blockIdx.x] = any; out[2 * blockIdx.x + 1] = __float_as_int(mean); }
}

// __syncthreads_count and __syncthreads_and as the barriers after warp 0's second level (no
// bar.sync between: bar.red.popc and bar.red.and reached while warp 0 still shuffles): how many
// elements exceed `limit`, whether all exceed -limit, and the block's mean.
extern "C" __global__ void br_count_shfl(const float *x, int *out, float limit) {
  __shared__ float s[32];
  int t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
  float v = x[blockIdx.x * blockDim.x + t];
  float sum = warpSumXor(v);
  if (lane == 0) s[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < nw ? s[lane] : 0.f;
    sum = warpSumXor(sum);
    if (lane == 0) s[0] = sum;
  }
  int n = __syncthreads_count(v > limit);
  int all = __syncthreads_and(v > -limit);
  float mean = s[0] / blockDim.x;
  if (t == 0) { out[3 * blockIdx.x] = n; out[3 * blockIdx.x + 1] = all; out[3 * blockIdx.x + 2] = __float_as_int(mean); }
}
