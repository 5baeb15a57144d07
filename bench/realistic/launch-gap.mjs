// node bench/realistic/launch-gap.mjs [name-filter ...] [--small] [--dump=DIR]   (docs/BENCHMARKS.md, issue 13)
// Where the time between "the shader alone" and "end to end" goes, kernel by kernel of specs.json.
// Each row times the same launched WGSL several ways, in one process:
//   raw0   timestamps around back-to-back dispatches in one pass, own buffers, pointer params 0
//          (what ours.mjs's shader column measures)
//   rawPtr the same with the launch's real pointer values in the uniforms
//   rawCtx the same bound to the runtime's own allocations (ctx.malloc buffers)
//   subm1  one dispatch per submit, 10 submits, then onSubmittedWorkDone (wall, per dispatch)
//   e2e1 / e2e10  fn.launch with a 4-byte memcpyDtoH every 1 / 10 launches (wall, per launch)
//   sync10 fn.launch with ctx.synchronize() every 10 launches
//   launchCpu, readWait  in e2e1: the time inside launch() and inside the awaited read
import { readFileSync, writeFileSync } from 'node:fs';
import { createContext } from '../../dist/src/index.js';
import { packUniforms } from '../../dist/runtime/params.js';
import { overrideConstants } from '../../dist/runtime/pipeline-cache.js';
import { bindGroupLayoutEntries } from '../../dist/runtime/bindings.js';
import { planDispatch } from '../../dist/runtime/grid.js';
import { timeDispatches } from '../raw-dispatch.mjs';
import { allocateArgs, median, shrink, warmUp } from './inputs.mjs';

const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const small = process.argv.includes('--small');
const dump = process.argv.find((a) => a.startsWith('--dump='))?.slice(7);
const specs = JSON.parse(readFileSync(new URL('./specs.json', import.meta.url), 'utf8')).kernels;
const ctx = await createContext({});
const device = ctx.device;

async function wall(f, reps = 5) {
  await f();
  const ts = [];
  for (let r = 0; r < reps; r++) { const t0 = performance.now(); await f(); ts.push(performance.now() - t0); }
  return median(ts);
}

