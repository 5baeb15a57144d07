// 2D grid / 2D block kernel. Columns are covered by one thread each (bounds-checked),
// rows by a grid-stride loop over y (uses gridDim.y / blockDim.y).
//   coord[y*w + x] = x * 1000 + y
//   lap[y*w + x]   = 4*in[y][x] - (sum of the in-bounds 4-neighbours)
extern "C" __global__ void grid2d(const int *in, int *coord, int *lap, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w) return;
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += blockDim.y * gridDim.y) {
        int idx = y * w + x;
        coord[idx] = x * 1000 + y;
        int c = in[idx];
        int s = 0;
        if (x > 0)     s += in[idx - 1];
        if (x + 1 < w) s += in[idx + 1];
        if (y > 0)     s += in[idx - w];
        if (y + 1 < h) s += in[idx + w];
        lap[idx] = 4 * c - s;
    }
}
