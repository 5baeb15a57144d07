// Double-precision kernels for the end-to-end tests (tests/e2e/cases.ts, f64_* cases).
// nvcc contracts a * b + c into fma.rn.f64 by default; the explicit __d*_rn intrinsics keep
// the Kahan sum uncontracted, so the JS reference can follow the source operation by operation.

// out[8i + k]: Horner polynomial (fma chain), quotient, sqrt, f32 round trip, floor of a product,
// a truncation to s64 and back, min/max and a comparison-driven select.
extern "C" __global__ void f64_math(const double *x, const double *y, double *out, int n, double scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double a = x[i], b = y[i];
  double p = 1.0 / 3.0;
  p = fma(p, a, 0.0625);
  p = fma(p, a, -0.125);
  p = fma(p, a, 0.25);
  p = fma(p, a, -0.5);
  p = fma(p, a, 1.0);
  out[8 * i + 0] = p;
  out[8 * i + 1] = a / b;
  out[8 * i + 2] = sqrt(fabs(b));
  out[8 * i + 3] = (double)(float)a + (double)i;
  out[8 * i + 4] = floor(__dmul_rn(a, scale));
  out[8 * i + 5] = (double)(long long)__dmul_rn(b, 1e6);
  out[8 * i + 6] = fmin(a, b) - fmax(a, b);
  out[8 * i + 7] = a < b ? __dadd_rn(a, 0.5) : (unsigned)(b * b);
}

// partial[gid] = Kahan-compensated sum of x[k] * y[k] over k = gid, gid + stride, ...
extern "C" __global__ void f64_kahan_dot(const double *x, const double *y, double *partial, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  double sum = 0.0, c = 0.0;
  for (int k = gid; k < n; k += stride) {
    double v = __dsub_rn(__dmul_rn(x[k], y[k]), c);
    double t = __dadd_rn(sum, v);
    c = __dsub_rn(__dsub_rn(t, sum), v);
    sum = t;
  }
  partial[gid] = sum;
}
