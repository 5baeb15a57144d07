// Monte Carlo with random number generators written here: a xorwow-style generator (five words of
// xorshift state plus a Weyl counter) seeded per thread through an integer hash, and a counter-
// based generator in the Philox style (multiply-high rounds over a two-word counter).
// variants: sm80 fast
#include <cuda_runtime.h>
#include <math.h>

struct XorwowState {
    unsigned v[5];
    unsigned d;
};

__device__ __forceinline__ unsigned mix32(unsigned x) {
    x ^= x >> 16;
    x *= 0x45d9f3bu;
    x ^= x >> 16;
    x *= 0x45d9f3bu;
    x ^= x >> 16;
    return x;
}

__device__ void xorwow_init(XorwowState* s, unsigned seed, unsigned subsequence) {
    unsigned h = mix32(seed ^ mix32(subsequence + 0x9e3779b9u));
    for (int k = 0; k < 5; k++) {
        h = mix32(h + 0x6a09e667u * (k + 1));
        s->v[k] = h | (k == 0 ? 1u : 0u);
    }
    s->d = mix32(h ^ 0xbb67ae85u);
}

__device__ __forceinline__ unsigned xorwow_next(XorwowState* s) {
    unsigned t = s->v[0] ^ (s->v[0] >> 2);
    s->v[0] = s->v[1];
    s->v[1] = s->v[2];
    s->v[2] = s->v[3];
    s->v[3] = s->v[4];
    s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
    s->d += 362437u;
    return s->v[4] + s->d;
}

// Uniform in (0, 1]: 24 random bits, exact.
__device__ __forceinline__ float to_unit(unsigned r) { return ((r >> 8) + 1) * (1.0f / 16777216.0f); }

// Each thread throws `samples` darts at the unit square; per-thread hit counts, and the total in a
// 64-bit counter (one atomic per warp after a shuffle reduction).
extern "C" __global__ void mc_pi(unsigned* hits, unsigned long long* total, unsigned seed, int samples) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    XorwowState st;
    xorwow_init(&st, seed, tid);
    unsigned inside = 0;
    for (int k = 0; k < samples; k++) {
        float x = to_unit(xorwow_next(&st));
        float y = to_unit(xorwow_next(&st));
        if (x * x + y * y <= 1.0f) inside++;
    }
    hits[tid] = inside;
    unsigned w = inside;
    for (int off = 16; off > 0; off >>= 1) w += __shfl_down_sync(0xffffffffu, w, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(total, (unsigned long long)w);
}

// Philox-style counter-based generator: 7 rounds over (ctr, key).
__device__ __forceinline__ uint2 philox_like(uint2 ctr, unsigned key) {
#pragma unroll
    for (int r = 0; r < 7; r++) {
        unsigned hi = __umulhi(0xcd9e8d57u, ctr.x);
        unsigned lo = 0xcd9e8d57u * ctr.x;
        ctr = make_uint2(hi ^ key ^ ctr.y, lo);
        key += 0x9e3779b9u;
    }
    return ctr;
}

// out_bits[2i], out_bits[2i+1]: the raw words for counter i; out_unif[2i..]: their floats in [0,1).
extern "C" __global__ void philox_fill(unsigned* out_bits, float* out_unif, unsigned key, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint2 r = philox_like(make_uint2(i, 0x1234567u), key);
    out_bits[2 * i] = r.x;
    out_bits[2 * i + 1] = r.y;
    out_unif[2 * i] = r.x * 2.3283064365386963e-10f;
    out_unif[2 * i + 1] = r.y * 2.3283064365386963e-10f;
}

// European call under geometric Brownian motion: Box-Muller normals (logf, sqrtf, sincosf), payoff
// max(S_T - K, 0) discounted with expf; one partial sum per block, and the per-path payoffs.
extern "C" __global__ void mc_option(float* payoffs, float* block_sums, unsigned seed, float S0, float K, float r,
                                     float sigma, float T) {
    __shared__ float partial[256];
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    XorwowState st;
    xorwow_init(&st, seed, tid);
    float u1 = to_unit(xorwow_next(&st));
    float u2 = to_unit(xorwow_next(&st));
    float rad = sqrtf(-2.0f * logf(u1));
    float s, c;
    sincosf(6.2831853f * u2, &s, &c);
    float z0 = rad * c, z1 = rad * s;
    float drift = (r - 0.5f * sigma * sigma) * T, vol = sigma * sqrtf(T);
    float disc = expf(-r * T);
    float p0 = fmaxf(S0 * expf(drift + vol * z0) - K, 0.0f) * disc;
    float p1 = fmaxf(S0 * expf(drift + vol * z1) - K, 0.0f) * disc;
    payoffs[2 * tid] = p0;
    payoffs[2 * tid + 1] = p1;
    partial[threadIdx.x] = p0 + p1;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) block_sums[blockIdx.x] = partial[0];
}
