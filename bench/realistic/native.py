# Native side of bench/realistic (run.sh): each kernel of specs.json through CUDA on the same PTX
# (cupy.RawModule), inputs from the shared generators, outputs of the first launch written for
# the ptx-wgsl side to compare, and timings: the driver's JIT of the PTX (cache off), GPU time of
# back-to-back launches (events), and host wall time of 20 launches ended by a synchronisation.
import json, os, sys, time
import numpy as np
import cupy as cp

OUT = sys.argv[1] if len(sys.argv) > 1 else '/tmp/bench-native'
ONLY = sys.argv[2] if len(sys.argv) > 2 else ''
WARM_UP_S = 0.3
os.makedirs(OUT, exist_ok=True)
specs = json.load(open('bench/realistic/specs.json'))['kernels']
DT = {'f32': np.float32, 'f64': np.float64, 'u8': np.uint8, 'u32': np.uint32, 'u64': np.uint64, 'i32': np.int32}

def generate(a):
    n, dt = a['n'], a.get('in') or a.get('inout')
    i = np.arange(n, dtype=np.uint64)
    if a.get('gen') == 'index': return i.astype(DT[dt])
    h = (i * np.uint64(2654435761)) & np.uint64(0xffffffff)
    if dt == 'u8': return (h >> np.uint64(24)).astype(np.uint8)
    v = (h >> np.uint64(9)).astype(np.float64) / 4194304.0 - 1.0
    return v.astype(DT[dt])

def build(spec):
    args, keep = [], []
    for a in spec['args']:
        if 'in' in a or 'inout' in a: d = cp.asarray(generate(a)); args.append(d); keep.append(d)
        elif 'out' in a: d = cp.zeros(a['n'], dtype=DT[a['out']]); args.append(d); keep.append(d)
        else:
            (t, v), = a.items(); args.append(DT[t](v)); keep.append(None)
    return args, keep

def warm_up(launch, seconds=WARM_UP_S):
    # The GPU's clocks ramp up under sustained load and fall while it idles (between kernels, while
    # inputs are generated): timings taken right after idling read up to 3x slow. ours.mjs does the same.
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(10): launch()
        cp.cuda.Device().synchronize()

results = {}
for k, spec in enumerate(specs):
    if ONLY and not any(f in spec['name'] for f in ONLY.split('|')): continue
    name = spec['name']
    try:
        t0 = time.perf_counter()
        mod = cp.RawModule(path=spec['ptx'])
        fn = mod.get_function(spec['entry'])
        jit_ms = (time.perf_counter() - t0) * 1e3
        for sym, values in spec.get('symbols', {}).items():  # cudaMemcpyToSymbol
            host = np.array(values, dtype=np.float32)
            mod.get_global(sym).copy_from_host(host.ctypes.data, host.nbytes)
        args, keep = build(spec)
        grid, block, smem = tuple(spec['grid']), tuple(spec['block']), spec.get('shared', 0)
        launch = lambda: fn(grid, block, tuple(args), shared_mem=smem)
        launch(); cp.cuda.Device().synchronize()
        for j, a in enumerate(spec['args']):
            if 'out' in a or 'inout' in a: cp.asnumpy(keep[j]).tofile(f'{OUT}/{k}.{j}.bin')
        launch(); cp.cuda.Device().synchronize()
        warm_up(launch)
        one = cp.cuda.Event(); two = cp.cuda.Event(); one.record(); launch(); two.record(); two.synchronize()
        single = cp.cuda.get_elapsed_time(one, two)
        iters = max(3, min(20, int(200 / max(single, 0.01))))
        gpu, wall = [], []
        for _ in range(5):
            one.record()
            for _ in range(iters): launch()
            two.record(); two.synchronize(); gpu.append(cp.cuda.get_elapsed_time(one, two) / iters)
            t0 = time.perf_counter()
            for _ in range(iters): launch()
            cp.cuda.Device().synchronize(); wall.append((time.perf_counter() - t0) * 1e3 / iters)
        results[name] = {'index': k, 'jit_ms': jit_ms, 'gpu_ms': sorted(gpu)[2], 'wall_ms': sorted(wall)[2], 'iters': iters}
        print(json.dumps({name: results[name]}), flush=True)
        del keep, args
        cp.get_default_memory_pool().free_all_blocks()
    except Exception as e:
        results[name] = {'index': k, 'error': str(e).splitlines()[0]}
        print(json.dumps({name: results[name]}), flush=True)
json.dump({'gpu': cp.cuda.runtime.getDeviceProperties(0)['name'].decode(), 'driver': cp.cuda.runtime.driverGetVersion(), 'kernels': results}, open(f'{OUT}/native.json', 'w'), indent=1)
