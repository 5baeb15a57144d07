// Histograms: byte values counted straight into global bins, the same with per-block bins in shared
// memory merged at the end, weighted bins with float atomics, and 64-bit per-bin sums.
// variants: sm80
#include <cuda_runtime.h>

extern "C" __global__ void histogram_global(const unsigned char* data, unsigned* bins, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[data[i]], 1u);
}

// data holds 4 bytes per word; one shared histogram per block, merged with one atomic per bin.
extern "C" __global__ void histogram_shared(const unsigned* __restrict__ data, unsigned* bins, int nwords) {
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += blockDim.x * gridDim.x) {
        unsigned w = __ldg(&data[i]);
        atomicAdd(&local[w & 0xff], 1u);
        atomicAdd(&local[(w >> 8) & 0xff], 1u);
        atomicAdd(&local[(w >> 16) & 0xff], 1u);
        atomicAdd(&local[w >> 24], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        unsigned c = local[b];
        if (c) atomicAdd(&bins[b], c);
    }
}

// bins[k] += weight of every sample whose value falls in [lo + k*width, lo + (k+1)*width).
extern "C" __global__ void histogram_weighted(const float* values, const float* weights, float* bins, int n,
                                              int nbins, float lo, float width) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = (int)floorf((values[i] - lo) / width);
    k = min(max(k, 0), nbins - 1);
    atomicAdd(&bins[k], weights[i]);
}

// Per-bin 64-bit sums of 32-bit values (bin = low 6 bits of the key), and a 64-bit count of all
// samples; unsigned long long atomics.
extern "C" __global__ void histogram_sum_u64(const unsigned* keys, const unsigned* values,
                                             unsigned long long* sums, unsigned long long* total, int n) {
    __shared__ unsigned long long local[64];
    if (threadIdx.x < 64) local[threadIdx.x] = 0ull;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&local[keys[i] & 63], (unsigned long long)values[i] << 8);
        atomicAdd(total, 1ull);
    }
    __syncthreads();
    if (threadIdx.x < 64) atomicAdd(&sums[threadIdx.x], local[threadIdx.x]);
}
