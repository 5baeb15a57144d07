// Convolutions with the filter in constant memory: 1D with a shared tile and halo, 2D direct with
// clamp-to-edge, 2D from a shared tile, and a separable pair (rows then columns).
// variants: sm80
#include <cuda_runtime.h>

#define MAX_RADIUS 8
#define R2 2

__constant__ float c_filter1d[2 * MAX_RADIUS + 1];
__constant__ float c_filter2d[(2 * R2 + 1) * (2 * R2 + 1)];

// y[i] = sum_k f[k] * x[i + k - radius], zero outside; dynamic shared = (blockDim.x + 2*radius) floats.
extern "C" __global__ void conv1d_const(float* y, const float* x, int n, int radius) {
    extern __shared__ float tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int base = blockIdx.x * blockDim.x - radius;
    for (int k = threadIdx.x; k < blockDim.x + 2 * radius; k += blockDim.x) {
        int g = base + k;
        tile[k] = (g >= 0 && g < n) ? x[g] : 0.0f;
    }
    __syncthreads();
    if (i >= n) return;
    float acc = 0.0f;
    for (int k = 0; k <= 2 * radius; k++) acc += c_filter1d[k] * tile[threadIdx.x + k];
    y[i] = acc;
}

// 5x5 filter, clamp-to-edge addressing, one thread per pixel.
extern "C" __global__ void conv2d_const(float* out, const float* in, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float acc = 0.0f;
#pragma unroll
    for (int dy = -R2; dy <= R2; dy++) {
        int yy = min(max(y + dy, 0), h - 1);
#pragma unroll
        for (int dx = -R2; dx <= R2; dx++) {
            int xx = min(max(x + dx, 0), w - 1);
            acc += c_filter2d[(dy + R2) * (2 * R2 + 1) + dx + R2] * in[yy * w + xx];
        }
    }
    out[y * w + x] = acc;
}

#define CT 16

// Same 5x5 filter from a (16+4)^2 shared tile loaded cooperatively; blockDim = (16, 16).
extern "C" __global__ void conv2d_tiled(float* out, const float* in, int w, int h) {
    __shared__ float tile[CT + 2 * R2][CT + 2 * R2];
    int x0 = blockIdx.x * CT - R2, y0 = blockIdx.y * CT - R2;
    for (int k = threadIdx.y * CT + threadIdx.x; k < (CT + 2 * R2) * (CT + 2 * R2); k += CT * CT) {
        int ty = k / (CT + 2 * R2), tx = k % (CT + 2 * R2);
        int gx = min(max(x0 + tx, 0), w - 1), gy = min(max(y0 + ty, 0), h - 1);
        tile[ty][tx] = in[gy * w + gx];
    }
    __syncthreads();
    int x = blockIdx.x * CT + threadIdx.x, y = blockIdx.y * CT + threadIdx.y;
    if (x >= w || y >= h) return;
    float acc = 0.0f;
    for (int dy = 0; dy <= 2 * R2; dy++)
        for (int dx = 0; dx <= 2 * R2; dx++)
            acc += c_filter2d[dy * (2 * R2 + 1) + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
    out[y * w + x] = acc;
}

// Separable filter: rows pass then columns pass with c_filter1d (radius given), zero padding.
extern "C" __global__ void conv_rows(float* out, const float* in, int w, int h, int radius) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    const float* row = in + (size_t)y * w;
    float acc = 0.0f;
    for (int k = -radius; k <= radius; k++) {
        int xx = x + k;
        if (xx >= 0 && xx < w) acc += c_filter1d[k + radius] * row[xx];
    }
    out[(size_t)y * w + x] = acc;
}

extern "C" __global__ void conv_cols(float* out, const float* in, int w, int h, int radius) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    float acc = 0.0f;
    for (int k = -radius; k <= radius; k++) {
        int yy = y + k;
        if (yy >= 0 && yy < h) acc += c_filter1d[k + radius] * in[(size_t)yy * w + x];
    }
    out[(size_t)y * w + x] = acc;
}
