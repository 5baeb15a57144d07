// arch: sm_90
// Cluster instructions in a cluster of one CTA (__cluster_dims__(1, 1, 1)): cooperative groups'
// map_shared_rank (mapa.u64 on a generic address) and __cluster_query_shared_rank
// (getctarank.u64), and the .shared::cluster forms through inline asm (mapa, getctarank,
// ld.shared::cluster). cluster_map_rank maps to the rank a thread reads from its input, so a
// rank other than 0 names a CTA outside the cluster.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void __cluster_dims__(1, 1, 1) cluster_map(const int *in, int *out) {
  __shared__ int s[128];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  s[threadIdx.x] = in[i];
  __syncthreads();
  int *peer = cluster.map_shared_rank(s, rank);
  out[4 * i] = peer[threadIdx.x ^ 1];
  out[4 * i + 1] = __cluster_query_shared_rank(&s[threadIdx.x]) + 10 * cluster.num_blocks();
  unsigned a = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x ^ 2]);
  unsigned d, r;
  int x;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(rank));
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(x) : "r"(d));
  asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(r) : "r"(d));
  out[4 * i + 2] = x;
  out[4 * i + 3] = r;
}

extern "C" __global__ void __cluster_dims__(1, 1, 1) cluster_map_rank(const int *in, int *out) {
  __shared__ int s[128];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  cg::cluster_group cluster = cg::this_cluster();
  s[threadIdx.x] = in[i];
  __syncthreads();
  int *peer = cluster.map_shared_rank(s, (unsigned)in[i] & 1);
  out[i] = peer[threadIdx.x ^ 1];
}
