// node bench/realistic/buffer-placement.mjs [--small]  (docs/BENCHMARKS.md, issue 13: run-to-run variance)
// Whether the speed of one dispatch depends on which buffers it gets: the same hand-written vec4
// copy (256 MB in, 256 MB out) timed with timestamps on 8 freshly created buffer pairs in one
// process, then on the first pair again; the source of each pair is written with data first.
const { getDefaultDevice } = await import('../../dist/src/index.js');
const { timeDispatches } = await import('../raw-dispatch.mjs');
const device = await getDefaultDevice();
const N4 = process.argv.includes('--small') ? 1 << 20 : 1 << 24;
const code = `@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;
@compute @workgroup_size(256) fn main(@builtin(workgroup_id) w: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let i = (w.x + w.y * nw.x) * 256u + t; if (i < ${N4}u) { dst[i] = src[i]; } }`;
const pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: 'main' } });
const host = new Uint32Array(N4 * 4);
for (let i = 0; i < host.length; i++) host[i] = Math.imul(i, 2654435761);
const pairs = [], times = [];
for (let p = 0; p < 8; p++) {
  const mk = () => device.createBuffer({ size: N4 * 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
  const a = mk(), b = mk();
  device.queue.writeBuffer(a, 0, host);
  const bg = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: a } }, { binding: 1, resource: { buffer: b } }] });
  pairs.push(bg);
  times.push((await timeDispatches(device, pipeline, bg, [N4 / 256 > 65535 ? N4 / 512 : N4 / 256, N4 / 256 > 65535 ? 2 : 1], 20)).ms);
}
times.push((await timeDispatches(device, pipeline, pairs[0], [N4 / 256 > 65535 ? N4 / 512 : N4 / 256, N4 / 256 > 65535 ? 2 : 1], 20)).ms);
console.log(JSON.stringify({ ms: times.map((t) => +t.toFixed(3)), GBs: times.map((t) => Math.round(N4 * 32 / t / 1e6)) }));
process.exit(0);
