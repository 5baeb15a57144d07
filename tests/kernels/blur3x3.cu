// 3x3 weighted blur with zero padding at the image border. Every neighbour's load sits behind its
// own bounds test, which nvcc compiles to a branch around the load (ptxas then predicates it).
// Weights come from global memory, one fma per neighbour in row order.
extern "C" __global__ void blur3x3(const float* __restrict__ in, const float* __restrict__ weights,
                                   float* __restrict__ out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float acc = 0.0f;
#pragma unroll
  for (int dy = -1; dy <= 1; ++dy) {
#pragma unroll
    for (int dx = -1; dx <= 1; ++dx) {
      const int xx = x + dx, yy = y + dy;
      const float v = (xx >= 0 && xx < w && yy >= 0 && yy < h) ? in[yy * w + xx] : 0.0f;
      acc = fmaf(v, weights[(dy + 1) * 3 + (dx + 1)], acc);
    }
  }
  out[y * w + x] = acc;
}
