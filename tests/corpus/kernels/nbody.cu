// All-pairs gravitational n-body: accelerations from float4 bodies (xyz, mass) tiled through
// shared memory with a softening term and rsqrtf, then a leapfrog-style integration step.
// variants: sm80 fast
#include <cuda_runtime.h>

#define SOFTENING2 1e-3f

__device__ __forceinline__ float3 body_interaction(float4 bi, float4 bj, float3 ai) {
    float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
    float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + SOFTENING2;
    float inv = rsqrtf(dist2);
    float inv3 = inv * inv * inv;
    float s = bj.w * inv3;
    ai.x += r.x * s;
    ai.y += r.y * s;
    ai.z += r.z * s;
    return ai;
}

// acc[i] (float4, w unused = 0) for n bodies; blockDim.x bodies per tile, dynamic shared of
// blockDim.x float4. n is a multiple of blockDim.x.
extern "C" __global__ void nbody_forces(float4* acc, const float4* pos, int n) {
    extern __shared__ float4 shpos[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = pos[i];
    float3 a = make_float3(0.0f, 0.0f, 0.0f);
    for (int tile = 0; tile < n / (int)blockDim.x; tile++) {
        shpos[threadIdx.x] = pos[tile * blockDim.x + threadIdx.x];
        __syncthreads();
#pragma unroll 4
        for (int j = 0; j < blockDim.x; j++) a = body_interaction(me, shpos[j], a);
        __syncthreads();
    }
    acc[i] = make_float4(a.x, a.y, a.z, 0.0f);
}

// vel += acc * dt; pos.xyz += vel * dt (mass kept).
extern "C" __global__ void nbody_integrate(float4* pos, float4* vel, const float4* acc, int n, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 p = pos[i], v = vel[i], a = acc[i];
    v.x += a.x * dt;
    v.y += a.y * dt;
    v.z += a.z * dt;
    p.x += v.x * dt;
    p.y += v.y * dt;
    p.z += v.z * dt;
    pos[i] = p;
    vel[i] = v;
}
