// 64-bit signed and unsigned division and remainder of random values (nvcc emits div/rem.s64/.u64,
// usually behind a 32-bit fast path). Divisors are never zero and never -1 with INT64_MIN (UB in C).
#include <stdint.h>

extern "C" __global__ void int_divrem64(const int64_t *a, const int64_t *b, int64_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int64_t x = a[i], y = b[i];
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
  out[4 * i + 0] = x / y;
  out[4 * i + 1] = x % y;
  out[4 * i + 2] = (int64_t)(ux / uy);
  out[4 * i + 3] = (int64_t)(ux % uy);
}
