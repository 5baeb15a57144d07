// mma.sync operands fed by ldmatrix from shared tiles in the layouts CUDA code uses, for the
// tensor-core path's direct loads (src/translate/mma-tensor-core.ts, `matrix_ldmatrix`): where
// the lane addresses of an ldmatrix form a strided matrix, the mma reads its operand from the
// tile as one subgroup matrix; where they do not (a swizzled tile), it does what ldmatrix does.
// One warp, one tile: D (f32, 16 x 8, row-major) = A (f16, 16 x K, row-major) * B (f16, K x 8,
// row-major), written from the mma's D fragment. Shared tiles are padded by 8 halves a row.
//   lds_k16:          A ldmatrix.x4, B ldmatrix.x2.trans from a k-major tile (row-major B)
//   lds_k16_bt:       B from an n-major tile (B transposed) by ldmatrix.x2 without .trans
//   lds_k16_permuted: A's 8x8 blocks loaded in another order (rows 0-7 | 0-7 | 8-15 | 8-15) and
//                     handed to the mma as {r0, r2, r1, r3}
//   lds_k16_swizzled: A's rows stored with their two 8-half chunks swapped on odd rows, the
//                     ldmatrix addresses following the swizzle (an xor: not a strided matrix)
//   lds_k16_reversed: A's rows stored bottom up (rows go down in memory: not a strided matrix
//                     the load can take, found only at run time)
//   lds_k8:           m16n8k8: A ldmatrix.x2, B ldmatrix.x1.trans
//   shared_words:     words through shared memory by 4-, 16- and 2-byte stores, read back by 4-
//                     and 2-byte loads, in a kernel whose other tile feeds an mma by ldmatrix
//                     (so on the tensor-core path shared memory is viewed as halves): out = in
//                     bit for bit, NaN and subnormal half patterns included.
// nvcc -ptx -arch=sm_80 -O3 ldmatrix_direct.cu -o ldmatrix_direct.ptx
#include <cuda_fp16.h>

__device__ __forceinline__ unsigned smem(const void *p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__device__ __forceinline__ void ldsm_x4(unsigned (&r)[4], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem(p)));
}
__device__ __forceinline__ void ldsm_x2(unsigned (&r)[2], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(smem(p)));
}
__device__ __forceinline__ void ldsm_x2_trans(unsigned (&r)[2], const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(smem(p)));
}
__device__ __forceinline__ void ldsm_x1_trans(unsigned &r, const void *p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(smem(p)));
}
__device__ __forceinline__ void mma16(float (&d)[4], unsigned a0, unsigned a1, unsigned a2, unsigned a3, unsigned b0, unsigned b1) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}
__device__ __forceinline__ void mma8(float (&d)[4], unsigned a0, unsigned a1, unsigned b0) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a0), "r"(a1), "r"(b0));
}

// D fragment: c0 c1 at row g, columns 2t and 2t+1; c2 c3 at row g + 8.
__device__ __forceinline__ void store_d(float *D, const float (&d)[4], unsigned lane) {
  const unsigned g = lane / 4, t = lane % 4;
  D[g * 8 + 2 * t] = d[0]; D[g * 8 + 2 * t + 1] = d[1];
  D[(g + 8) * 8 + 2 * t] = d[2]; D[(g + 8) * 8 + 2 * t + 1] = d[3];
}

// A (16 x 16) into a padded row-major tile, B (16 x 8) into a padded k-major tile.
__device__ __forceinline__ void fill_k16(half (&As)[16][24], half (&Bs)[16][16], const half *A, const half *B, unsigned lane) {
  for (unsigned i = lane; i < 256; i += 32) As[i / 16][i % 16] = A[i];
  for (unsigned i = lane; i < 128; i += 32) Bs[i / 8][i % 8] = B[i];
  __syncwarp();
}

extern "C" __global__ void lds_k16(const half *A, const half *B, float *D) {
  __shared__ __align__(16) half As[16][24];
  __shared__ __align__(16) half Bs[16][16];
  const unsigned lane = threadIdx.x;
  fill_k16(As, Bs, A, B, lane);
  unsigned a[4], b[2];
  ldsm_x4(a, &As[lane % 16][(lane / 16) * 8]);
  ldsm_x2_trans(b, &Bs[lane % 16][0]);
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  mma16(d, a[0], a[1], a[2], a[3], b[0], b[1]);
  store_d(D, d, lane);
}

extern "C" __global__ void lds_k16_bt(const half *A, const half *B, float *D) {
  __shared__ __align__(16) half As[16][24];
  __shared__ __align__(16) half Bt[8][24];
  const unsigned lane = threadIdx.x;
  for (unsigned i = lane; i < 256; i += 32) As[i / 16][i % 16] = A[i];
  for (unsigned i = lane; i < 128; i += 32) Bt[i % 8][i / 8] = B[i];
  __syncwarp();
  unsigned a[4], b[2];
  ldsm_x4(a, &As[lane % 16][(lane / 16) * 8]);
  ldsm_x2(b, &Bt[lane % 8][((lane / 8) % 2) * 8]);
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  mma16(d, a[0], a[1], a[2], a[3], b[0], b[1]);
  store_d(D, d, lane);
}

