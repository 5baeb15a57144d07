// Rare instructions reached through inline asm: scalar and SIMD video with byte/half
// selectors, bar.cta, texture/surface handles, st.async/red.async (sm_90 only).
#include <cstdint>
__global__ void video(unsigned* p, cudaTextureObject_t t, cudaSurfaceObject_t s) {
  unsigned a = p[0], b = p[1], c = p[2], r;
  asm volatile("vadd.s32.u32.s32.sat %0, %1.b0, %2.h1;" : "=r"(r) : "r"(a), "r"(b)); p[3] = r;
  asm volatile("vsub.u32.u32.u32.sat.add %0, %1.b3, %2.b2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); p[4] = r;
  asm volatile("vabsdiff.s32.s32.s32.min %0, %1.h0, %2.h1, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); p[5] = r;
  asm volatile("vmad.s32.s32.u32.sat.shr15 %0, -%1.h1, %2.h0, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); p[6] = r;
  asm volatile("vset.u32.u32.lt.add %0, %1.b1, %2.b2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); p[7] = r;
  asm volatile("vshl.u32.u32.u32.clamp.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); p[8] = r;
  asm volatile("vadd2.s32.s32.s32.sat %0.h10, %1.h32, %2.h10, %3;" : "+r"(r) : "r"(a), "r"(b), "r"(c)); p[9] = r;
  asm volatile("vmax4.u32.u32.u32.add %0, %1.b3210, %2.b7654, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); p[10] = r;
  asm volatile("vavrg4.u32.u32.u32 %0.b10, %1, %2, %3;" : "+r"(r) : "r"(a), "r"(b), "r"(c)); p[11] = r;
  asm volatile("vset2.s32.s32.ne %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); p[12] = r;
  asm volatile("bar.cta.sync 0;");
  asm volatile("bar.cta.arrive 1, 64;");
  asm volatile("{ .reg .pred q; bar.cta.red.and.pred q, 2, 1; }");
  float4 v = tex2D<float4>(t, a * 0.5f, b * 0.25f);
  p[13] = __float_as_uint(v.x + v.w);
  surf2Dwrite(r, s, 4 * (a & 15), b & 15);
#if __CUDA_ARCH__ >= 900
  asm volatile("{ .reg .b32 x; mapa.shared::cluster.u32 x, %0, 1;"
               " st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [x], %1, [x];"
               " red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [x], %1, [x]; }"
               :: "r"(a), "r"(b));
#endif
}
