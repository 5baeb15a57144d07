// Local memory (issue 4): a per-thread array indexed by loaded data, and a generic pointer
// that points to shared, local or global memory depending on the thread, told apart with
// isspacep (__isShared/__isLocal/__isGlobal).
extern "C" __global__ void mem_local(const int* idx, const float* vals, float* out, int* kinds, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  __shared__ float tile[64];
  float buf[32];
  for (int k = 0; k < 32; k++) buf[k] = vals[(i + k) % n];
  tile[threadIdx.x] = (float)threadIdx.x * 0.5f;
  __syncthreads();
  if (i >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < 4; k++) acc += buf[idx[i * 4 + k] & 31];
  buf[idx[i * 4] & 31] = acc;  // a store at a data-dependent index
  const float* p;
  int sel = idx[i * 4 + 1] % 3;
  if (sel == 0) p = &tile[threadIdx.x];
  else if (sel == 1) p = &buf[idx[i * 4 + 2] & 31];
  else p = &vals[i];
  kinds[i] = (__isShared(p) ? 1 : 0) | (__isLocal(p) ? 2 : 0) | (__isGlobal(p) ? 4 : 0);
  out[i] = acc + *p;
}

// A pointer to the caller's local array passed to a __noinline__ function that has a local
// array of its own, indexed by an argument.
__device__ __noinline__ float pick(const float* arr, int k) {
  float tmp[8];
  for (int j = 0; j < 8; j++) tmp[j] = arr[(j * 3 + k) & 15];
  return tmp[k & 7];
}

extern "C" __global__ void mem_local_call(const float* in, const int* ks, float* out) {
  int i = threadIdx.x;
  float buf[16];
  for (int j = 0; j < 16; j++) buf[j] = in[(i + j) % 64];
  out[i] = pick(buf, ks[i]);
}
