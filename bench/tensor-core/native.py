import cupy as cp, numpy as np, os, sys
here = os.path.dirname(os.path.abspath(__file__))
ptx = os.path.join(here, 'wmma_gemm_plain.ptx')
if not os.path.exists(ptx): ptx = os.path.join(here, '..', '..', 'tests', 'matrix', 'kernels', 'wmma_gemm_plain.ptx')
mod = cp.RawModule(path=ptx)
S = 4096
a = (cp.random.rand(S * S, dtype=cp.float32) - 0.5).astype(cp.float16); b = (cp.random.rand(S * S, dtype=cp.float32) - 0.5).astype(cp.float16)
d = cp.zeros(S * S, dtype=cp.float32)
for name, tile in (('gemm_plain16', 16), ('gemm_warp32', 32)):
    f = mod.get_function(name)
    grid, block = (S // tile, S // (4 * tile)), (128,)
    args = (a, b, d, np.uint32(S), np.uint32(S), np.uint32(S))
    f(grid, block, args); cp.cuda.Device().synchronize()
    s, e = cp.cuda.Event(), cp.cuda.Event(); s.record()
    for _ in range(20): f(grid, block, args)
    e.record(); e.synchronize(); ms = cp.cuda.get_elapsed_time(s, e) / 20
    print(f'[native] {name}: {ms:.3f} ms, {2 * S**3 / (ms / 1e3) / 1e12:.2f} TFLOP/s')
