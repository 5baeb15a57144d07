// Records how NVIDIA lays out wmma fragments (the PTX ISA leaves it unspecified), and what
// wmma.mma computes, for tests/matrix/record_wmma_layout.py (run on the GPU machine):
//
// - ld_<a|b|c>_<shape>_<type>_<row|col>(p, ldm, out): one warp loads a fragment from p with
//   load_matrix_sync and writes its raw 32-bit registers lane-major: out[0] = registers per lane
//   (W), out[1 + lane * W + i] = register i of lane. The recorder fills p with elements that encode
//   their position, so each register piece names the (row, col) it holds.
// - st_d_<shape>_<type>_<row|col>(p, ldm): one warp fills element i of its accumulator fragment
//   with lane * num_elements + i + 1 and stores it with store_matrix_sync: each stored element
//   names the (lane, element) it came from.
// - mma_<shape>_<d>_<a>_<c>[_<op>][_satfinite](a, b, c, d, lda, ldb): one warp per block
//   loads A (row-major), B (col-major) and C (row-major, ldm n), runs mma_sync (bmma_sync for b1)
//   and stores D row-major; block i works on the i-th problem of each buffer.
//
// Compile: nvcc -ptx -arch=sm_80 -O3 wmma_layout.cu -o wmma_layout.ptx
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <string.h>

using namespace nvcuda;
namespace wx = nvcuda::wmma::experimental;

typedef wx::precision::s4 s4;
typedef wx::precision::u4 u4;
typedef wx::precision::b1 b1;
typedef wmma::precision::tf32 tf32;

template <class F> __device__ void dump(const F &f, unsigned *out) {
  const int W = sizeof(f.x) / 4;
  unsigned w[W];
  memcpy(w, &f.x[0], sizeof w);
  const unsigned lane = threadIdx.x & 31;
  if (lane == 0) out[0] = W;
  for (int i = 0; i < W; i++) out[1 + lane * W + i] = w[i];
}

template <class T> __device__ T from_int(int v) { return (T)v; }
template <> __device__ __half from_int<__half>(int v) { return __int2half_rn(v); }

#define LD_AB(NAME, USE, M, N, K, T, P, L)                                              \
  extern "C" __global__ void NAME(const P *p, unsigned ldm, unsigned *out) {            \
    wmma::fragment<wmma::USE, M, N, K, T, wmma::L> f;                                   \
    wmma::load_matrix_sync(f, p, ldm);                                                   \
    dump(f, out);                                                                        \
  }

#define LD_C(NAME, M, N, K, T, L)                                                       \
  extern "C" __global__ void NAME(const T *p, unsigned ldm, unsigned *out) {            \
    wmma::fragment<wmma::accumulator, M, N, K, T> f;                                    \
    wmma::load_matrix_sync(f, p, ldm, wmma::L);                                          \
    dump(f, out);                                                                        \
  }

#define ST_D(NAME, M, N, K, T, L)                                                       \
  extern "C" __global__ void NAME(T *p, unsigned ldm) {                                 \
    wmma::fragment<wmma::accumulator, M, N, K, T> f;                                    \
    const int lane = threadIdx.x & 31;                                                   \
    for (int i = 0; i < f.num_elements; i++)                                             \
      f.x[i] = from_int<T>(lane * f.num_elements + i + 1);                              \
    wmma::store_matrix_sync(p, f, ldm, wmma::L);                                         \
  }

