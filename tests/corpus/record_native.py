#!/usr/bin/env python3
"""Records the corpus natively on an NVIDIA GPU: for every case of tests/corpus/cases.json and every
variant it lists, regenerates the inputs (the generators of inputs.ts, vectorised), loads the same
PTX with cupy.RawModule, fills the __constant__/__device__ symbols, runs the launches in order and
writes the checked buffers.

    python3 tests/corpus/record_native.py [--out DIR] [--filter STR]   # needs cupy + numpy
      (with --filter, the runs already in DIR/manifest.json are kept: rerecord a subset)
    python3 tests/corpus/record_native.py --inputs-only > tests/corpus/inputs.sha256.json  # numpy only

Output (default tests/corpus/native/): <run id>.bin.gz per run (its recorded buffers in table order,
each byte-shuffled -- byte j of every little-endian element, for j = 0..size-1, which gzip packs
better for floats -- gzip with mtime 0; a run whose bytes equal an earlier run's shares its file)
and manifest.json (machine, date, per run the buffer
offsets, SHA-256 of every generated input, and the runs that failed natively with their error).
One failing run never stops the others. --inputs-only prints {case: {buffer: sha256}} as JSON, the
SHA-256 of every generated buffer and symbol (corpus.test.ts checks TypeScript makes the same).
"""
import argparse, ctypes, datetime, gzip, hashlib, json, os, re, struct, sys, tempfile, time
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

NP_TYPES = {'f16': np.float16, 'f32': np.float32, 'f64': np.float64, 'i8': np.int8, 'u8': np.uint8,
            'i16': np.int16, 'u16': np.uint16, 'i32': np.int32, 'u32': np.uint32, 'i64': np.int64, 'u64': np.uint64}
POISON = {'f16': 'ffcd', 'f32': 'ffcdcdcd', 'f64': 'fffdcdcdcdcdcdcd'}


# ------------------------------------------------------------------ inputs (mirror of inputs.ts)

def fnv1a32(text):
    h = 0x811c9dc5
    for b in text.encode('utf-8'):
        h = ((h ^ b) * 0x01000193) & 0xffffffff
    return h


def hash32(seed, n):
    """hash(seed, i) for i in 0..n-1 as uint32 (all arithmetic mod 2^32)."""
    x = (np.arange(n, dtype=np.uint64) * np.uint64(0x9e3779b9) + np.uint64(seed)) & np.uint64(0xffffffff)
    x = x.astype(np.uint32)
    x ^= x >> np.uint32(15)
    x = (x.astype(np.uint64) * np.uint64(0x2c1b3c6d) & np.uint64(0xffffffff)).astype(np.uint32)
    x ^= x >> np.uint32(12)
    x = (x.astype(np.uint64) * np.uint64(0x297a2d39) & np.uint64(0xffffffff)).astype(np.uint32)
    x ^= x >> np.uint32(15)
    return x


def values(g, seed, n):
    """The generator's values as float64 or int64 (before the cast to the buffer type)."""
    kind = g['gen']
    if kind == 'fill':
        out = np.full(n, g['value'], dtype=np.float64 if isinstance(g['value'], float) else np.int64)
    elif kind == 'iota':
        out = g.get('start', 0) + np.arange(n, dtype=np.int64) * g.get('step', 1)
    elif kind == 'unif':
        bits = g.get('bits', 24)
        k = (hash32(seed, n) >> np.uint32(32 - bits)).astype(np.float64)
        out = g['lo'] + ((g['hi'] - g['lo']) * k) / float(2 ** bits)
    elif kind == 'int':
        span = g['hi'] - g['lo'] + 1
        out = g['lo'] + (hash32(seed, n).astype(np.int64) % span)
    elif kind == 'bool':
        out = (hash32(seed, n).astype(np.float64) < g['p'] * 2.0 ** 32).astype(np.int64)
    elif kind == 'csr_rowptr':
        rows, nnz = g['rows'], g['nnz']
        assert n == rows + 1, 'csr_rowptr needs n = rows + 1'
        span = 2 * (nnz // rows) + 1
        deg = hash32(seed, rows).astype(np.int64) % span
        out = np.minimum(np.concatenate([[0], np.cumsum(deg)]), nnz)
        out[rows] = nnz
    elif kind == 'perm':
        out = np.argsort(hash32(seed, n), kind='stable').astype(np.int64)
    else:
        raise ValueError('unknown generator %r' % kind)
    if g.get('set'):
        out = out.astype(np.float64) if any(isinstance(v, float) for _, v in g['set']) else out
        for i, v in g['set']:
            out[i] = v
    return out


def make_buffer(case_name, spec):
    t, n, init = spec['type'], spec['n'], spec['init']
    if init == 'poison' or (isinstance(init, dict) and init['gen'] == 'poison'):
        if t in POISON:
            word = np.frombuffer(bytes.fromhex(POISON[t])[::-1], dtype=NP_TYPES[t])
            return np.repeat(word, n)
        return np.frombuffer(b'\xcd' * (n * np.dtype(NP_TYPES[t]).itemsize), dtype=NP_TYPES[t]).copy()
    v = values(init, fnv1a32('%s/%s' % (case_name, spec['name'])), n)
    if t == 'f16':
        return v.astype(np.float64).astype(np.float32).astype(np.float16)
    if t in ('f32', 'f64'):
        return v.astype(np.float64).astype(NP_TYPES[t])
    return v.astype(np.int64).astype(NP_TYPES[t])


def shuffled(arr):
    """The array's little-endian bytes, byte-shuffled: byte j of every element, for j = 0..size-1."""
    a = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder('<'))
    return a.view(np.uint8).reshape(-1, a.dtype.itemsize).T.tobytes()


