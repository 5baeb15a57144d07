# CUDA side of bench/float-exactness (ours.mjs says what is measured); cupy events, median of 5.
import cupy as cp, numpy as np, json
import os
m = cp.RawModule(path=os.environ.get('PTX', 'bench/float-exactness/kernels.ptx'))
def t(fn, grid, block, args, smem=0, iters=20):
    fn(grid, block, args, shared_mem=smem); cp.cuda.Device().synchronize()
    s, e = cp.cuda.Event(), cp.cuda.Event()
    best = []
    for _ in range(5):
        s.record()
        for _ in range(iters): fn(grid, block, args, shared_mem=smem)
        e.record(); e.synchronize(); best.append(cp.cuda.get_elapsed_time(s, e) / iters)
    return sorted(best)[2]
NB = 65536
pos = cp.random.rand(NB * 4, dtype=cp.float32); acc = cp.zeros(NB * 4, cp.float32)
print(json.dumps({'entry': 'nbody', 'native': t(m.get_function('nbody'), (NB // 256,), (256,), (pos, acc, np.int32(NB), np.float32(0.01)), 256 * 16, 10)}))
NX = 8192
a = cp.random.rand(NX * NX, dtype=cp.float32); b = cp.zeros_like(a)
print(json.dumps({'entry': 'stencil5', 'native': t(m.get_function('stencil5'), (NX // 32, NX // 8), (32, 8), (a, b, np.int32(NX), np.int32(NX)))}))
N = 1 << 26
x = cp.random.rand(N, dtype=cp.float32); o = cp.zeros(4, cp.float32)
print(json.dumps({'entry': 'blocksum', 'native': t(m.get_function('blocksum'), (1024,), (256,), (x, o, np.int32(N)))}))
