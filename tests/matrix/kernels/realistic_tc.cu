// Kernels written the way CUDA programmers write tensor-core and warp-level code, for
// tests/matrix/realistic-tc.gpu.test.ts (issue 14: "real kernels of your own writing").
// nvcc -ptx -arch=sm_80 -O3 realistic_tc.cu -o realistic_tc.ptx
//
// gemm_f16_mma_pipelined: C (f32, M x N) = A (f16, M x K, row-major) * B (f16, K x N, row-major).
//   A block of 4 warps computes a 64 x 64 tile, each warp a 32 x 32 quarter (2 x 4 m16n8k16
//   tiles). Slices of BK = 32 k move global -> shared with 16-byte cp.async.cg, double-buffered:
//   the copy of slice k+1 is in flight while slice k is multiplied. Fragments come from shared
//   memory through ldmatrix (.x4 for A, .x4.trans for B, since B is k-major in memory while the
//   mma's B fragment is n-major). M % 64 == 0, N % 64 == 0, K % 32 == 0.
//
// gemm_s8_dp4a: D (s32, M x N) = A (s8, M x K, row-major) * B + C, B given by its columns (Bt:
//   N x K, row-major), with __dp4a over 4 bytes at a time. 256 threads per 32 x 32 tile, each
//   thread 2 x 2 outputs; slices of 32 k staged in shared memory as words. Sums wrap in 32 bits.
//   M % 32 == 0, N % 32 == 0, K % 32 == 0.
//
// softmax_f16: y = softmax(x) along rows of ROW = 1024 halves, one warp per row (4 rows per block
//   of 128). Each lane keeps its 32 values in registers as f32 after half2 loads; the row max and
//   the sum of exponentials are reduced with __shfl_xor_sync; exp(x - max) as exp2f of a
//   log2(e)-scaled difference; outputs as half2.
//
// flash_attn_f16: O (f32, seq x 64) = softmax(Q K^T / sqrt(64)) V for one head, Q, K, V f16
//   (seq x 64, row-major). A block of 4 warps owns 64 query rows, 16 per warp; it walks the keys
//   in blocks of 16: K and V blocks land in shared memory by cp.async, S = Q K^T and O += P V run
//   on mma.sync m16n8k16 with f32 accumulators, operands by ldmatrix (Q once, K plain since K's
//   rows are the mma's B columns, V .trans). The softmax is online: a running max and sum per
//   row, scores scaled by log2(e) / sqrt(64) so that every exponential is one exp2f, and P
//   reused from the S accumulators as the A fragment of the second mma. seq % 64 == 0.
//   (16 keys per step, not the usual 64: the portable lowering unrolls every mma.sync, and 16
//   mmas per step keep the WGSL small enough for a CPU Vulkan to compile in about a minute.)

#include <cuda_fp16.h>

__device__ __forceinline__ unsigned smem_addr(const void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void cp_async16(void *dst, const void *src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(dst)), "l"(src));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;"); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N)); }

__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&r)[4], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(smem_addr(p)));
}