def sha256(arr):
    return hashlib.sha256(np.ascontiguousarray(arr).view(np.uint8).tobytes()).hexdigest()


# ------------------------------------------------------------------ table

def ptx_file(source, variant):
    return source + '.ptx' if variant == 'hand' else '%s.%s.ptx' % (source, variant)


def runs_of(table):
    for c in table['cases']:
        for v in c.get('variants', ['sm80']):
            yield '%s@%s' % (c['name'], v), c, v


def flat_launches(items):
    for it in items:
        if 'repeat' in it:
            for _ in range(it['repeat']):
                yield from flat_launches(it['launches'])
        else:
            yield it


def recorded_buffers(c):
    return [b for b in c['buffers'] if b['name'] in c['check'] and c['check'][b['name']]['cmp'] != 'ignore']


def recording_file(run_id):
    return re.sub(r'[^A-Za-z0-9_.@-]', '_', run_id) + '.bin.gz'


def dim3(d):
    d = [d] if isinstance(d, int) else list(d)
    return tuple((d + [1, 1, 1])[:3])


SCALAR = {'u8': ('<B', 1), 'f16': ('<e', 2), 'f32': ('<f', 4), 'f64': ('<d', 8), 'i32': ('<i', 4),
          'u32': ('<I', 4), 'i64': ('<q', 8), 'u64': ('<Q', 8)}


def pack_scalar(a, dims):
    """(bytes, alignment) of a scalar argument, structs packed with C alignment (as run.ts does)."""
    if 'struct' in a:
        parts = [pack_scalar(f, dims) for f in a['struct']]
        align = max([1] + [al for _, al in parts])
        out = b''
        for data, al in parts:
            out += b'\0' * (-len(out) % al) + data
        return out + b'\0' * (-len(out) % align), align
    (t, v), = a.items()
    v = dims[v] if isinstance(v, str) else v
    fmt, size = SCALAR[t]
    if t == 'f16':
        return np.array([v], dtype=np.float32).astype(np.float16).tobytes(), 2
    if t in ('i32', 'u32', 'i64', 'u64', 'u8'):
        v = int(v) & ((1 << (8 * size)) - 1)
        fmt = fmt.upper() if fmt[1] in 'iq' else fmt
    return struct.pack(fmt, v), size


# ------------------------------------------------------------------ native runs

def load_module(cp, path, probe):
    """The file's own `.version` first; an older driver's JIT refuses nvcc 13's 9.0, so then older ones."""
    src = open(path).read()
    m = re.search(r'^\.version\s+(\S+)', src, re.M)
    own = m.group(1) if m else '9.0'
    key = lambda v: tuple(int(x) for x in v.split('.'))
    older = [v for v in ['9.0', '8.8', '8.7', '8.6', '8.5', '8.4', '8.3', '8.2', '8.1', '8.0', '7.8', '7.5', '7.0'] if key(v) < key(own)]
    err = None
    for v in [own] + older:
        try:
            text = src if m is None else src.replace(m.group(0), '.version ' + v, 1)
            tmp = os.path.join(tempfile.gettempdir(), 'corpus_v%s_%s' % (v, os.path.basename(path)))
            with open(tmp, 'w') as f:
                f.write(text)
            mod = cp.RawModule(path=tmp)
            mod.get_function(probe)
            return mod, v
        except Exception as e:  # try the next version
            err = e
    raise err


def run_native(cp, c, variant, modules):
    path = os.path.join(HERE, 'kernels', ptx_file(c['source'], variant))
    launches = list(flat_launches(c['launches']))
    if path not in modules:
        modules[path] = load_module(cp, path, launches[0]['entry'])
    mod, version = modules[path]
    dims = c.get('dims', {})
    host = {b['name']: make_buffer(c['name'], b) for b in c['buffers']}
    dev = {name: cp.asarray(arr.view(np.uint8)) for name, arr in host.items()}
    for s in c.get('symbols', []):
        data = make_buffer(c['name'], s).view(np.uint8)
        ptr = mod.get_global(s['name'])
        cp.ndarray((data.size,), cp.uint8, ptr).set(data)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for l in launches:
        fn = mod.get_function(l['entry'])
        # Every argument as the bytes cuLaunchKernel copies (device pointers, scalars, packed structs).
        blobs = [struct.pack('<Q', dev[a].data.ptr) if isinstance(a, str) else pack_scalar(a, dims)[0] for a in l['args']]
        holders = [ctypes.create_string_buffer(b, len(b)) for b in blobs]
        params = (ctypes.c_void_p * max(1, len(holders)))(*[ctypes.addressof(h) for h in holders])
        cp.cuda.driver.launchKernel(fn.kernel.ptr, *dim3(l['grid']), *dim3(l['block']), l.get('shared', 0),
                                    cp.cuda.get_current_stream().ptr, ctypes.addressof(params), 0)
    end.record()
    end.synchronize()
    out = {b['name']: cp.asnumpy(dev[b['name']]).view(NP_TYPES[b['type']]) for b in recorded_buffers(c)}
    return out, cp.cuda.get_elapsed_time(start, end), version


