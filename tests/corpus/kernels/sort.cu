// Sorting: a bitonic sort of 1024-key tiles in shared memory, and the three kernels of one LSD
// radix-sort pass over 8-bit digits (per-tile digit histogram, a scan of the digit-major counts,
// a stable scatter that ranks equal digits with warp match and per-warp counts).
// variants: sm80 sm90
#include <cuda_runtime.h>

#define BITONIC_TILE 1024

// Sorts each tile of 1024 unsigned keys ascending (odd tiles descending when alternate != 0), with
// blockDim.x = 512: each thread owns one compare-exchange per step.
extern "C" __global__ void bitonic_sort_shared(unsigned* keys, int alternate) {
    __shared__ unsigned s[BITONIC_TILE];
    unsigned* tile = keys + blockIdx.x * BITONIC_TILE;
    int t = threadIdx.x;
    s[t] = tile[t];
    s[t + BITONIC_TILE / 2] = tile[t + BITONIC_TILE / 2];
    bool descending = alternate && (blockIdx.x & 1);
    for (int size = 2; size <= BITONIC_TILE; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            __syncthreads();
            int pos = 2 * t - (t & (stride - 1));
            bool dir = ((pos & size) == 0) != descending;
            if (size == BITONIC_TILE) dir = !descending;
            unsigned a = s[pos], b = s[pos + stride];
            if ((a > b) == dir) {
                s[pos] = b;
                s[pos + stride] = a;
            }
        }
    }
    __syncthreads();
    tile[t] = s[t];
    tile[t + BITONIC_TILE / 2] = s[t + BITONIC_TILE / 2];
}

// Key-value variant: float keys, int payload, one tile of 256 per block of 128 threads.
extern "C" __global__ void bitonic_sort_kv(float* keys, int* values) {
    __shared__ float sk[256];
    __shared__ int sv[256];
    int base = blockIdx.x * 256, t = threadIdx.x;
    sk[t] = keys[base + t];
    sk[t + 128] = keys[base + t + 128];
    sv[t] = values[base + t];
    sv[t + 128] = values[base + t + 128];
    for (int size = 2; size <= 256; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            __syncthreads();
            int pos = 2 * t - (t & (stride - 1));
            bool up = (pos & size) == 0 || size == 256;
            float a = sk[pos], b = sk[pos + stride];
            bool swap = up ? (a > b) : (a < b);
            if (swap) {
                sk[pos] = b;
                sk[pos + stride] = a;
                int va = sv[pos];
                sv[pos] = sv[pos + stride];
                sv[pos + stride] = va;
            }
        }
    }
    __syncthreads();
    keys[base + t] = sk[t];
    keys[base + t + 128] = sk[t + 128];
    values[base + t] = sv[t];
    values[base + t + 128] = sv[t + 128];
}

#define RADIX_BITS 8
#define RADIX 256

// counts[digit * num_tiles + tile]: how many keys of this tile have the digit.
extern "C" __global__ void radix_histogram(const unsigned* keys, unsigned* counts, int n, int shift) {
    __shared__ unsigned hist[RADIX];
    for (int d = threadIdx.x; d < RADIX; d += blockDim.x) hist[d] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[(keys[i] >> shift) & (RADIX - 1)], 1u);
    __syncthreads();
    for (int d = threadIdx.x; d < RADIX; d += blockDim.x) counts[d * gridDim.x + blockIdx.x] = hist[d];
}

// Exclusive scan of the digit-major counts in place by one block (<= 1024 threads dividing count).
extern "C" __global__ void radix_scan_counts(unsigned* counts, int count) {
    __shared__ unsigned totals[1024];
    int per = count / blockDim.x;
    unsigned* mine = counts + threadIdx.x * per;
    unsigned sum = 0;
    for (int k = 0; k < per; k++) sum += mine[k];
    totals[threadIdx.x] = sum;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
        unsigned add = threadIdx.x >= off ? totals[threadIdx.x - off] : 0u;
        __syncthreads();
        totals[threadIdx.x] += add;
        __syncthreads();
    }
    unsigned run = totals[threadIdx.x] - sum;
    for (int k = 0; k < per; k++) {
        unsigned c = mine[k];
        mine[k] = run;
        run += c;
    }
}

// Stable scatter of one tile per block (blockDim.x = 256 = 8 warps): a key's place is the scanned
// count of its digit for this tile, plus the keys with the same digit in earlier warps, plus the
// lanes before it in its warp with the same digit (__match_any_sync).
extern "C" __global__ void radix_scatter(const unsigned* keys_in, const unsigned* vals_in, unsigned* keys_out,
                                         unsigned* vals_out, const unsigned* scanned, int n, int shift) {
    __shared__ unsigned warp_counts[8][RADIX];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int k = threadIdx.x; k < 8 * RADIX; k += blockDim.x) (&warp_counts[0][0])[k] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool valid = i < n;
    unsigned key = valid ? keys_in[i] : 0u;
    unsigned digit = valid ? (key >> shift) & (RADIX - 1) : RADIX;
    unsigned peers = __match_any_sync(0xffffffffu, digit);
    unsigned lower = peers & ((1u << lane) - 1);
    int rank_in_warp = __popc(lower);
    if (valid && lower == 0) warp_counts[warp][digit] = __popc(peers);
    __syncthreads();
    if (valid) {
        unsigned before = 0;
        for (int w = 0; w < warp; w++) before += warp_counts[w][digit];
        unsigned dst = scanned[digit * gridDim.x + blockIdx.x] + before + rank_in_warp;
        keys_out[dst] = key;
        vals_out[dst] = vals_in[i];
    }
}
