# Runs probe.ptx natively and says, per pattern, whether the results are those of a fused
# multiply-add or of a rounded product then a rounded add. Needs cupy (the GPU machine).
import cupy as cp, numpy as np, os
n = 1 << 16
rng = np.random.default_rng(7)
x = rng.uniform(-2, 2, (n, 4)).astype(np.float32)
h = rng.uniform(-2, 2, (n, 3)).astype(np.float16)
mod = cp.RawModule(path=os.path.join(os.path.dirname(__file__), 'probe.ptx'))
k = mod.get_function('contraction')
dx, dh = cp.asarray(x), cp.asarray(h)
x64 = rng.uniform(-2, 2, (n, 3))
dd, outd = cp.asarray(x64), cp.zeros(n, np.float64)
out, outh = cp.full((n, 8), np.nan, np.float32), cp.zeros(n, np.float16)
k((n // 256,), (256,), (dx, out, dh, outh, dd, outd))
o, oh = cp.asnumpy(out), cp.asnumpy(outh)
f1, f2, f3, f4 = (x[:, i].astype(np.float64) for i in range(4))
r32 = lambda v: v.astype(np.float32)
fused = lambda a, b, c: r32(a * b + c)            # a*b exact in f64; one rounding (double rounding is rare)
split = lambda a, b, c: r32(r32(a * b).astype(np.float64) + c)
pats = {
  'A one use, add': (0, f1, f2, f3), 'B two uses: the add': (1, f1, f3, f4),
  'B two uses: the sub': (2, -f1, f3, f2), 'C product as subtrahend': (3, -f2, f3, f4),
  'F mul.rn then add': (5, f3, f4, f1), 'G mul then add.rn': (6, f1, f4, f2), 'H product also stored': (7, f2, f2, f3),
}
for name, (col, a, b, c) in pats.items():
  got = o[:, col]
  fu, sp = (got == fused(a, b, c)).mean(), (got == split(a, b, c)).mean()
  print(f'{name:28s} fused {fu:.3f}  split {sp:.3f}')
d = o[:, 4]; pos = f1 > 0
print(f"{'D add in another block':28s} fused {(d[~pos] == fused(f2, f4, f1)[~pos]).mean():.3f}  split {(d[~pos] == split(f2, f4, f1)[~pos]).mean():.3f}")
a, b, c = (h[:, i].astype(np.float64) for i in range(3))
fh = (a * b + c).astype(np.float16); sh = ((a * b).astype(np.float16).astype(np.float64) + c).astype(np.float16)
print(f"{'E f16 mul then add':28s} fused {(oh == fh).mean():.3f}  split {(oh == sh).mean():.3f}")
from fractions import Fraction
od = cp.asnumpy(outd)
def fused64(a, b, c): return float(Fraction(a) * Fraction(b) + Fraction(c))   # one rounding
fd = np.array([fused64(*row) for row in x64[:4096]]); sd = x64[:4096, 0] * x64[:4096, 1] + x64[:4096, 2]
print(f"{'I f64 mul then add':28s} fused {(od[:4096] == fd).mean():.3f}  split {(od[:4096] == sd).mean():.3f}")
