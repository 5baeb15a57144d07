// The "last block" reduction (CUDA programming guide, __threadfence()): each block sums its
// slice in shared memory with atomicAdd, thread 0 publishes the partial sum, fences, and takes
// a ticket with atomicInc (which wraps back to 0 for the next launch); the block that draws
// the last ticket adds up all partial sums (read through volatile) into *total.
extern "C" __global__ void atom_last_block(const unsigned *in, unsigned *partial, unsigned *count, unsigned *total, int n) {
  __shared__ unsigned blockSum;
  __shared__ bool isLast;
  if (threadIdx.x == 0) blockSum = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&blockSum, in[i]);
  __syncthreads();
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = blockSum;
    __threadfence();
    unsigned ticket = atomicInc(count, gridDim.x - 1);
    isLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (isLast) {
    unsigned sum = 0;
    for (unsigned k = threadIdx.x; k < gridDim.x; k += blockDim.x) sum += ((volatile unsigned *)partial)[k];
    atomicAdd(total, sum);
  }
}
