// Stencils on regular grids: a 2D 5-point Jacobi step (plain and with a shared tile plus halo),
// a 3D 7-point step on a 3D grid of blocks, and the same 3D step marching along z with the
// z-neighbours in registers and an xy tile in shared memory.
// variants: sm80
#include <cuda_runtime.h>

// out = in + alpha * laplacian(in) in the interior; boundary cells are copied.
extern "C" __global__ void stencil2d_5pt(float* out, const float* in, int nx, int ny, float alpha) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny) return;
    int i = y * nx + x;
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
        out[i] = in[i];
        return;
    }
    float c = in[i];
    out[i] = c + alpha * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] - 4.0f * c);
}

#define TX 16
#define TY 16

// The same step with a (TX+2) x (TY+2) shared tile; blockDim = (16, 16).
extern "C" __global__ void stencil2d_5pt_shared(float* out, const float* in, int nx, int ny, float alpha) {
    __shared__ float tile[TY + 2][TX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TX + tx;
    int y = blockIdx.y * TY + ty;
    bool inside = x < nx && y < ny;
    tile[ty + 1][tx + 1] = inside ? in[y * nx + x] : 0.0f;
    if (tx == 0) tile[ty + 1][0] = (x > 0 && y < ny) ? in[y * nx + x - 1] : 0.0f;
    if (tx == TX - 1) tile[ty + 1][TX + 1] = (x + 1 < nx && y < ny) ? in[y * nx + x + 1] : 0.0f;
    if (ty == 0) tile[0][tx + 1] = (y > 0 && x < nx) ? in[(y - 1) * nx + x] : 0.0f;
    if (ty == TY - 1) tile[TY + 1][tx + 1] = (y + 1 < ny && x < nx) ? in[(y + 1) * nx + x] : 0.0f;
    __syncthreads();
    if (!inside) return;
    float c = tile[ty + 1][tx + 1];
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
        out[y * nx + x] = c;
        return;
    }
    float lap = tile[ty + 1][tx] + tile[ty + 1][tx + 2] + tile[ty][tx + 1] + tile[ty + 2][tx + 1] - 4.0f * c;
    out[y * nx + x] = c + alpha * lap;
}

// out = c0 * in + c1 * (sum of the 6 face neighbours) in the interior, 0 on the boundary.
extern "C" __global__ void stencil3d_7pt(float* out, const float* in, int nx, int ny, int nz, float c0, float c1) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    size_t plane = (size_t)nx * ny;
    size_t i = z * plane + (size_t)y * nx + x;
    if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
        out[i] = 0.0f;
        return;
    }
    out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - plane] + in[i + plane]);
}

// z-marching version: blockDim = (32, 8); each thread walks its (x, y) column through z.
extern "C" __global__ void stencil3d_7pt_zmarch(float* out, const float* __restrict__ in, int nx, int ny, int nz,
                                                float c0, float c1) {
    __shared__ float tile[8 + 2][32 + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 32 + tx, y = blockIdx.y * 8 + ty;
    bool inside = x < nx && y < ny;
    bool interior = x > 0 && y > 0 && x < nx - 1 && y < ny - 1;
    size_t plane = (size_t)nx * ny;
    size_t col = (size_t)y * nx + x;
    float below = 0.0f, cur = inside ? in[col] : 0.0f, above = (inside && nz > 1) ? in[plane + col] : 0.0f;
    if (inside) out[col] = 0.0f;
    for (int z = 1; z < nz - 1; z++) {
        below = cur;
        cur = above;
        above = inside ? in[(z + 1) * plane + col] : 0.0f;
        __syncthreads();
        tile[ty + 1][tx + 1] = cur;
        if (tx == 0) tile[ty + 1][0] = (x > 0 && y < ny) ? in[z * plane + col - 1] : 0.0f;
        if (tx == 31) tile[ty + 1][33] = (x + 1 < nx && y < ny) ? in[z * plane + col + 1] : 0.0f;
        if (ty == 0) tile[0][tx + 1] = (y > 0 && x < nx) ? in[z * plane + col - nx] : 0.0f;
        if (ty == 7) tile[9][tx + 1] = (y + 1 < ny && x < nx) ? in[z * plane + col + nx] : 0.0f;
        __syncthreads();
        if (inside) {
            float v = 0.0f;
            if (interior)
                v = c0 * cur + c1 * (tile[ty + 1][tx] + tile[ty + 1][tx + 2] + tile[ty][tx + 1] + tile[ty + 2][tx + 1] +
                                     below + above);
            out[z * plane + col] = v;
        }
    }
    if (inside && nz > 1) out[(nz - 1) * plane + col] = 0.0f;
}