def input_hashes(c):
    return {b['name']: sha256(make_buffer(c['name'], b)) for b in c['buffers'] + c.get('symbols', [])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', default=os.path.join(HERE, 'native'))
    ap.add_argument('--filter', default='', help='only runs whose id contains one of these comma-separated strings')
    ap.add_argument('--inputs-only', action='store_true')
    opts = ap.parse_args()
    with open(os.path.join(HERE, 'cases.json')) as f:
        table = json.load(f)
    wanted = lambda name: not opts.filter or any(f in name for f in opts.filter.split(','))
    runs = [r for r in runs_of(table) if wanted(r[0])]
    if opts.inputs_only:
        hashes = {c['name']: input_hashes(c) for c in table['cases'] if wanted(c['name'])}
        sys.stdout.write(json.dumps(hashes, indent=1, sort_keys=True) + '\n')
        return
    import cupy as cp
    os.makedirs(opts.out, exist_ok=True)
    props = cp.cuda.runtime.getDeviceProperties(0)
    manifest = {
        'recorded': datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds'),
        'gpu': props['name'].decode(),
        'compute_capability': '%d%d' % (props['major'], props['minor']),
        'driver': os.popen('nvidia-smi --query-gpu=driver_version --format=csv,noheader').read().strip(),
        'cuda_driver_version': cp.cuda.runtime.driverGetVersion(),
        'cuda_runtime_version': cp.cuda.runtime.runtimeGetVersion(),
        'cupy': cp.__version__, 'numpy': np.__version__,
        'runs': {}, 'failed': {},
    }
    manifest_path = os.path.join(opts.out, 'manifest.json')
    if opts.filter and os.path.exists(manifest_path):  # recording a subset: keep the other runs
        with open(manifest_path) as f:
            old = json.load(f)
        manifest['runs'], manifest['failed'] = old.get('runs', {}), old.get('failed', {})
    modules = {}
    files = {}
    t0 = time.time()
    for rid, c, variant in runs:
        manifest['runs'].pop(rid, None)
        manifest['failed'].pop(rid, None)
        try:
            out, ms, version = run_native(cp, c, variant, modules)
        except Exception as e:  # one bad run must not lose the others
            manifest['failed'][rid] = ('%s: %s' % (type(e).__name__, e))[:2000]
            print('FAILED', rid, manifest['failed'][rid][:300])
            write_manifest(manifest_path, manifest)
            continue
        blob, bufs = bytearray(), []
        for b in recorded_buffers(c):
            bufs.append({'name': b['name'], 'type': b['type'], 'n': b['n'], 'offset': len(blob)})
            blob += shuffled(out[b['name']])
        digest = hashlib.sha256(blob).hexdigest()
        name = files.get(digest)
        if name is None:  # a run with the same results as an earlier one (sm90 = sm80) shares its file
            name = files[digest] = recording_file(rid)
            with gzip.GzipFile(os.path.join(opts.out, name), 'wb', compresslevel=9, mtime=0) as f:
                f.write(bytes(blob))
        manifest['runs'][rid] = {'file': name, 'buffers': bufs, 'inputs': input_hashes(c), 'ms': round(ms, 4),
                                 'ptx_version': version}
        write_manifest(manifest_path, manifest)  # as we go: a crash keeps what was recorded
        print('recorded %-48s %8d bytes %8.3f ms (PTX %s) -> %s' % (rid, len(blob), ms, version, name))
    used = {r['file'] for r in manifest['runs'].values()}
    for f in os.listdir(opts.out):
        if f.endswith('.bin.gz') and f not in used:
            os.remove(os.path.join(opts.out, f))
    total = sum(os.path.getsize(os.path.join(opts.out, f)) for f in used)
    print('%s: %d runs recorded (%d bytes gzip), %d failed%s, %.1f s' % (
        manifest['gpu'], len(manifest['runs']), total, len(manifest['failed']),
        (': ' + ' '.join(sorted(manifest['failed']))) if manifest['failed'] else '', time.time() - t0))


def write_manifest(path, manifest):
    with open(path + '.tmp', 'w') as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    os.replace(path + '.tmp', path)


if __name__ == '__main__':
    main()
