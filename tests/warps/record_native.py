# Records native CUDA results of the warp kernels (tests/kernels/warp_*.ptx) on an NVIDIA GPU:
#   python3 tests/warps/record_native.py OUTDIR
# writes OUTDIR/warp_native.json: per case the launch shape, the input, and every output buffer
# (poisoned with 0xdeadbeef before the launch), as unsigned 32-bit words.
import json, os, sys, tempfile
import cupy as cp

POISON = 0xdeadbeef

def warp_input(n):
    return [((((i ^ 0x5bd1e995) * 2654435761) & 0xffffffff) >> 8) % 2001 - 1000 for i in range(n)]

# (ptx file, kernel, grid, block, [words per thread of each output | ('blocks', 1)])
CASES = [
    ('warp_shfl', 'warp_reduce_down', 2, 128, [1]),
    ('warp_shfl', 'warp_scan_up', 2, 128, [1]),
    ('warp_shfl', 'warp_xor_allreduce', 2, 128, [3]),
    ('warp_shfl', 'warp_shfl_width', 2, 64, [8]),
    ('warp_legacy', 'warp_shfl_legacy', 1, 64, [2]),
    ('warp_legacy', 'warp_vote_legacy', 1, 64, [2]),
    ('warp_shfl', 'warp_block_reduce', 3, 256, ['blocks']),
    ('warp_shfl', 'warp_loop_trip', 2, 128, [1]),
    ('warp_vote', 'warp_ballot_compact', 2, 80, [1, 8]),
    ('warp_vote', 'warp_syncwarp', 2, 64, [1]),
    ('warp_vote', 'warp_match', 2, 64, [6]),
    ('warp_vote', 'warp_redux', 2, 64, [10]),
    ('warp_vote', 'warp_activemask', 2, 80, [2]),
    ('warp_elect', 'warp_elect', 2, 80, [8]),
]

def load(path, probe):
    # nvcc 13 writes `.version 9.0`; an older driver JIT refuses it, so retry with older versions
    # (the kernels use nothing newer than PTX 7.0).
    src = open(path).read()
    err = None
    for v in ['9.0', '8.8', '8.7', '8.5', '8.4', '8.3', '8.2', '8.1', '8.0', '7.8', '7.5', '7.0']:
        try:
            tmp = os.path.join(tempfile.gettempdir(), 'v%s_%s' % (v, os.path.basename(path)))
            with open(tmp, 'w') as f:
                f.write(src.replace('.version 9.0', '.version ' + v))
            m = cp.RawModule(path=tmp)
            m.get_function(probe)
            print('loaded', os.path.basename(path), 'as PTX', v)
            return m
        except Exception as e:
            err = e
    raise err

def main(outdir):
    here = os.path.dirname(os.path.abspath(__file__))
    mods = {}
    results = []
    for ptx, name, grid, block, outs in CASES:
        if ptx not in mods:
            mods[ptx] = load(os.path.join(here, '..', 'kernels', ptx + '.ptx'), name)
        fn = mods[ptx].get_function(name)
        n = grid * block
        inp = cp.asarray(warp_input(n), dtype=cp.int32)
        bufs = [cp.full(grid if o == 'blocks' else o * n, POISON, dtype=cp.uint32) for o in outs]
        fn((grid,), (block,), (inp, *bufs))
        cp.cuda.Device().synchronize()
        results.append({'ptx': ptx, 'kernel': name, 'grid': grid, 'block': block,
                        'input': [int(x) for x in cp.asnumpy(inp)],
                        'outputs': [[int(x) for x in cp.asnumpy(b)] for b in bufs]})
    dev = cp.cuda.runtime.getDeviceProperties(0)
    with open(os.path.join(outdir, 'warp_native.json'), 'w') as f:
        json.dump({'device': dev['name'].decode(), 'cases': results}, f)
    print('recorded', len(results), 'cases on', dev['name'].decode())

main(sys.argv[1])
