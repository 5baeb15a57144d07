// Producer/consumer pipelines on mbarriers (sm_90), the Hopper style of the public kernels
// that stopped at mbarrier.init: compiled with `nvcc -ptx -arch=sm_90 mbarrier_pipeline.cu`.
//  - tile_pipeline: cuda::barrier + cuda::memcpy_async (cp.async.bulk with complete_tx, then
//    expect_tx), double-buffered: thread 0 copies tile k+1 (and L2-prefetches k+2) while every
//    thread waits for tile k with arrive/wait tokens; a __syncthreads before a refill.
//  - ws_pipeline: warp-specialised with cuda::ptx: the last warp's lane 0 produces tiles into
//    a STAGES-deep ring (wait EMPTY[s] by parity, arrive.expect_tx FULL[s], cp.async.bulk),
//    the other warps consume (wait FULL[s] by parity, a warp-shuffle sum, arrive EMPTY[s]);
//    the result leaves by cp.async.bulk shared -> global with a bulk group.
//  - cp_async_arrive: every thread copies with cp.async and signals an mbarrier through
//    cp.async.mbarrier.arrive (.noinc, then without), arrives (arrive_drop, then arrive) and
//    spins on test_wait with its token; then reads 16 bytes another thread copied.
#include <cuda/barrier>
#include <cuda/ptx>
#include <cstdint>
namespace ptx = cuda::ptx;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

extern "C" __global__ void tile_pipeline(const float *in, float *out, int tiles) {
  constexpr int TILE = 256;
  __shared__ alignas(128) float buf[2][TILE];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ block_barrier bar[2];
  if (threadIdx.x == 0) { init(&bar[0], blockDim.x); init(&bar[1], blockDim.x); }
  __syncthreads();
  const float *base = in + (size_t)blockIdx.x * tiles * TILE;
  if (threadIdx.x == 0) cuda::memcpy_async(buf[0], base, cuda::aligned_size_t<16>(sizeof(float) * TILE), bar[0]);
  float acc = 0.f;
  for (int k = 0; k < tiles; k++) {
    const int s = k & 1;
    if (threadIdx.x == 0 && k + 1 < tiles) cuda::memcpy_async(buf[s ^ 1], base + (k + 1) * TILE, cuda::aligned_size_t<16>(sizeof(float) * TILE), bar[s ^ 1]);
    if (threadIdx.x == 0 && k + 2 < tiles) asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" :: "l"(base + (k + 2) * TILE), "r"(TILE * 4));
    block_barrier::arrival_token t = bar[s].arrive();
    bar[s].wait(std::move(t));
    for (int i = threadIdx.x; i < TILE; i += blockDim.x) acc += buf[s][i] * (k + 1);
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int STAGES>
__device__ void ws_body(const float *in, float *out, int tiles) {
  constexpr int TILE = 128;
  __shared__ alignas(128) float ring[STAGES][TILE];
  __shared__ alignas(128) float res[TILE];
  __shared__ uint64_t full[STAGES], empty[STAGES];
  const int consumers = blockDim.x - 32;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) {
    for (int s = 0; s < STAGES; s++) { ptx::mbarrier_init(&full[s], 1); ptx::mbarrier_init(&empty[s], consumers / 32); }
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
  }
  // a block may have fewer threads than res has words (96): shared memory starts undefined
  for (int i = threadIdx.x; i < TILE; i += blockDim.x) res[i] = 0.f;
  __syncthreads();
  const float *base = in + (size_t)blockIdx.x * tiles * TILE;
  if (warp == blockDim.x / 32 - 1) {
    if (lane == 0) {
      for (int k = 0; k < tiles; k++) {
        const int s = k % STAGES;
        const uint32_t phase = (k / STAGES) & 1;
        while (!ptx::mbarrier_try_wait_parity(&empty[s], phase ^ 1)) {}
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], TILE * 4);
        ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, ring[s], base + k * TILE, TILE * 4, &full[s]);
      }
    }
  } else {
    for (int k = 0; k < tiles; k++) {
      const int s = k % STAGES;
      const uint32_t phase = (k / STAGES) & 1;
      while (!ptx::mbarrier_try_wait_parity(&full[s], phase)) {}
      // warp w sums column block w of the tile, lanes reduce with shuffles
      for (int c = warp; c < TILE / 32; c += consumers / 32) {
        float v = ring[s][c * 32 + lane] * (k + 1);
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
        if (lane == 0) res[c * 32 + k % 32] += v;
      }
      __syncwarp();
      if (lane == 0) ptx::mbarrier_arrive(&empty[s]);
    }
  }
  // every thread wrote res (the zeros, the sums): each makes its stores visible to the async
  // proxy before the barrier that orders them ahead of the bulk store
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + blockIdx.x * TILE, res, TILE * 4);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
}

extern "C" __global__ void ws_pipeline(const float *in, float *out, int tiles) { ws_body<2>(in, out, tiles); }
extern "C" __global__ void ws_pipeline3(const float *in, float *out, int tiles) { ws_body<3>(in, out, tiles); }

extern "C" __global__ void cp_async_arrive(const unsigned *in, unsigned *out) {
  __shared__ alignas(16) unsigned sh[2][256 * 4];
  __shared__ uint64_t bar;
  const unsigned t = threadIdx.x, n = blockDim.x;
  const unsigned bar_addr = (unsigned)__cvta_generic_to_shared(&bar);
  // Phase 0 expects 2n arrivals: each thread's .noinc cp.async arrival and its arrive_drop,
  // which also leaves n expected arrivals for phase 1: one arrive per thread, the cp.async
  // arrival without .noinc adding as many pending arrivals as it signals.
  if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar_addr), "r"(2 * n));
  __syncthreads();
  const unsigned *src = in + (blockIdx.x * n + t) * 4;
  for (int r = 0; r < 2; r++) {
    const unsigned d = (unsigned)__cvta_generic_to_shared(&sh[r][((t * 7) % n) * 4]);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d), "l"(src + r * gridDim.x * n * 4));
    uint64_t token;
    if (r == 0) {
      asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(bar_addr));
      asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(token) : "r"(bar_addr));
    } else {
      asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];" :: "r"(bar_addr));
      asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(token) : "r"(bar_addr));
    }
    unsigned ok = 0;
    while (!ok) asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(ok) : "r"(bar_addr), "l"(token));
    for (int w = 0; w < 4; w++) out[((r * gridDim.x + blockIdx.x) * n + t) * 4 + w] = sh[r][t * 4 + w];
    __syncthreads();
  }
}
