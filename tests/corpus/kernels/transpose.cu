// Matrix transposes: naive (coalesced reads, strided writes), tiled through shared memory with
// one column of padding against bank conflicts (32x32 tiles, 32x8 threads, 4 rows each), and the
// tiled one for doubles.
// variants: sm80
#include <cuda_runtime.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

// odata (cols x rows) = idata (rows x cols)^T
extern "C" __global__ void transpose_naive(float* odata, const float* idata, int rows, int cols) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < cols && y < rows) odata[x * rows + y] = idata[y * cols + x];
}

template <typename T>
__global__ void transpose_tiled(T* __restrict__ odata, const T* __restrict__ idata, int rows, int cols) {
    __shared__ T tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = idata[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < rows && y + j < cols) odata[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

template __global__ void transpose_tiled<float>(float*, const float*, int, int);
template __global__ void transpose_tiled<double>(double*, const double*, int, int);
