// arch: sm_90
// Programmatic dependent launch (griddepcontrol): the producer signals that its dependents may
// launch once its stores are issued, and the consumer waits for the producer's results before
// reading them.
extern "C" __global__ void pdl_producer(const int *in, int *mid) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  mid[i] = in[i] * 3 + 1;
  cudaTriggerProgrammaticLaunchCompletion();
}

extern "C" __global__ void pdl_consumer(const int *mid, int *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned j = (i * 7 + 3) % (gridDim.x * blockDim.x);
  cudaGridDependencySynchronize();
  out[i] = mid[i] - mid[j];
}
