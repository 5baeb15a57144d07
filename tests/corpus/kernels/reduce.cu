// Reductions the way CUB-like libraries build them: a grid-stride thread-local sum, then a warp
// step (shfl_down or shfl_xor) and a block step through shared memory, one partial per block or an
// atomic into one global result.
// variants: sm80 sm90
#include <cuda_runtime.h>
#include <climits>

template <typename T>
__device__ __forceinline__ T warp_reduce_down(T v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

template <typename T, int BLOCK>
__device__ __forceinline__ T block_reduce(T v) {
    static_assert(BLOCK % 32 == 0, "whole warps");
    __shared__ T warp_partials[BLOCK / 32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_reduce_down(v);
    if (lane == 0) warp_partials[warp] = v;
    __syncthreads();
    v = threadIdx.x < BLOCK / 32 ? warp_partials[lane] : T(0);
    if (warp == 0) v = warp_reduce_down(v);
    return v;
}

// partials[blockIdx.x] = sum of the block's grid-stride share of in[0..n).
template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce_sum_partials(const T* __restrict__ in, T* __restrict__ partials, int n) {
    T sum = T(0);
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += BLOCK * gridDim.x) sum += in[i];
    sum = block_reduce<T, BLOCK>(sum);
    if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

template __global__ void reduce_sum_partials<int, 256>(const int*, int*, int);
template __global__ void reduce_sum_partials<float, 256>(const float*, float*, int);
template __global__ void reduce_sum_partials<double, 128>(const double*, double*, int);

// Classic shared-memory tree finished by the last warp alone (volatile shared memory, no shuffles);
// two loads per thread on the way in.
template <unsigned BLOCK>
__global__ void reduce_tree_unrolled(const float* in, float* out, unsigned n) {
    __shared__ float sdata[BLOCK];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (BLOCK * 2) + tid;
    float s = 0.0f;
    if (i < n) s = in[i];
    if (i + BLOCK < n) s += in[i + BLOCK];
    sdata[tid] = s;
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 32; stride >>= 1) {
        if (tid < stride) sdata[tid] = s = s + sdata[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        // Read, then write, with the warp synchronised between: lanes run independently since Volta.
        volatile float* vs = sdata;
        for (unsigned stride = 32; stride > 0; stride >>= 1) {
            s += vs[tid + stride];
            __syncwarp();
            vs[tid] = s;
            __syncwarp();
        }
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

template __global__ void reduce_tree_unrolled<256>(const float*, float*, unsigned);

// Integer sum, min and max of the whole array into three global words with atomics; the warp step
// is a shfl_xor butterfly, so every lane holds the warp's result.
extern "C" __global__ void reduce_int_stats_atomic(const int* in, int n, int* sum, int* minv, int* maxv) {
    int s = 0, lo = INT_MAX, hi = INT_MIN;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int v = in[i];
        s += v;
        lo = min(lo, v);
        hi = max(hi, v);
    }
    for (int mask = 16; mask > 0; mask >>= 1) {
        s += __shfl_xor_sync(0xffffffffu, s, mask);
        lo = min(lo, __shfl_xor_sync(0xffffffffu, lo, mask));
        hi = max(hi, __shfl_xor_sync(0xffffffffu, hi, mask));
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(sum, s);
        atomicMin(minv, lo);
        atomicMax(maxv, hi);
    }
}

// Float sum of the whole array: per-block reduce, then one atomicAdd per block (order varies).
extern "C" __global__ void reduce_sum_atomic_f32(const float* in, int n, float* result) {
    float s = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s += in[i];
    s = block_reduce<float, 256>(s);
    if (threadIdx.x == 0) atomicAdd(result, s);
}

// Index of the largest value (ties: smallest index), one partial (value, index) per block.
extern "C" __global__ void argmax_partials(const float* in, int n, float* best_val, int* best_idx) {
    __shared__ float sv[32];
    __shared__ int si[32];
    float v = -3.0e38f;
    int idx = n;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float x = in[i];
        if (x > v) { v = x; idx = i; }
    }
    for (int off = 16; off > 0; off >>= 1) {
        float ov = __shfl_down_sync(0xffffffffu, v, off);
        int oi = __shfl_down_sync(0xffffffffu, idx, off);
        if (ov > v || (ov == v && oi < idx)) { v = ov; idx = oi; }
    }
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) { sv[warp] = v; si[warp] = idx; }
    __syncthreads();
    if (warp == 0) {
        int nw = blockDim.x >> 5;
        v = lane < nw ? sv[lane] : -3.0e38f;
        idx = lane < nw ? si[lane] : n;
        for (int off = 16; off > 0; off >>= 1) {
            float ov = __shfl_down_sync(0xffffffffu, v, off);
            int oi = __shfl_down_sync(0xffffffffu, idx, off);
            if (ov > v || (ov == v && oi < idx)) { v = ov; idx = oi; }
        }
        if (lane == 0) { best_val[blockIdx.x] = v; best_idx[blockIdx.x] = idx; }
    }
}

// The second pass: one block folds the per-block partials into out[0].
extern "C" __global__ void reduce_finalize_f32(const float* partials, int count, float* out) {
    __shared__ float s[1024];
    float acc = 0.0f;
    for (int i = threadIdx.x; i < count; i += blockDim.x) acc += partials[i];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[0] = s[0];
}
