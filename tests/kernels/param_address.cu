// Kernel parameters read through their address: a __grid_constant__ struct indexed at run time
// (nvcc: `mov.b64 %rd, k_param_0;` then `ld.param.f32 %f, [%rd+...]`), the same struct passed by
// pointer to a device function (its generic address: `cvta.param.u64`, then generic loads), and a
// by-value struct indexed at run time (copied to local memory first).
struct Coeffs { float c[8]; int n; };

__device__ __noinline__ float horner(const Coeffs* p, float x) {
  float acc = 0.f;
  for (int j = p->n - 1; j >= 0; j--) acc = acc * x + p->c[j];
  return acc;
}

// y[i] = sum_j k.c[j] * x[i]^j by Horner's rule (fma.rn), j < k.n
extern "C" __global__ void poly_eval(const __grid_constant__ Coeffs k, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Coeffs* p = &k;
  float acc = 0.f;
  for (int j = p->n - 1; j >= 0; j--) acc = acc * x[i] + p->c[j];
  y[i] = acc;
}

// the same through a pointer to the parameter
extern "C" __global__ void poly_eval_fn(const __grid_constant__ Coeffs k, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = horner(&k, x[i]);
}

// y[i] = k.c[idx[i] & 7] + k.n
extern "C" __global__ void pick_coeff(Coeffs k, const int* idx, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = k.c[idx[i] & 7] + k.n;
}
