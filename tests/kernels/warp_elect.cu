// arch: sm_90
// elect.sync (inline asm, as cooperative_groups' invoke_one writes it): full, partial and
// divergent member masks, and the elected leader's value broadcast with a shuffle.
#define FULL 0xffffffffu

__device__ __forceinline__ unsigned elect(unsigned mask, int *leader) {
  unsigned lane;
  int p;
  asm volatile("{\n\t.reg .pred e;\n\telect.sync %0|e, %2;\n\tselp.s32 %1, 1, 0, e;\n\t}" : "=r"(lane), "=r"(p) : "r"(mask));
  *leader = p;
  return lane;
}

extern "C" __global__ void warp_elect(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int p;
  out[8 * i] = elect(FULL, &p);
  out[8 * i + 1] = p;
  // Two half-warp groups, each electing its own leader.
  unsigned half = (threadIdx.x & 16) ? 0xffff0000u : 0x0000ffffu;
  out[8 * i + 2] = elect(half, &p);
  out[8 * i + 3] = p;
  if (v % 3 == 0) {
    unsigned m = __activemask();
    unsigned lane = elect(m, &p);
    out[8 * i + 4] = lane;
    out[8 * i + 5] = p;
    out[8 * i + 6] = __shfl_sync(m, v, lane);
  } else if (v & 1) {
    // Lanes whose member mask is a strict subset of the active lanes: those with v > 0, and
    // separately those with v <= 0.
    unsigned m = __activemask();
    unsigned pos = __ballot_sync(m, v > 0);
    unsigned group = v > 0 ? pos : (m & ~pos);
    out[8 * i + 7] = elect(group, &p) + (p ? 100 : 0);
  }
}
