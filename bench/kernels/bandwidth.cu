// Bandwidth-bound kernels for the native-vs-ours benchmark (bench/README.md).
#include <cstdint>

extern "C" __global__ void copy_f32x4(const float4* __restrict__ in, float4* __restrict__ out, unsigned n4) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) out[i] = in[i];
}

extern "C" __global__ void copy_u32(const unsigned* __restrict__ in, unsigned* __restrict__ out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

extern "C" __global__ void saxpy(unsigned n, float a, const float* __restrict__ x, float* __restrict__ y) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}
