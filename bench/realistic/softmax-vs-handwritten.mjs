// node bench/realistic/softmax-vs-handwritten.mjs [--small] (docs/BENCHMARKS.md, issue 13)
// Row softmax (tests/kernels/softmax_rows.cu: 1024 columns, one 256-thread block per row): our
// WGSL against hand-written WGSL of the same algorithm (three passes over the row, block max and
// sum from subgroup reductions and one shared slot per subgroup), same buffers and dispatch,
// timestamps. The hand-written one uses WGSL's own exp and max, so it is what WebGPU allows when
// nothing is checked; our WGSL variants with parts edited out show where our time goes.
import { readFileSync } from 'node:fs';
const { createContext } = await import('../../dist/src/index.js');
const { packUniforms } = await import('../../dist/runtime/params.js');
const { overrideConstants } = await import('../../dist/runtime/pipeline-cache.js');
const { bindGroupLayoutEntries } = await import('../../dist/runtime/bindings.js');
const { planDispatch } = await import('../../dist/runtime/grid.js');
const { timeDispatches } = await import('../../bench/raw-dispatch.mjs');
const small = process.argv.includes('--small');
const ROWS = small ? 1024 : 65536, COLS = 1024;
const ctx = await createContext({});
const device = ctx.device;
const mk = () => device.createBuffer({ size: ROWS * COLS * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
const x = mk(), y = mk();
const host = new Float32Array(ROWS * COLS);
for (let i = 0; i < host.length; i++) host[i] = (Math.imul(i, 2654435761) >>> 9) / 4194304 - 1;
device.queue.writeBuffer(x, 0, host);
const mod = ctx.loadModule(readFileSync('tests/kernels/softmax_rows.ptx', 'utf8'), { fileName: 'softmax_rows.ptx' });
const xp = ctx.malloc(16), yp = ctx.malloc(16);
const k = mod.getFunction('softmax_rows').launch({ grid: [1], block: [256] }, [xp, yp, COLS]);
await ctx.synchronize();
const plan = planDispatch([ROWS, 1, 1], device.limits.maxComputeWorkgroupsPerDimension);
async function ours(code) {
  const module = device.createShaderModule({ code });
  const bgl = device.createBindGroupLayout({ entries: bindGroupLayoutEntries(k.layout) });
  const pipeline = await device.createComputePipelineAsync({ layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }), compute: { module, entryPoint: k.entryPoint, constants: overrideConstants(k, { block: [256, 1, 1], sharedBytes: 0, directGrid: plan.direct }) } });
  const u = packUniforms(k.layout, { nctaid: [ROWS, 1, 1], dispatchX: plan.x }, [0n, 0n, COLS]);
  const ub = device.createBuffer({ size: u.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(ub, 0, u);
  const slots = k.layout.bindings.filter((b) => b.kind === 'global-slot');
  const bg = device.createBindGroup({ layout: bgl, entries: [{ binding: 0, resource: { buffer: ub } }, ...slots.map((b) => ({ binding: b.binding, resource: { buffer: b.param === 0 ? x : y } }))] });
  return (await timeDispatches(device, pipeline, bg, [plan.x, plan.y, plan.z], 10)).ms;
}
const hand = `enable subgroups;
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
var<workgroup> slots: array<f32, 32>;
fn block_reduce(v0: f32, is_max: bool, t: u32, sg: u32) -> f32 {
  var v = select(subgroupAdd(v0), subgroupMax(v0), is_max);
  let nsg = 256u / sg;
  if (t % sg == 0u) { slots[t / sg] = v; }
  workgroupBarrier();
  var r = select(0.0f, -3.4e38f, is_max);
  for (var i = 0u; i < nsg; i++) { r = select(r + slots[i], max(r, slots[i]), is_max); }
  workgroupBarrier();
  return r;
}
@compute @workgroup_size(256) fn main(@builtin(workgroup_id) w: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>, @builtin(local_invocation_index) t: u32, @builtin(subgroup_size) sg: u32) {
  let row = w.x + w.y * nw.x;
  if (row >= ${ROWS}u) { return; }
  let base = row * ${COLS}u;
  var m = -3.4e38f;
  for (var i = t; i < ${COLS}u; i += 256u) { m = max(m, x[base + i]); }
  m = block_reduce(m, true, t, sg);
  var s = 0.0f;
  for (var i = t; i < ${COLS}u; i += 256u) { let e = exp(x[base + i] - m); y[base + i] = e; s += e; }
  s = block_reduce(s, false, t, sg);
  let inv = 1.0f / s;
  for (var i = t; i < ${COLS}u; i += 256u) { y[base + i] *= inv; }
}`;
const module = device.createShaderModule({ code: hand });
const pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
const bg = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: x } }, { binding: 1, resource: { buffer: y } }] });
// the same with the row length read from a uniform, as the PTX has it (loops of unknown trip count)
const handRuntime = hand.replace('var<workgroup> slots', '@group(0) @binding(2) var<uniform> cols: vec4<u32>;\nvar<workgroup> slots')
  .replaceAll(`i < ${COLS}u`, 'i < cols.x').replace(`row * ${COLS}u`, 'row * cols.x');
