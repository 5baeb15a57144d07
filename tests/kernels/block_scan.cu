// Inclusive scan within each block, CUB-style: warp scans with __shfl_up_sync, the warp totals
// scanned by warp 0 in shared memory, then added back. Launch with blockDim.x a multiple of 32.
extern "C" __global__ void block_scan(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float warp_totals[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float v = i < n ? in[i] : 0.0f;
  for (int d = 1; d < 32; d <<= 1) {
    float up = __shfl_up_sync(0xffffffff, v, d);
    if (lane >= d) v += up;
  }
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float t = lane < blockDim.x / 32 ? warp_totals[lane] : 0.0f;
    for (int d = 1; d < 32; d <<= 1) {
      float up = __shfl_up_sync(0xffffffff, t, d);
      if (lane >= d) t += up;
    }
    warp_totals[lane] = t;
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  if (i < n) out[i] = v;
}