// Every a/b fragment in both layouts, for one element type and shape.
#define AB4(TAG, M, N, K, T, P)                                                        \
  LD_AB(ld_a_##TAG##_row, matrix_a, M, N, K, T, P, row_major)                            \
  LD_AB(ld_a_##TAG##_col, matrix_a, M, N, K, T, P, col_major)                            \
  LD_AB(ld_b_##TAG##_row, matrix_b, M, N, K, T, P, row_major)                            \
  LD_AB(ld_b_##TAG##_col, matrix_b, M, N, K, T, P, col_major)

#define CD4(TAG, M, N, K, T)                                                           \
  LD_C(ld_c_##TAG##_row, M, N, K, T, mem_row_major)                                      \
  LD_C(ld_c_##TAG##_col, M, N, K, T, mem_col_major)                                      \
  ST_D(st_d_##TAG##_row, M, N, K, T, mem_row_major)                                      \
  ST_D(st_d_##TAG##_col, M, N, K, T, mem_col_major)

AB4(m16n16k16_f16, 16, 16, 16, __half, __half)
AB4(m32n8k16_f16, 32, 8, 16, __half, __half)
AB4(m8n32k16_f16, 8, 32, 16, __half, __half)
AB4(m16n16k16_bf16, 16, 16, 16, __nv_bfloat16, __nv_bfloat16)
AB4(m32n8k16_bf16, 32, 8, 16, __nv_bfloat16, __nv_bfloat16)
AB4(m8n32k16_bf16, 8, 32, 16, __nv_bfloat16, __nv_bfloat16)
AB4(m16n16k16_s8, 16, 16, 16, signed char, signed char)
AB4(m32n8k16_s8, 32, 8, 16, signed char, signed char)
AB4(m8n32k16_s8, 8, 32, 16, signed char, signed char)
AB4(m16n16k16_u8, 16, 16, 16, unsigned char, unsigned char)
AB4(m32n8k16_u8, 32, 8, 16, unsigned char, unsigned char)
AB4(m8n32k16_u8, 8, 32, 16, unsigned char, unsigned char)
AB4(m16n16k8_tf32, 16, 16, 8, tf32, float)
AB4(m8n8k4_f64, 8, 8, 4, double, double)
// The sub-byte forms exist only as row-major A and col-major B.
LD_AB(ld_a_m8n8k32_s4_row, matrix_a, 8, 8, 32, s4, void, row_major)
LD_AB(ld_b_m8n8k32_s4_col, matrix_b, 8, 8, 32, s4, void, col_major)
LD_AB(ld_a_m8n8k32_u4_row, matrix_a, 8, 8, 32, u4, void, row_major)
LD_AB(ld_b_m8n8k32_u4_col, matrix_b, 8, 8, 32, u4, void, col_major)
LD_AB(ld_a_m8n8k128_b1_row, matrix_a, 8, 8, 128, b1, void, row_major)
LD_AB(ld_b_m8n8k128_b1_col, matrix_b, 8, 8, 128, b1, void, col_major)

CD4(m16n16k16_f16, 16, 16, 16, __half)
CD4(m32n8k16_f16, 32, 8, 16, __half)
CD4(m8n32k16_f16, 8, 32, 16, __half)
CD4(m16n16k16_f32, 16, 16, 16, float)
CD4(m32n8k16_f32, 32, 8, 16, float)
CD4(m8n32k16_f32, 8, 32, 16, float)
CD4(m16n16k16_s32, 16, 16, 16, int)
CD4(m32n8k16_s32, 32, 8, 16, int)
CD4(m8n32k16_s32, 8, 32, 16, int)
CD4(m16n16k8_f32, 16, 16, 8, float)
CD4(m8n8k4_f64, 8, 8, 4, double)
CD4(m8n8k32_s32, 8, 8, 32, int)
CD4(m8n8k128_s32, 8, 8, 128, int)

// ---------------------------------------------------------------- native D = A*B + C

#define MMA_BODY(M, N, K, TA, PA, TC, PC, TD, PD, LA, LB, CALL)                         \
  wmma::fragment<wmma::matrix_a, M, N, K, TA, wmma::LA> fa;                             \
  wmma::fragment<wmma::matrix_b, M, N, K, TA, wmma::LB> fb;                             \
  wmma::fragment<wmma::accumulator, M, N, K, TC> fc;                                    \
  wmma::fragment<wmma::accumulator, M, N, K, TD> fd;                                    \
  const unsigned e = blockIdx.x;                                                          \
  wmma::load_matrix_sync(fa, (const PA *)a + e * (M * K / elems_per(TA)), lda);          \
  wmma::load_matrix_sync(fb, (const PA *)b + e * (K * N / elems_per(TA)), ldb);          \
  wmma::load_matrix_sync(fc, c + e * (M * N), N, wmma::mem_row_major);                   \
  CALL;                                                                                  \
  wmma::store_matrix_sync(d + e * (M * N), fd, N, wmma::mem_row_major);

// elements per addressed unit of the A/B pointer (sub-byte pointers are to 32-bit words)
template <class T> struct packed { static const int n = 1; };
template <> struct packed<s4> { static const int n = 8; };
template <> struct packed<u4> { static const int n = 8; };
template <> struct packed<b1> { static const int n = 32; };
#define elems_per(T) packed<T>::n

#define MMA(NAME, M, N, K, TA, PA, TC, PC, TD, PD, LA, LB, ...)                          \
  extern "C" __global__ void NAME(const PA *a, const PA *b, const PC *c, PD *d,          \
                                  unsigned lda, unsigned ldb) {                            \
    MMA_BODY(M, N, K, TA, PA, TC, PC, TD, PD, LA, LB, wmma::mma_sync(fd, fa, fb, fc __VA_ARGS__)) \
  }

#define BMMA(NAME, OP)                                                                   \
  extern "C" __global__ void NAME(const unsigned *a, const unsigned *b, const int *c, int *d, \
                                  unsigned lda, unsigned ldb) {                            \
    MMA_BODY(8, 8, 128, b1, unsigned, int, int, int, int, row_major, col_major,           \
             wmma::bmma_sync(fd, fa, fb, fc, wx::OP, wx::bmmaAccumulateOpPOPC))            \
  }

#define F16MMA(SH, M, N, K)                                                              \
  MMA(mma_##SH##_f32_f16_f32, M, N, K, __half, __half, float, float, float, float, row_major, col_major) \
  MMA(mma_##SH##_f16_f16_f16, M, N, K, __half, __half, __half, __half, __half, __half, row_major, col_major) \
  MMA(mma_##SH##_f32_f16_f16, M, N, K, __half, __half, __half, __half, float, float, row_major, col_major) \
  MMA(mma_##SH##_f16_f16_f32, M, N, K, __half, __half, float, float, __half, __half, row_major, col_major) \
  MMA(mma_##SH##_f32_bf16_f32, M, N, K, __nv_bfloat16, __nv_bfloat16, float, float, float, float, row_major, col_major) \
  MMA(mma_##SH##_s32_s8_s32, M, N, K, signed char, signed char, int, int, int, int, row_major, col_major) \
  MMA(mma_##SH##_s32_u8_s32, M, N, K, unsigned char, unsigned char, int, int, int, int, row_major, col_major) \
  MMA(mma_##SH##_s32_s8_s32_satfinite, M, N, K, signed char, signed char, int, int, int, int, row_major, col_major, , true) \
  MMA(mma_##SH##_s32_u8_s32_satfinite, M, N, K, unsigned char, unsigned char, int, int, int, int, row_major, col_major, , true)

F16MMA(m16n16k16, 16, 16, 16)
F16MMA(m32n8k16, 32, 8, 16)
F16MMA(m8n32k16, 8, 32, 16)
MMA(mma_m16n16k8_f32_tf32_f32, 16, 16, 8, tf32, float, float, float, float, float, row_major, col_major)
MMA(mma_m8n8k4_f64_f64_f64, 8, 8, 4, double, double, double, double, double, double, row_major, col_major)
MMA(mma_m8n8k32_s32_s4_s32, 8, 8, 32, s4, unsigned, int, int, int, int, row_major, col_major)
MMA(mma_m8n8k32_s32_u4_s32, 8, 8, 32, u4, unsigned, int, int, int, int, row_major, col_major)
MMA(mma_m8n8k32_s32_s4_s32_satfinite, 8, 8, 32, s4, unsigned, int, int, int, int, row_major, col_major, , true)
BMMA(mma_m8n8k128_s32_b1_s32_xor, bmmaBitOpXOR)
BMMA(mma_m8n8k128_s32_b1_s32_and, bmmaBitOpAND)
