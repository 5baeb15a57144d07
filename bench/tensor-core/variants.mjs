// Where the tensor-core path's time goes (issue 14): the WGSL we emit for the plain WMMA GEMMs
// against hand-written WGSL of the same structure, timed alike (timestamp queries, the same
// buffers, 4096^3). Run on the GPU machine from the project root after `npm run build`:
// `node bench/tensor-core/variants.mjs [size] [raw|runtime] [entry]`. Prints one line per variant: ms and TFLOP/s, and whether
// its output matches the emitted kernel's bit for bit.
import { readFileSync } from 'node:fs';
import { compile, createContext } from '../../dist/src/index.js';
import { packUniforms } from '../../dist/runtime/params.js';
import { overrideConstants } from '../../dist/runtime/pipeline-cache.js';
import { bindGroupLayoutEntries } from '../../dist/runtime/bindings.js';
import { timeDispatches } from '../raw-dispatch.mjs';
import { subgroupMatrixConfigs } from '../../dist/runtime/device.js';

const S = Number(process.argv[2] ?? 4096);
// `raw`: only the WGSL variants; `runtime`: only the runtime's launches (on the device the runtime
// creates with PTX_WGSL_DAWN_FLAGS, set here); one process each, as Dawn has crashed ("futex
// facility returned an unexpected error code") when one process did both
const only = process.argv[3] ?? 'raw';
process.env.PTX_WGSL_DAWN_FLAGS ??= 'enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia';
const shared = only === 'runtime' ? await createContext({}) : undefined;
const w = await import('webgpu');
Object.assign(globalThis, w.globals);
let device, configs;
if (shared) {
  device = shared.device;
  configs = subgroupMatrixConfigs(device);
} else {
  const gpu = w.create([process.env.PTX_WGSL_DAWN_FLAGS]);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  const feats = ['subgroups', 'shader-f16', 'timestamp-query', 'chromium-experimental-subgroup-matrix'].filter((f) => adapter.features.has(f));
  const limits = {}; for (const n of ['maxStorageBufferBindingSize', 'maxBufferSize']) limits[n] = adapter.limits[n];
  device = await adapter.requestDevice({ requiredFeatures: feats, requiredLimits: limits });
  configs = [...(adapter.info.subgroupMatrixConfigs ?? [])].map((c) => ({ componentType: c.componentType, resultComponentType: c.resultComponentType, M: c.M, N: c.N, K: c.K }));
}
const ptx = readFileSync(new URL('../../tests/matrix/kernels/wmma_gemm_plain.ptx', import.meta.url), 'utf8');

