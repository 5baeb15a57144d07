// What the ptx-wgsl side of bench/realistic shares (ours.mjs, launch-gap.mjs): the kernels' inputs
// (the same generator as native.py), the --small scaling for lavapipe, and the timing helpers.
export const ARRAY = { f32: Float32Array, f64: Float64Array, u8: Uint8Array, u32: Uint32Array, u64: BigUint64Array, i32: Int32Array };

/** An input array of specs.json's argument `a`, n elements. */
export function generate(a, n) {
  const dt = a.in ?? a.inout;
  if (a.gen === 'index') { const w = new Uint32Array(2 * n); for (let i = 0; i < n; i++) w[2 * i] = i; return new BigUint64Array(w.buffer); }
  const out = new ARRAY[dt](n);
  for (let i = 0; i < n; i++) {
    const h = Math.imul(i, 2654435761) >>> 0;
    out[i] = dt === 'u8' ? h >>> 24 : (h >>> 9) / 4194304 - 1;
  }
  return out;
}

const SMALL = 64;

/** --small: every size scaled down 64x (and grids with them) so the scripts run on lavapipe. */
export function shrink(spec, small) {
  if (!small) return spec;
  const args = spec.args.map((a) => (a.n ? { ...a, n: Math.max(1, Math.ceil(a.n / SMALL)) } : a));
  return { ...spec, args, grid: spec.grid.map((g, i) => (i === spec.grid.length - 1 ? Math.max(1, Math.ceil(g / SMALL)) : g)), scalarsScaled: true };
}

/**
 * The launch arguments of `spec` in context `ctx`: device buffers holding the generated inputs
 * (outputs zeroed) and the scalars; `host` holds each buffer's host array (null for scalars), and
 * `ptrs` the allocations to free.
 */
export function allocateArgs(ctx, spec, small) {
  const args = [], host = [], ptrs = [];
  for (const a of spec.args) {
    if (a.n !== undefined) {
      const arr = a.in || a.inout ? generate(a, a.n) : new ARRAY[a.out](a.n);
      const p = ctx.malloc(arr.byteLength); ctx.memcpyHtoD(p, arr);
      ptrs.push(p); args.push(p); host.push(arr);
    } else {
      const [t, v] = Object.entries(a)[0];
      args.push(small && t === 'i32' && v > 4096 ? Math.ceil(v / SMALL) : v); host.push(null);
    }
  }
  return { args, host, ptrs };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Launches for WARM_UP_MS before a timing: the GPU's clocks ramp up under sustained load and fall
 * while it idles (between kernels, while inputs are generated), and timings taken right after an
 * idle spell read up to 3x slow (a softmax on an H200: 1.6-1.8 ms per launch first, 0.92 ms after).
 * native.py warms up the same way.
 */
export const WARM_UP_MS = 300;
export async function warmUp(launch, sync) {
  const t0 = performance.now();
  while (performance.now() - t0 < WARM_UP_MS) { for (let i = 0; i < 10; i++) launch(); await sync(); }
}
