// A dense switch that nvcc lowers to a brx.idx jump table (issue 4).
extern "C" __global__ void mem_switch(const int* in, int* out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  int v = in[i];
  int r;
  switch (v) {
    case 0: r = in[(i + 1) % n] * 3; break;
    case 1: r = v ^ 0x1234; break;
    case 2: r = i * i; break;
    case 3: r = in[(i + 2) % n] - 7; break;
    case 4: r = -i; break;
    case 5: r = 0x55; break;
    case 6: r = in[(i + 3) % n] << 2; break;
    case 7: r = i + 1000; break;
    default: r = -1; break;
  }
  out[i] = r;
}
