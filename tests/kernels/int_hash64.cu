// 64-bit hashing: splitmix64, xorshift64*, rotations and bit counts on 64-bit values.
// out[4i + 0..3] = {splitmix64(seed[i]), xorshift64star(4 rounds from splitmix | 1),
//   rotl(h, i & 63) ^ (h >> 7), (popcll(h) | clzll(s) << 8 | ffsll(h) << 16)}
#include <stdint.h>

__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

extern "C" __global__ void int_hash64(const uint64_t *seed, uint64_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t h = splitmix64(seed[i]);
  uint64_t s = h | 1;
  for (int k = 0; k < 4; k++) {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
  }
  unsigned r = i & 63;
  uint64_t rot = (h << r) | (h >> ((64 - r) & 63));
  out[4 * i + 0] = h;
  out[4 * i + 1] = s * 0x2545F4914F6CDD1Dull;
  out[4 * i + 2] = rot ^ (h >> 7);
  out[4 * i + 3] = (uint64_t)__popcll(h) | ((uint64_t)__clzll(s) << 8) | ((uint64_t)__ffsll(h) << 16) | ((uint64_t)__umul64hi(h, s) << 24);
}