for (const spec0 of specs) {
  if (filters.length && !filters.some((f) => spec0.name.includes(f))) continue;
  const spec = shrink(spec0, small);
  const row = { name: spec.name };
  const { args, host, ptrs } = allocateArgs(ctx, spec, small);
  try {
    const ptx = readFileSync(spec.ptx, 'utf8');
    const shape = { grid: spec.grid, block: spec.block, ...(spec.shared ? { sharedBytes: spec.shared } : {}) };
    const mod = ctx.loadModule(ptx, { fileName: spec.ptx });
    for (const [sym, values] of Object.entries(spec.symbols ?? {})) mod.copyToSymbol(sym, new Float32Array(values));
    const fn = mod.getFunction(spec.entry);
    const kernel = fn.launch(shape, args);
    await ctx.synchronize();
    row.bindings = kernel.layout.bindings.map((b) => b.kind).join(',');
    if (dump) writeFileSync(`${dump}/${spec.entry}.wgsl`, kernel.wgsl);
    const out = args[spec.args.findIndex((a) => a.out || a.inout)];
    const probe = new Uint8Array(4);
    const N = 10;
    await warmUp(() => fn.launch(shape, args), () => ctx.memcpyDtoH(probe, out));
    // end to end, as ours.mjs
    row.e2e1 = (await wall(async () => { for (let i = 0; i < N; i++) { fn.launch(shape, args); await ctx.memcpyDtoH(probe, out); } })) / N;
    row.e2e10 = (await wall(async () => { for (let i = 0; i < N; i++) fn.launch(shape, args); await ctx.memcpyDtoH(probe, out); })) / N;
    row.sync10 = (await wall(async () => { for (let i = 0; i < N; i++) fn.launch(shape, args); await ctx.synchronize(); })) / N;
    let cpu = 0, wait = 0;
    for (let i = 0; i < 3 * N; i++) {
      let t0 = performance.now(); fn.launch(shape, args); cpu += performance.now() - t0;
      t0 = performance.now(); await ctx.memcpyDtoH(probe, out); wait += performance.now() - t0;
    }
    row.launchCpu = cpu / (3 * N); row.readWait = wait / (3 * N);
    if (kernel.layout.bindings.some((b) => b.kind !== 'launch-params' && b.kind !== 'global-slot')) { console.log(JSON.stringify(row)); continue; }
    // the launched WGSL dispatched directly
    const module = device.createShaderModule({ code: kernel.wgsl });
    const bgl = device.createBindGroupLayout({ entries: bindGroupLayoutEntries(kernel.layout) });
    const g3 = [spec.grid[0], spec.grid[1] ?? 1, spec.grid[2] ?? 1];
    const plan = planDispatch(g3, device.limits.maxComputeWorkgroupsPerDimension);
    const pipeline = await device.createComputePipelineAsync({
      layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }),
      compute: { module, entryPoint: kernel.entryPoint, constants: overrideConstants(kernel, { block: [spec.block[0], spec.block[1] ?? 1, spec.block[2] ?? 1], sharedBytes: spec.shared ?? 0, directGrid: plan.direct }) },
    });
    const realValues = args.map((v, j) => (host[j] ? v.address : v));
    const uniform = (values) => {
      const u = packUniforms(kernel.layout, { nctaid: g3, dispatchX: plan.x }, values);
      const ub = device.createBuffer({ size: u.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(ub, 0, u);
      return ub;
    };
    const own = kernel.layout.bindings.filter((x) => x.kind === 'global-slot').map((b) => {
      const h = host[b.param];
      const gb = device.createBuffer({ size: Math.max(16, Math.ceil(h.byteLength / 16) * 16), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(gb, 0, h.buffer, h.byteOffset, h.byteLength);
      return { binding: b.binding, buffer: gb };
    });
    const ctxBufs = kernel.layout.bindings.filter((x) => x.kind === 'global-slot').map((b) => ({ binding: b.binding, buffer: args[b.param].buffer }));
    const group = (ub, bufs) => device.createBindGroup({ layout: bgl, entries: [{ binding: 0, resource: { buffer: ub } }, ...bufs.map((b) => ({ binding: b.binding, resource: { buffer: b.buffer } }))] });
    const zeroU = uniform(args.map((v, j) => (host[j] ? 0n : v)));
    const realU = uniform(realValues);
    const count = 10;
    row.raw0 = (await timeDispatches(device, pipeline, group(zeroU, own), [plan.x, plan.y, plan.z], count, 5)).ms;
    row.rawPtr = (await timeDispatches(device, pipeline, group(realU, own), [plan.x, plan.y, plan.z], count, 5)).ms;
    row.rawCtx = (await timeDispatches(device, pipeline, group(realU, ctxBufs), [plan.x, plan.y, plan.z], count, 5)).ms;
    const bgCtx = group(realU, ctxBufs);
    row.subm1 = (await wall(async () => {
      for (let i = 0; i < count; i++) {
        const enc = device.createCommandEncoder(); const pass = enc.beginComputePass();
        pass.setPipeline(pipeline); pass.setBindGroup(0, bgCtx); pass.dispatchWorkgroups(plan.x, plan.y, plan.z); pass.end();
        device.queue.submit([enc.finish()]);
      }
      await device.queue.onSubmittedWorkDone();
    })) / count;
    own.forEach((b) => b.buffer.destroy()); zeroU.destroy(); realU.destroy();
  } catch (e) {
    row.error = String(e?.message ?? e).split('\n').slice(0, 2).join(' ');
  }
  for (const p of ptrs) ctx.free(p);
  await ctx.synchronize().catch(() => {});
  for (const k of Object.keys(row)) if (typeof row[k] === 'number') row[k] = +row[k].toFixed(3);
  console.log(JSON.stringify(row));
}
ctx.destroy();
process.exit(0);
