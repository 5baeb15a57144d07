#!/usr/bin/env python3
"""Writes the Triton matmul PTX that tests/matrix/triton.gpu.test.ts runs: three matmuls of our own
written in Triton and compiled for sm_80 without a GPU (Triton 3.6.0), so the tests see the code
Triton really emits (cp.async pipelines, ldmatrix with swizzled shared layouts, mma.sync m16n8k16
and m16n8k32, layout conversions through shared memory in the epilogue):

  mm_f16_64x64x32.ptx     C(f16) = A(f16) B(f16), f32 accumulators; 64x64x32 tiles, 4 warps, 3 stages
  mm_bias_relu_128x64x32.ptx  C(f32) = relu(A B + bias[col]); 128x64x32 tiles, 4 warps, 2 stages
  mm_s8_masked_64x64x64.ptx   C(s32) = A(s8) B(s8), any M, N, K: the edge tiles masked (zero-filled
                              cp.async); 64x64x64 tiles, 4 warps, 2 stages

and each again with one warp on small tiles (mm_*_small_*.ptx, the builds lavapipe runs in every test run).

A is M x K and B is K x N, both row-major; C is M x N. Every kernel takes (A, B, [bias,] C, M, N,
K) plus the two global-scratch pointers Triton 3.x appends. Launch: grid (ceil(M/BM), ceil(N/BN)),
32 threads a warp, the dynamic shared bytes in each header. Regenerate from this directory:
`python3 -m venv /tmp/tv && /tmp/tv/bin/pip install triton==3.6.0 && /tmp/tv/bin/python gen.py`.
Line info is off (TRITON_DISABLE_LINE_INFO) so the PTX does not carry this machine's paths."""
import os
os.environ['TRITON_DISABLE_LINE_INFO'] = '1'
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

HERE = os.path.dirname(os.path.abspath(__file__))


@triton.jit
def f16_tiles(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # exact tiles only: the test sizes are multiples of the block
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k0 + rk)[None, :])
        y = tl.load(b + (k0 + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@triton.jit
def bias_relu_tiles(a, b, bias, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k0 + rk)[None, :])
        y = tl.load(b + (k0 + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(x, y)
    acc += tl.load(bias + rn)[None, :]
    tl.store(c + rm[:, None] * N + rn[None, :], tl.maximum(acc, 0.0))


@triton.jit
def s8_masked_tiles(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        x = tl.load(a + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0)
        y = tl.load(b + kk[:, None] * N + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0)
        acc += tl.dot(x, y, out_dtype=tl.int32)
    tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


# The entry points: each name is one PTX entry (and one native recording), so the small-tile
# builds of the same matmul get entries of their own. Each is a one-line call of its matmul's body
# above: Triton names the entry after the Python function and compiles it from its source text, so
# the entries stay written out rather than generated (the committed PTX is what these exact
# functions produce).
@triton.jit
def mm_f16(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    f16_tiles(a, b, c, M, N, K, BM, BN, BK)


@triton.jit
def mm_f16_small(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    f16_tiles(a, b, c, M, N, K, BM, BN, BK)


@triton.jit
def mm_bias_relu(a, b, bias, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    bias_relu_tiles(a, b, bias, c, M, N, K, BM, BN, BK)


@triton.jit
def mm_bias_relu_small(a, b, bias, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    bias_relu_tiles(a, b, bias, c, M, N, K, BM, BN, BK)


@triton.jit
def mm_s8_masked(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    s8_masked_tiles(a, b, c, M, N, K, BM, BN, BK)


@triton.jit
def mm_s8_masked_small(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    s8_masked_tiles(a, b, c, M, N, K, BM, BN, BK)


def sig(names, types):
    s = dict(zip(names, types))
    s.update({'BM': 'constexpr', 'BN': 'constexpr', 'BK': 'constexpr'})
    return s


# Every pointer and M, N, K are declared multiples of 16, which lets Triton use 16-byte cp.async
# (the tests keep to such sizes; the masked kernel's M, N, K are multiples of 16 but not of its tiles).
F16 = sig('a b c M N K'.split(), ['*fp16', '*fp16', '*fp16', 'i32', 'i32', 'i32'])
BIAS = sig('a b bias c M N K'.split(), ['*fp16', '*fp16', '*fp32', '*fp32', 'i32', 'i32', 'i32'])
S8 = sig('a b c M N K'.split(), ['*i8', '*i8', '*i32', 'i32', 'i32', 'i32'])
# One row per matmul: (signature, num_stages, builds), each build (entry, tile, num_warps) written to
# <entry>_<BM>x<BN>x<BK>.ptx. The first build has Triton's usual tiles; the second, one warp on small
# tiles, is the one lavapipe runs in every test run.
MATMULS = [
    (F16, 3, [(mm_f16, (64, 64, 32), 4), (mm_f16_small, (16, 16, 32), 1)]),
    (BIAS, 2, [(mm_bias_relu, (128, 64, 32), 4), (mm_bias_relu_small, (32, 16, 16), 1)]),
    (S8, 2, [(mm_s8_masked, (64, 64, 64), 4), (mm_s8_masked_small, (16, 16, 32), 1)]),
]

SM90_ONLY = ('wgmma', 'cp.async.bulk', 'mbarrier.try_wait', 'setmaxnreg', 'stmatrix', 'elect.sync', 'fence.proxy')


def build(fn, signature, tile, warps, stages):
    """Compiles one build of a matmul for sm_80 and writes its PTX, with a header giving the launch."""
    bm, bn, bk = tile
    name = '%s_%dx%dx%d' % (fn.__name__, bm, bn, bk)
    n = len([t for t in signature.values() if t != 'constexpr'])
    src = ASTSource(fn=fn, signature=signature, constexprs={'BM': bm, 'BN': bn, 'BK': bk},
                    attrs={(i,): [['tt.divisibility', 16]] for i in range(n)})
    k = triton.compile(src, target=GPUTarget('cuda', 80, 32), options={'num_warps': warps, 'num_stages': stages})
    ptx = k.asm['ptx']
    bad = [op for op in SM90_ONLY if op in ptx]
    if bad:
        raise SystemExit('%s: sm_90-only instructions %s' % (name, bad))
    header = ('// %s: written in Triton (tests/matrix/triton/gen.py, kernel %s), compiled for sm_80 by\n'
              '// Triton %s: `/tmp/tv/bin/python gen.py`. Tiles %dx%dx%d, num_warps %d, num_stages %d;\n'
              '// launch with %d threads and %d bytes of dynamic shared memory.\n'
              % (name, k.metadata.name, triton.__version__, bm, bn, bk, warps, stages, 32 * warps, k.metadata.shared))
    with open(os.path.join(HERE, name + '.ptx'), 'w') as f:
        f.write(header + ptx)
    print(name, 'entry', k.metadata.name, 'shared', k.metadata.shared, 'warps', k.metadata.num_warps)


def main():
    for signature, stages, builds in MATMULS:
        for fn, tile, warps in builds:
            build(fn, signature, tile, warps, stages)


if __name__ == '__main__':
    main()
