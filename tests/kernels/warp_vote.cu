// Votes, ballots, match, redux and activemask.
#define FULL 0xffffffffu

__device__ unsigned lanemask_lt() { unsigned m; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m)); return m; }

// Ballot-based stream compaction inside each warp (ballot + popc + lanemask_lt), and votes.
extern "C" __global__ void warp_ballot_compact(const int *in, int *out, int *counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int base = blockIdx.x * blockDim.x + (threadIdx.x & ~31);
  int v = in[i];
  bool keep = (v % 3) == 0;
  unsigned b = __ballot_sync(FULL, keep);
  int pos = __popc(b & lanemask_lt());
  if (keep) out[base + pos] = v;
  counts[8 * i] = b;
  counts[8 * i + 1] = __all_sync(FULL, v > -1000000);
  counts[8 * i + 2] = __all_sync(FULL, keep);
  counts[8 * i + 3] = __any_sync(FULL, keep);
  counts[8 * i + 4] = __any_sync(FULL, v == 12345678);
  counts[8 * i + 5] = __uni_sync(FULL, keep);
  counts[8 * i + 6] = __uni_sync(FULL, v > -1000000);
  counts[8 * i + 7] = __popc(b);
}

// __syncwarp (bar.warp.sync) ordering shared-memory accesses between the lanes of a warp.
extern "C" __global__ void warp_syncwarp(const int *in, int *out) {
  __shared__ int s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncwarp();
  int a = s[threadIdx.x ^ 1];
  __syncwarp();
  s[threadIdx.x] = a * 2 + 1;
  __syncwarp();
  out[i] = s[threadIdx.x ^ 31];
}

// __match_any_sync grouping (32- and 64-bit keys) and __match_all_sync with its predicate.
extern "C" __global__ void warp_match(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int pred0, pred1;
  out[6 * i] = __match_any_sync(FULL, v % 5);
  out[6 * i + 1] = __match_any_sync(FULL, (long long)(v % 3) * 4294967297LL + (v & 4));
  unsigned a0 = __match_all_sync(FULL, threadIdx.x >> 5, &pred0);
  unsigned a1 = __match_all_sync(FULL, v % 2, &pred1);
  out[6 * i + 2] = a0;
  out[6 * i + 3] = pred0;
  out[6 * i + 4] = a1;
  out[6 * i + 5] = pred1;
}

// __reduce_*_sync with full and partial (half-warp) member masks.
extern "C" __global__ void warp_redux(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  unsigned u = (unsigned)v;
  unsigned half = (threadIdx.x & 16) ? 0xffff0000u : 0x0000ffffu;
  out[10 * i + 0] = __reduce_add_sync(FULL, v);
  out[10 * i + 1] = __reduce_min_sync(FULL, v);
  out[10 * i + 2] = __reduce_max_sync(FULL, v);
  out[10 * i + 3] = __reduce_min_sync(FULL, u);
  out[10 * i + 4] = __reduce_max_sync(FULL, u);
  out[10 * i + 5] = __reduce_and_sync(FULL, u | 0x10000);
  out[10 * i + 6] = __reduce_or_sync(FULL, u & 0xf0f0);
  out[10 * i + 7] = __reduce_xor_sync(FULL, u);
  out[10 * i + 8] = __reduce_add_sync(half, v);
  out[10 * i + 9] = __reduce_max_sync(half, u);
}

// __activemask() in divergent code, and a shuffle among a partial member mask.
extern "C" __global__ void warp_activemask(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  out[2 * i] = __activemask();
  if (v & 1) {
    unsigned m = __activemask();
    out[2 * i + 1] = m;
  } else {
    out[2 * i + 1] = ~__activemask();
  }
}
