# Records native CUDA results of tests/memory/native/cases.json (run on an NVIDIA GPU with cupy):
#   python3 tests/memory/native/record.py tests/memory/native/cases.json tests/kernels OUT_DIR
# Writes OUT_DIR/mem.json: per case, per launch, every array argument's bytes afterwards (hex).
# mem_special reads cluster registers, which ptxas accepts only for sm_90 targets: its .ptx is
# built for sm_90 (the recording loaded it so; an sm_80 text fails with CUDA_ERROR_INVALID_PTX).
import json, os, sys, tempfile
import numpy as np
import cupy as cp

src, kdir, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]
cases = json.load(open(src))
name = cp.cuda.runtime.getDeviceProperties(0)["name"]
res = {"device": name.decode() if isinstance(name, bytes) else str(name), "driver": cp.cuda.runtime.driverGetVersion(), "cases": {}, "errors": {}}
tmp = tempfile.mkdtemp()
try:  # alloca cases stay far below it; a stack overflow would end the context for all cases
    cp.cuda.runtime.deviceSetLimit(0, 16384)  # cudaLimitStackSize
except Exception as e:
    print("stack limit", repr(e))
SCALAR = {"i32": np.int32, "u32": np.uint32, "f32": np.float32}
for c in cases:
    try:
        text = open(os.path.join(kdir, c["ptx"] + ".ptx")).read()
        if c["ptx"] == "mem_special":
            text = text.replace(".target sm_80", ".target sm_90")
        path = os.path.join(tmp, c["ptx"] + ".ptx")
        open(path, "w").write(text)
        mod = cp.RawModule(path=path)
        launches = []
        for l in c["launches"]:
            fn = mod.get_function(l["entry"])
            args, arrays = [], []
            for a in l["args"]:
                if "array" in a:
                    d = cp.asarray(np.frombuffer(bytes.fromhex(a["array"]), dtype=np.uint8).copy())
                    args.append(d); arrays.append(d)
                else:
                    (k, v), = a.items()
                    args.append(SCALAR[k](v))
            fn((l["grid"],), (l["block"],), tuple(args), shared_mem=l["shared"])
            cp.cuda.Device().synchronize()
            launches.append([d.get().tobytes().hex() for d in arrays])
        res["cases"][c["name"]] = launches
        print("recorded", c["name"])
    except Exception as e:
        res["errors"][c["name"]] = repr(e)
        print("FAILED", c["name"], repr(e))
json.dump(res, open(os.path.join(out_dir, "mem.json"), "w"), indent=1)
print("done on", res["device"])
