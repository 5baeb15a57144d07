# Records native CUDA results of the convergence kernels (tests/kernels/conv_*.ptx) for
# tests/warps/convergence.gpu.test.ts. Run on a machine with an NVIDIA GPU and cupy:
#   python3 tests/warps/native/conv_record.py OUT_DIR
# The cases mirror CONV_CASES in tests/warps/convergence-cases.ts (same shapes and inputs).
import json, os, sys
import numpy as np
import cupy as cp

CASES = [
    # file, kernel, grid, block, input words, output words, scalar ints
    ('conv_early_return', 'conv_early_return', 4, 128, 512, 512, [3 * 128 + 77]),
    ('conv_early_return', 'conv_stride_reduce', 3, 128, 5000, 3, [5000]),
    ('conv_divergent', 'conv_branch_sync', 2, 128, 256, 256, []),
    ('conv_divergent', 'conv_loop_warps', 2, 128, 256, 256, []),
    ('conv_divergent', 'conv_loop_continue', 2, 128, 256, 256, []),
    ('conv_more', 'conv_loop_once', 2, 128, 256, 256, []),
    ('conv_more', 'conv_loop_return', 2, 128, 256, 256, []),
    ('conv_more', 'conv_both_sides', 2, 128, 256, 256, []),
    ('conv_more', 'conv_loop_last', 2, 128, 256, 256, []),
    ('conv_bar_red', 'conv_bar_red', 3, 128, 384, 4 * 384, []),
    ('conv_bar_red', 'conv_bar_red_exit', 3, 128, 384, 3 * 384, [2 * 128 + 45]),
    ('conv_named', 'conv_named', 2, 128, 256, 256, []),
    ('conv_named2', 'conv_named_pipe', 3, 128, 384, 384, []),
    ('conv_named2', 'conv_named_subset', 3, 128, 384, 384, []),
    ('conv_named2', 'conv_named_lag', 3, 128, 384, 384, []),
    ('conv_named2', 'conv_named_partial', 3, 48, 144, 144, []),
]

def conv_input(words):
    a = np.zeros(words, dtype=np.int32)
    x = 12345
    for k in range(words):
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF
        a[k] = ((x >> 16) % 120) - 20
    return a

here = os.path.dirname(os.path.abspath(__file__))
kernels = os.path.join(here, '..', '..', 'kernels')
out_dir = sys.argv[1]
results = {}
for f, kernel, grid, block, nin, nout, scalars in CASES:
    mod = cp.RawModule(path=os.path.join(kernels, f + '.ptx'))
    fn = mod.get_function(kernel)
    inp = cp.asarray(conv_input(nin))
    out = cp.full(nout, 0xDEADBEEF, dtype=cp.uint32)
    fn((grid,), (block,), (inp, out, *[np.int32(s) for s in scalars]))
    cp.cuda.Device().synchronize()
    results[kernel] = [int(v) for v in cp.asnumpy(out)]
results['_device'] = cp.cuda.runtime.getDeviceProperties(0)['name'].decode()
with open(os.path.join(out_dir, 'conv_native.json'), 'w') as fh:
    json.dump(results, fh)
print('recorded', len(CASES), 'kernels on', results['_device'])
