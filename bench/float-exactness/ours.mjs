// The cost of f32 exactness (docs/BENCHMARKS.md, "f32 exactness on an H100"): shader time of each
// kernel of kernels.ptx as compiled without the float probe (`ours`: every check and helper),
// with the device's probed facts (`probed`: what a context runs), and hand-edited to all-native
// WGSL (`nativeAll`: no exactness at all, the bound WebGPU itself sets). native.py times CUDA.
//   PTX=./kernels.ptx node bench/float-exactness/ours.mjs [--small]   (and kernels-fast-math.ptx)
//   PTX=bench/float-exactness/kernels.ptx python3 bench/float-exactness/native.py
import { readFileSync } from 'node:fs';
const { compile } = await import('../../dist/src/compile.js');
const { getDefaultDevice } = await import('../../dist/src/index.js');
const { packUniforms } = await import('../../dist/runtime/params.js');
const { overrideConstants } = await import('../../dist/runtime/pipeline-cache.js');
const { bindGroupLayoutEntries } = await import('../../dist/runtime/bindings.js');
const { planDispatch } = await import('../../dist/runtime/grid.js');
const { linkLibrary } = await import('../../dist/lowering/wgsl/library.js');
const withLib = (w) => { const extra = linkLibrary(['fr_add', 'fr_mul', 'f32_fma_exact']).split(/\n(?=fn )/).filter((f) => !w.includes(f.slice(0, f.indexOf('(') + 1))); return w + '\n' + extra.join('\n'); };
const { timeDispatches } = await import('../../bench/raw-dispatch.mjs');
const device = await getDefaultDevice();
const { probeNativeFloat } = await import('../../dist/runtime/probe-float.js');
const { nativeFloatProbe } = await import('../../dist/src/runtime-compiler.js');
const nativeFloat = await probeNativeFloat(device, nativeFloatProbe);
console.log(JSON.stringify({ nativeFloat }));
const ptx = readFileSync(new URL(process.env.PTX ?? './kernels.ptx', import.meta.url), 'utf8');
const small = process.argv.includes('--small');
const NATIVE = `
fn f32n_add(a: u32, b: u32) -> u32 { return bitcast<u32>(bitcast<f32>(a) + bitcast<f32>(b)); }
fn f32n_mul(a: u32, b: u32) -> u32 { return bitcast<u32>(bitcast<f32>(a) * bitcast<f32>(b)); }
fn f32n_canon(x: f32) -> u32 { return bitcast<u32>(x); }
fn f32n_rsqrt(u: u32) -> u32 { return bitcast<u32>(inverseSqrt(bitcast<f32>(u))); }
`;
const CHEAP = `\n
fn f32c_add(a: u32, b: u32) -> u32 {
  let r = bitcast<u32>(bitcast<f32>(a) + bitcast<f32>(b));
  if (f32r_tiny_in(a) | f32r_tiny_in(b) | ((r & 0x7f800000u) < 0x1000000u)) { return 0u; }
  return r;
}
fn f32c_mul(a: u32, b: u32) -> u32 {
  let r = bitcast<u32>(bitcast<f32>(a) * bitcast<f32>(b));
  if (f32r_tiny_in(a) | f32r_tiny_in(b) | ((r & 0x7f800000u) < 0x1000000u)) { return 0u; }
  return r;
}
fn f32s_scale(u: u32) -> f32 {
  let m = f32(u & 0x7fffffu) * 0x1p-85f;
  return select(bitcast<f32>(u) * 0x1p64f, select(m, -m, (u >> 31u) != 0u), (u & 0x7f800000u) == 0u);
}
fn f32s_add(a: u32, b: u32) -> u32 {
  let r = bitcast<u32>(bitcast<f32>(a) + bitcast<f32>(b));
  if (((a & 0x7f800000u) < 0x0d800000u) & ((b & 0x7f800000u) < 0x0d800000u)) {
    let s = f32s_scale(a) + f32s_scale(b);
    let q = bitcast<u32>(s);
    if ((q & 0x7f800000u) >= 0x40800000u) { return bitcast<u32>(s * 0x1p-64f); }
    return (q & 0x80000000u) | u32(abs(s) * 0x1p85f);
  }
  return r;
}
fn f32s_mul(a: u32, b: u32) -> u32 {
  let r = bitcast<u32>(bitcast<f32>(a) * bitcast<f32>(b));
  if (f32r_tiny_in(a) | f32r_tiny_in(b) | ((r & 0x7f800000u) < 0x1000000u)) { return fr_mul(a, b, 0u, 23u, 8u); }
  return r;
}
`;
const RCHECK = `
fn f32q_bad(r: u32) -> bool { return (((r & 0x7fffffffu) + 0x00800000u) & 0x7f800000u) < 0x0e000000u; }
fn f32q_add(a: u32, b: u32) -> u32 {
  let r = bitcast<u32>(bitcast<f32>(a) + bitcast<f32>(b));
  if (f32q_bad(r)) { return fr_add(a, b, 0u, 23u, 8u); }
  return r;
}
fn f32q_mul(a: u32, b: u32) -> u32 {
  let r = bitcast<u32>(bitcast<f32>(a) * bitcast<f32>(b));
  if (f32q_bad(r)) { return fr_mul(a, b, 0u, 23u, 8u); }
  return r;
}
fn f32t_add(a: u32, b: u32) -> u32 {
  let r = bitcast<u32>(bitcast<f32>(a) + bitcast<f32>(b));
  if (f32q_bad(r)) { return 0u; }
  return r;
}
fn f32t_mul(a: u32, b: u32) -> u32 {
  let r = bitcast<u32>(bitcast<f32>(a) * bitcast<f32>(b));
  if (f32q_bad(r)) { return 0u; }
  return r;
}
fn f32p_add(a: u32, b: u32) -> u32 {
  let r = bitcast<u32>(bitcast<f32>(a) + bitcast<f32>(b));
  if (f32q_bad(r)) {
    let s = f32s_scale(a) + f32s_scale(b);
    let q = bitcast<u32>(s);
    if ((q & 0x7f800000u) >= 0x40800000u) { return bitcast<u32>(s * 0x1p-64f); }
    return (q & 0x80000000u) | u32(abs(s) * 0x1p85f);
  }
  return r;
}
fn f32q_fma(a: f32, b: f32, c: f32) -> f32 {
  let r = fma(a, b, c);
  if (f32r_tiny_in(bitcast<u32>(a)) | f32r_tiny_in(bitcast<u32>(b)) | f32q_bad(bitcast<u32>(r))) { return f32_fma_exact(a, b, c); }
  return r;
}
`;
const variants = {
  ours: (w) => w,
  nativeAll: (w) => w.replace(/(?<!fn )f32r_add_rn\(/g, 'f32n_add(').replace(/(?<!fn )f32r_mul_rn\(/g, 'f32n_mul(').replace(/(?<!fn )f32r_canon\(/g, 'f32n_canon(').replace(/(?<!fn )f32r_rsqrt\(/g, 'f32n_rsqrt(') + NATIVE,
};
const mk = (bytes) => device.createBuffer({ size: Math.max(16, bytes), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
async function bench(entry, grid, block, values, bufBytes, smem, iters) {
  const k = compile(ptx, { entry, fusedFma: true, warpPath: 'subgroups', subgroupSize: 32 }).kernels[0];
  const ke = compile(ptx, { entry, fusedFma: false, warpPath: 'subgroups', subgroupSize: 32 }).kernels[0];
  const kn = compile(ptx, { entry, fusedFma: true, warpPath: 'subgroups', subgroupSize: 32, nativeFloat }).kernels[0];
  const bufs = bufBytes.map(mk);
  const out = {};
  for (const [name, f] of Object.entries({ ...variants, probed: () => kn.wgsl })) {
    const code = withLib(name === 'rcheckFma' ? f(ke.wgsl) : f(k.wgsl));
    const module = device.createShaderModule({ code });
    const info = await module.getCompilationInfo();
    if (info.messages.some((m) => m.type === 'error')) { out[name] = 'ERR ' + info.messages[0].message; continue; }
    const bgl = device.createBindGroupLayout({ entries: bindGroupLayoutEntries(k.layout) });
    const g3 = [grid[0], grid[1] ?? 1, 1];
    const plan = planDispatch(g3, device.limits.maxComputeWorkgroupsPerDimension);
    const pipeline = await device.createComputePipelineAsync({ layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }), compute: { module, entryPoint: k.entryPoint, constants: overrideConstants(k, { block, sharedBytes: smem, directGrid: plan.direct }) } });
    const u = packUniforms(k.layout, { nctaid: g3, dispatchX: plan.x }, values);
    const ub = device.createBuffer({ size: u.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(ub, 0, u);
    const slots = k.layout.bindings.filter((b) => b.kind === 'global-slot');
    const entries = [{ binding: 0, resource: { buffer: ub } }, ...slots.map((b) => ({ binding: b.binding, resource: { buffer: bufs[b.param] } }))];
    const bg = device.createBindGroup({ layout: bgl, entries });
    const t = await timeDispatches(device, pipeline, bg, [plan.x, plan.y, plan.z], iters);
    out[name] = +t.ms.toFixed(4);
  }
  console.log(JSON.stringify({ entry, warp: k.layout.warp, ...out }));
}
const S = small ? 1 / 64 : 1;
const NB = small ? 2048 : 65536;
await bench('nbody', [NB / 256], [256, 1, 1], [0n, 0n, NB, 0.01], [NB * 16, NB * 16], 256 * 16, small ? 2 : 10);
const NX = small ? 512 : 8192;
await bench('stencil5', [NX / 32, NX / 8], [32, 8, 1], [0n, 0n, NX, NX], [NX * NX * 4, NX * NX * 4], 0, small ? 2 : 20);
const N = small ? 1 << 20 : 1 << 26;
await bench('blocksum', [1024], [256, 1, 1], [0n, 0n, N], [N * 4, 16], 0, small ? 2 : 20);
process.exit(0);
