// Vector kernels: grid-stride loops (float, double, 64-bit indices), __ldg and __restrict__, float4
// copies, dot products finished with float/double atomics, counters with int and 64-bit atomics,
// and stream compaction through an atomic cursor.
// variants: sm80 sm90
#include <cuda_runtime.h>

extern "C" __global__ void vec_add_gridstride(const float* a, const float* b, float* c, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) c[i] = a[i] + b[i];
}

extern "C" __global__ void saxpy_ldg(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * __ldg(&x[i]) + y[i];
}

extern "C" __global__ void daxpy(int n, double a, const double* x, double* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// 64-bit element count and indices (size_t arithmetic throughout).
extern "C" __global__ void scale_offset_i64(float* out, const float* in, long long n, float scale, float offset) {
    long long stride = (long long)blockDim.x * gridDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = in[i] * scale + offset;
}

// Copies n/4 float4 and scales them; the tail (n % 4) by thread 0 of block 0.
extern "C" __global__ void copy_scale_f4(float* __restrict__ out, const float* __restrict__ in, int n, float s) {
    int n4 = n / 4;
    const float4* in4 = reinterpret_cast<const float4*>(in);
    float4* out4 = reinterpret_cast<float4*>(out);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        float4 v = in4[i];
        out4[i] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
    }
    if (blockIdx.x == 0 && threadIdx.x == 0)
        for (int i = n4 * 4; i < n; i++) out[i] = in[i] * s;
}

// Dot product: per-block shared tree, then one float atomicAdd per block.
extern "C" __global__ void dot_f32_atomic(const float* a, const float* b, float* result, int n) {
    __shared__ float cache[256];
    float t = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) t += a[i] * b[i];
    cache[threadIdx.x] = t;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(result, cache[0]);
}

// The same in double, one double atomicAdd per warp after shuffles.
extern "C" __global__ void dot_f64_atomic(const double* a, const double* b, double* result, int n) {
    double t = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) t += a[i] * b[i];
    for (int off = 16; off > 0; off >>= 1) t += __shfl_down_sync(0xffffffffu, t, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(result, t);
}

// counts[0] = how many x > threshold (int atomics), total = 64-bit sum of the positive values' bits.
extern "C" __global__ void count_and_sum(const int* x, int n, int threshold, int* count,
                                         unsigned long long* total) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = x[i];
    if (v > threshold) atomicAdd(count, 1);
    if (v > 0) atomicAdd(total, (unsigned long long)v * 4096ull);
}

// Keeps the elements with a negative value: out gets them in an order set by the atomics.
extern "C" __global__ void compact_negative(const float* in, float* out, int* cursor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        if (v < 0.0f) out[atomicAdd(cursor, 1)] = v;
    }
}

// Warp-aggregated compaction: one atomic per warp, lanes placed by ballot rank (order of warps varies).
extern "C" __global__ void compact_warp_aggregated(const int* in, int* out, int* cursor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    bool keep = i < n && (v & 1);
    unsigned mask = __ballot_sync(0xffffffffu, keep);
    int lane = threadIdx.x & 31;
    int leader = __ffs(mask) - 1;
    int base = 0;
    if (lane == leader) base = atomicAdd(cursor, __popc(mask));
    base = __shfl_sync(0xffffffffu, base, leader < 0 ? 0 : leader);
    if (keep) out[base + __popc(mask & ((1u << lane) - 1))] = v;
}
