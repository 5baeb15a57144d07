// The shared memory CUDA reserves per block, through %reserved_smem_offset_* as cooperative
// groups reads it (cooperative_groups/details/memory.h, reserved_shared_ptr): a block sum whose
// per-warp partials live in the reserved region next to an ordinary __shared__ array, and the
// region's bounds as the special registers give them.
// arch: sm_80

__device__ void* reserved_shared_ptr() {
  unsigned long long ptr = 0;
  asm("{\n\t"
      " .reg .u32 start;\n\t"
      " .reg .u64 extended;\n\t"
      " mov.u32 start, %%reserved_smem_offset_1;\n\t"
      " cvt.u64.u32 extended, start;\n\t"
      " cvta.shared.u64 %0, extended;\n\t"
      "}"
      : "=l"(ptr));
  return reinterpret_cast<void*>(ptr);
}

__device__ unsigned reserved_bound(int which) {
  unsigned v;
  switch (which) {
    case 0: asm("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(v)); break;
    case 1: asm("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(v)); break;
    case 2: asm("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(v)); break;
    case 3: asm("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(v)); break;
    default: asm("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(v)); break;
  }
  return v;
}

// sums[blockIdx.x] = sum of the block's elements, the per-warp partials in the reserved region;
// copy[i] = in[i] through an ordinary __shared__ array, which must not overlap it. Block 0 checks
// what CUDA promises of the bounds: flags[0] cap == end - begin, flags[1] begin <= _0 < end,
// flags[2] the 288 bytes cooperative groups keeps at _1 fit before end, flags[3] the __shared__
// array lies outside [begin, end).
extern "C" __global__ void reserved_block_sum(const int* in, int* sums, int* copy, int* flags, int n) {
  __shared__ int staged[256];
  unsigned long long* partial = static_cast<unsigned long long*>(reserved_shared_ptr());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  staged[threadIdx.x] = v;
  int s = v;
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffff, s, offset);
  if (threadIdx.x % 32 == 0) partial[threadIdx.x / 32] = s;
  __syncthreads();
  if (i < n) copy[i] = staged[threadIdx.x];
  if (threadIdx.x == 0) {
    long long total = 0;
    for (int w = 0; w < blockDim.x / 32; w++) total += (long long)partial[w];
    sums[blockIdx.x] = (int)total;
    if (blockIdx.x == 0) {
      unsigned begin = reserved_bound(0), end = reserved_bound(1), cap = reserved_bound(2);
      unsigned off0 = reserved_bound(3), off1 = reserved_bound(4);
      unsigned at = (unsigned)__cvta_generic_to_shared(staged);
      flags[0] = cap == end - begin;
      flags[1] = begin <= off0 && off0 < end;
      flags[2] = begin <= off1 && off1 + 288 <= end;
      flags[3] = at + sizeof(staged) <= begin || at >= end;
    }
  }
}
