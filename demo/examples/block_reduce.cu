// One partial sum per block: out[blockIdx.x] = sum of in[] over the block's grid-stride range.
// Shared-memory tree reduction; blockDim.x must be a power of two <= 1024.
extern "C" __global__ void block_reduce(const float *in, float *out, int n) {
  __shared__ float s[1024];
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  s[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
