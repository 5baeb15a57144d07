// 16-byte loads and stores of 64-bit pairs (ld/st.global.v2.f64 and .v2.u64), in global and
// shared memory: out[i] = (a.x * 2 + a.y, a.y - a.x); keys[i] = (k.y, k.x ^ k.y).
extern "C" __global__ void f64_vec2(const double2 *a, double2 *out, const ulonglong2 *k, ulonglong2 *keys, int n) {
  __shared__ double2 tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tile[threadIdx.x] = a[i];
  __syncthreads();
  if (i < n) {
    double2 v = tile[threadIdx.x];
    out[i] = make_double2(v.x * 2.0 + v.y, v.y - v.x);
    ulonglong2 w = k[i];
    keys[i] = make_ulonglong2(w.y, w.x ^ w.y);
  }
}
