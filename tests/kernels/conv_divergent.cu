// __syncthreads() inside a branch taken by whole warps (0 and 2 of 4); the other warps exit.
extern "C" __global__ void conv_branch_sync(const int* in, int* out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (((t >> 5) & 1) == 0) {
    s[t] = in[i] * 3 + t;
    __syncthreads();
    out[i] = s[(t + 64) & 127] - s[t];
  }
}

// A loop whose trip count differs per warp (warp w runs w + 1 iterations), barriers inside.
extern "C" __global__ void conv_loop_warps(const int* in, int* out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int w = t >> 5;
  int acc = 0;
  for (int k = 0; k <= w; k++) {
    s[t] = in[i] * (k + 1) + k;
    __syncthreads();
    acc = acc * 3 + s[(t + 32) & 127];
    __syncthreads();
  }
  out[i] = acc;
}

// `continue` before the barriers: a thread skipping an iteration meets the others' barriers
// of that iteration with its next iteration's (arrival counting, not program position).
extern "C" __global__ void conv_loop_continue(const int* in, int* out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int acc = 0;
  for (int k = 0; k < 6; k++) {
    if (((t >> 5) + k) % 3 == 0) continue;
    s[t] = in[i] + k * 1000;
    __syncthreads();
    acc = acc * 5 + s[t ^ 32] - s[t];
    __syncthreads();
  }
  out[i] = acc;
}
