// cp.async forms (PTX ISA "cp.async", sm_80): each thread of a block copies 16 bytes of `in`
// into shared memory with one of eight forms (thread % 8): 4-, 8- and 16-byte copies, .ca and
// .cg, src-size zero-fill (constant and per thread), ignore-src, L2 prefetch sizes and a cache
// policy; two commit groups waited with wait_group 1 then wait_all; after __syncthreads every
// thread writes out words that other threads copied.
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

extern "C" __global__ void cp_async_forms(const unsigned *in, unsigned *out) {
  __shared__ __align__(16) unsigned sh[2][128 * 4];
  const int t = threadIdx.x;
  const unsigned *src = in + (blockIdx.x * blockDim.x + t) * 4;
  const unsigned *src2 = in + gridDim.x * blockDim.x * 4 + (blockIdx.x * blockDim.x + t) * 4;
  unsigned d = smem(&sh[0][t * 4]);
  unsigned d2 = smem(&sh[1][t * 4]);
  unsigned sz = (t * 5u) % 17u;          // 0..16 bytes
  unsigned sz8 = (t * 7u) % 9u;          // 0..8 bytes
  switch (t % 8) {
    case 0:
      for (int k = 0; k < 4; k++) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(d + 4 * k), "l"(src + k));
      break;
    case 1:
      asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(d), "l"(src));
      asm volatile("cp.async.ca.shared::cta.global [%0], [%1], 8;" :: "r"(d + 8), "l"(src + 2));
      break;
    case 2:
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d), "l"(src));
      break;
    case 3:
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(d), "l"(src), "r"(sz));
      break;
    case 4:
      asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], 8, %2;" :: "r"(d), "l"(src), "r"(sz8));
      asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" :: "r"(d + 8), "l"(src + 2), "r"((t / 3u) % 9u));
      break;
    case 5:
      asm volatile("{ .reg .pred p; setp.ne.b32 p, %2, 0; cp.async.ca.shared.global [%0], [%1], 16, p; }" :: "r"(d), "l"(src), "r"((t >> 3) & 1));
      break;
    case 6:
      asm volatile("{ .reg .b64 pol; createpolicy.fractional.L2::evict_last.b64 pol, 1.0;"
                   " cp.async.cg.shared.global.L2::cache_hint.L2::256B [%0], [%1], 16, pol; }" :: "r"(d), "l"(src));
      break;
    default:
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4, 4;" :: "r"(d), "l"(src));
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4, 2;" :: "r"(d + 4), "l"(src + 1));
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4, 0;" :: "r"(d + 8), "l"(src + 2));
      asm volatile("cp.async.ca.shared.global.L2::64B [%0], [%1], 4, 3;" :: "r"(d + 12), "l"(src + 3));
      break;
  }
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d2), "l"(src2));
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 1;");
  asm volatile("cp.async.wait_all;");
  __syncthreads();
  const int n = blockDim.x * 4;
  unsigned *o = out + blockIdx.x * n * 2;
  for (int k = 0; k < 4; k++) {
    int i = t * 4 + k;
    o[i] = sh[0][(i * 37 + 11) % n];
    o[n + i] = sh[1][(i * 13 + 5) % n];
  }
}
