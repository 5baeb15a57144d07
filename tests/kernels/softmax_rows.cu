// Row-wise softmax and row max as llm.c-style code writes them: one block per row, block-wide
// reductions from warp shuffles (offsets counted down from warpSize, so nvcc emits WARP_SZ) and
// one shared slot per warp, -INFINITY as the identity of max (nvcc: mov.f32 %f, 0fFF800000).
#include <math.h>

__device__ float warp_max(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, offset));
  return v;
}

__device__ float warp_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

// The maximum of a block's values: every thread gets it.
__device__ float block_max(float v, float* slots) {
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  v = warp_max(v);
  if (lane == 0) slots[warp] = v;
  __syncthreads();
  v = lane < blockDim.x / warpSize ? slots[lane] : -INFINITY;
  v = warp_max(v);
  __syncthreads();
  return v;
}

__device__ float block_sum(float v, float* slots) {
  const int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  v = warp_sum(v);
  if (lane == 0) slots[warp] = v;
  __syncthreads();
  v = lane < blockDim.x / warpSize ? slots[lane] : 0.0f;
  v = warp_sum(v);
  __syncthreads();
  return v;
}

extern "C" __global__ void softmax_rows(const float* __restrict__ inp, float* __restrict__ out, int cols) {
  __shared__ float slots[32];
  const float* x = inp + (size_t)blockIdx.x * cols;
  float* y = out + (size_t)blockIdx.x * cols;
  float m = -INFINITY;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) m = fmaxf(m, x[i]);
  m = block_max(m, slots);
  float s = 0.0f;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) {
    float e = expf(x[i] - m);
    y[i] = e;
    s += e;
  }
  s = block_sum(s, slots);
  const float inv = 1.0f / s;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) y[i] *= inv;
}

extern "C" __global__ void row_max(const float* __restrict__ inp, float* __restrict__ out, int cols) {
  __shared__ float slots[32];
  const float* x = inp + (size_t)blockIdx.x * cols;
  float m = -INFINITY;
  for (int i = threadIdx.x; i < cols; i += blockDim.x) m = fmaxf(m, x[i]);
  m = block_max(m, slots);
  if (threadIdx.x == 0) out[blockIdx.x] = m;
}
