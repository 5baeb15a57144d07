// Matrix multiplies, row-major, C = alpha * A (MxK) * B (KxN) + beta * C: naive, shared-memory
// tiles, and a register-blocked kernel (64x64 block tile, 8-deep K slices, 4x4 outputs per thread,
// float4 loads); a double naive one and a half-input kernel with float accumulation.
// variants: sm80 sm90
#include <cuda_runtime.h>
#include <cuda_fp16.h>

extern "C" __global__ void sgemm_naive(int M, int N, int K, float alpha, const float* A, const float* B, float beta,
                                       float* C) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; k++) acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
    }
}

template <int TILE>
__global__ void sgemm_shared(int M, int N, int K, float alpha, const float* __restrict__ A,
                             const float* __restrict__ B, float beta, float* __restrict__ C) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

template __global__ void sgemm_shared<16>(int, int, int, float, const float*, const float*, float, float*);

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4

// 256 threads; M % 64 == N % 64 == K % 8 == 0. A's slice is stored transposed (As[k][m]) so the
// inner loop reads float4 rows of both tiles.
extern "C" __global__ void __launch_bounds__(256) sgemm_regblock(int M, int N, int K, float alpha, const float* A,
                                                                 const float* B, float beta, float* C) {
    __shared__ __align__(16) float As[BK][BM];
    __shared__ __align__(16) float Bs[BK][BN];
    int tid = threadIdx.x;
    int trow = tid / (BN / TN), tcol = tid % (BN / TN);
    const float* Ablk = A + (size_t)blockIdx.y * BM * K;
    const float* Bblk = B + blockIdx.x * BN;
    // A slice: 64 rows x 8 cols = 128 float4, threads 0..127 load one each.
    int a_row = tid / 2, a_col = (tid % 2) * 4;
    // B slice: 8 rows x 64 cols = 128 float4, threads 128..255 load one each.
    int b_row = (tid - 128) / 16, b_col = ((tid - 128) % 16) * 4;
    float acc[TM][TN] = {};
    for (int k0 = 0; k0 < K; k0 += BK) {
        if (tid < 128) {
            float4 a = *reinterpret_cast<const float4*>(Ablk + (size_t)a_row * K + k0 + a_col);
            As[a_col + 0][a_row] = a.x;
            As[a_col + 1][a_row] = a.y;
            As[a_col + 2][a_row] = a.z;
            As[a_col + 3][a_row] = a.w;
        } else {
            *reinterpret_cast<float4*>(&Bs[b_row][b_col]) =
                *reinterpret_cast<const float4*>(Bblk + (size_t)(k0 + b_row) * N + b_col);
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float4 a = *reinterpret_cast<const float4*>(&As[k][trow * TM]);
            float4 b = *reinterpret_cast<const float4*>(&Bs[k][tcol * TN]);
            float ar[TM] = {a.x, a.y, a.z, a.w};
            float br[TN] = {b.x, b.y, b.z, b.w};
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++) acc[i][j] += ar[i] * br[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
        size_t r = (size_t)blockIdx.y * BM + trow * TM + i;
        float* crow = C + r * N + blockIdx.x * BN + tcol * TN;
        float4 c = *reinterpret_cast<float4*>(crow);
        c.x = alpha * acc[i][0] + beta * c.x;
        c.y = alpha * acc[i][1] + beta * c.y;
        c.z = alpha * acc[i][2] + beta * c.z;
        c.w = alpha * acc[i][3] + beta * c.w;
        *reinterpret_cast<float4*>(crow) = c;
    }
}

extern "C" __global__ void dgemm_naive(int M, int N, int K, double alpha, const double* A, const double* B,
                                       double beta, double* C) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        double acc = 0.0;
        for (int k = 0; k < K; k++) acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
    }
}

// C (half) = A (half) * B (half), accumulated in float, rounded once at the end.
extern "C" __global__ void hgemm_f32acc(int M, int N, int K, const __half* A, const __half* B, __half* C) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; k++) acc += __half2float(A[row * K + k]) * __half2float(B[k * N + col]);
        C[row * N + col] = __float2half_rn(acc);
    }
}
