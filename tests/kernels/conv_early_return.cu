// Early return before __syncthreads: a partial last block (i >= n returns), then an
// inclusive scan of the block's live threads through shared memory with barriers.
extern "C" __global__ void conv_early_return(const int* in, int* out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (i >= n) return;
  s[t] = in[i];
  __syncthreads();
  for (int st = 1; st < blockDim.x; st <<= 1) {
    int v = t >= st ? s[t - st] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  out[i] = s[t];
}

// A grid-stride loop (thread-dependent trip count, no barrier inside) before a block reduction.
extern "C" __global__ void conv_stride_reduce(const int* in, int* out, int n) {
  __shared__ int s[128];
  int t = threadIdx.x;
  int acc = 0;
  for (int j = blockIdx.x * blockDim.x + t; j < n; j += blockDim.x * gridDim.x) acc += in[j] * (j % 7 + 1);
  s[t] = acc;
  __syncthreads();
  for (int st = blockDim.x / 2; st > 0; st >>= 1) {
    if (t < st) s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
