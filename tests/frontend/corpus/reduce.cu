#include <cstdint>
__device__ int counter;
__device__ float table[4] = {1.0f, 2.0f, 0.5f, -3.25f};
__constant__ float coeffs[4] = {1.0f, 0.25f, 3.0f, 4.5f};
__device__ int *ptr_to_counter = &counter;
__device__ __noinline__ float helper(float v, int k) { return v * coeffs[k & 3] + sinf(v); }
__device__ __noinline__ void nothing() { atomicAdd(&counter, 1); }
__global__ void reduce(const float* in, float* out, int n) {
  __shared__ float smem[256];
  extern __shared__ float dyn[];
  int t = threadIdx.x;
  float s = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) s += in[i];
  smem[t] = s; dyn[t] = helper(s, t);
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) { if (t < k) smem[t] += smem[t + k]; __syncthreads(); }
  float v = smem[t];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  unsigned b = __ballot_sync(0xffffffff, v > 0.f);
  if (t == 0) { atomicAdd(out, v + table[b & 3]); atomicMax((int*)out + 1, (int)b); nothing(); }
  double d = (double)v / 3.0; out[2] = (float)sqrt(d) + __popc(b) + __clz(b) + __brev(b);
  out[3] = __fdividef(v, 3.f) + __expf(v) + __logf(v) + rsqrtf(v) + tanhf(v) + (float)(long long)d;
  out[4] = (float)(unsigned)__umulhi(b, 77u) + __ffs(b) + (float)__byte_perm(b, 3, 0x1234) + (float)__funnelshift_l(b, 7, 3);
}