const header = `enable f16;\nenable chromium_experimental_subgroup_matrix;\nenable chromium_disable_uniformity_analysis;
override ptx_ntid_x: u32 = 1u;
@group(0) @binding(0) var<uniform> ptx_launch: array<vec4<u32>, 4>;
@group(0) @binding(1) var<storage, read> a: array<f16>;
@group(0) @binding(2) var<storage, read> b: array<f16>;
@group(0) @binding(3) var<storage, read_write> d: array<f32>;
alias L = subgroup_matrix_left<f16, 16, 16>;
alias R = subgroup_matrix_right<f16, 16, 16>;
alias C = subgroup_matrix_result<f32, 16, 16>;
`;
// m, n, k are the kernel's last three parameters: words 10, 11, 12 of the launch block
const hand16 = `${header}
@compute @workgroup_size(ptx_ntid_x)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let n = ptx_launch[2].w; let k = ptx_launch[3].x;
  let row = (wid.y * 4u + lid.x / 32u) * 16u;
  let col = wid.x * 16u;
  var acc = C();
  for (var kk = 0u; kk < k; kk += 16u) {
    acc = subgroupMatrixMultiplyAccumulate(subgroupMatrixLoad<L, row_major>(&a, row * k + kk, k), subgroupMatrixLoad<R, col_major>(&b, col * k + kk, k), acc);
  }
  subgroupMatrixStore<row_major>(&d, row * n + col, acc, n);
}`;
const hand32 = `${header}
@compute @workgroup_size(ptx_ntid_x)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
  let n = ptx_launch[2].w; let k = ptx_launch[3].x;
  let row = (wid.y * 4u + lid.x / 32u) * 32u;
  let col = wid.x * 32u;
  var c00 = C(); var c01 = C(); var c10 = C(); var c11 = C();
  for (var kk = 0u; kk < k; kk += 16u) {
    let a0 = subgroupMatrixLoad<L, row_major>(&a, row * k + kk, k);
    let a1 = subgroupMatrixLoad<L, row_major>(&a, (row + 16u) * k + kk, k);
    let b0 = subgroupMatrixLoad<R, col_major>(&b, col * k + kk, k);
    let b1 = subgroupMatrixLoad<R, col_major>(&b, (col + 16u) * k + kk, k);
    c00 = subgroupMatrixMultiplyAccumulate(a0, b0, c00);
    c01 = subgroupMatrixMultiplyAccumulate(a0, b1, c01);
    c10 = subgroupMatrixMultiplyAccumulate(a1, b0, c10);
    c11 = subgroupMatrixMultiplyAccumulate(a1, b1, c11);
  }
  subgroupMatrixStore<row_major>(&d, row * n + col, c00, n);
  subgroupMatrixStore<row_major>(&d, row * n + col + 16u, c01, n);
  subgroupMatrixStore<row_major>(&d, (row + 16u) * n + col, c10, n);
  subgroupMatrixStore<row_major>(&d, (row + 16u) * n + col + 16u, c11, n);
}`;

