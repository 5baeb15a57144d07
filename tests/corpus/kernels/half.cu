// Half precision: an axpy on __half2 pairs with __hfma2, a ReLU-and-scale on __half with the
// comparison intrinsics, a half -> float block sum, and a float -> half conversion with rounding.
// variants: sm80 sm90
#include <cuda_runtime.h>
#include <cuda_fp16.h>

// y = a * x + y on n2 __half2 pairs.
extern "C" __global__ void haxpy_half2(int n2, __half a, const __half2* x, __half2* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n2) y[i] = __hfma2(__half2half2(a), x[i], y[i]);
}

// out = max(x, 0) * scale + bias, each step rounded to half.
extern "C" __global__ void hrelu_scale(const __half* x, __half* out, __half scale, __half bias, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half v = x[i];
        __half zero = __float2half(0.0f);
        v = __hgt(v, zero) ? v : zero;
        out[i] = __hadd(__hmul(v, scale), bias);
    }
}

// One float sum per block of the half inputs (shared tree, blockDim.x = 256).
extern "C" __global__ void half_block_sum(const __half* x, float* sums, int n) {
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? __half2float(x[i]) : 0.0f;
    __syncthreads();
    for (int st = 128; st > 0; st >>= 1) {
        if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
        __syncthreads();
    }
    if (threadIdx.x == 0) sums[blockIdx.x] = s[0];
}

// float -> half with round-to-nearest, towards zero, down and up; and half2 -> float2 back.
extern "C" __global__ void half_convert(const float* in, __half* rn, __half* rz, __half* rd, __half* ru, float2* back,
                                        int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    rn[i] = __float2half_rn(v);
    rz[i] = __float2half_rz(v);
    rd[i] = __float2half_rd(v);
    ru[i] = __float2half_ru(v);
    back[i] = __half22float2(__halves2half2(__float2half_rz(v), __float2half_ru(v)));
}
