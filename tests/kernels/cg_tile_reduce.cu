// Sums over 64-thread tiles with cooperative groups, as library code writes them: a tile wider
// than a warp reduces through the shared memory CUDA reserves per block
// (%reserved_smem_offset_1 in the PTX), with barrier words set by atomics.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

extern "C" __global__ void tile64_sums(const int* __restrict__ x, int* __restrict__ sums, int* __restrict__ maxima, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = i < n ? x[i] : 0;
  const int s = cg::reduce(tile, v, cg::plus<int>());
  const int m = cg::reduce(tile, v, cg::greater<int>());
  const int t = i / 64;
  if (tile.thread_rank() == 0) { sums[t] = s; maxima[t] = m; }
}
