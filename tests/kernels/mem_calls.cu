// Device-function calls (issue 4): __noinline__ functions with scalar and struct
// arguments and returns, a struct passed by value to the kernel and on to a device
// function, nested calls, and a void function that stores through a pointer argument.
struct Params { float scale; int bias; int k; };
struct Pair { int lo; int hi; float f; };

__device__ __noinline__ int mad3(int a, int b) { return a * 3 + b; }

__device__ __noinline__ Pair split(Params p, int v) {
  Pair r;
  r.lo = (v & 0xffff) + p.bias;
  r.hi = (v >> 16) * p.k;
  r.f = p.scale * (float)(v & 0xff);
  return r;
}

__device__ __noinline__ int twice(int v) { return mad3(v, v) - v; }  // nested: 3v + v - v = 3v

__device__ __noinline__ void put(int* out, int i, int v) { out[i] = v ^ 0x5a5a; }

extern "C" __global__ void mem_calls(Params p, const int* in, int* out, float* fout, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  int v = in[i];
  Pair r = split(p, v);
  out[i * 4 + 0] = mad3(v, i);
  out[i * 4 + 1] = r.lo;
  out[i * 4 + 2] = r.hi;
  put(out, i * 4 + 3, twice(v));
  fout[i] = r.f;
}

// The same with the struct built in the kernel (for harnesses that pass only scalars and pointers).
extern "C" __global__ void mem_calls_flat(float scale, int bias, int k, const int* in, int* out, float* fout, int n) {
  Params p;
  p.scale = scale; p.bias = bias; p.k = k;

  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  int v = in[i];
  Pair r = split(p, v);
  out[i * 4 + 0] = mad3(v, i);
  out[i * 4 + 1] = r.lo;
  out[i * 4 + 2] = r.hi;
  put(out, i * 4 + 3, twice(v));
  fout[i] = r.f;
}
