// Realistic kernels for the native-vs-ours benchmark (bench/realistic/run.sh), written as CUDA
// code usually writes them. Kernels the test suite already has (transpose, tiled SGEMM,
// histogram, softmax, layernorm, block scan) are taken from tests/kernels; n-body and the stencil from
// bench/float-exactness.
#include <stdint.h>

extern "C" __global__ void add_f32(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void copy_f32x4(const float4* __restrict__ in, float4* __restrict__ out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) out[i] = in[i];
}

extern "C" __global__ void saxpy_grid_stride(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = fmaf(a, x[i], y[i]);
}

// Grid-stride sum, shuffle-down within warps, one shared partial per warp, one atomicAdd per block.
extern "C" __global__ void reduce_sum(const float* __restrict__ x, float* total, int n) {
  __shared__ float partial[32];
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s += x[i];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
  if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
    if (threadIdx.x == 0) atomicAdd(total, s);
  }
}

extern "C" __global__ void sgemm_naive(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

extern "C" __global__ void daxpy(int n, double a, const double* __restrict__ x, double* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__device__ uint64_t splitmix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

extern "C" __global__ void hash64(const uint64_t* __restrict__ in, uint64_t* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = splitmix64(in[i]);
}

// 2D convolution with a 5x5 filter in constant memory, zero outside the image.
__constant__ float filter5[25];
extern "C" __global__ void conv2d_5x5(const float* __restrict__ img, float* __restrict__ out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      const int xx = x + dx, yy = y + dy;
      const float p = (xx >= 0 && xx < w && yy >= 0 && yy < h) ? img[yy * w + xx] : 0.0f;
      acc += p * filter5[(dy + 2) * 5 + dx + 2];
    }
  out[y * w + x] = acc;
}

// Monte Carlo estimate of pi: each thread draws `samples` points from its own xorshift128
// generator, counts hits inside the unit circle, and the block's total goes to one atomicAdd.
extern "C" __global__ void monte_carlo_pi(unsigned long long* hits, int samples, unsigned seed) {
  __shared__ unsigned block_hits;
  if (threadIdx.x == 0) block_hits = 0;
  __syncthreads();
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s0 = seed ^ (id * 0x9e3779b9u), s1 = id * 0x85ebca6bu + 1u, s2 = 0xc2b2ae35u ^ id, s3 = 0x27d4eb2fu + id;
  unsigned count = 0;
  for (int k = 0; k < samples; ++k) {
    unsigned t = s0 ^ (s0 << 11); s0 = s1; s1 = s2; s2 = s3; s3 = s3 ^ (s3 >> 19) ^ t ^ (t >> 8);
    unsigned u = s3;
    t = s0 ^ (s0 << 11); s0 = s1; s1 = s2; s2 = s3; s3 = s3 ^ (s3 >> 19) ^ t ^ (t >> 8);
    float x = (u >> 8) * (1.0f / 16777216.0f), y = (s3 >> 8) * (1.0f / 16777216.0f);
    count += x * x + y * y <= 1.0f;
  }
  atomicAdd(&block_hits, count);
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(hits, (unsigned long long)block_hits);
}
