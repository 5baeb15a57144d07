// f64 kernels for bench/f64-throughput.mjs, next to daxpy of bench/realistic/kernels.cu:
//  smooth3: a 3-point smoothing stencil with separately rounded multiplies and adds (the __d*_rn
//    intrinsics keep nvcc from contracting them into fma): out[i] = c0 * x[i] + c1 * (x[i - 1] +
//    x[i + 1]) for 0 < i < n - 1, the end points copied (two mul.rn.f64, two add.rn.f64).
//  horner8: a degree-8 polynomial (a truncated exp series) by Horner's rule, eight fma.rn.f64 per
//    element, so that the time is the arithmetic's rather than the memory's.
//   nvcc -ptx -arch=sm_80 -O3 bench/f64-throughput.cu -o bench/f64-throughput.ptx
extern "C" __global__ void smooth3(int n, double c0, double c1, const double* __restrict__ x, double* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (i == 0 || i == n - 1) { out[i] = x[i]; return; }
  out[i] = __dadd_rn(__dmul_rn(c0, x[i]), __dmul_rn(c1, __dadd_rn(x[i - 1], x[i + 1])));
}

extern "C" __global__ void horner8(int n, const double* __restrict__ x, double* __restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i];
  double p = 1.0 / 40320;
  p = p * v + 1.0 / 5040;
  p = p * v + 1.0 / 720;
  p = p * v + 1.0 / 120;
  p = p * v + 1.0 / 24;
  p = p * v + 1.0 / 6;
  p = p * v + 0.5;
  p = p * v + 1.0;
  p = p * v + 1.0;
  out[i] = p;
}
