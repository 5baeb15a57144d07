// Softmax and cross-entropy over rows of logits, written the way GPT-2 training code in plain CUDA
// writes them: running max starts at -INFINITY, expf of the shifted logit, one normalisation pass.
// variants: sm80 sm90 fast
#include <cuda_runtime.h>
#include <math.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__device__ __forceinline__ float warp_max(float v) {
    for (int offset = 16; offset > 0; offset >>= 1)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

// One thread owns one row of C logits.
extern "C" __global__ void softmax_rows_naive(float* out, const float* inp, int N, int C) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= N) return;
    const float* x = inp + (size_t)row * C;
    float* y = out + (size_t)row * C;
    float maxval = -INFINITY;
    for (int j = 0; j < C; j++) {
        if (x[j] > maxval) maxval = x[j];
    }
    float sum = 0.0f;
    for (int j = 0; j < C; j++) {
        float e = expf(x[j] - maxval);
        y[j] = e;
        sum += e;
    }
    float norm = 1.0f / sum;
    for (int j = 0; j < C; j++) y[j] *= norm;
}

// One warp per row; blockDim.x is a multiple of 32.
extern "C" __global__ void softmax_rows_warp(float* out, const float* inp, int N, int C) {
    int lane = threadIdx.x % 32;
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (row >= N) return;
    const float* x = inp + (size_t)row * C;
    float maxval = -INFINITY;
    for (int j = lane; j < C; j += 32) maxval = fmaxf(maxval, x[j]);
    maxval = warp_max(maxval);
    float sum = 0.0f;
    for (int j = lane; j < C; j += 32) sum += expf(x[j] - maxval);
    sum = warp_sum(sum);
    float* y = out + (size_t)row * C;
    for (int j = lane; j < C; j += 32) y[j] = expf(x[j] - maxval) / sum;
}

// One block per row; per-warp partials go through dynamic shared memory (2 floats per warp).
extern "C" __global__ void softmax_rows_block(float* out, const float* inp, int N, int C) {
    extern __shared__ float shared[];
    int row = blockIdx.x;
    int tid = threadIdx.x;
    int warp = tid / 32, lane = tid % 32, nwarps = blockDim.x / 32;
    float* maxvals = shared;
    float* sumvals = shared + nwarps;
    const float* x = inp + (size_t)row * C;
    float* y = out + (size_t)row * C;

    float maxval = -INFINITY;
    for (int i = tid; i < C; i += blockDim.x) maxval = fmaxf(maxval, x[i]);
    maxval = warp_max(maxval);
    if (lane == 0) maxvals[warp] = maxval;
    __syncthreads();
    if (tid == 0) {
        float m = maxvals[0];
        for (int i = 1; i < nwarps; i++) m = fmaxf(m, maxvals[i]);
        maxvals[0] = m;
    }
    __syncthreads();
    float offset = maxvals[0];
    for (int i = tid; i < C; i += blockDim.x) y[i] = expf(x[i] - offset);

    float sumval = 0.0f;
    for (int i = tid; i < C; i += blockDim.x) sumval += y[i];
    sumval = warp_sum(sumval);
    if (lane == 0) sumvals[warp] = sumval;
    __syncthreads();
    if (tid == 0) {
        float s = sumvals[0];
        for (int i = 1; i < nwarps; i++) s += sumvals[i];
        sumvals[0] = s;
    }
    __syncthreads();
    float sum = sumvals[0];
    for (int i = tid; i < C; i += blockDim.x) y[i] = y[i] / sum;
}

// Online softmax (max and sum in one sweep), one warp per row through cooperative groups.
extern "C" __global__ void softmax_rows_online(float* out, const float* inp, int N, int C) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
    if (row >= N) return;
    const float* x = inp + (size_t)row * C;
    float maxval = -INFINITY;
    float sumval = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
        float v = x[i];
        float m = fmaxf(maxval, v);
        sumval = sumval * expf(maxval - m) + expf(v - m);
        maxval = m;
    }
    float rowmax = cg::reduce(warp, maxval, cg::greater<float>());
    sumval *= expf(maxval - rowmax);
    float rowsum = cg::reduce(warp, sumval, cg::plus<float>());
    float norm = 1.0f / rowsum;
    float* y = out + (size_t)row * C;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) y[i] = expf(x[i] - rowmax) * norm;
}

// losses[b] = -log(probs[b, targets[b]]).
extern "C" __global__ void crossentropy_forward(float* losses, const float* probs, const int* targets, int B, int V) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < B) {
        const float* p = probs + (size_t)i * V;
        losses[i] = -logf(p[targets[i]]);
    }
}
