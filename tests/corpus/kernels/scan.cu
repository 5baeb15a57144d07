// Prefix sums: a warp scan with shfl_up, a Hillis-Steele block scan with a double buffer, a
// work-efficient (Blelloch) block scan with padded shared memory, and the three kernels of a
// device-wide scan (scan tiles and record their totals, scan the totals, add them back).
// variants: sm80
#include <cuda_runtime.h>

// Inclusive scan of each warp's 32 values (lanes past n contribute 0).
extern "C" __global__ void warp_scan_inclusive(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & (warpSize - 1);
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d <<= 1) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += up;
    }
    if (i < n) out[i] = v;
}

// Exclusive scan of one block's elements; dynamic shared memory holds 2 * blockDim.x ints.
extern "C" __global__ void block_scan_hillis_steele(const int* in, int* out, int n) {
    extern __shared__ int temp[];
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int pout = 0, pin = 1;
    temp[tid] = (tid > 0 && gid - 1 < n) ? in[gid - 1] : 0;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (tid >= offset)
            temp[pout * blockDim.x + tid] = temp[pin * blockDim.x + tid] + temp[pin * blockDim.x + tid - offset];
        else
            temp[pout * blockDim.x + tid] = temp[pin * blockDim.x + tid];
        __syncthreads();
    }
    if (gid < n) out[gid] = temp[pout * blockDim.x + tid];
}

#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(i) ((i) >> LOG_NUM_BANKS)

// Exclusive work-efficient scan of 2 * blockDim.x floats per block (blockDim.x = 256); the block
// total goes to sums[blockIdx.x]. Inputs are small integers so every partial sum is exact.
extern "C" __global__ void block_scan_blelloch(const float* in, float* out, float* sums, int n) {
    __shared__ float temp[512 + 512 / 32];
    int thid = threadIdx.x;
    int base = blockIdx.x * 512;
    int ai = thid, bi = thid + 256;
    int bankOffsetA = CONFLICT_FREE_OFFSET(ai), bankOffsetB = CONFLICT_FREE_OFFSET(bi);
    temp[ai + bankOffsetA] = base + ai < n ? in[base + ai] : 0.0f;
    temp[bi + bankOffsetB] = base + bi < n ? in[base + bi] : 0.0f;
    int offset = 1;
    for (int d = 256; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (thid == 0) {
        int last = 511 + CONFLICT_FREE_OFFSET(511);
        sums[blockIdx.x] = temp[last];
        temp[last] = 0.0f;
    }
    for (int d = 1; d < 512; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += CONFLICT_FREE_OFFSET(a);
            b += CONFLICT_FREE_OFFSET(b);
            float t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    if (base + ai < n) out[base + ai] = temp[ai + bankOffsetA];
    if (base + bi < n) out[base + bi] = temp[bi + bankOffsetB];
}

// Device-wide inclusive scan, step 1: each block scans its tile of blockDim.x * ITEMS unsigned
// values (warp shuffles, then a scan of the warp totals), writes the tile and its total.
template <int ITEMS>
__global__ void scan_tiles(const unsigned* in, unsigned* out, unsigned* tile_sums, int n) {
    __shared__ unsigned warp_totals[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int first = (blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;
    unsigned items[ITEMS];
    unsigned running = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; k++) {
        running += first + k < n ? in[first + k] : 0u;
        items[k] = running;
    }
    unsigned v = running;
    for (int d = 1; d < 32; d *= 2) {
        unsigned up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += up;
    }
    if (lane == 31) warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        unsigned t = lane < blockDim.x / 32 ? warp_totals[lane] : 0u;
        for (int d = 1; d < 32; d *= 2) {
            unsigned up = __shfl_up_sync(0xffffffffu, t, d);
            if (lane >= d) t += up;
        }
        warp_totals[lane] = t;
    }
    __syncthreads();
    unsigned prefix = v - running + (warp > 0 ? warp_totals[warp - 1] : 0u);
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
        if (first + k < n) out[first + k] = items[k] + prefix;
    if (threadIdx.x == blockDim.x - 1) tile_sums[blockIdx.x] = prefix + running;
}

template __global__ void scan_tiles<4>(const unsigned*, unsigned*, unsigned*, int);

// Step 2: one block scans the tile totals in place (inclusive), count <= blockDim.x * 4.
extern "C" __global__ void scan_tile_sums(unsigned* sums, int count) {
    __shared__ unsigned s[1024];
    int tid = threadIdx.x;
    int per = (count + blockDim.x - 1) / blockDim.x;
    unsigned acc = 0;
    for (int k = 0; k < per; k++) {
        int i = tid * per + k;
        if (i < count) acc += sums[i];
    }
    s[tid] = acc;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
        unsigned t = tid >= off ? s[tid - off] : 0u;
        __syncthreads();
        s[tid] += t;
        __syncthreads();
    }
    unsigned run = tid > 0 ? s[tid - 1] : 0u;
    for (int k = 0; k < per; k++) {
        int i = tid * per + k;
        if (i < count) {
            run += sums[i];
            sums[i] = run;
        }
    }
}

// Step 3: add the scanned totals of the tiles before each tile.
extern "C" __global__ void scan_add_offsets(unsigned* out, const unsigned* scanned_sums, int n, int tile) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = i / tile;
    if (i < n && t > 0) out[i] += scanned_sums[t - 1];
}