extern "C" __global__ void lds_k16_permuted(const half *A, const half *B, float *D) {
  __shared__ __align__(16) half As[16][24];
  __shared__ __align__(16) half Bs[16][16];
  const unsigned lane = threadIdx.x;
  fill_k16(As, Bs, A, B, lane);
  unsigned a[4], b[2];
  // matrix i: rows 8 * (i / 2) .. +7, columns 8 * (i % 2) .. +7
  ldsm_x4(a, &As[(lane / 16) * 8 + lane % 8][((lane / 8) % 2) * 8]);
  ldsm_x2_trans(b, &Bs[lane % 16][0]);
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  mma16(d, a[0], a[2], a[1], a[3], b[0], b[1]);
  store_d(D, d, lane);
}

extern "C" __global__ void lds_k16_swizzled(const half *A, const half *B, float *D) {
  __shared__ __align__(16) half As[16][16];
  __shared__ __align__(16) half Bs[16][16];
  const unsigned lane = threadIdx.x;
  for (unsigned i = lane; i < 256; i += 32) { const unsigned r = i / 16, c = i % 16; As[r][c ^ ((r & 1) * 8)] = A[i]; }
  for (unsigned i = lane; i < 128; i += 32) Bs[i / 8][i % 8] = B[i];
  __syncwarp();
  unsigned a[4], b[2];
  const unsigned r = lane % 16;
  ldsm_x4(a, &As[r][((lane / 16) * 8) ^ ((r & 1) * 8)]);
  ldsm_x2_trans(b, &Bs[lane % 16][0]);
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  mma16(d, a[0], a[1], a[2], a[3], b[0], b[1]);
  store_d(D, d, lane);
}

extern "C" __global__ void lds_k16_reversed(const half *A, const half *B, float *D) {
  __shared__ __align__(16) half As[16][24];
  __shared__ __align__(16) half Bs[16][16];
  const unsigned lane = threadIdx.x;
  for (unsigned i = lane; i < 256; i += 32) As[15 - i / 16][i % 16] = A[i];
  for (unsigned i = lane; i < 128; i += 32) Bs[i / 8][i % 8] = B[i];
  __syncwarp();
  unsigned a[4], b[2];
  ldsm_x4(a, &As[15 - lane % 16][(lane / 16) * 8]);
  ldsm_x2_trans(b, &Bs[lane % 16][0]);
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  mma16(d, a[0], a[1], a[2], a[3], b[0], b[1]);
  store_d(D, d, lane);
}

// A (16 x 8), B (8 x 8)
extern "C" __global__ void lds_k8(const half *A, const half *B, float *D) {
  __shared__ __align__(16) half As[16][16];
  __shared__ __align__(16) half Bs[8][16];
  const unsigned lane = threadIdx.x;
  for (unsigned i = lane; i < 128; i += 32) As[i / 8][i % 8] = A[i];
  for (unsigned i = lane; i < 64; i += 32) Bs[i / 8][i % 8] = B[i];
  __syncwarp();
  unsigned a[2], b;
  ldsm_x2(a, &As[lane % 16][0]);
  ldsm_x1_trans(b, &Bs[lane % 8][0]);
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  mma8(d, a[0], a[1], b);
  store_d(D, d, lane);
}

// in: 352 words; out: 352 words (the 320 words back, then the last 32 words' low halves stored
// alone and read back as halves); D as in lds_k16.
extern "C" __global__ void shared_words(const unsigned *in, const half *A, const half *B, unsigned *out, float *D) {
  __shared__ __align__(16) half As[16][24];
  __shared__ __align__(16) half Bs[16][16];
  __shared__ __align__(16) unsigned words[320];
  __shared__ __align__(16) unsigned short halves[64];
  const unsigned lane = threadIdx.x;
  fill_k16(As, Bs, A, B, lane);
  for (unsigned i = lane; i < 256; i += 32) words[i] = in[i];
  if (lane < 16) reinterpret_cast<uint4 *>(words + 256)[lane] = reinterpret_cast<const uint4 *>(in + 256)[lane];
  halves[2 * lane] = static_cast<unsigned short>(in[320 + lane]);
  halves[2 * lane + 1] = static_cast<unsigned short>(in[320 + lane] >> 16);
  __syncwarp();
  unsigned a[4], b[2];
  ldsm_x4(a, &As[lane % 16][(lane / 16) * 8]);
  ldsm_x2_trans(b, &Bs[lane % 16][0]);
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  mma16(d, a[0], a[1], a[2], a[3], b[0], b[1]);
  store_d(D, d, lane);
  for (unsigned i = lane; i < 320; i += 32) out[i] = words[i];
  out[320 + lane] = halves[2 * lane] | (static_cast<unsigned>(halves[2 * lane + 1]) << 16);
}
