// The deprecated warp instructions without .sync (shfl, vote), written in PTX. PTX ISA 6.4+
// rejects them for sm_70+, so warp_legacy.ptx is nvcc's output with `.version 6.0` and
// `.target sm_60` (newer GPUs JIT-compile it): regenerate with
//   nvcc -ptx -arch=sm_80 -O3 warp_legacy.cu -o - | sed 's/^.version .*/.version 6.0/; s/^.target .*/.target sm_60/' > warp_legacy.ptx
extern "C" __global__ void warp_shfl_legacy(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i], r, p;
  asm volatile("{ .reg .pred %%q; shfl.down.b32 %0|%%q, %2, 5, 0x1f; selp.u32 %1, 1, 0, %%q; }" : "=r"(r), "=r"(p) : "r"(v));
  out[2 * i] = r;
  out[2 * i + 1] = p;
}


// Deprecated vote.ballot / vote.any / vote.all / vote.uni over the active lanes.
extern "C" __global__ void warp_vote_legacy(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i], b, f;
  asm volatile("{ .reg .pred %%p, %%a, %%o, %%u; setp.ne.s32 %%p, %2, 0;"
               " vote.ballot.b32 %0, %%p; vote.all.pred %%a, %%p; vote.any.pred %%o, %%p; vote.uni.pred %%u, %%p;"
               " selp.u32 %1, 1, 0, %%a; selp.u32 %1, %1, 0, %%a; @%%o add.u32 %1, %1, 2; @%%u add.u32 %1, %1, 4; }"
               : "=r"(b), "=r"(f) : "r"(v & 4));
  out[2 * i] = b;
  out[2 * i + 1] = f;
}
