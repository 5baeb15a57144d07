import cupy as cp, numpy as np, os, sys
here = os.path.dirname(os.path.abspath(__file__)); S = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
f = cp.RawModule(path=os.path.join(here, 'matmul_128x128x32.ptx')).get_function('mm')
f.max_dynamic_shared_size_bytes = 32768
a = (cp.random.randint(-32, 33, S * S) / 64).astype(cp.float16); b = (cp.random.randint(-32, 33, S * S) / 64).astype(cp.float16)
c = cp.zeros(S * S, dtype=cp.float32); z = cp.zeros(4, dtype=cp.uint32)
args = (a, b, c, np.int32(S), np.int32(S), np.int32(S), z, z)
f((S // 128, S // 128), (128,), args, shared_mem=32768); cp.cuda.Device().synchronize()
ref = (a.reshape(S, S).astype(cp.float32) @ b.reshape(S, S).astype(cp.float32)).ravel()
print('[native] exact vs cupy f32 matmul:', bool(cp.all(ref == c)))
s, e = cp.cuda.Event(), cp.cuda.Event(); s.record()
for _ in range(20): f((S // 128, S // 128), (128,), args, shared_mem=32768)
e.record(); e.synchronize(); ms = cp.cuda.get_elapsed_time(s, e) / 20
print(f'[native] mm {S}^3: {ms:.3f} ms, {2 * S**3 / (ms / 1e3) / 1e12:.2f} TFLOP/s')
