// Module variables (issue 4): __constant__ tables with initialisers, a __device__ counter
// with an initialiser that persists across launches, and a __device__ table of pointers
// (initialised with the addresses of other variables) used through generic loads.
__constant__ int ctab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
__constant__ float cscale[2] = {0.5f, -2.25f};
__device__ int counter = 1000;
__device__ int gdata[4] = {10, 20, 30, 40};
__device__ const int* gptrs[2] = {gdata, gdata + 2};
__device__ unsigned char gbytes[6] = {1, 2, 3, 4, 5, 6};
__device__ int gbump = 40;  // only mem_read_counter changes it

extern "C" __global__ void mem_globals(const int* in, int* out, float* fout, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  int v = in[i];
  out[i * 4 + 0] = ctab[v & 7] * 100 + ctab[(v >> 3) & 7];
  out[i * 4 + 1] = gptrs[v & 1][(v >> 1) & 1];
  out[i * 4 + 2] = atomicAdd(&counter, 1) >= 1000 ? 1 : 0;
  out[i * 4 + 3] = gbytes[v % 6];
  fout[i] = cscale[v & 1] * (float)v;
}

extern "C" __global__ void mem_read_counter(int* out) {
  out[0] = counter;
  gbump += 1;
  out[1] = gbump;
}
