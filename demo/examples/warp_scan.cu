// Inclusive prefix sum within each warp of 32 lanes with __shfl_up_sync, and each warp's
// total with __shfl_down_sync: out[i] = in[warp start] + ... + in[i], totals[warp] = its sum.
extern "C" __global__ void warp_scan(const int *in, int *out, int *totals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = i < n ? in[i] : 0;
  int total = v;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    int up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
#pragma unroll
  for (int d = 16; d > 0; d >>= 1) total += __shfl_down_sync(0xffffffffu, total, d);
  if (i < n) out[i] = v;
  if (lane == 0) totals[i / 32] = total;
}
