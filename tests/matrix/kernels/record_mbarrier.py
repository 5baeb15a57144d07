# Records native results of the mbarrier tests (run on an sm_90 GPU with cupy):
#   python3 tests/matrix/kernels/record_mbarrier.py tests/matrix/kernels
# Runs mbarrier_forms.ptx (the instruction scripts and `crowd`) and mbarrier_pipeline.ptx on the
# inputs tests/matrix/mbarrier.gpu.test.ts uses, and writes mbarrier_native.json beside them:
# per case the launch, every argument array before (inputs) and after (outputs), as hex.
# The test then checks its JS references against these recordings.
import json, os, sys
import numpy as np
import cupy as cp

kdir = sys.argv[1]
POISON = 0xDEADBEEF


def random_words(n, seed):  # xorshift32, as tests/matrix/harness.ts randomWords
    out = np.zeros(n, dtype=np.uint32)
    x = (seed & 0xFFFFFFFF) or 1
    for i in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out[i] = x
    return out


def small_floats(n, seed):  # as mbarrier.gpu.test.ts smallFloats
    w = random_words(n, seed)
    return ((w % 41).astype(np.int64) - 20).astype(np.float32).view(np.uint32)


SCRIPT_WORDS = 25  # recordedCount(SCRIPT) in mbarrier.gpu.test.ts
cases = []
for k in ("script_all", "script_some"):
    cases.append(dict(name=k, ptx="mbarrier_forms", entry=k, grid=2, block=96, inputs=[], outputs=[SCRIPT_WORDS * 96], scalars=[]))
for grid, block in ((2, 96), (1, 256)):
    cases.append(dict(name=f"crowd/{grid}x{block}", ptx="mbarrier_forms", entry="crowd", grid=grid, block=block, inputs=[], outputs=[grid * block * 5], scalars=[]))
for grid, block, tiles in ((2, 128, 5), (3, 96, 4), (1, 256, 1)):
    cases.append(dict(name=f"tile_pipeline/{grid}x{block}x{tiles}", ptx="mbarrier_pipeline", entry="tile_pipeline", grid=grid, block=block,
                      inputs=[small_floats(grid * tiles * 256, 0x7A11 + block)], outputs=[grid * block], scalars=[tiles]))
for kernel, grid, block, tiles in (("ws_pipeline", 2, 160, 7), ("ws_pipeline", 1, 96, 40), ("ws_pipeline3", 2, 96, 9), ("ws_pipeline3", 1, 160, 2)):
    cases.append(dict(name=f"{kernel}/{grid}x{block}x{tiles}", ptx="mbarrier_pipeline", entry=kernel, grid=grid, block=block,
                      inputs=[small_floats(grid * tiles * 128, 0x3E5 + tiles)], outputs=[grid * 128], scalars=[tiles]))
for grid, block in ((2, 96), (1, 128)):
    cases.append(dict(name=f"cp_async_arrive/{grid}x{block}", ptx="mbarrier_pipeline", entry="cp_async_arrive", grid=grid, block=block,
                      inputs=[random_words(2 * grid * block * 4, 0xA55 + block)], outputs=[2 * grid * block * 4], scalars=[]))

name = cp.cuda.runtime.getDeviceProperties(0)["name"]
res = {"device": name.decode() if isinstance(name, bytes) else str(name), "driver": cp.cuda.runtime.driverGetVersion(), "cases": {}, "errors": {}}
modules = {}
for c in cases:
    try:
        if c["ptx"] not in modules:
            modules[c["ptx"]] = cp.RawModule(path=os.path.join(kdir, c["ptx"] + ".ptx"))
        fn = modules[c["ptx"]].get_function(c["entry"])
        ins = [cp.asarray(a) for a in c["inputs"]]
        outs = [cp.full(n, POISON, dtype=cp.uint32) for n in c["outputs"]]
        fn((c["grid"],), (c["block"],), tuple(ins + outs + [np.int32(s) for s in c["scalars"]]))
        cp.cuda.Device().synchronize()
        res["cases"][c["name"]] = {
            "entry": c["entry"], "grid": c["grid"], "block": c["block"], "scalars": c["scalars"],
            "inputs": [a.tobytes().hex() for a in c["inputs"]], "outputs": [o.get().tobytes().hex() for o in outs],
        }
        print("recorded", c["name"])
    except Exception as e:
        res["errors"][c["name"]] = repr(e)
        print("FAILED", c["name"], repr(e))
json.dump(res, open(os.path.join(kdir, "mbarrier_native.json"), "w"), indent=1)
print("done on", res["device"])
