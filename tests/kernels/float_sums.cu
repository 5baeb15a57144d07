// Float sums through atomicAdd, the way reductions and accumulations are written in CUDA: a
// grid-stride block sum (a tree in shared memory, blocks of at most 256 threads, one atomicAdd per
// block), a weighted histogram (every thread adds to the bin of its key, many adds per block and
// bin), a one-thread-per-block count, a sum into a __device__ variable, and a running sum that
// reads the total back (atomicAdd's old value), which no compiler may delay.
// nvcc -ptx -arch=sm_80 -O3 float_sums.cu -o float_sums.ptx

__device__ float device_total;

extern "C" __global__ void block_sum(const float* __restrict__ x, float* total, int n) {
  __shared__ float partial[256];
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s += x[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(total, partial[0]);
}

extern "C" __global__ void weighted_histogram(const int* __restrict__ keys, const float* __restrict__ weights, float* bins, int nbins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[keys[i] % nbins], weights[i]);
}

// The step comes first: the count's slot (0) is not its parameter index (1).
extern "C" __global__ void count_blocks(float step, float* count) {
  if (threadIdx.x == 0) atomicAdd(count, step);
}

extern "C" __global__ void sum_to_device_total(const float* __restrict__ x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] != 0.0f) atomicAdd(&device_total, x[i]);
}

extern "C" __global__ void running_sum(const float* __restrict__ x, float* total, float* seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) seen[i] = atomicAdd(total, x[i]);
}
