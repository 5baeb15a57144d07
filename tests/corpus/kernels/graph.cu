// Graph and sparse kernels over CSR adjacency: a breadth-first search level step in the two-kernel
// style of the classic GPU benchmark suites (bool masks, one thread per node), connected components
// by label propagation with atomicMin, and sparse matrix-vector products (a thread per row, and a
// warp per row with a shuffle reduction).
// variants: sm80
#include <cuda_runtime.h>

// Expand the frontier: each frontier node leaves it and marks unvisited neighbours, setting their cost.
extern "C" __global__ void bfs_expand(const int* row_offsets, const int* cols, bool* frontier, bool* updating,
                                      const bool* visited, int* cost, int n) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && frontier[tid]) {
        frontier[tid] = false;
        for (int e = row_offsets[tid]; e < row_offsets[tid + 1]; e++) {
            int id = cols[e];
            if (!visited[id]) {
                cost[id] = cost[tid] + 1;
                updating[id] = true;
            }
        }
    }
}

// Move the marked nodes into the next frontier; *over says whether anything moved.
extern "C" __global__ void bfs_update(bool* frontier, bool* updating, bool* visited, int* over, int n) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && updating[tid]) {
        frontier[tid] = true;
        visited[tid] = true;
        *over = 1;
        updating[tid] = false;
    }
}

// labels[v] = min over v's neighbours' labels, with atomicMin; *changed counts updates.
extern "C" __global__ void cc_propagate(const int* row_offsets, const int* cols, int* labels, int* changed, int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) return;
    int mine = labels[v];
    for (int e = row_offsets[v]; e < row_offsets[v + 1]; e++) {
        int u = cols[e];
        int theirs = labels[u];
        if (theirs < mine) {
            atomicMin(&labels[v], theirs);
            mine = theirs;
            atomicAdd(changed, 1);
        } else if (mine < theirs) {
            atomicMin(&labels[u], mine);
        }
    }
}

extern "C" __global__ void spmv_csr_scalar(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                           const float* __restrict__ vals, const float* __restrict__ x, float* y) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float dot = 0.0f;
        for (int j = row_ptr[row]; j < row_ptr[row + 1]; j++) dot += vals[j] * __ldg(&x[col_idx[j]]);
        y[row] = dot;
    }
}

// A warp per row: lanes stride over the row, then a shfl_down reduction; lane 0 writes.
extern "C" __global__ void spmv_csr_vector(int rows, const int* row_ptr, const int* col_idx, const float* vals,
                                           const float* x, float* y) {
    int warp_id = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;
    if (warp_id >= rows) return;
    float sum = 0.0f;
    for (int j = row_ptr[warp_id] + lane; j < row_ptr[warp_id + 1]; j += 32) sum += vals[j] * x[col_idx[j]];
    for (int off = 16; off > 0; off >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (lane == 0) y[warp_id] = sum;
}
