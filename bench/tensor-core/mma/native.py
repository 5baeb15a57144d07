# Native side of bench/tensor-core/mma: gemm_f16_mma_pipelined (tests/matrix/kernels/realistic_tc.ptx) through CUDA at S^3,
# checked against cupy's f32 matmul of the same f16 inputs, then 20 launches timed with events.
#   python3 bench/tensor-core/mma/native.py [size]
import cupy as cp, numpy as np, os, sys
here = os.path.dirname(os.path.abspath(__file__)); S = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
f = cp.RawModule(path=os.path.join(here, '..', '..', '..', 'tests', 'matrix', 'kernels', 'realistic_tc.ptx')).get_function('gemm_f16_mma_pipelined')
a = (cp.random.randint(-32, 33, S * S) / 64).astype(cp.float16); b = (cp.random.randint(-32, 33, S * S) / 64).astype(cp.float16)
c = cp.zeros(S * S, dtype=cp.float32)
args = (a, b, c, np.uint32(S), np.uint32(S), np.uint32(S))
f((S // 64, S // 64), (128,), args); cp.cuda.Device().synchronize()
ref = (a.reshape(S, S).astype(cp.float32) @ b.reshape(S, S).astype(cp.float32)).ravel()
print('[native] exact vs cupy f32 matmul:', bool(cp.all(ref == c)))
s, e = cp.cuda.Event(), cp.cuda.Event(); s.record()
for _ in range(20): f((S // 64, S // 64), (128,), args)
e.record(); e.synchronize(); ms = cp.cuda.get_elapsed_time(s, e) / 20
print(f'[native] gemm_f16_mma_pipelined {S}^3: {ms:.3f} ms, {2 * S**3 / (ms / 1e3) / 1e12:.2f} TFLOP/s')
