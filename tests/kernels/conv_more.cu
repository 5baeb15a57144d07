// A per-warp trip-count loop kept as one loop (no unrolling): the predicated-loop scheme.
extern "C" __global__ void conv_loop_once(const int* in, int* out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int w = t >> 5;
  int acc = 0;
#pragma unroll 1
  for (int k = 0; k <= w; k++) {
    s[t] = in[i] * (k + 1) + k;
    __syncthreads();
    acc = acc * 3 + s[(t + 32) & 127];
    __syncthreads();
  }
  out[i] = acc;
}

// Threads return from inside a loop with barriers; the others go on without them.
extern "C" __global__ void conv_loop_return(const int* in, int* out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int stop = (in[i] & 7) + 1;
  int acc = 0;
#pragma unroll 1
  for (int k = 0; k < 8; k++) {
    if (k == stop) { out[i] = acc; return; }
    s[t] = acc + in[i];
    __syncthreads();
    acc = acc * 7 + s[t ^ 1];
    __syncthreads();
  }
  out[i] = acc + 1;
}

// Both sides of a warp-divergent branch meet one barrier each (matched by arrival count).
extern "C" __global__ void conv_both_sides(const int* in, int* out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int o;
  if ((t >> 5) & 1) {
    s[t] = in[i] * 2;
    __syncthreads();
    o = s[t ^ 32] + 1;
  } else {
    s[t] = in[i] - 5;
    asm volatile("bar.sync 0;" ::: "memory");
    o = s[t ^ 32] * 3;
  }
  out[i] = o;
}

// A value loaded in the last iteration a thread runs is used after the loop, while other
// warps keep iterating and overwrite what it was loaded from.
extern "C" __global__ void conv_loop_last(const int* in, int* out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int w = t >> 5;
  int last;
  int k = 0;
#pragma unroll 1
  do {
    s[t] = in[i] + k * 100;
    __syncthreads();
    last = s[t ^ 32];
    __syncthreads();
    if (in[i] == 12345) break;  // never taken (inputs are below 100): a second loop exit
    k++;
  } while (k <= w);
  out[i] = last;
}