// d += a * b on one m16n8k16 tile.
__device__ __forceinline__ void mma_16816(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// ------------------------------------------------------------------------------------------------

#define GM 64
#define GN 64
#define GK 32
// 8 halves of padding keep rows 16-byte aligned for cp.async and ldmatrix while spreading the
// 8 rows an ldmatrix phase reads over different banks.
#define APAD 8
#define BPAD 8

extern "C" __global__ void __launch_bounds__(128) gemm_f16_mma_pipelined(const half *A, const half *B, float *C,
                                                                         unsigned M, unsigned N, unsigned K) {
  __shared__ __align__(16) half As[2][GM][GK + APAD];
  __shared__ __align__(16) half Bs[2][GK][GN + BPAD];
  const unsigned tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const unsigned row0 = blockIdx.y * GM, col0 = blockIdx.x * GN;
  const unsigned wm = (warp / 2) * 32, wn = (warp % 2) * 32;

  // Each thread moves two 16-byte chunks of A (64 rows x 4 chunks) and two of B (32 rows x 8).
  auto load_stage = [&](int s, unsigned k0) {
#pragma unroll
    for (int i = 0; i < 2; i++) {
      const unsigned c = tid + i * 128;
      const unsigned ar = c / 4, ac = (c % 4) * 8;
      cp_async16(&As[s][ar][ac], &A[(size_t)(row0 + ar) * K + k0 + ac]);
      const unsigned br = c / 8, bc = (c % 8) * 8;
      cp_async16(&Bs[s][br][bc], &B[(size_t)(k0 + br) * N + col0 + bc]);
    }
  };

  float acc[2][4][4];
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int j = 0; j < 4; j++)
#pragma unroll
      for (int e = 0; e < 4; e++) acc[i][j][e] = 0.f;

  const unsigned tiles = K / GK;
  load_stage(0, 0);
  cp_async_commit();
  for (unsigned kt = 0; kt < tiles; kt++) {
    const int s = kt & 1;
    if (kt + 1 < tiles) load_stage(s ^ 1, (kt + 1) * GK);
    // Committed even when empty, so that wait_group 1 always means "all but the newest slice".
    cp_async_commit();
    cp_async_wait<1>();
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < GK; kk += 16) {
      // ldmatrix lane roles: lanes 0-15 point at rows 0-15 of column kk, lanes 16-31 at column kk+8,
      // which yields a0..a3 (and for B, b0 b1 of two n-tiles) in the mma's order.
      const unsigned lr = lane % 16, lc = (lane / 16) * 8;
      unsigned a[2][4];
#pragma unroll
      for (int i = 0; i < 2; i++) ldmatrix_x4(a[i], &As[s][wm + i * 16 + lr][kk + lc]);
      unsigned b[2][4];
#pragma unroll
      for (int j = 0; j < 2; j++) ldmatrix_x4_trans(b[j], &Bs[s][kk + lr][wn + j * 16 + lc]);
#pragma unroll
      for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) mma_16816(acc[i][j], a[i], b[j / 2][(j % 2) * 2], b[j / 2][(j % 2) * 2 + 1]);
    }
    // The next iteration's copy overwrites the stage just read.
    __syncthreads();
  }

  const unsigned g = lane / 4, t = lane % 4;
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int j = 0; j < 4; j++) {
      const unsigned r = row0 + wm + i * 16 + g, c = col0 + wn + j * 8 + 2 * t;
      *reinterpret_cast<float2 *>(&C[(size_t)r * N + c]) = make_float2(acc[i][j][0], acc[i][j][1]);
      *reinterpret_cast<float2 *>(&C[(size_t)(r + 8) * N + c]) = make_float2(acc[i][j][2], acc[i][j][3]);
    }
}

// ------------------------------------------------------------------------------------------------

#define DT 32
#define DK 32

extern "C" __global__ void __launch_bounds__(256) gemm_s8_dp4a(const int *A, const int *Bt, const int *C, int *D,
                                                               unsigned M, unsigned N, unsigned K) {
  // One extra word per row so that the 16 threads reading one k column hit different banks.
  __shared__ int As[DT][DK / 4 + 1];
  __shared__ int Bs[DT][DK / 4 + 1];
  const unsigned tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const unsigned row0 = blockIdx.y * DT, col0 = blockIdx.x * DT;
  const unsigned kw = K / 4;
  int acc[2][2];
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int j = 0; j < 2; j++) acc[i][j] = C[(row0 + ty + 16 * i) * N + col0 + tx + 16 * j];
  for (unsigned k0 = 0; k0 < kw; k0 += DK / 4) {
    const unsigned r = threadIdx.x / (DK / 4), w = threadIdx.x % (DK / 4);
    As[r][w] = A[(row0 + r) * kw + k0 + w];
    Bs[r][w] = Bt[(col0 + r) * kw + k0 + w];
    __syncthreads();
#pragma unroll
    for (int w4 = 0; w4 < DK / 4; w4++) {
      const int a0 = As[ty][w4], a1 = As[ty + 16][w4];
      const int b0 = Bs[tx][w4], b1 = Bs[tx + 16][w4];
      acc[0][0] = __dp4a(a0, b0, acc[0][0]);
      acc[0][1] = __dp4a(a0, b1, acc[0][1]);
      acc[1][0] = __dp4a(a1, b0, acc[1][0]);
      acc[1][1] = __dp4a(a1, b1, acc[1][1]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 2; i++)
#pragma unroll
    for (int j = 0; j < 2; j++) D[(row0 + ty + 16 * i) * N + col0 + tx + 16 * j] = acc[i][j];
}

// ------------------------------------------------------------------------------------------------

#define ROW 1024
#define PER_LANE (ROW / 64) // half2 per lane

extern "C" __global__ void __launch_bounds__(128) softmax_f16(const half *x, half *y, unsigned rows) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned row = blockIdx.x * 4 + threadIdx.x / 32;
  if (row >= rows) return;
  const half2 *in = reinterpret_cast<const half2 *>(x + (size_t)row * ROW);
  half2 *out = reinterpret_cast<half2 *>(y + (size_t)row * ROW);
  // Lane-strided half2 so a warp's loads of one step are contiguous.
  float v[2 * PER_LANE];
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < PER_LANE; i++) {
    const float2 f = __half22float2(in[lane + 32 * i]);
    v[2 * i] = f.x;
    v[2 * i + 1] = f.y;
    m = fmaxf(m, fmaxf(f.x, f.y));
  }
