// Named barriers whose arrivals happen in different convergence steps (exact arrival counting,
// lowering/converge-steps.ts). All barriers are reached by whole warps; the kernels are
// race-free under PTX semantics, so their outputs do not depend on timing.

#define BAR_SYNC(id, n) asm volatile("bar.sync %0, %1;" :: "r"(id), "n"(n) : "memory")
#define BAR_ARRIVE(id, n) asm volatile("bar.arrive %0, %1;" :: "r"(id), "n"(n) : "memory")

// Warp-specialised ping-pong pipeline (the CUTLASS pattern): warps 0-1 produce into two slots,
// warps 2-3 consume. FULL(slot) = barrier 1+slot, EMPTY(slot) = barrier 3+slot, 128 threads
// each; producers wait on EMPTY before reusing a slot, consumers on FULL before reading it.
// A closing __syncthreads() meets producers that finished early and consumers still looping.
extern "C" __global__ void conv_named_pipe(const int* in, int* out) {
  __shared__ int buf[2][64];
  __shared__ int fin[64];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int acc = 0;
  if (t < 64) {
    for (int k = 0; k < 6; k++) {
      int slot = k & 1;
      if (k >= 2) BAR_SYNC(3 + slot, 128);
      buf[slot][t] = in[i] * (k + 1) + t;
      BAR_ARRIVE(1 + slot, 128);
    }
    fin[t] = in[i] ^ 0x3c;
  } else {
    int u = t - 64;
    for (int k = 0; k < 6; k++) {
      int slot = k & 1;
      BAR_SYNC(1 + slot, 128);
      acc = acc * 3 + buf[slot][63 - u];
      BAR_ARRIVE(3 + slot, 128);
    }
  }
  __syncthreads();
  out[i] = t < 64 ? fin[63 - t] * 2 : acc + fin[t - 64];
}

// Warp 0 works with warp 3 behind barrier 3 (64 threads) for three rounds, then publishes a[]
// and arrives at barrier 1; warps 1-2 exchange once behind barrier 2 (64 threads) and then
// wait at `barrier.sync 1, 96` long before warp 0 arrives.
extern "C" __global__ void conv_named_subset(const int* in, int* out) {
  __shared__ int a[32];
  __shared__ int b[64];
  __shared__ int c[64];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int w = t >> 5;
  int lane = t & 31;
  int v = in[i];
  if (w == 0) {
    for (int k = 0; k < 3; k++) {
      c[lane] = v + k;
      BAR_SYNC(3, 64);
      v = v * 3 + c[32 + (lane ^ k)];
      BAR_SYNC(3, 64);
    }
    a[lane] = v * 7 + 3;
    BAR_ARRIVE(1, 96);
    out[i] = v;
  } else if (w == 3) {
    for (int k = 0; k < 3; k++) {
      c[32 + lane] = v - k;
      BAR_SYNC(3, 64);
      v = (v * 5) ^ c[lane ^ (k + 1)];
      BAR_SYNC(3, 64);
    }
    out[i] = v;
  } else {
    int u = t - 32;
    b[u] = v + 11;
    BAR_SYNC(2, 64);
    v += b[63 - u];
    asm volatile("barrier.sync 1, 96;" ::: "memory");
    out[i] = v * 2 + a[u & 31];
  }
}

// The pipeline with producers that lag: before filling a slot they exchange a value among
// themselves behind barrier 5 (64 threads) twice, so consumers reach `bar.sync FULL` steps
// before the producers' `bar.arrive FULL`.
extern "C" __global__ void conv_named_lag(const int* in, int* out) {
  __shared__ int buf[2][64];
  __shared__ int pex[64];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int acc = 0;
  if (t < 64) {
    for (int k = 0; k < 4; k++) {
      int slot = k & 1;
      pex[t] = in[i] + k;
      BAR_SYNC(5, 64);
      int v = pex[63 - t];
      BAR_SYNC(5, 64);
      if (k >= 2) BAR_SYNC(3 + slot, 128);
      buf[slot][t] = v * (k + 2) - t;
      BAR_ARRIVE(1 + slot, 128);
    }
    acc = in[i];
  } else {
    int u = t - 64;
    for (int k = 0; k < 4; k++) {
      int slot = k & 1;
      BAR_SYNC(1 + slot, 128);
      acc = (acc ^ buf[slot][u]) * 5 + buf[slot][63 - u];
      BAR_ARRIVE(3 + slot, 128);
    }
  }
  out[i] = acc;
}

// A block of 48 threads: warp 1 has 16 lanes but arrives as a whole warp (NVIDIA counts
// arrivals per warp), so `bar.sync 1, 64` completes with warp 0 and warp 1; the closing
// __syncthreads() is reached by warp 1 before warp 0 has read.
extern "C" __global__ void conv_named_partial(const int* in, int* out) {
  __shared__ int s[48];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = in[i];
  if (t >= 32) {
    s[t] = v * 9 - 4;
    BAR_ARRIVE(1, 64);
  } else {
    BAR_SYNC(1, 64);
    v += s[32 + (t & 15)];
    s[t] = v;
  }
  __syncthreads();
  out[i] = t >= 32 ? s[t - 32] ^ v : v;
}
