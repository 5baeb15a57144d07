# Native: the same PTX (bench/kernels/bandwidth.ptx) through CUDA via cupy, with CUDA events.
# Prints one JSON line per kernel, like bench/gpu-bandwidth.mjs.  python3 bench/native-bandwidth.py
import json, os, cupy as cp
here = os.path.dirname(os.path.abspath(__file__))
mod = cp.RawModule(path=os.path.join(here, 'kernels', 'bandwidth.ptx'))
N = int(os.environ.get('BENCH_N', 1 << 26)); ITER = int(os.environ.get('BENCH_ITER', 30)); BLOCK = 256
x = cp.ones(N, dtype=cp.float32); y = cp.full(N, 2, dtype=cp.float32)
def time(name, grid, args, nbytes):
    k = mod.get_function(name)
    k((grid,), (BLOCK,), args); cp.cuda.Device().synchronize()
    per = []
    for _ in range(5):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        for _ in range(ITER): k((grid,), (BLOCK,), args)
        e.record(); e.synchronize()
        per.append(cp.cuda.get_elapsed_time(s, e) / ITER)
    per.sort(); ms = per[2]
    print(json.dumps({'side': 'cuda', 'kernel': name, 'bytes': nbytes, 'ms': ms, 'gbps': nbytes / ms / 1e6}))
time('copy_f32x4', (N // 4 + BLOCK - 1) // BLOCK, (x, y, cp.uint32(N // 4)), 2 * N * 4)
time('copy_u32', (N + BLOCK - 1) // BLOCK, (x, y, cp.uint32(N)), 2 * N * 4)
time('saxpy', (N + BLOCK - 1) // BLOCK, (cp.uint32(N), cp.float32(2.5), x, y), 3 * N * 4)
