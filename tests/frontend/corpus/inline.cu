__global__ void inl(unsigned* p, float* f) {
  unsigned a = p[0], b = p[1], c = p[2], r;
  asm volatile("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); p[3] = r;
  asm volatile("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); p[4] = r;
  asm volatile("bfe.u32 %0, %1, 4, 8;" : "=r"(r) : "r"(a)); p[5] = r;
  asm volatile("bfi.b32 %0, %1, %2, 4, 8;" : "=r"(r) : "r"(a), "r"(b)); p[6] = r;
  asm volatile("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); p[7] = r;
  asm volatile("{ .reg .pred p; setp.ne.and.u32 p|_, %1, 0, 1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(a)); p[8] = r;
  asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); p[9] = r;
  asm volatile("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); p[10] = r;
  asm volatile("vote.sync.ballot.b32 %0, 1, 0xffffffff;" : "=r"(r)); p[11] = r;
  asm volatile("bar.warp.sync -1;");
  asm volatile("barrier.sync.aligned 0;");
  asm volatile("bar.red.popc.u32 %0, 0, 1;" : "=r"(r)); p[12] = r;
  asm volatile("fence.acq_rel.gpu;");
  asm volatile("red.global.add.u32 [%0], 1;" :: "l"(p));
  asm volatile("atom.global.cas.b32 %0, [%1], 1, 2;" : "=r"(r) : "l"(p)); p[13] = r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); p[14] = r;
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); p[15] = r;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(*(unsigned long long*)(p+16)));
  asm volatile("cvt.rni.f32.f32 %0, %1;" : "=f"(f[0]) : "f"(f[1]));
  asm volatile("{ .reg .pred p; testp.finite.f32 p, %0; }" :: "f"(f[1]));
  asm volatile("copysign.f32 %0, %1, %2;" : "=f"(f[2]) : "f"(f[1]), "f"(f[3]));
  asm volatile("min.NaN.f32 %0, %1, %2;" : "=f"(f[4]) : "f"(f[1]), "f"(f[3]));
  asm volatile("prefetch.global.L2 [%0];" :: "l"(f));
  asm volatile("{ .reg .pred p; isspacep.global p, %0; }" :: "l"(f));
  asm volatile("szext.wrap.u32 %0, %1, 4;" : "=r"(r) : "r"(a)); p[17] = r;
  asm volatile("bmsk.clamp.b32 %0, %1, 4;" : "=r"(r) : "r"(a)); p[18] = r;
}
