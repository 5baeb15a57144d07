// Warp shuffles: reductions and scans with __shfl_down/up/xor_sync, segment widths 8 and 16,
// the deprecated non-.sync shfl, and shuffles in code that diverges between warps.
#define FULL 0xffffffffu

// Every lane's value after a shfl.down tree (out-of-range lanes keep their own value).
extern "C" __global__ void warp_reduce_down(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(FULL, v, off);
  out[i] = v;
}

// Inclusive scan with shfl.up; the predicate form (shfl.up ... |p) comes from the lane test.
extern "C" __global__ void warp_scan_up(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = in[i];
  for (int off = 1; off < 32; off <<= 1) {
    int u = __shfl_up_sync(FULL, v, off);
    if (lane >= off) v += u;
  }
  out[i] = v;
}

// Butterfly all-reduce (sum and max, float sum too) with shfl.bfly.
extern "C" __global__ void warp_xor_allreduce(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = in[i], m = in[i];
  float f = (float)(in[i] & 0xffff) * 0.25f;
  for (int mask = 1; mask < 32; mask <<= 1) {
    s += __shfl_xor_sync(FULL, s, mask);
    m = max(m, __shfl_xor_sync(FULL, m, mask));
    f += __shfl_xor_sync(FULL, f, mask);
  }
  out[3 * i] = s;
  out[3 * i + 1] = m;
  out[3 * i + 2] = __float_as_int(f);
}

// Segmented shuffles: widths 8 and 16, idx with out-of-segment source lanes, xor beyond the width.
extern "C" __global__ void warp_shfl_width(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int lane = threadIdx.x & 31;
  out[8 * i + 0] = __shfl_down_sync(FULL, v, 3, 8);
  out[8 * i + 1] = __shfl_up_sync(FULL, v, 5, 16);
  out[8 * i + 2] = __shfl_xor_sync(FULL, v, 9, 8);
  out[8 * i + 3] = __shfl_sync(FULL, v, lane * 7 + 3, 16);
  out[8 * i + 4] = __shfl_sync(FULL, v, v & 63, 8);
  out[8 * i + 5] = __shfl_down_sync(FULL, v, v & 31);
  out[8 * i + 6] = __shfl_up_sync(FULL, v, 1, 8) + __shfl_down_sync(FULL, v, 2, 16);
  out[8 * i + 7] = __shfl_sync(FULL, v, 31 - lane);
}

// Block reduction: each warp reduces, warp 0 reduces the warp sums inside `if (warp == 0)`.
extern "C" __global__ void warp_block_reduce(const int *in, int *out) {
  __shared__ int sums[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = in[i];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(FULL, v, off);
  if (lane == 0) sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x >> 5) ? sums[lane] : 0;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(FULL, v, off);
    if (lane == 0) out[blockIdx.x] = v;
  }
}

// A loop whose trip count differs per warp, with a shuffle inside.
extern "C" __global__ void warp_loop_trip(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int warp = threadIdx.x >> 5;
  int v = in[i];
  for (int k = 0; k <= warp; k++) v = v * 3 + __shfl_xor_sync(FULL, v, k + 1);
  out[i] = v;
}