const f16 = (x) => { const f = new Float32Array([x]); const u = new Uint32Array(f.buffer)[0]; const e = ((u >> 23) & 0xff) - 127 + 15; return (u >> 16 & 0x8000) | (e << 10) | ((u >> 13) & 0x3ff); };
let s = 5; const rnd = () => { s = (s * 1103515245 + 12345) >>> 0; return s / 2 ** 32; };
const A = new Uint16Array(S * S).map(() => f16(rnd() - 0.5)), B = new Uint16Array(S * S).map(() => f16(rnd() - 0.5));
const buf = (data, size) => { const g = device.createBuffer({ size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC }); if (data) device.queue.writeBuffer(g, 0, data); return g; };
const ga = buf(A, A.byteLength), gb = buf(B, B.byteLength), gd = buf(null, 4 * S * S);
async function readD() {
  const r = device.createBuffer({ size: 4 * S * S, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const e = device.createCommandEncoder(); e.copyBufferToBuffer(gd, 0, r, 0, 4 * S * S); device.queue.submit([e.finish()]);
  await r.mapAsync(GPUMapMode.READ); const out = new Uint32Array(r.getMappedRange().slice(0)); r.destroy(); return out;
}
let reference;
for (const entry of process.argv[4] ? [process.argv[4]] : ['gemm_plain16', 'gemm_warp32']) {
  const tile = entry === 'gemm_warp32' ? 32 : 16;
  const kernel = compile(ptx, { entry, subgroupSize: 32, subgroupMatrixConfigs: configs }).kernels[0];
  const grid = [S / tile, S / (4 * tile)];
  const u = packUniforms(kernel.layout, { nctaid: [grid[0], grid[1], 1], dispatchX: grid[0] }, [0n, 0n, 0n, S, S, S]);
  const ub = device.createBuffer({ size: u.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }); device.queue.writeBuffer(ub, 0, u);
  const bgl = device.createBindGroupLayout({ entries: bindGroupLayoutEntries(kernel.layout) });
  const bg = device.createBindGroup({ layout: bgl, entries: [ub, ga, gb, gd].map((buffer, binding) => ({ binding, resource: { buffer } })) });
  const variants = { [`${entry} as emitted (${kernel.layout.matrix?.path})`]: [kernel.wgsl, kernel.entryPoint, overrideConstants(kernel, { block: [128, 1, 1], sharedBytes: 0, directGrid: true })] };
  for (const [name, code] of entry === 'gemm_plain16' ? [['hand-written', hand16]] : [['hand-written 2x2', hand32]]) variants[`${entry} ${name}`] = [code, 'main', { ptx_ntid_x: 128 }];
  reference = undefined;
  if (only !== 'runtime') for (const [name, [code, entryPoint, constants]] of Object.entries(variants)) {
    try {
      device.pushErrorScope('validation');
      const pipeline = await device.createComputePipelineAsync({ layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }), compute: { module: device.createShaderModule({ code }), entryPoint, constants } });
      device.queue.writeBuffer(gd, 0, new Uint32Array(S * S).fill(0xdeadbeef));
      const t = await timeDispatches(device, pipeline, bg, grid, 10, 5);
      const err = await device.popErrorScope(); if (err) throw new Error(err.message);
      const out = await readD();
      let same = 'reference';
      if (reference) { let diff = 0; for (let i = 0; i < out.length; i++) if (out[i] !== reference[i]) diff++; same = diff ? `${diff} words differ` : 'same bits'; } else reference = out;
      console.log(`[variant] ${name}: ${t.ms.toFixed(3)} ms (${t.timer}), ${(2 * S ** 3 / (t.ms / 1e3) / 1e12).toFixed(2)} TFLOP/s, ${same}`);
    } catch (e) { console.log(`[variant] ${name}: error ${String(e.message ?? e).split('\n')[0].slice(0, 300)}`); }
  }
  // the same kernel through the runtime (launch() x 10, then synchronize), and the emitted WGSL
  // timed raw on the runtime's own allocations: separates launch cost from memory placement
  if (only === 'raw') continue;
  const ctx = shared;
  const pa = ctx.malloc(A.byteLength), pb = ctx.malloc(B.byteLength), pd = ctx.malloc(4 * S * S);
  ctx.memcpyHtoD(pa, A); ctx.memcpyHtoD(pb, B);
  const fn = ctx.loadModule(ptx, { fileName: 'wmma_gemm_plain.ptx' }).getFunction(entry);
  const config = { grid, block: 128 }, args = [pa, pb, pd, S, S, S];
  await fn.prepareAsync(config, args); fn.launch(config, args); await ctx.synchronize();
  const runs = [];
  for (let r = 0; r < 3; r++) { const t0 = performance.now(); for (let i = 0; i < 10; i++) fn.launch(config, args); await ctx.synchronize(); runs.push((performance.now() - t0) / 10); }
  runs.sort((x, y) => x - y);
  console.log(`[runtime] ${entry}: launch x10 + synchronize ${runs[1].toFixed(3)} ms per launch, ${(2 * S ** 3 / (runs[1] / 1e3) / 1e12).toFixed(2)} TFLOP/s`);
  const bg2 = device.createBindGroup({ layout: bgl, entries: [ub, pa.buffer, pb.buffer, pd.buffer].map((buffer, binding) => ({ binding, resource: { buffer } })) });
  const pipe2 = await device.createComputePipelineAsync({ layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }), compute: { module: device.createShaderModule({ code: kernel.wgsl }), entryPoint: kernel.entryPoint, constants: overrideConstants(kernel, { block: [128, 1, 1], sharedBytes: 0, directGrid: true }) } });
  const t2 = await timeDispatches(device, pipe2, bg2, grid, 10, 5);
  console.log(`[variant] ${entry} as emitted, on the runtime's allocations: ${t2.ms.toFixed(3)} ms (${t2.timer}), ${(2 * S ** 3 / (t2.ms / 1e3) / 1e12).toFixed(2)} TFLOP/s`);
  console.log(`[runtime] ${entry} took the ${(await fn.prepareAsync(config, args)).layout.matrix?.path} path`);
  ctx.free(pa); ctx.free(pb); ctx.free(pd);
}
if (shared) shared.destroy(); else device.destroy();
process.exit(0);
