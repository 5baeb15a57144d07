// arch: sm_90
// Extern dynamic shared memory and special registers (issue 4): each block reverses its
// slice through `extern __shared__` memory; thread 0 of each block records special registers.
// Needs -arch=sm_90 (ptxas accepts cluster registers only for sm_90 targets; an sm_80 .ptx
// is rejected by the driver with CUDA_ERROR_INVALID_PTX): nvcc -ptx -arch=sm_90 -O3.
__device__ __forceinline__ unsigned sreg_dyn() { unsigned r; asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned sreg_total() { unsigned r; asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned sreg_smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned sreg_nsmid() { unsigned r; asm volatile("mov.u32 %0, %%nsmid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned sreg_nwarpid() { unsigned r; asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned sreg_clusterid() { unsigned r; asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned sreg_nclusterid() { unsigned r; asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned sreg_cluster_ctarank() { unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned sreg_cluster_nctarank() { unsigned r; asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned long long sreg_globaltimer() { unsigned long long r; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r)); return r; }

extern "C" __global__ void mem_special(const int* in, int* out, unsigned* regs) {
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  int i = t + blockIdx.x * blockDim.x;
  dyn[t] = in[i];
  __syncthreads();
  out[i] = dyn[blockDim.x - 1 - t];
  if (t == 0) {
    unsigned* r = regs + blockIdx.x * 12;
    long long c0 = clock64();
    unsigned k0 = clock();
    unsigned long long g0 = sreg_globaltimer();
    r[0] = sreg_dyn();
    r[1] = sreg_total();
    r[2] = sreg_smid() < sreg_nsmid() ? 1 : 0;
    r[3] = sreg_nwarpid() >= (blockDim.x + 31) / 32 ? 1 : 0;
    r[4] = sreg_clusterid();
    r[5] = sreg_nclusterid();
    r[6] = sreg_cluster_ctarank();
    r[7] = sreg_cluster_nctarank();
    long long c1 = clock64();
    unsigned k1 = clock();
    unsigned long long g1 = sreg_globaltimer();
    r[8] = c1 > c0 ? 1 : 0;
    r[9] = k1 - k0 > 0 ? 1 : 0;
    r[10] = g1 >= g0 ? 1 : 0;
    r[11] = 0x600d;
  }
}
