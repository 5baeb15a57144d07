// Per-block sum of a float array via a shared-memory tree reduction.
// blockDim.x must be a power of two <= 256.
extern "C" __global__ void block_sum(const float *in, float *out, int n)
{
    __shared__ float s[256];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            s[tid] += s[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) {
        out[blockIdx.x] = s[0];
    }
}

// Same reduction, but with dynamically sized shared memory
// (launch with sharedBytes = blockDim.x * sizeof(float)).
extern "C" __global__ void block_sum_dyn(const float *in, float *out, int n)
{
    extern __shared__ float sdyn[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    sdyn[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            sdyn[tid] += sdyn[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) {
        out[blockIdx.x] = sdyn[0];
    }
}
