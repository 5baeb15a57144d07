// arch: sm_90
// ldmatrix (sm_75), stmatrix (sm_90) and movmatrix (sm_75), .m8n8 .b16, through inline asm. Each
// warp owns 32 rows of 8 halves (16 bytes) of shared memory; lane L's row pointer is row
// p(L) = (7L + 3) % 32 of its warp's rows, so the rows of a matrix are scattered and each thread
// needs the addresses other lanes hold.
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ int rowOf(int lane) { return (7 * lane + 3) & 31; }

// Fills the warp's rows from `in` (row L of the warp from lane L; __syncthreads, not
// __syncwarp, so the kernels can take the subgroups warp path), returns lane L's row pointer.
__device__ unsigned short *fill(unsigned short (*rows)[8], const unsigned *in) {
  const int lane = threadIdx.x & 31;
  const int gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const uint4 v = reinterpret_cast<const uint4 *>(in)[gw * 32 + lane];
  *reinterpret_cast<uint4 *>(rows[lane]) = v;
  __syncthreads();
  return rows[rowOf(lane)];
}

#define LD_KERNEL(NAME, N, TRANS, ...)                                                          \
  extern "C" __global__ void NAME(const unsigned *in, unsigned *out) {                          \
    __shared__ __align__(16) unsigned short sh[4][32][8];                                       \
    unsigned short *row = fill(sh[threadIdx.x >> 5], in);                                       \
    unsigned r[4] = {0, 0, 0, 0};                                                               \
    __VA_ARGS__                                                                                 \
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                                   \
    for (int k = 0; k < 4; k++) out[i * 4 + k] = r[k];                                          \
  }

LD_KERNEL(ldmatrix_x1, 1, "",
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(smem(row)));)
LD_KERNEL(ldmatrix_x2, 2, "",
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(smem(row)));)
LD_KERNEL(ldmatrix_x4, 4, "",
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem(row)));)
LD_KERNEL(ldmatrix_x1_trans, 1, ".trans",
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(smem(row)));)
LD_KERNEL(ldmatrix_x2_trans, 2, ".trans",
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(smem(row)));)
LD_KERNEL(ldmatrix_x4_trans, 4, ".trans",
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem(row)));)
// generic addressing: a 64-bit pointer into shared memory
LD_KERNEL(ldmatrix_x4_generic, 4, "",
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.b16 {%0, %1, %2, %3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "l"(row));)

// stmatrix: lane L's registers from in[L * 4 + k]; the warp's rows (zeroed first) written out.
#define ST_KERNEL(NAME, ...)                                                                    \
  extern "C" __global__ void NAME(const unsigned *in, unsigned *out) {                          \
    __shared__ __align__(16) unsigned short sh[4][32][8];                                       \
    const int lane = threadIdx.x & 31;                                                          \
    unsigned short (*rows)[8] = sh[threadIdx.x >> 5];                                           \
    *reinterpret_cast<uint4 *>(rows[lane]) = make_uint4(0, 0, 0, 0);                            \
    __syncthreads();                                                                               \
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;                                   \
    const uint4 q = reinterpret_cast<const uint4 *>(in)[i];                                    \
    unsigned p = smem(rows[rowOf(lane)]);                                                       \
    __VA_ARGS__                                                                                 \
    __syncthreads();                                                                               \
    reinterpret_cast<uint4 *>(out)[i] = *reinterpret_cast<uint4 *>(rows[lane]);                 \
  }

ST_KERNEL(stmatrix_x1,
  asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(p), "r"(q.x));)
ST_KERNEL(stmatrix_x2_trans,
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" :: "r"(p), "r"(q.x), "r"(q.y));)
ST_KERNEL(stmatrix_x4,
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" :: "r"(p), "r"(q.x), "r"(q.y), "r"(q.z), "r"(q.w));)
ST_KERNEL(stmatrix_x4_trans,
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 [%0], {%1, %2, %3, %4};" :: "r"(p), "r"(q.x), "r"(q.y), "r"(q.z), "r"(q.w));)

// movmatrix: out[i] = the transpose's fragment register of lane i's in[i].
extern "C" __global__ void movmatrix_trans(const unsigned *in, unsigned *out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned d;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d) : "r"(in[i]));
  out[i] = d;
}
