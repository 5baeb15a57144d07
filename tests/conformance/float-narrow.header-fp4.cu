// The CUDA 13 header intrinsics for fp4 conversions, compiled by nvcc for sm_100a: the PTX
// users' Blackwell code contains (float-narrow.header-fp4.ptx, checked in; regenerate with
//   nvcc -ptx -arch=sm_100a tests/conformance/float-narrow.header-fp4.cu -o tests/conformance/float-narrow.header-fp4.ptx
// ). float-narrow.gpu.test.ts runs it on WebGPU against the headers' host code. x: f32 pairs;
// w: 32-bit words (bf16 pairs, codes).
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

// Their PTX holds its .b8 temporaries in registers named without `%` (`__$temp1`).
extern "C" __global__ void narrow_fp4(const float2* x, const unsigned* w, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const __half2_raw h = __nv_cvt_fp4x2_to_halfraw2((__nv_fp4x2_storage_t)w[i], __NV_E2M1);
  out[2 * i] = __nv_cvt_float2_to_fp4x2(x[i], __NV_E2M1, cudaRoundNearest);
  out[2 * i + 1] = h.x | ((unsigned)h.y << 16);
}
