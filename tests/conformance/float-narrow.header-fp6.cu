// The CUDA 13 header intrinsics for fp6 and ue8m0 conversions, compiled by nvcc for sm_100a: the PTX
// users' Blackwell code contains (float-narrow.header-fp6.ptx, checked in; regenerate with
//   nvcc -ptx -arch=sm_100a tests/conformance/float-narrow.header-fp6.cu -o tests/conformance/float-narrow.header-fp6.ptx
// ). float-narrow.gpu.test.ts runs it on WebGPU against the headers' host code. x: f32 pairs;
// w: 32-bit words (bf16 pairs, codes).
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

extern "C" __global__ void narrow_fp6_e8m0(const float2* x, const unsigned* w, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned* o = out + 8 * i;
  __nv_bfloat162_raw b;
  b.x = (unsigned short)w[i];
  b.y = (unsigned short)(w[i] >> 16);
  const unsigned short c6 = (unsigned short)(w[i] & 0x3f3fU);
  __half2_raw h;
  o[0] = __nv_cvt_float2_to_fp6x2(x[i], __NV_E2M3, cudaRoundNearest);
  o[1] = __nv_cvt_float2_to_fp6x2(x[i], __NV_E3M2, cudaRoundNearest);
  h = __nv_cvt_fp6x2_to_halfraw2(c6, __NV_E2M3);
  o[2] = h.x | ((unsigned)h.y << 16);
  h = __nv_cvt_fp6x2_to_halfraw2(c6, __NV_E3M2);
  o[3] = h.x | ((unsigned)h.y << 16);
  o[4] = __nv_cvt_float2_to_e8m0x2(x[i], __NV_NOSAT, cudaRoundZero);
  o[5] = __nv_cvt_float2_to_e8m0x2(x[i], __NV_SATFINITE, cudaRoundPosInf);
  o[6] = __nv_cvt_bfloat162raw_to_e8m0x2(b, __NV_SATFINITE, cudaRoundZero) | ((unsigned)__nv_cvt_bfloat162raw_to_e8m0x2(b, __NV_NOSAT, cudaRoundPosInf) << 16);
  const __nv_bfloat162_raw e = __nv_cvt_e8m0x2_to_bf162raw((__nv_fp8x2_storage_t)w[i]);
  o[7] = e.x | ((unsigned)e.y << 16);
}
