// alloca in device code (issue 4): __builtin_alloca with a data-dependent size becomes PTX
// `alloca` on the per-thread local stack; the __noinline__ function's allocation is released
// when it returns, so calling it in a loop does not grow the stack.
__device__ __noinline__ int fold(const int* in, int i, int n, int k) {
  int* buf = (int*)__builtin_alloca(k * sizeof(int));
  for (int j = 0; j < k; j++) buf[j] = in[(i + j) % n] ^ (j * 0x9e3779b9);
  int s = 0;
  for (int j = 0; j < k; j++) s = s * 31 + buf[k - 1 - j];
  return s;
}

extern "C" __global__ void mem_alloca(const int* in, int* out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  int k = (in[i] & 15) + 1;
  int* buf = (int*)__builtin_alloca(k * sizeof(int));
  for (int j = 0; j < k; j++) buf[j] = in[(i + j) % n] * (j + 1);
  int s = 0;
  for (int j = k - 1; j >= 0; j--) s = s * 3 + buf[j];
  int acc = 0;
  for (int r = 0; r < 40; r++) acc = acc * 7 + fold(in, i + r, n, ((in[i] >> (r % 8) * 4) & 15) + 1);
  out[2 * i] = s;
  out[2 * i + 1] = acc + buf[0];
}
