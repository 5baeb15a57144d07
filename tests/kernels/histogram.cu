// 256-bin byte histogram: per-block shared histogram, then merged into global bins.
// bins is accumulated into (not cleared).
extern "C" __global__ void histogram(const unsigned char *data, int n, unsigned int *bins)
{
    __shared__ unsigned int local[256];
    for (int j = threadIdx.x; j < 256; j += blockDim.x) {
        local[j] = 0;
    }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();
    for (int j = threadIdx.x; j < 256; j += blockDim.x) {
        unsigned int c = local[j];
        if (c != 0) {
            atomicAdd(&bins[j], c);
        }
    }
}
