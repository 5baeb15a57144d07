// __syncthreads_count/_and/_or (bar.red.popc/and/or), also as a uniform loop condition.
extern "C" __global__ void conv_bar_red(const int* in, int* out) {
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int x = in[i];
  int c = __syncthreads_count(x > 10);
  int a = __syncthreads_and(x > 0);
  int o = __syncthreads_or(x > 90);
  int steps = 0;
  while (__syncthreads_or(x > 0)) { x -= 7; steps++; }
  out[4 * i] = c;
  out[4 * i + 1] = a;
  out[4 * i + 2] = o;
  out[4 * i + 3] = steps;
}

// bar.red after an early return: returned threads no longer take part.
extern "C" __global__ void conv_bar_red_exit(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = in[i];
  int c = __syncthreads_count(x & 1);
  int a = __syncthreads_and(x >= 0);
  int o = __syncthreads_or(x == 42);
  out[3 * i] = c;
  out[3 * i + 1] = a;
  out[3 * i + 2] = o;
}
