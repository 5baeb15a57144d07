// Device functions called through function pointers: an activation chosen per element from a
// __device__ table (a .global initializer of function addresses), binary operators from a second
// table of another signature, a local array of pointers (`mov.u64 %rd, fname;`), and C++ virtual
// functions (vtables).
typedef float (*unary_fn)(float);
typedef float (*binary_fn)(float, float);

__device__ __noinline__ float act_relu(float x) { return x > 0.0f ? x : 0.0f; }
__device__ __noinline__ float act_leaky(float x) { return x > 0.0f ? x : 0.125f * x; }
__device__ __noinline__ float act_square(float x) { return x * x; }
__device__ __noinline__ float act_neg(float x) { return -x; }

__device__ __noinline__ float op_add(float a, float b) { return a + b; }
__device__ __noinline__ float op_sub(float a, float b) { return a - b; }
__device__ __noinline__ float op_max(float a, float b) { return fmaxf(a, b); }

__device__ unary_fn activations[4] = { act_relu, act_leaky, act_square, act_neg };
__device__ binary_fn operators[3] = { op_add, op_sub, op_max };

// out[i] = activations[which[i] % 4](operators[which[i] / 4 % 3](a[i], b[i]))
extern "C" __global__ void apply_activation(const float* a, const float* b, const int* which, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int w = which[i];
    binary_fn op = operators[(w / 4) % 3];
    unary_fn act = activations[w % 4];
    out[i] = act(op(a[i], b[i]));
  }
}

// out[i] = fs[(i + k) & 1](in[i]) with fs = { act_relu, act_square } built in local memory.
extern "C" __global__ void apply_local(const float* in, float* out, int n, int k) {
  unary_fn fs[2] = { act_relu, act_square };
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fs[(i + k) & 1](in[i]);
}

// C++ virtual functions: vtables are .global tables of function addresses, and a virtual call
// is an indirect call through a pointer loaded from the object's vtable. Shape::scale calls
// area() virtually in turn. out[i] = shape(kind[i] % 3, in[i])->scale(2).
struct Shape {
  float a;
  __device__ virtual float area() const = 0;
  __device__ virtual float scale(float k) const { return k * area(); }
};
struct Circle : Shape { __device__ float area() const override { return 3.0f * a * a; } };
struct Square : Shape {
  __device__ float area() const override { return a * a; }
  __device__ float scale(float k) const override { return k + area(); }
};
struct Triangle : Shape { __device__ float area() const override { return 0.5f * a * a; } };

__device__ __noinline__ float scaled(const Shape* s, float k) { return s->scale(k); }

extern "C" __global__ void shapes(const float* in, const int* kind, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Circle c;
  Square q;
  Triangle t;
  c.a = q.a = t.a = in[i];
  int k = kind[i] % 3;
  const Shape* s = k == 0 ? (const Shape*)&c : k == 1 ? (const Shape*)&q : (const Shape*)&t;
  out[i] = scaled(s, 2.0f);
}
