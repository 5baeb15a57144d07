# A plain Triton f16 matmul (f32 accumulators and output), 128x128x32 tiles, 4 warps, 3 stages,
# compiled for sm_80 without a GPU (Triton 3.6: `python3 matmul.py` writes matmul_128x128x32.ptx).
# The benchmark of the staged-mma tensor-core path runs its PTX (bench/tensor-core/gemm-ours.mjs
# triton against native.py). M, N, K multiples of 128 (no masks) and every pointer 16-byte aligned.
import triton, triton.language as tl, json
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
@triton.jit
def mm(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0); pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM); rn = pn * BN + tl.arange(0, BN); rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k0 + rk)[None, :])
        y = tl.load(b + (k0 + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * N + rn[None, :], acc)
sig={'a':'*fp16','b':'*fp16','c':'*fp32','M':'i32','N':'i32','K':'i32','BM':'constexpr','BN':'constexpr','BK':'constexpr'}
attrs={(i,): [['tt.divisibility', 16]] for i in range(6)}
src = ASTSource(fn=mm, signature=sig, constexprs={'BM':128,'BN':128,'BK':32}, attrs=attrs)
k = triton.compile(src, target=GPUTarget('cuda', 80, 32), options={'num_warps':4, 'num_stages':3})
open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'matmul_128x128x32.ptx'), 'w').write(k.asm['ptx']); print(k.metadata.shared, k.metadata.num_warps, k.metadata.name)
