// wmma forms the layout kernels (wmma_layout.cu, all .row.col) leave out: A and B in every
// pairing of .row/.col, C loaded and D stored column-major, operands staged through shared
// memory, .satfinite. Each kernel is one warp: D = A * B + C on m x k A, k x n B and m x n C/D
// held densely in memory in the kernel's layouts (leading dimension = the row or column length).
//
// Compile: nvcc -ptx -arch=sm_80 -O3 wmma_forms.cu -o wmma_forms.ptx
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

using namespace nvcuda;

template <class L> struct ld_of;
template <> struct ld_of<wmma::row_major> { static __device__ unsigned of(unsigned rows, unsigned cols) { return cols; } };
template <> struct ld_of<wmma::col_major> { static __device__ unsigned of(unsigned rows, unsigned cols) { return rows; } };

template <int M, int N, int K, class T, class P, class LA, class LB, class TC, bool SHARED, bool SAT>
__device__ void forms(const P *a, const P *b, const TC *c, TC *d, wmma::layout_t lc, wmma::layout_t ld) {
  __shared__ P sa[M * K], sb[K * N];
  const P *pa = a, *pb = b;
  if (SHARED) {
    for (int i = threadIdx.x; i < M * K; i += 32) sa[i] = a[i];
    for (int i = threadIdx.x; i < K * N; i += 32) sb[i] = b[i];
    __syncwarp();
    pa = sa;
    pb = sb;
  }
  wmma::fragment<wmma::matrix_a, M, N, K, T, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, T, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, TC> fc;
  wmma::load_matrix_sync(fa, pa, ld_of<LA>::of(M, K));
  wmma::load_matrix_sync(fb, pb, ld_of<LB>::of(K, N));
  wmma::load_matrix_sync(fc, c, lc == wmma::mem_row_major ? N : M, lc);
  if constexpr (SAT) wmma::mma_sync(fc, fa, fb, fc, true);
  else wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, ld == wmma::mem_row_major ? N : M, ld);
}

#define FORM(NAME, M, N, K, T, P, LA, LB, TC, SHARED, SAT, LC, LD)                                      \
  extern "C" __global__ void NAME(const P *a, const P *b, const TC *c, TC *d) {                        \
    forms<M, N, K, T, P, wmma::LA, wmma::LB, TC, SHARED, SAT>(a, b, c, d, wmma::LC, wmma::LD);       \
  }

// name: form_<shape>_<a type>_<c/d type>_<A layout><B layout>_<C layout><D layout>[_shared][_sat]
FORM(form_m16n16k16_f16_f32_rowrow_colcol, 16, 16, 16, __half, __half, row_major, row_major, float, false, false, mem_col_major, mem_col_major)
FORM(form_m16n16k16_f16_f32_colcol_rowcol, 16, 16, 16, __half, __half, col_major, col_major, float, false, false, mem_row_major, mem_col_major)
FORM(form_m16n16k16_f16_f32_colrow_colrow_shared, 16, 16, 16, __half, __half, col_major, row_major, float, true, false, mem_col_major, mem_row_major)
FORM(form_m32n8k16_f16_f16_colrow_colcol, 32, 8, 16, __half, __half, col_major, row_major, __half, false, false, mem_col_major, mem_col_major)
FORM(form_m8n32k16_bf16_f32_colcol_rowrow_shared, 8, 32, 16, __nv_bfloat16, __nv_bfloat16, col_major, col_major, float, true, false, mem_row_major, mem_row_major)
FORM(form_m32n8k16_s8_s32_colrow_rowcol_sat, 32, 8, 16, signed char, signed char, col_major, row_major, int, false, true, mem_row_major, mem_col_major)
FORM(form_m8n32k16_u8_s32_rowrow_colrow_shared, 8, 32, 16, unsigned char, unsigned char, row_major, row_major, int, true, false, mem_col_major, mem_row_major)
FORM(form_m16n16k8_tf32_f32_colrow_colcol, 16, 16, 8, wmma::precision::tf32, float, col_major, row_major, float, false, false, mem_col_major, mem_col_major)
FORM(form_m8n8k4_f64_f64_colrow_colcol_shared, 8, 8, 4, double, double, col_major, row_major, double, true, false, mem_col_major, mem_col_major)