const colsBuf = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
device.queue.writeBuffer(colsBuf, 0, new Uint32Array([COLS, 0, 0, 0]));
const pipelineRuntime = await device.createComputePipelineAsync({ layout: 'auto', compute: { module: device.createShaderModule({ code: handRuntime }), entryPoint: 'main' } });
const bgRuntime = device.createBindGroup({ layout: pipelineRuntime.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: x } }, { binding: 1, resource: { buffer: y } }, { binding: 2, resource: { buffer: colsBuf } }] });
const res = { rows: ROWS, cols: COLS, plan, matches: {} };
/** ours() of the WGSL with `re` replaced, counting the places it changed. */
const edited = (key, re, to, extra = '') => { res.matches[key] = (k.wgsl.match(re) ?? []).length; return ours(k.wgsl.replace(re, to) + extra); };
res.hand = (await timeDispatches(device, pipeline, bg, [plan.x, plan.y, plan.z], 10)).ms;
res.hand_runtime_cols = (await timeDispatches(device, pipelineRuntime, bgRuntime, [plan.x, plan.y, plan.z], 10)).ms;
res.ours = await ours(k.wgsl);
// the same WGSL with the slow paths of checked arithmetic never taken (results not exact)
res.ours_no_replay = await edited('ours_no_replay', /if \(!ok_\d+\) \{/g, 'if (false) {');
// f32r_minmax (PTX max on bits) as WGSL max (results not exact for NaN and signed zeros)
res.ours_plain_max = await edited('ours_plain_max', /bitcast<f32>\(f32r_minmax\(bitcast<u32>\(([^()]+)\), bitcast<u32>\(([^()]+)\), true, false, false\)\)/g, 'max($1, $2)');
// the checked fma as a plain fma
const FMA_PLAIN = '\nfn bench_fma_plain(a: u32, b: u32, c: u32) -> u32 { return bitcast<u32>(fma(bitcast<f32>(a), bitcast<f32>(b), bitcast<f32>(c))); }\n';
res.ours_plain_fma = await edited('ours_plain_fma', /(?<!fn )f32_fma_checked\(/g, 'bench_fma_plain(', FMA_PLAIN);
// fma.rm (nvcc's expf rounds x * log2(e) to an integer with it) as a plain fma (results not exact)
const DIRECTED_PLAIN = '\nfn bench_fma_directed_plain(a: u32, b: u32, c: u32, rm: u32) -> u32 { return bitcast<u32>(fma(bitcast<f32>(a), bitcast<f32>(b), bitcast<f32>(c))); }\n';
res.ours_plain_directed = await edited('ours_plain_directed', /(?<!fn )f32r_fma_directed\(/g, 'bench_fma_directed_plain(', DIRECTED_PLAIN);
// the checked mul of the last pass (y[i] * inv) as a plain mul
const MUL_PLAIN = '\nfn bench_mul_plain(a: u32, b: u32) -> u32 { return bitcast<u32>(bitcast<f32>(a) * bitcast<f32>(b)); }\n';
res.ours_plain_mul = await edited('ours_plain_mul', /(?<!fn )f32r_mul_rn\(/g, 'bench_mul_plain(', MUL_PLAIN);
// bar.sync's global-memory fence (storageBarrier) dropped: this kernel shares nothing through global memory
res.ours_no_storage_barrier = await edited('ours_no_storage_barrier', /storageBarrier\(\);/g, '');
// everything above at once
res.ours_all_edits = await ours(k.wgsl.replace(/if \(!ok_\d+\) \{/g, 'if (false) {').replace(/bitcast<f32>\(f32r_minmax\(bitcast<u32>\(([^()]+)\), bitcast<u32>\(([^()]+)\), true, false, false\)\)/g, 'max($1, $2)')
  .replace(/(?<!fn )f32_fma_checked\(/g, 'bench_fma_plain(').replace(/storageBarrier\(\);/g, '') + FMA_PLAIN);
// and the directed fma and the mul plain too: everything that has an exact fallback inline
res.ours_all_plain = await ours(k.wgsl.replace(/if \(!ok_\d+\) \{/g, 'if (false) {').replace(/(?<!fn )f32_fma_checked\(/g, 'bench_fma_plain(')
  .replace(/(?<!fn )f32r_fma_directed\(/g, 'bench_fma_directed_plain(').replace(/(?<!fn )f32r_mul_rn\(/g, 'bench_mul_plain(').replace(/storageBarrier\(\);/g, '') + FMA_PLAIN + DIRECTED_PLAIN + MUL_PLAIN);
for (const key of ['hand', 'hand_runtime_cols', 'ours', 'ours_no_replay', 'ours_plain_max', 'ours_plain_fma', 'ours_plain_directed', 'ours_plain_mul', 'ours_no_storage_barrier', 'ours_all_edits', 'ours_all_plain']) res[`${key}_GBs`] = Math.round((ROWS * COLS * 4 * 5) / res[key] / 1e6);
console.log(JSON.stringify(res));
process.exit(0);