#pragma unroll
  for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  const float log2e = 1.4426950408889634f;
  const float ml = m * log2e;
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < 2 * PER_LANE; i++) {
    v[i] = exp2f(fmaf(v[i], log2e, -ml));
    s += v[i];
  }
#pragma unroll
  for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
  const float inv = 1.f / s;
#pragma unroll
  for (int i = 0; i < PER_LANE; i++) out[lane + 32 * i] = __floats2half2_rn(v[2 * i] * inv, v[2 * i + 1] * inv);
}

// ------------------------------------------------------------------------------------------------

#define HD 64   // head dimension
#define BQ 64   // query rows per block
#define BKV 16  // keys per step
#define HPAD 8

__device__ __forceinline__ unsigned pack_half2(float lo, float hi) {
  const half2 h = __floats2half2_rn(lo, hi);
  return *reinterpret_cast<const unsigned *>(&h);
}

extern "C" __global__ void __launch_bounds__(128) flash_attn_f16(const half *Q, const half *Kmat, const half *V, float *O,
                                                                 unsigned seq) {
  __shared__ __align__(16) half Qs[BQ][HD + HPAD];
  __shared__ __align__(16) half Ks[BKV][HD + HPAD];
  __shared__ __align__(16) half Vs[BKV][HD + HPAD];
  const unsigned tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const unsigned g = lane / 4, t = lane % 4;
  const unsigned q0 = blockIdx.x * BQ;

  // A row of 64 halves is 8 chunks of 16 bytes: rows / 16 chunks per thread.
  auto load_tile = [&](half (*dst)[HD + HPAD], const half *src, int rows) {
#pragma unroll
    for (int i = 0; i < rows / 16; i++) {
      const unsigned c = tid + i * 128, r = c / 8, col = (c % 8) * 8;
      cp_async16(&dst[r][col], &src[(size_t)r * HD + col]);
    }
  };

  load_tile(Qs, Q + (size_t)q0 * HD, BQ);
  cp_async_commit();
  cp_async_wait<0>();
  __syncthreads();

  const unsigned lr = lane % 16, lc = (lane / 16) * 8;
  unsigned qf[HD / 16][4];
#pragma unroll
  for (int kk = 0; kk < HD / 16; kk++) ldmatrix_x4(qf[kk], &Qs[warp * 16 + lr][kk * 16 + lc]);

  const float scale_log2 = 0.125f * 1.4426950408889634f; // log2(e) / sqrt(HD)
  float o[HD / 8][4];
#pragma unroll
  for (int j = 0; j < HD / 8; j++)
#pragma unroll
    for (int e = 0; e < 4; e++) o[j][e] = 0.f;
  // Rows g and g + 8 of the warp's 16: running max (in log2 units) and running sum.
  float mrow[2] = {-INFINITY, -INFINITY}, lrow[2] = {0.f, 0.f};

  for (unsigned k0 = 0; k0 < seq; k0 += BKV) {
    load_tile(Ks, Kmat + (size_t)k0 * HD, BKV);
    load_tile(Vs, V + (size_t)k0 * HD, BKV);
    cp_async_commit();
    cp_async_wait<0>();
    __syncthreads();

    float s[BKV / 8][4];
#pragma unroll
    for (int j = 0; j < BKV / 8; j++)
#pragma unroll
      for (int e = 0; e < 4; e++) s[j][e] = 0.f;
    // K's rows are keys, i.e. the mma's B columns: a plain ldmatrix gives b0 b1. Lanes 0-7 and
    // 8-15 point at keys 0-7 (d and d+8), lanes 16-31 at keys 8-15: b0 b1 of two key tiles.
    const unsigned kr = (lane / 16) * 8 + lane % 8, kc = ((lane / 8) % 2) * 8;
#pragma unroll
    for (int kk = 0; kk < HD / 16; kk++)
#pragma unroll
      for (int j = 0; j < BKV / 16; j++) {
        unsigned b[4];
        ldmatrix_x4(b, &Ks[j * 16 + kr][kk * 16 + kc]);
        mma_16816(s[2 * j], qf[kk], b[0], b[1]);
        mma_16816(s[2 * j + 1], qf[kk], b[2], b[3]);
      }

    // Online softmax: a thread holds two rows' scores; the other three threads of its quad hold
    // the rest of those rows.
#pragma unroll
    for (int h = 0; h < 2; h++) {
      float mx = -INFINITY;
#pragma unroll
      for (int j = 0; j < BKV / 8; j++) mx = fmaxf(mx, fmaxf(s[j][2 * h], s[j][2 * h + 1]));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
      mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
      const float mnew = fmaxf(mrow[h], mx * scale_log2);
      const float alpha = exp2f(mrow[h] - mnew);
      float sum = 0.f;
#pragma unroll
      for (int j = 0; j < BKV / 8; j++) {
        s[j][2 * h] = exp2f(fmaf(s[j][2 * h], scale_log2, -mnew));
        s[j][2 * h + 1] = exp2f(fmaf(s[j][2 * h + 1], scale_log2, -mnew));
        sum += s[j][2 * h] + s[j][2 * h + 1];
      }
      sum += __shfl_xor_sync(0xffffffffu, sum, 1);
      sum += __shfl_xor_sync(0xffffffffu, sum, 2);
      lrow[h] = lrow[h] * alpha + sum;
      mrow[h] = mnew;
#pragma unroll
      for (int j = 0; j < HD / 8; j++) {
        o[j][2 * h] *= alpha;
        o[j][2 * h + 1] *= alpha;
      }
    }

    // The S accumulator of key tiles 2kk and 2kk+1 is exactly the A fragment of keys 16kk..16kk+15.
#pragma unroll
    for (int kk = 0; kk < BKV / 16; kk++) {
      const unsigned p[4] = {pack_half2(s[2 * kk][0], s[2 * kk][1]), pack_half2(s[2 * kk][2], s[2 * kk][3]),
                             pack_half2(s[2 * kk + 1][0], s[2 * kk + 1][1]), pack_half2(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
      for (int j = 0; j < HD / 16; j++) {
        unsigned b[4];
        ldmatrix_x4_trans(b, &Vs[kk * 16 + lr][j * 16 + lc]);
        mma_16816(o[2 * j], p, b[0], b[1]);
        mma_16816(o[2 * j + 1], p, b[2], b[3]);
      }
    }
    // The next step's copies overwrite Ks and Vs.
    __syncthreads();
  }

  const float inv[2] = {1.f / lrow[0], 1.f / lrow[1]};
  const unsigned r = q0 + warp * 16 + g;
#pragma unroll
  for (int j = 0; j < HD / 8; j++) {
    const unsigned c = j * 8 + 2 * t;
    *reinterpret_cast<float2 *>(&O[(size_t)r * HD + c]) = make_float2(o[j][0] * inv[0], o[j][1] * inv[0]);
    *reinterpret_cast<float2 *>(&O[(size_t)(r + 8) * HD + c]) = make_float2(o[j][2] * inv[1], o[j][3] * inv[1]);
  }
}
