// trap and assert (issue 4): a thread that sees a bad input traps; the launch must fail
// with an error naming the PTX line. Other threads write their outputs.
#include <cassert>
extern "C" __global__ void mem_trap(const int* in, int* out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  if (in[i] == 13) __trap();
  out[i] = in[i] + 1;
}
extern "C" __global__ void mem_assert(const int* in, int* out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  assert(in[i] != 42);
  out[i] = in[i] * 2;
}
