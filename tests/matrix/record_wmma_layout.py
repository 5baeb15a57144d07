#!/usr/bin/env python3
"""Records NVIDIA's wmma fragment layouts and native wmma results on the GPU machine.

Runs the kernels of tests/matrix/kernels/wmma_layout.ptx (see wmma_layout.cu) and
wmma_gemm.ptx and writes tests/matrix/kernels/wmma_layout.json (device, fragments, errors) and
wmma_native.json (device, mma, gemm):

  fragments: for each load/store configuration "<a|b|c|d>_<shape>_<type>_<row|col>":
    {"rows", "cols", "regs": PTX registers per lane, "per": elements per register,
     "at": per lane, per element (register-major, element j of a register at bits
     [j*bits, (j+1)*bits)), the index row * cols + col it holds, -1 if none}
  mma: for each native wmma.mma kernel: {"seed", "problems", "d": hex of D's bytes}
  gemm: for each GEMM kernel: {"m", "n", "k", "alpha", "beta", "seed", "d": hex}

Inputs of mma and gemm come from xorshift32 streams (tests/matrix/harness.ts randomWords,
reference.ts Random) mapped to elements as documented at `element_bits` below, so the tests
rebuild them in JS. Needs python3, numpy and cupy. `--selftest` checks the decoding on the CPU
against a made-up layout (no GPU, no cupy).
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, 'kernels')

SHAPES = {'m16n16k16': (16, 16, 16), 'm32n8k16': (32, 8, 16), 'm8n32k16': (8, 32, 16),
          'm16n16k8': (16, 16, 8), 'm8n8k4': (8, 8, 4), 'm8n8k32': (8, 8, 32), 'm8n8k128': (8, 8, 128)}
BITS = {'f16': 16, 'bf16': 16, 's8': 8, 'u8': 8, 'tf32': 32, 'f32': 32, 's32': 32, 'f64': 64,
        's4': 4, 'u4': 4, 'b1': 1}
# Digit base of the position encoding: every value 0..base-1 is exact in the type.
BASE = {'f16': 1024, 'bf16': 256, 's8': 128, 'u8': 256, 'tf32': 1 << 20, 'f32': 1 << 20,
        's32': 1 << 20, 'f64': 1 << 20, 's4': 8, 'u4': 16, 'b1': 2}


def configs():
    """(use, shape, type, layout) of every load/store kernel of wmma_layout.cu."""
    out = []
    for shape in ('m16n16k16', 'm32n8k16', 'm8n32k16'):
        for t in ('f16', 'bf16', 's8', 'u8'):
            for use in 'ab':
                for lay in ('row', 'col'):
                    out.append((use, shape, t, lay))
    for shape, t in (('m16n16k8', 'tf32'), ('m8n8k4', 'f64')):
        for use in 'ab':
            for lay in ('row', 'col'):
                out.append((use, shape, t, lay))
    for shape, t in (('m8n8k32', 's4'), ('m8n8k32', 'u4'), ('m8n8k128', 'b1')):
        out.append(('a', shape, t, 'row'))
        out.append(('b', shape, t, 'col'))
    accs = [(s, t) for s in ('m16n16k16', 'm32n8k16', 'm8n32k16') for t in ('f16', 'f32', 's32')]
    accs += [('m16n16k8', 'f32'), ('m8n8k4', 'f64'), ('m8n8k32', 's32'), ('m8n8k128', 's32')]
    for shape, t in accs:
        for use in 'cd':
            for lay in ('row', 'col'):
                out.append((use, shape, t, lay))
    return out


def dims(use, shape):
    m, n, k = SHAPES[shape]
    return {'a': (m, k), 'b': (k, n), 'c': (m, n), 'd': (m, n)}[use]


# ---------------------------------------------------------------- element bits <-> numbers

def to_bits(t, v):
    """Bits of the exact small integer v as an element of type t."""
    if t == 'f16':
        return int(np.array(v, np.float16).view(np.uint16))
    if t == 'bf16':
        return int(np.array(v, np.float32).view(np.uint32)) >> 16
    if t in ('tf32', 'f32'):
        return int(np.array(v, np.float32).view(np.uint32))
    if t == 'f64':
        return int(np.array(v, np.float64).view(np.uint64))
    return v


def from_bits(t, b):
    """The number an element's bits hold, or None if it is not a small non-negative integer."""
    if t == 'f16':
        x = float(np.array(b, np.uint16).view(np.float16))
    elif t == 'bf16':
        x = float(np.array(b << 16, np.uint32).view(np.float32))
    elif t in ('tf32', 'f32'):
        x = float(np.array(b, np.uint32).view(np.float32))
    elif t == 'f64':
        x = float(np.array(b, np.uint64).view(np.float64))
    elif t == 's32':
        x = b - (1 << 32) if b >= 1 << 31 else b
    else:
        x = b
    if x != x or x < 0 or x != int(x):
        return None
    return int(x)


