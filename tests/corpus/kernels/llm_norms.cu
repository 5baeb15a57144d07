// LayerNorm and RMSNorm over rows of C channels (inputs (N, C), weight and bias (C)), in the
// shapes GPT-style training code uses: a thread per row, a warp per row, a block per row.
// variants: sm80
#include <cuda_runtime.h>
#include <math.h>

// One thread per row; also stores the row mean and 1/std for the backward pass.
extern "C" __global__ void layernorm_forward_naive(float* out, float* mean, float* rstd, const float* inp,
                                                   const float* weight, const float* bias, int N, int C) {
    const float eps = 1e-5f;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= N) return;
    const float* x = inp + idx * C;
    float m = 0.0f;
    for (int i = 0; i < C; i++) m += x[i];
    m = m / C;
    float v = 0.0f;
    for (int i = 0; i < C; i++) {
        float xshift = x[i] - m;
        v += xshift * xshift;
    }
    v = v / C;
    float s = 1.0f / sqrtf(v + eps);
    float* o = out + idx * C;
    for (int i = 0; i < C; i++) o[i] = s * (x[i] - m) * weight[i] + bias[i];
    mean[idx] = m;
    rstd[idx] = s;
}

__device__ float warp_reduce_sum(float val) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffffu, val, offset);
    return __shfl_sync(0xffffffffu, val, 0);
}

// One warp per row (the row index comes from warpSize, so the PTX reads WARP_SZ).
extern "C" __global__ void layernorm_forward_warp(float* __restrict__ out, float* __restrict__ mean,
                                                  float* __restrict__ rstd, const float* __restrict__ inp,
                                                  const float* __restrict__ weight,
                                                  const float* __restrict__ bias, int N, int C) {
    int lane = threadIdx.x % warpSize;
    int idx = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
    if (idx >= N) return;
    const float* x = inp + idx * C;
    float sum = 0.0f;
    for (int i = lane; i < C; i += warpSize) sum += x[i];
    float m = warp_reduce_sum(sum) / C;
    float sq = 0.0f;
    for (int i = lane; i < C; i += warpSize) {
        float d = x[i] - m;
        sq += d * d;
    }
    float s = rsqrtf(warp_reduce_sum(sq) / C + 1e-5f);
    if (lane == 0) {
        mean[idx] = m;
        rstd[idx] = s;
    }
    float* o = out + idx * C;
    for (int c = lane; c < C; c += warpSize) {
        float n = s * (__ldg(x + c) - m);
        o[c] = n * __ldg(weight + c) + __ldg(bias + c);
    }
}

// RMSNorm: one block per row, a shared-memory tree over blockDim.x (a power of two <= 512).
extern "C" __global__ void rmsnorm_forward(float* out, const float* inp, const float* weight, int C, float eps) {
    __shared__ float partial[512];
    const float* x = inp + (size_t)blockIdx.x * C;
    float acc = 0.0f;
    for (int i = threadIdx.x; i < C; i += blockDim.x) acc += x[i] * x[i];
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    float scale = rsqrtf(partial[0] / C + eps);
    float* y = out + (size_t)blockIdx.x * C;
    for (int i = threadIdx.x; i < C; i += blockDim.x) y[i] = x[i] * scale * weight[i];
}

// LayerNorm backward, one block per row: dinp for the row, dweight and dbias accumulated across
// rows with float atomics (their order across blocks is not deterministic).
extern "C" __global__ void layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout,
                                              const float* inp, const float* weight, const float* mean,
                                              const float* rstd, int N, int C) {
    __shared__ float red[2][32];
    int row = blockIdx.x;
    const float* dout_bt = dout + (size_t)row * C;
    const float* inp_bt = inp + (size_t)row * C;
    float* dinp_bt = dinp + (size_t)row * C;
    float mean_bt = mean[row];
    float rstd_bt = rstd[row];

    float dnorm_mean = 0.0f, dnorm_norm_mean = 0.0f;
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
        float norm_bti = (inp_bt[i] - mean_bt) * rstd_bt;
        float dnorm_i = weight[i] * dout_bt[i];
        dnorm_mean += dnorm_i;
        dnorm_norm_mean += dnorm_i * norm_bti;
    }
    for (int off = 16; off > 0; off >>= 1) {
        dnorm_mean += __shfl_xor_sync(0xffffffffu, dnorm_mean, off);
        dnorm_norm_mean += __shfl_xor_sync(0xffffffffu, dnorm_norm_mean, off);
    }
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) {
        red[0][warp] = dnorm_mean;
        red[1][warp] = dnorm_norm_mean;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        float a = 0.0f, b = 0.0f;
        for (int w = 0; w < blockDim.x / 32; w++) {
            a += red[0][w];
            b += red[1][w];
        }
        red[0][0] = a / C;
        red[1][0] = b / C;
    }
    __syncthreads();
    dnorm_mean = red[0][0];
    dnorm_norm_mean = red[1][0];
    for (int i = threadIdx.x; i < C; i += blockDim.x) {
        float norm_bti = (inp_bt[i] - mean_bt) * rstd_bt;
        float dnorm_i = weight[i] * dout_bt[i];
        atomicAdd(&dbias[i], dout_bt[i]);
        atomicAdd(&dweight[i], norm_bti * dout_bt[i]);
        float dval = dnorm_i - dnorm_mean - norm_bti * dnorm_norm_mean;
        dinp_bt[i] += dval * rstd_bt;
    }
}
