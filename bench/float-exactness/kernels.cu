extern "C" __global__ void stencil5(const float* __restrict__ in, float* __restrict__ out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1) {
    int i = y * nx + x;
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
  }
}
extern "C" __global__ void nbody(const float4* __restrict__ pos, float4* __restrict__ acc, int n, float eps2) {
  extern __shared__ float4 tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = pos[i];
  float3 a = make_float3(0.f, 0.f, 0.f);
  for (int t = 0; t < n; t += blockDim.x) {
    tile[threadIdx.x] = pos[t + threadIdx.x];
    __syncthreads();
    #pragma unroll 8
    for (int j = 0; j < blockDim.x; j++) {
      float4 q = tile[j];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float d2 = dx*dx + dy*dy + dz*dz + eps2;
      float inv = rsqrtf(d2);
      float s = q.w * inv * inv * inv;
      a.x += dx * s; a.y += dy * s; a.z += dz * s;
    }
    __syncthreads();
  }
  acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}
extern "C" __global__ void blocksum(const float* __restrict__ x, float* out, int n) {
  __shared__ float part[32];
  float s = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s += x[i];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0.f;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
    if (threadIdx.x == 0) atomicAdd(out, s);
  }
}
