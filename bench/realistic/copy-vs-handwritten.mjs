// node bench/realistic/copy-vs-handwritten.mjs [--small] [--fill] (docs/BENCHMARKS.md, launch overhead)
// float4 copy: our WGSL against hand-written WGSL, same buffers and dispatch, timestamps.
// --fill: the source holds the benchmark's data (ours.mjs's inputs) instead of zeros, since a GPU
// may move all-zero memory faster than real data.
import { readFileSync } from 'node:fs';
const { compile, getDefaultDevice } = await import('../../dist/src/index.js');
const { packUniforms } = await import('../../dist/runtime/params.js');
const { overrideConstants } = await import('../../dist/runtime/pipeline-cache.js');
const { bindGroupLayoutEntries } = await import('../../dist/runtime/bindings.js');
const { planDispatch } = await import('../../dist/runtime/grid.js');
const { timeDispatches } = await import('../../bench/raw-dispatch.mjs');
const device = await getDefaultDevice();
const small = process.argv.includes('--small');
const N4 = small ? 1 << 18 : 1 << 24;
const G = N4 / 256;
const mk = () => device.createBuffer({ size: N4 * 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
const a = mk(), b = mk();
if (process.argv.includes('--fill')) {
  const host = new Float32Array(N4 * 4);
  for (let i = 0; i < host.length; i++) host[i] = (Math.imul(i, 2654435761) >>> 9) / 4194304 - 1;
  device.queue.writeBuffer(a, 0, host);
}
const k = compile(readFileSync('bench/realistic/kernels.ptx', 'utf8'), { entry: 'copy_f32x4' }).kernels[0];
const plan = planDispatch([G, 1, 1], device.limits.maxComputeWorkgroupsPerDimension);
async function ours(code) {
  const module = device.createShaderModule({ code });
  const bgl = device.createBindGroupLayout({ entries: bindGroupLayoutEntries(k.layout) });
  const pipeline = await device.createComputePipelineAsync({ layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }), compute: { module, entryPoint: k.entryPoint, constants: overrideConstants(k, { block: [256, 1, 1], sharedBytes: 0, directGrid: plan.direct }) } });
  const u = packUniforms(k.layout, { nctaid: [G, 1, 1], dispatchX: plan.x }, [0n, 0n, N4]);
  const ub = device.createBuffer({ size: u.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(ub, 0, u);
  const bg = device.createBindGroup({ layout: bgl, entries: [{ binding: 0, resource: { buffer: ub } }, { binding: 1, resource: { buffer: a } }, { binding: 2, resource: { buffer: b } }] });
  return (await timeDispatches(device, pipeline, bg, [plan.x, plan.y, plan.z], 20)).ms;
}
async function hand(code, dims) {
  const module = device.createShaderModule({ code });
  const pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const bg = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: a } }, { binding: 1, resource: { buffer: b } }] });
  return (await timeDispatches(device, pipeline, bg, dims, 20)).ms;
}
const H = (body) => `@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(workgroup_id) w: vec3<u32>, @builtin(local_invocation_index) t: u32, @builtin(num_workgroups) nw: vec3<u32>) { ${body} }`;
const res = { plan, bytes: N4 * 32, fill: process.argv.includes('--fill') };
res.ours = await ours(k.wgsl);
res.hand_gid = await hand(H('let i = g.x + g.y * nw.x * 256u; if (i < ' + N4 + 'u) { dst[i] = src[i]; }'), [plan.x, plan.y, plan.z]);
res.hand_lin = await hand(H('let i = (w.x + w.y * nw.x) * 256u + t; if (i < ' + N4 + 'u) { dst[i] = src[i]; }'), [plan.x, plan.y, plan.z]);
res.ours_no_prologue = await ours(k.wgsl.replace(/  if \(ptx_launch\[0\]\.y \* ptx_launch\[0\]\.z != 1u\).*\n/, ''));
res.ours_plain_store = await ours(k.wgsl.replace(/let v21 = vec4<u32>\(v17, v18, v19, v20\);\n\s*ptx_slot1\[v14 >> 4u\] = v21;/, 'ptx_slot1[v14 >> 4u] = v16;'));
for (const key of ['ours', 'hand_gid', 'hand_lin', 'ours_no_prologue', 'ours_plain_store']) res[key + '_GBs'] = Math.round(res.bytes / res[key] / 1e6);
console.log(JSON.stringify(res));
process.exit(0);
