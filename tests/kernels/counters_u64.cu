// 64-bit counters as real code keeps them: a grand total and a few per-class totals bumped with
// atomicAdd(unsigned long long*) by every thread of a large grid, plus a running maximum.
extern "C" __global__ void counters_u64(const unsigned* __restrict__ values, unsigned long long* total,
                                        unsigned long long* per_class, unsigned long long* biggest, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long v = (unsigned long long)values[i] << 8;  // crosses 2^32 in the sum
  atomicAdd(total, v);
  atomicAdd(&per_class[values[i] % 4], 1ULL);
  atomicMax(biggest, v * 3 + i);
}
