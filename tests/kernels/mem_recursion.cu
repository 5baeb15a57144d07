// Recursion (issue 4): WGSL forbids it, so the transpiler must reject this with an error
// that names the cycle.
__device__ __noinline__ int odd(int n);
__device__ __noinline__ int even(int n) { return n == 0 ? 1 : odd(n - 1); }
__device__ __noinline__ int odd(int n) { return n == 0 ? 0 : even(n - 1); }
extern "C" __global__ void mem_recursion(const int* in, int* out) {
  int i = threadIdx.x;
  out[i] = even(in[i]);
}
