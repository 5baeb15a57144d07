#include <cuda_fp16.h>
__global__ void misc(half2* h, double* dd, long long* ll, unsigned short* us, int n) {
  int i = threadIdx.x + blockIdx.y * 7 + blockIdx.z;
  h[i] = __hfma2(h[i], h[i+1], h[i+2]);
  dd[i] = fma(dd[i], 2.0, 1e-300) + (double)ll[i] / 7 + fmin(dd[i], 1.5) + ldexp(dd[i], 3);
  ll[i] = ll[i] % 13 + (ll[i] >> 3) + ((long long)i * (long long)n);
  us[i] = (unsigned short)(us[i] * 3u);
  switch (i & 7) { case 0: dd[0] = 1; break; case 1: dd[1] = 2; break; case 2: dd[2] = 4; break; case 3: dd[3] = 8; break; case 4: dd[4] = 9; break; default: break; }
  asm volatile("membar.gl;");
  __threadfence_block();
  unsigned m = __activemask();
  if (__all_sync(m, i > 2)) __nanosleep(100);
  int local[16]; for (int k = 0; k < 16; ++k) local[k] = ll[k] * i; ll[0] = local[i & 15];
  if (i == 99) __trap();
}
