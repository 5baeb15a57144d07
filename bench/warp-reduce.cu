// Warp-reduction kernels for bench/warp-reduce.mjs: each warp sums 32 u32 values, lane 0
// writes the warp's sum. The shfl.down tree is what CUDA code usually has; __reduce_add_sync
// is redux.sync. Regenerate: nvcc -ptx -arch=sm_80 -O3 bench/warp-reduce.cu -o bench/warp-reduce.ptx
extern "C" __global__ void warp_reduce_shfl(const unsigned *in, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0) out[i >> 5] = v;
}

extern "C" __global__ void warp_reduce_redux(const unsigned *in, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = __reduce_add_sync(0xffffffffu, in[i]);
  if ((threadIdx.x & 31) == 0) out[i >> 5] = v;
}
