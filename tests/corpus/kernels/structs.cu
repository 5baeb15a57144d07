// C++ the way application code uses it in kernels: a templated transform with functor objects,
// an array of particle structs updated in place, a kernel taking a parameter struct by value, and
// a struct-of-arrays reduction into a small struct of results.
// variants: sm80
#include <cuda_runtime.h>

struct Square {
    template <typename T>
    __device__ T operator()(T v) const { return v * v; }
};

struct AffineClamp {
    float a, b, lo, hi;
    __device__ float operator()(float v) const { return fminf(fmaxf(a * v + b, lo), hi); }
};

template <typename T, typename Op>
__global__ void transform(const T* __restrict__ in, T* __restrict__ out, int n, Op op) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = op(in[i]);
}

template __global__ void transform<int, Square>(const int*, int*, int, Square);
template __global__ void transform<double, Square>(const double*, double*, int, Square);
template __global__ void transform<float, AffineClamp>(const float*, float*, int, AffineClamp);

struct Particle {
    float3 pos;
    float3 vel;
    float mass;
    int id;
};

// Explicit Euler step with gravity and a floor at y = 0 that reflects and damps the velocity.
extern "C" __global__ void particles_step(Particle* p, int n, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle q = p[i];
    q.vel.y -= 9.81f * dt;
    q.pos.x += q.vel.x * dt;
    q.pos.y += q.vel.y * dt;
    q.pos.z += q.vel.z * dt;
    if (q.pos.y < 0.0f) {
        q.pos.y = -q.pos.y;
        q.vel.y = -0.5f * q.vel.y;
        q.id |= 0x10000;
    }
    p[i] = q;
}

struct Stats {
    int count;
    float sum;
    float min;
    float max;
};

// Per-block statistics of the values whose key is selected (a key in [lo, hi)): one Stats per block.
extern "C" __global__ void select_stats(const int* keys, const float* vals, Stats* out, int n, int lo, int hi) {
    __shared__ Stats s[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Stats mine = {0, 0.0f, 3.0e38f, -3.0e38f};
    if (i < n && keys[i] >= lo && keys[i] < hi) {
        float v = vals[i];
        mine = {1, v, v, v};
    }
    s[threadIdx.x] = mine;
    __syncthreads();
    for (int st = blockDim.x / 2; st > 0; st >>= 1) {
        if (threadIdx.x < st) {
            Stats o = s[threadIdx.x + st];
            Stats& m = s[threadIdx.x];
            m.count += o.count;
            m.sum += o.sum;
            m.min = fminf(m.min, o.min);
            m.max = fmaxf(m.max, o.max);
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
