#!/usr/bin/env python3
"""Runs conformance batches natively with cupy and writes their outputs.

Input: a directory written by scripts/gen-conformance.mjs (<name>.ptx, <name>.in.bin, <name>.json).
Output (into the second argument): <name>.bin.gz (the output slots, little-endian u64, harness
layout) and <name>.json (the manifest, copied), ready to commit to tests/conformance/native/.
Usage: python3 record_native.py <in-dir> <out-dir>
"""
import gzip, json, os, sys, shutil
import numpy as np
import cupy as cp

POISON = np.uint64(0xDEADBEEFDEADBEEF)


def run(src, dst, name):
    with open(os.path.join(src, name + '.json')) as f:
        m = json.load(f)
    inp = np.fromfile(os.path.join(src, name + '.in.bin'), dtype=np.uint64)
    d_in = cp.asarray(inp if inp.size else np.zeros(1, np.uint64))
    d_out = cp.full(max(m['outSlots'], 1), POISON, dtype=cp.uint64)
    kernel = cp.RawModule(path=os.path.join(src, name + '.ptx')).get_function('conformance')
    block = 128
    grid = max(1, (m['threads'] + block - 1) // block)
    kernel((grid,), (block,), (d_in, d_out))
    cp.cuda.runtime.deviceSynchronize()
    out = cp.asnumpy(d_out)[: m['outSlots']]
    with gzip.GzipFile(os.path.join(dst, name + '.bin.gz'), 'wb', compresslevel=9, mtime=0) as f:
        f.write(out.astype('<u8').tobytes())
    shutil.copy(os.path.join(src, name + '.json'), os.path.join(dst, name + '.json'))
    print(name, 'forms', len(m['forms']), 'slots', m['outSlots'])


def main():
    src, dst = sys.argv[1], sys.argv[2]
    os.makedirs(dst, exist_ok=True)
    names = sorted(f[:-5] for f in os.listdir(src) if f.endswith('.json'))
    failed = []
    for name in names:
        try:
            run(src, dst, name)
        except Exception as e:  # one bad batch must not lose the others
            failed.append(name)
            print('FAILED', name, repr(e)[:2000])
    print(cp.cuda.runtime.getDeviceProperties(0)['name'], 'failed:', failed)


if __name__ == '__main__':
    main()
