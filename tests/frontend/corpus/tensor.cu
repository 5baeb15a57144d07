#include <mma.h>
#include <cuda_pipeline.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
using namespace nvcuda;
namespace cg = cooperative_groups;
__global__ void wm(const half* a, const half* b, float* c, cudaTextureObject_t tex, cudaSurfaceObject_t surf, const float* g) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
  __shared__ float buf[128];
  __pipeline_memcpy_async(&buf[threadIdx.x], &g[threadIdx.x], 4);
  __pipeline_commit(); __pipeline_wait_prior(0);
  float4 t = tex2D<float4>(tex, 0.5f, 0.25f);
  surf2Dwrite(t.x, surf, 4 * threadIdx.x, 0);
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  float s = cg::reduce(tile, buf[threadIdx.x] + t.y, cg::plus<float>());
  int mx = cg::reduce(tile, (int)threadIdx.x, cg::greater<int>());
  __nv_bfloat16 h = __float2bfloat16(s);
  c[threadIdx.x] += __bfloat162float(__hmul(h, h)) + mx;
}
