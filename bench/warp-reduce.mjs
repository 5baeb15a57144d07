/**
 * Warp reduction on the native (subgroups) and emulated warp paths against hand-written WGSL
 * using subgroupAdd (issue 5: the native path within 10% of the hand-written version).
 * Needs a device with 32-lane subgroups for the native path (e.g. Dawn on an NVIDIA GPU);
 * elsewhere the subgroups rows are skipped (their results would be wrong) and only the
 * emulated path and the baseline run.
 *
 * Run: npm run build && node bench/warp-reduce.mjs [elements=8388608] [iterations=200]
 * Prints JSON: per variant the median and best milliseconds per launch (wall clock over a batch
 * of launches submitted together, after a warm-up), and whether its output was correct.
 */
import { readFileSync } from 'node:fs';
import { createContext, getDefaultDevice, releaseDefaultDevice } from '../dist/src/index.js';
import { probeSubgroups } from '../dist/runtime/probe-subgroups.js';
import { packUniforms } from '../dist/runtime/params.js';
import { overrideConstants } from '../dist/runtime/pipeline-cache.js';
import { bindGroupLayoutEntries } from '../dist/runtime/bindings.js';
import { planDispatch } from '../dist/runtime/grid.js';
import { timeDispatches } from './raw-dispatch.mjs';

const n = Number(process.argv[2] ?? 1 << 23); // a multiple of 32 * 256; at most 65535 * 256 * 2^k keeps the 2D dispatch exact
const iterations = Number(process.argv[3] ?? 200);
const block = 256;
const batches = 5;
const ptx = readFileSync(new URL('./warp-reduce.ptx', import.meta.url), 'utf8');
const wgsl = readFileSync(new URL('./warp-reduce.wgsl', import.meta.url), 'utf8');

const input = Uint32Array.from({ length: n }, (_, i) => Math.imul(i, 2654435761) >>> 20);
const expected = new Uint32Array(n / 32);
for (let i = 0; i < n; i++) expected[i >> 5] = (expected[i >> 5] + input[i]) >>> 0;

const device = await getDefaultDevice();
const probe = await probeSubgroups(device);
const grid = n / block;

async function time(run, sync) {
  run(); await sync();
  const per = [];
  for (let b = 0; b < batches; b++) {
    const t0 = performance.now();
    for (let k = 0; k < iterations; k++) run();
    await sync();
    per.push((performance.now() - t0) / iterations);
  }
  per.sort((a, b) => a - b);
  return { medianMs: per[Math.floor(per.length / 2)], bestMs: per[0] };
}

async function ptxVariant(entry, warpPath) {
  const ctx = await createContext({ device });
  const fn = ctx.loadModule(ptx, { fileName: 'warp-reduce.ptx', warpPath }).getFunction(entry);
  const inBuf = ctx.malloc(4 * n);
  const outBuf = ctx.malloc(4 * (n / 32));
  ctx.memcpyHtoD(inBuf, input);
  const kernel = await fn.prepareAsync({ grid, block }, [inBuf, outBuf]);
  const t = await time(() => fn.launch({ grid, block }, [inBuf, outBuf]), () => ctx.synchronize());
  const out = new Uint32Array(n / 32);
  await ctx.memcpyDtoH(out, outBuf);
  ctx.destroy();
  // The same WGSL dispatched raw, timed on the GPU: the shader's cost without launch overhead.
  const module = device.createShaderModule({ code: kernel.wgsl });
  const bgl = device.createBindGroupLayout({ entries: bindGroupLayoutEntries(kernel.layout) });
  const plan = planDispatch([grid, 1, 1], device.limits.maxComputeWorkgroupsPerDimension);
  const pipeline = await device.createComputePipelineAsync({
    layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }),
    compute: { module, entryPoint: kernel.entryPoint, constants: overrideConstants(kernel, { block: [block, 1, 1], sharedBytes: 0, directGrid: plan.direct }) },
  });
  const u = packUniforms(kernel.layout, { nctaid: [grid, 1, 1], dispatchX: plan.x }, [0n, 0n]);
  const ub = device.createBuffer({ size: u.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(ub, 0, u);
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const a = device.createBuffer({ size: 4 * n, usage }); const b = device.createBuffer({ size: 4 * (n / 32), usage });
  const slots = kernel.layout.bindings.filter((e) => e.kind === 'global-slot');
  const entries = [{ binding: 0, resource: { buffer: ub } }, ...slots.map((e) => ({ binding: e.binding, resource: { buffer: e.param === 0 ? a : b } }))];
  const gpu = await timeDispatches(device, pipeline, device.createBindGroup({ layout: bgl, entries }), [plan.x, plan.y, plan.z], iterations);
  return { variant: `${entry} (${kernel.layout.warp.path})`, ...t, gpuMs: gpu.ms, timer: gpu.timer, correct: out.every((x, i) => x === expected[i]) };
}

async function handWritten(entryPoint, label) {
  const module = device.createShaderModule({ code: wgsl });
  const pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint } });
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
  const inBuf = device.createBuffer({ size: 4 * n, usage });
  const outBuf = device.createBuffer({ size: 4 * (n / 32), usage });
  const readback = device.createBuffer({ size: 4 * (n / 32), usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(inBuf, 0, input);
  const bind = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: inBuf } }, { binding: 1, resource: { buffer: outBuf } }] });
  const x = Math.min(grid, 65535);
  const run = () => {
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bind);
    pass.dispatchWorkgroups(x, Math.ceil(grid / x));
    pass.end();
    device.queue.submit([enc.finish()]);
  };
  const t = await time(run, () => device.queue.onSubmittedWorkDone());
  const gpu = await timeDispatches(device, pipeline, bind, [x, Math.ceil(grid / x)], iterations);
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(outBuf, 0, readback, 0, 4 * (n / 32));
  device.queue.submit([enc.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(readback.getMappedRange().slice(0));
  readback.unmap();
  return { variant: label, ...t, gpuMs: gpu.ms, timer: gpu.timer, correct: grid % x === 0 && out.every((v, i) => v === expected[i]) };
}

const native = probe.size === 32 && probe.consecutive;
const results = [];
if (native) {
  results.push(await handWritten('main', 'hand-written WGSL subgroupAdd'), await handWritten('main_shfl', 'hand-written WGSL 5x subgroupShuffleDown'));
  results.push(await handWritten('main_shfl_select', 'hand-written, PTX range rule as select'), await handWritten('main_shfl_index', 'hand-written, PTX range rule in the source lane'));
}
for (const entry of ['warp_reduce_shfl', 'warp_reduce_redux']) {
  if (native) results.push(await ptxVariant(entry, 'subgroups'));
  results.push(await ptxVariant(entry, 'emulated'));
}
const info = device.adapterInfo ?? {};
console.log(JSON.stringify({ device: `${info.vendor ?? ''} ${info.architecture ?? ''} ${info.description ?? ''}`.trim(), subgroups: probe, elements: n, iterations, results }, null, 2));
await releaseDefaultDevice();
