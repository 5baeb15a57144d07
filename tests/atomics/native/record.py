# Records native CUDA results of the atomics cases (run on an NVIDIA GPU with cupy):
#   python3 tests/atomics/native/record.py tests/atomics/native/each-cases.json OUT_DIR
# Writes OUT_DIR/each.json: per case, the final memory words and the values atom returned
# (hex), and for the e2e atom_float_max cases the output arrays (hex bytes).
import json, os, sys, tempfile
import numpy as np
import cupy as cp

src, out_dir = sys.argv[1], sys.argv[2]
spec = json.load(open(src))
DT = {2: np.uint16, 4: np.uint32, 8: np.uint64}
name = cp.cuda.runtime.getDeviceProperties(0)["name"]
res = {"device": name.decode() if isinstance(name, bytes) else str(name), "each": {}, "e2e": {}}
tmp = tempfile.mkdtemp()
def run_each(c):
    path = os.path.join(tmp, c["name"] + ".ptx")
    open(path, "w").write(c["ptx"])
    fn = cp.RawModule(path=path).get_function(c["entry"])
    dt = DT[c["bytes"]]
    arr = lambda xs: cp.asarray(np.array([int(x, 16) for x in xs], dtype=dt))
    out, vals, cmps = arr(c["init"]), arr(c["vals"]), arr(c["cmps"])
    olds = cp.asarray(np.full(len(c["vals"]), 0xdeadbeefdeadbeef & ((1 << (8 * c["bytes"])) - 1), dtype=dt))
    n = len(c["vals"])
    fn((1,), (n,), (out, olds, vals, cmps))
    cp.cuda.Device().synchronize()
    res["each"][c["name"]] = {"out": [hex(int(x)) for x in out.get()], "olds": [hex(int(x)) for x in olds.get()]}
for c in spec["each"]:
    try:
        run_each(c)
    except Exception as e:  # keep the other recordings
        print("FAILED", c["name"], e)
kpath = os.path.join(os.path.dirname(src), "..", "..", "kernels", "atom_float_max.ptx")
fn = cp.RawModule(path=kpath).get_function("atom_float_max")
for c in spec["e2e"]:
    arrs = [cp.asarray(np.frombuffer(bytes.fromhex(a["hex"]), dtype=a["dtype"]).copy()) for a in c["arrays"]]
    fn((c["grid"],), (c["block"],), (*arrs, np.int32(c["n"])))
    cp.cuda.Device().synchronize()
    res["e2e"][c["name"]] = [a.get().tobytes().hex() for a in arrs]
json.dump(res, open(os.path.join(out_dir, "each.json"), "w"), indent=1)
print("recorded", len(res["each"]), "cases on", res["device"])
