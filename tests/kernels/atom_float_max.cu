// Atomics as CUDA code uses them (tests/e2e/cases.ts, "atom_float_max"):
//  - float atomicMax through atomicCAS (the classic idiom: no native float max atomic);
//  - atomicAdd on double (sm_60+: native atom.global.add.f64 / atom.shared.add.f64);
//  - atomicInc with a wrap limit (atom.global.inc.u32).
// Four / three / two contended addresses; every input is a small integer so sums are exact
// in any order.
__device__ float atomicMaxFloat(float *addr, float value) {
  int *a = (int *)addr;
  int old = *a, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value) break;
    old = atomicCAS(a, assumed, __float_as_int(value));
  } while (assumed != old);
  return __int_as_float(old);
}

extern "C" __global__ void atom_float_max(const float *in, float *maxOut, double *sums, unsigned *counts, int n) {
  __shared__ double blockSum;
  if (threadIdx.x == 0) blockSum = 0.0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    atomicMaxFloat(&maxOut[i % 4], v);
    atomicAdd(&sums[i % 3], (double)v * 0.5);
    atomicAdd(&blockSum, (double)v);
    atomicInc(&counts[i % 2], 100u);
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(&sums[3], blockSum);
}
