#!/usr/bin/env python3
# Records native CUDA results of the mma forms and GEMMs (tests/matrix/kernels/*.ptx) on an NVIDIA
# GPU (sm_89 or newer: the fp8 forms need it), with the inputs the WebGPU tests use:
#   python3 tests/matrix/record_mma_native.py [OUT_DIR]
# Reads tests/matrix/native/mma-cases.json (written by tests/matrix/native/export-cases.test.ts:
# per run the .ptx file (in kernels/, or in the run's `dir`), kernel, launch (with any dynamic
# `sharedBytes`), input words, output sizes and the count of trailing `scratch` pointers, which
# get zeroed 16-byte buffers: Triton's global-scratch parameters) and writes
# OUT_DIR/mma_native.json (default tests/matrix/native/): the device, per kernel its output
# buffers (poisoned with 0xdeadbeef before the launch) as base64 of little-endian u32 words, and
# per kernel any error. Needs python3, numpy and cupy.
import base64, json, os, re, sys, tempfile
import numpy as np
import cupy as cp

HERE = os.path.dirname(os.path.abspath(__file__))
POISON = 0xDEADBEEF

def words(b64):
    return np.frombuffer(base64.b64decode(b64), dtype='<u4').copy()

def load(name, probe, folder='kernels'):
    # nvcc 13 writes `.version 9.0` (Triton 3.6 `.version 8.7`); an older driver JIT refuses a
    # newer one, so retry with older versions
    src = open(os.path.join(HERE, folder, name + '.ptx')).read()
    err = None
    for v in ['9.0', '8.8', '8.7', '8.6', '8.5', '8.4', '8.3', '8.2', '8.1', '8.0', '7.8']:
        try:
            tmp = os.path.join(tempfile.gettempdir(), 'v%s_%s.ptx' % (v, name))
            with open(tmp, 'w') as f:
                f.write(re.sub(r'^\.version \d+\.\d+', '.version ' + v, src, count=1, flags=re.M))
            m = cp.RawModule(path=tmp)
            m.get_function(probe)
            print('loaded', name, 'as PTX', v)
            return m
        except Exception as e:
            err = e
    raise err

def run(mod, r):
    fn = mod.get_function(r['kernel'])
    ins = [cp.asarray(words(w)) for w in r['inputs']]
    outs = [cp.full(n, POISON, dtype=cp.uint32) for n in r['outputWords']]
    grid = tuple(r['grid']) if isinstance(r['grid'], list) else (r['grid'],)
    scratch = [cp.zeros(4, dtype=cp.uint32) for _ in range(r.get('scratch', 0))]
    fn(grid, (r['block'],), (*ins, *outs, *[np.uint32(s) for s in r['scalars']], *scratch), shared_mem=r.get('sharedBytes', 0))
    cp.cuda.Device().synchronize()
    return [base64.b64encode(cp.asnumpy(o).astype('<u4').tobytes()).decode() for o in outs]

def main(out_dir):
    spec = json.load(open(os.path.join(HERE, 'native', 'mma-cases.json')))
    mods, outputs, errors = {}, {}, {}
    for r in spec['runs']:
        try:
            key = (r.get('dir', 'kernels'), r['ptx'])
            if key not in mods:
                mods[key] = load(r['ptx'], r['kernel'], key[0])
            outputs[r['kernel']] = run(mods[key], r)
        except Exception as e:  # keep the other recordings
            errors[r['kernel']] = '%s: %s' % (type(e).__name__, e)
            print('FAILED', r['kernel'], errors[r['kernel']])
    name = cp.cuda.runtime.getDeviceProperties(0)['name']
    device = name.decode() if isinstance(name, bytes) else str(name)
    result = {'device': device, 'outputs': outputs}
    if errors:
        result['errors'] = errors
    with open(os.path.join(out_dir, 'mma_native.json'), 'w') as f:
        json.dump(result, f, indent=1)
        f.write('\n')
    print('recorded', len(outputs), 'of', len(spec['runs']), 'runs on', device)
    return 1 if errors else 0

if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, 'native')))