def pack_memory(t, elems):
    """Element bits in memory order -> bytes (sub-byte elements low bits first)."""
    bits = BITS[t]
    if bits >= 8:
        dt = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
        return np.array(elems, dtype=dt).tobytes()
    per = 32 // bits
    words = np.zeros((len(elems) + per - 1) // per, dtype=np.uint64)
    for e, v in enumerate(elems):
        words[e // per] |= np.uint64(v << ((e % per) * bits))
    return words.astype(np.uint32).tobytes()


def unpack_memory(t, raw, count):
    bits = BITS[t]
    if bits >= 8:
        dt = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
        return [int(x) for x in np.frombuffer(raw, dtype=dt)[:count]]
    words = np.frombuffer(raw, dtype=np.uint32)
    per = 32 // bits
    return [(int(words[e // per]) >> ((e % per) * bits)) & ((1 << bits) - 1) for e in range(count)]


def register_elements(t, words):
    """A lane's raw 32-bit words -> its elements, register-major."""
    bits = BITS[t]
    if bits == 64:
        return [int(words[2 * i]) | (int(words[2 * i + 1]) << 32) for i in range(len(words) // 2)]
    per = 32 // bits
    return [(int(w) >> (j * bits)) & ((1 << bits) - 1) for w in words for j in range(per)]


def leading(t, lay, rows, cols):
    """The stride: the row (or column) length rounded up to 16 bytes, which wmma requires."""
    unit = 128 // BITS[t]
    n = cols if lay == 'row' else rows
    return (n + unit - 1) // unit * unit


def address(lay, ld, r, c):
    return r * ld + c if lay == 'row' else c * ld + r


def digits(idx, base, count):
    return [(idx // base ** i) % base for i in range(count)]


def ndigits(t, n):
    d = 1
    while BASE[t] ** d < n:
        d += 1
    return d


# ---------------------------------------------------------------- layouts

def record_load(run_load, use, shape, t, lay):
    """Loads matrices whose elements encode their position (digit by digit, and again with each
    digit complemented) and decodes which position each register element holds."""
    rows, cols = dims(use, shape)
    base, n = BASE[t], rows * cols
    nd = ndigits(t, n)
    ld = leading(t, lay, rows, cols)
    size = ld * (rows if lay == 'row' else cols)
    decoded = None
    for complement in (False, True):
        runs = []
        for d in range(nd):
            mem = [0] * size
            for r in range(rows):
                for c in range(cols):
                    v = digits(r * cols + c, base, nd)[d]
                    mem[address(lay, ld, r, c)] = to_bits(t, base - 1 - v if complement else v)
            regs, words = run_load(pack_memory(t, mem), ld)
            runs.append([register_elements(t, words[lane]) for lane in range(32)])
        per_lane = []
        for lane in range(32):
            out = []
            for j in range(len(runs[0][lane])):
                idx = 0
                for d in range(nd):
                    v = from_bits(t, runs[d][lane][j])
                    if v is None or v >= base:
                        idx = -1
                        break
                    idx += (base - 1 - v if complement else v) * base ** d
                out.append(idx if 0 <= idx < n else -1)
            per_lane.append(out)
        decoded = per_lane if decoded is None else [
            [a if a == b else -1 for a, b in zip(x, y)] for x, y in zip(decoded, per_lane)]
    per = 1 if BITS[t] >= 32 else 32 // BITS[t]
    return {'rows': rows, 'cols': cols, 'regs': regs // 2 if BITS[t] == 64 else regs, 'per': per, 'at': decoded}


def record_store(run_store, shape, t, lay):
    """Stores fragments whose element i of lane L holds L * E + i + 1 and reads back where each
    element went."""
    rows, cols = dims('d', shape)
    n = rows * cols
    e = n // 32
    ld = leading(t, lay, rows, cols)
    size = ld * (rows if lay == 'row' else cols)
    mem = unpack_memory(t, run_store(size, ld), size)
    at = [[-1] * e for _ in range(32)]
    for r in range(rows):
        for c in range(cols):
            v = from_bits(t, mem[address(lay, ld, r, c)])
            if v is None or not 1 <= v <= n:
                continue
            lane, i = (v - 1) // e, (v - 1) % e
            at[lane][i] = -2 if at[lane][i] != -1 else r * cols + c
    per = 1 if BITS[t] >= 32 else 32 // BITS[t]
    return {'rows': rows, 'cols': cols, 'regs': e // per, 'per': per, 'at': at}


# ---------------------------------------------------------------- random inputs

class Xorshift32:
    """The same sequence as tests/matrix/reference.ts Random."""

    def __init__(self, seed):
        self.x = (seed & 0xffffffff) or 1

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xffffffff
        x ^= x >> 17
        x ^= (x << 5) & 0xffffffff
        self.x = x
        return x


def element_bits(t, rng):
    """One random element of type t (mirrored by tests/matrix/wmma-reference.ts randomElement):
    floats with exponents in a narrow range around 1 and random mantissas (tf32: all 23 bits, so
    the low 13 bits' treatment shows), integers uniform, s32 accumulators near the ends of the
    range one time in two (so .satfinite clamps), sub-byte types as whole random 32-bit words."""
    x = rng.next()
    s = x >> 31
    e6 = ((x >> 24) & 0x7f) % 6
    if t == 'f16':
        return (s << 15) | ((12 + e6) << 10) | (x & 0x3ff)
    if t == 'bf16':
        return (s << 15) | ((124 + e6) << 7) | (x & 0x7f)
    if t in ('tf32', 'f32'):
        return (s << 31) | ((124 + e6) << 23) | (x & 0x7fffff)
    if t == 'f64':
        lo = rng.next()
        return (((s << 31) | ((1020 + e6) << 20) | (x & 0xfffff)) << 32) | lo
    if t in ('s8', 'u8'):
        return x & 0xff
    if t == 's32':
        k = x & 3
        if k == 0:
            return 0x7fffffff - ((x >> 8) & 0xfffff)
        if k == 1:
            return 0x80000000 + ((x >> 8) & 0xfffff)
        return x
    return x  # a 32-bit word of packed sub-byte elements


def random_memory(t, count, rng):
    """`count` elements of t in memory order, as bytes."""
    bits = BITS[t]
    if bits < 8:
        return np.array([element_bits(t, rng) for _ in range(count * bits // 32)], np.uint32).tobytes()
    return pack_memory(t, [element_bits(t, rng) for _ in range(count)])


# name, shape, A/B type, C type, D type
def mma_kernels():
    out = []
    for shape in ('m16n16k16', 'm32n8k16', 'm8n32k16'):
        out += [(f'mma_{shape}_f32_f16_f32', shape, 'f16', 'f32', 'f32'),
                (f'mma_{shape}_f16_f16_f16', shape, 'f16', 'f16', 'f16'),
                (f'mma_{shape}_f32_f16_f16', shape, 'f16', 'f16', 'f32'),
                (f'mma_{shape}_f16_f16_f32', shape, 'f16', 'f32', 'f16'),
                (f'mma_{shape}_f32_bf16_f32', shape, 'bf16', 'f32', 'f32'),
                (f'mma_{shape}_s32_s8_s32', shape, 's8', 's32', 's32'),
                (f'mma_{shape}_s32_u8_s32', shape, 'u8', 's32', 's32'),
                (f'mma_{shape}_s32_s8_s32_satfinite', shape, 's8', 's32', 's32'),
                (f'mma_{shape}_s32_u8_s32_satfinite', shape, 'u8', 's32', 's32')]
    out += [('mma_m16n16k8_f32_tf32_f32', 'm16n16k8', 'tf32', 'f32', 'f32'),
            ('mma_m8n8k4_f64_f64_f64', 'm8n8k4', 'f64', 'f64', 'f64'),
            ('mma_m8n8k32_s32_s4_s32', 'm8n8k32', 's4', 's32', 's32'),
            ('mma_m8n8k32_s32_u4_s32', 'm8n8k32', 'u4', 's32', 's32'),
            ('mma_m8n8k32_s32_s4_s32_satfinite', 'm8n8k32', 's4', 's32', 's32'),
            ('mma_m8n8k128_s32_b1_s32_xor', 'm8n8k128', 'b1', 's32', 's32'),
            ('mma_m8n8k128_s32_b1_s32_and', 'm8n8k128', 'b1', 's32', 's32')]
    return out


MMA_PROBLEMS = 2


def mma_inputs(shape, tab, tc, seed):
    """A (row-major), B (col-major), C (row-major) of each problem, drawn in the order
    A, B, C per problem, elements in memory order."""
    m, n, k = SHAPES[shape]
    rng = Xorshift32(seed)
    a, b, c = b'', b'', b''
    for _ in range(MMA_PROBLEMS):
        a += random_memory(tab, m * k, rng)
        b += random_memory(tab, k * n, rng)
        c += random_memory(tc, m * n, rng)
    return a, b, c


GEMMS = [('gemm_tile16', 64, 64, 128), ('gemm_tile32_shared', 128, 64, 96)]
GEMM_ALPHA, GEMM_BETA = 0.5, -2.0


def gemm_inputs(m, n, k, seed):
    """A (m x k row-major f16), B (col-major: n rows of k, f16), C (m x n f32), in that order."""
    rng = Xorshift32(seed)
    return (random_memory('f16', m * k, rng), random_memory('f16', k * n, rng),
            random_memory('f32', m * n, rng))


def seed_of(name):
    h = 0x811c9dc5
    for ch in name.encode():
        h = ((h ^ ch) * 0x01000193) & 0xffffffff
    return h


# ---------------------------------------------------------------- running

def kernel_name(use, shape, t, lay):
    return f"{'ld' if use in 'abc' else 'st'}_{use}_{shape}_{t}_{lay}"


def record(load_fn, store_fn, mma_fn, gemm_fn):
    result = {'fragments': {}, 'mma': {}, 'gemm': {}, 'errors': []}
    for use, shape, t, lay in configs():
        key = f'{use}_{shape}_{t}_{lay}'
        try:
            if use == 'd':
                result['fragments'][key] = record_store(lambda n, ld: store_fn(kernel_name(use, shape, t, lay), t, n, ld), shape, t, lay)
            else:
                result['fragments'][key] = record_load(lambda mem, ld: load_fn(kernel_name(use, shape, t, lay), mem, ld), use, shape, t, lay)
        except Exception as e:  # keep going: one bad configuration must not hide the others
            result['errors'].append(f'{key}: {e!r}')
    if mma_fn:
        for name, shape, tab, tc, td in mma_kernels():
            try:
                seed = seed_of(name)
                m, n, k = SHAPES[shape]
                d = mma_fn(name, *mma_inputs(shape, tab, tc, seed), m * n * MMA_PROBLEMS * BITS[td] // 8, k, k)
                result['mma'][name] = {'seed': seed, 'problems': MMA_PROBLEMS, 'd': d.hex()}
            except Exception as e:
                result['errors'].append(f'{name}: {e!r}')
    if gemm_fn:
        for name, m, n, k in GEMMS:
            try:
                seed = seed_of(name)
                d = gemm_fn(name, m, n, k, *gemm_inputs(m, n, k, seed))
                result['gemm'][name] = {'m': m, 'n': n, 'k': k, 'alpha': GEMM_ALPHA, 'beta': GEMM_BETA,
                                        'seed': seed, 'd': d.hex()}
            except Exception as e:
                result['errors'].append(f'{name}: {e!r}')
    return result


def cupy_runners():
    import cupy as cp
    layout = cp.RawModule(path=os.path.join(KERNELS, 'wmma_layout.ptx'))
    gemm = cp.RawModule(path=os.path.join(KERNELS, 'wmma_gemm.ptx'))

    def dev(raw, poison=0xff):
        buf = cp.full(max(len(raw), 4) + 256, poison, dtype=cp.uint8)
        buf[:len(raw)] = cp.asarray(np.frombuffer(raw, np.uint8))
        return buf

    def load_fn(name, mem, ld):
        out = cp.full(1 + 32 * 64, 0xdeadbeef, dtype=cp.uint32)
        layout.get_function(name)((1,), (32,), (dev(mem), np.uint32(ld), out))
        host = cp.asnumpy(out)
        w = int(host[0])
        if not 1 <= w <= 64:
            raise RuntimeError(f'bad register count {w}')
        return w, [host[1 + lane * w: 1 + (lane + 1) * w] for lane in range(32)]

    def store_fn(name, t, n, ld):
        p = cp.zeros(n * BITS[t] // 8 + 256, dtype=cp.uint8)
        layout.get_function(name)((1,), (32,), (p, np.uint32(ld)))
        return cp.asnumpy(p).tobytes()[: n * BITS[t] // 8]

    def mma_fn(name, a, b, c, dbytes, lda, ldb):
        d = cp.full(dbytes + 256, 0xff, dtype=cp.uint8)
        layout.get_function(name)((MMA_PROBLEMS,), (32,), (dev(a), dev(b), dev(c), d, np.uint32(lda), np.uint32(ldb)))
        cp.cuda.runtime.deviceSynchronize()
        return cp.asnumpy(d).tobytes()[:dbytes]

    def gemm_fn(name, m, n, k, a, b, c):
        d = cp.full(m * n, np.nan, dtype=cp.float32)
        grid = (n // 16, m // 64) if name == 'gemm_tile16' else (n // 64, m // 64)
        gemm.get_function(name)(grid, (128,), (dev(a), dev(b), dev(c), d, np.uint32(m), np.uint32(n), np.uint32(k),
                                               np.float32(GEMM_ALPHA), np.float32(GEMM_BETA)))
        cp.cuda.runtime.deviceSynchronize()
        return cp.asnumpy(d).tobytes()

    return load_fn, store_fn, mma_fn, gemm_fn


# ---------------------------------------------------------------- self-test without a GPU

def selftest():
    """Simulates each load/store with a made-up layout (element j of lane L holds position
    (L * E + j * 7) % n, stored the inverse way) and checks the decoder recovers it."""
    def fake_at(use, shape, t):
        rows, cols = dims(use, shape)
        n = rows * cols
        per = 1 if BITS[t] >= 32 else 32 // BITS[t]
        e = max(n // 32, per)  # sub-byte fragments hold whole registers
        return [[(lane * e + j * 7) % n for j in range(e)] for lane in range(32)], per

    current = {}

    def load_fn(name, mem, ld):
        _, use, shape, t, lay = name.split('_')
        rows, cols = dims(use, shape)
        at, per = fake_at(use, shape, t)
        elems = unpack_memory(t, mem, len(mem) * 8 // BITS[t])
        words = []
        for lane in range(32):
            vals = [elems[address(lay, ld, i // cols, i % cols)] for i in at[lane]]
            if BITS[t] == 64:
                w = [x for v in vals for x in (v & 0xffffffff, v >> 32)]
            else:
                w = [sum(vals[r * per + j] << (j * BITS[t]) for j in range(per)) for r in range(len(vals) // per)]
            words.append(np.array(w, np.uint32))
        return len(words[0]), words

    def store_fn(name, t, n, ld):
        _, use, shape, _, lay = name.split('_')
        rows, cols = dims('d', shape)
        e = rows * cols // 32
        mem = [0] * n
        for lane in range(32):
            for i in range(e):
                pos = (lane * e + i * 5) % (rows * cols) if e > 1 else lane * e + i
                mem[address(lay, ld, pos // cols, pos % cols)] = to_bits(t, lane * e + i + 1)
        current['store'] = e
        return pack_memory(t, mem)

    result = record(load_fn, store_fn, None, None)
    assert not result['errors'], result['errors']
    for key, f in result['fragments'].items():
        use, shape, t, lay = key.split('_')
        if use == 'd':
            n, e = f['rows'] * f['cols'], len(f['at'][0])
            want = [[(lane * e + i * 5) % n if e > 1 else lane * e + i for i in range(e)] for lane in range(32)]
        else:
            want = fake_at(use, shape, t)[0]
        assert f['at'] == want, key
    print(f"selftest: {len(result['fragments'])} configurations decode", file=sys.stderr)


def main():
    if '--selftest' in sys.argv:
        selftest()
        return
    import cupy as cp
    result = record(*cupy_runners())
    props = cp.cuda.runtime.getDeviceProperties(0)
    device = props['name'].decode() if isinstance(props['name'], bytes) else str(props['name'])
    files = {'wmma_layout.json': {'device': device, 'fragments': result['fragments'], 'errors': result['errors']},
             'wmma_native.json': {'device': device, 'mma': result['mma'], 'gemm': result['gemm']}}
    for name, data in files.items():
        with open(os.path.join(KERNELS, name), 'w') as f:
            json.dump(data, f, separators=(',', ':'))
            f.write('\n')
    bad = sum(1 for f in result['fragments'].values() for lane in f['at'] for x in lane if x < 0)
    print(f"wrote {KERNELS}/wmma_layout.json: {len(result['fragments'])} fragment layouts ({bad} unmapped elements); "
          f"wmma_native.json: {len(result['mma'])} mma, {len(result['gemm'])} gemm; errors: {result['errors']}")


if __name__ == '__main__':
    main()
