// Named barriers: warps 0-1 produce and `bar.arrive 1, 128`, warps 2-3 `bar.sync 1, 128` and
// consume; then warps 0-1 exchange among themselves behind `bar.sync 2, 64`.
extern "C" __global__ void conv_named(const int* in, int* out) {
  __shared__ int buf[64];
  __shared__ int s2[64];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int w = t >> 5;
  if (w < 2) {
    buf[t] = in[i] * 5 + 1;
    asm volatile("bar.arrive 1, 128;" ::: "memory");
    s2[t] = in[i] ^ 0x55;
    asm volatile("bar.sync 2, 64;" ::: "memory");
    out[i] = s2[63 - t];
  } else {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    out[i] = buf[t - 64] + in[i];
  }
}
