/* Force-included by build-ptx.sh (-include): names that CUDA 13 removed but that older public
 * samples still call from host code. Host-only; the PTX of the kernels does not change. */
#pragma once
#define cudaThreadSynchronize cudaDeviceSynchronize
#define cudaThreadExit cudaDeviceReset
#if defined(__cplusplus) && defined(CUDART_VERSION) && CUDART_VERSION >= 13000
/* CUDA 13 takes a cudaMemLocation where older code passes a device number. */
static inline cudaError_t cudaMemAdvise(const void *ptr, size_t count, cudaMemoryAdvise advice, int device) {
  cudaMemLocation loc;
  loc.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  loc.id = device;
  return cudaMemAdvise(ptr, count, advice, loc);
}
static inline cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t count, int device, cudaStream_t stream = 0) {
  cudaMemLocation loc;
  loc.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  loc.id = device;
  return cudaMemPrefetchAsync(ptr, count, loc, 0, stream);
}
#endif
