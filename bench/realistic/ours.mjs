// ptx-wgsl side of bench/realistic (run.sh): each kernel of specs.json through the runtime on the
// same PTX and inputs as native.py, its first launch's outputs compared with CUDA's, then timed:
// end to end (launches with a 4-byte read-back every 1, 10 and 100 launches), the shader alone
// (the WGSL the runtime launched, dispatched back to back between timestamp queries), and the
// compile path (transpile, first launch of a fresh module). Prints JSON lines; report.mjs makes
// the table.
//   node bench/realistic/ours.mjs <native-dir> [name-filter, alternatives separated by |] [--small] [--float=ftz] [--pass=N] [--dump=DIR]
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { compile } from '../../dist/src/index.js';
import { runtimeCompiler } from '../../dist/src/runtime-compiler.js';
import { createContextWith } from '../../dist/runtime/context.js';
import { packUniforms } from '../../dist/runtime/params.js';
import { overrideConstants } from '../../dist/runtime/pipeline-cache.js';
import { bindGroupLayoutEntries } from '../../dist/runtime/bindings.js';
import { DeferredAddSlots } from '../../dist/runtime/deferred-adds.js';
import { planDispatch } from '../../dist/runtime/grid.js';
import { timeDispatches } from '../raw-dispatch.mjs';
import { ARRAY, allocateArgs, median, shrink, warmUp } from './inputs.mjs';

// GC pauses of this process (ms), to tell them from the device's stalls in the end-to-end times
let gcMs = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) gcMs += e.duration; }).observe({ entryTypes: ['gc'] });

const [nativeDir = '/tmp/bench-native', only = ''] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const small = process.argv.includes('--small');
const float = process.argv.find((a) => a.startsWith('--float='))?.slice(8) ?? 'probe';
const specs = JSON.parse(readFileSync(new URL('./specs.json', import.meta.url), 'utf8')).kernels;
function compare(got, want, tol) {
  let bad = 0, first = '';
  const n = Math.min(got.length, want.length);
  for (let i = 0; i < n; i++) {
    const g = got[i], w = want[i];
    const ok = tol === 0 ? Object.is(g, w) || (typeof g === 'number' && Number.isNaN(g) && Number.isNaN(w)) || g === w
      : Math.abs(Number(g) - Number(w)) <= tol * (Math.abs(Number(w)) + 1e-3);
    if (!ok && !bad++) first = `[${i}] ours ${g} native ${w}`;
  }
  return bad ? `${bad}/${n} differ, first ${first}` : null;
}

// --replay=off: checked f32 arithmetic without replay regions (A/B of lowering/wgsl/replay-regions.ts)
const replay = process.argv.find((a) => a.startsWith('--replay='))?.slice(9);
// --edit=<json [[regex, replacement], ...]> --label=<name>: every launch (end to end and shader-only) runs
// the WGSL with these edits (experiments that find what a kernel's time goes to; results are not exact)
const edits = JSON.parse(process.argv.find((a) => a.startsWith('--edit='))?.slice(7) ?? '[]');
// --edit-module=<path.mjs>: the same with its default export, a function WGSL -> WGSL (edits regexes cannot express)
const editModule = process.argv.find((a) => a.startsWith('--edit-module='))?.slice(14);
if (editModule) edits.push((await import(new URL(editModule, `file://${process.cwd()}/`).href)).default);
const label = process.argv.find((a) => a.startsWith('--label='))?.slice(8);
// --pass=N: one of several passes of run.sh (report.mjs takes medians across them)
const pass = process.argv.find((a) => a.startsWith('--pass='))?.slice(7);
// --dump=<dir>: write each kernel's launched WGSL there (the device's own lowering, probe included)
const dump = process.argv.find((a) => a.startsWith('--dump='))?.slice(7);
// with --edit, the context's kernels are edited too, so kernels timed end to end only (module
// memory) show the edit as well
const edited = (wgsl) => edits.reduce((w, e) => (typeof e === 'function' ? e(w) : w.replace(new RegExp(e[0], 'g'), e[1])), wgsl);
const compiler = edits.length === 0 ? runtimeCompiler : {
  ...runtimeCompiler,
  compileModule: (src, o) => {
    const m = runtimeCompiler.compileModule(src, o);
    return { ...m, variables: () => m.variables(), kernels: (opts) => m.kernels(opts).map((k) => ({ ...k, wgsl: edited(k.wgsl) })) };
  },
};
const ctx = await createContextWith(compiler, { float, ...(replay ? { replayRegions: replay } : {}) });
const device = ctx.device;
const results = [];
for (const [k, spec0] of specs.entries()) {
  if (only && !only.split('|').some((f) => spec0.name.includes(f))) continue;
  const spec = shrink(spec0, small);
  const row = { name: spec.name, index: k };
  const ptrs = [];
  try {
    const ptx = readFileSync(spec.ptx, 'utf8');
    let t0 = performance.now();
    compile(ptx, { entry: spec.entry, fileName: spec.ptx });
    row.transpile_ms = performance.now() - t0;
    const { args, host, ptrs: allocated } = allocateArgs(ctx, spec, small);
    ptrs.push(...allocated);
    await ctx.synchronize();
    const shape = { grid: spec.grid, block: spec.block, ...(spec.shared ? { sharedBytes: spec.shared } : {}) };
    t0 = performance.now();
    const mod = ctx.loadModule(ptx, { fileName: spec.ptx });
    for (const [sym, values] of Object.entries(spec.symbols ?? {})) mod.copyToSymbol(sym, new Float32Array(values));
    const fn = mod.getFunction(spec.entry);
    const kernel = fn.launch(shape, args);
    await ctx.synchronize();
    row.first_launch_ms = performance.now() - t0;
    row.path = `${kernel.layout.warp?.path ?? '?'}`;
    if (dump) writeFileSync(`${dump}/${spec.entry}${float === 'probe' ? '' : `-${float}`}.wgsl`, kernel.wgsl);
    // outputs of the first launch against CUDA's
    const problems = [];
    for (const [j, a] of spec.args.entries()) {
      if (!(a.out || a.inout)) continue;
      const got = new ARRAY[a.out ?? a.inout](a.n);
      await ctx.memcpyDtoH(got, args[j]);
      const file = `${nativeDir}/${k}.${j}.bin`;
      if (!existsSync(file)) { problems.push(`no native output ${file}`); continue; }
      const buf = readFileSync(file);
      const want = new ARRAY[a.out ?? a.inout](buf.buffer, buf.byteOffset, buf.byteLength / ARRAY[a.out ?? a.inout].BYTES_PER_ELEMENT);
      const msg = compare(got, want, spec.tol ?? 0);
      if (msg) problems.push(`arg ${j}: ${msg}`);
    }
    row.match = problems.length ? problems.join('; ') : 'yes';
    // end to end: a 4-byte read-back every `sync` launches
    const probe = new Uint8Array(4);
    const out = args[spec.args.findIndex((a) => a.out || a.inout)];
    fn.launch(shape, args); t0 = performance.now(); await ctx.memcpyDtoH(probe, out);
    const single = performance.now() - t0;
    const total = single > 50 ? 4 : single > 5 ? 20 : 100;
    await warmUp(() => fn.launch(shape, args), () => ctx.memcpyDtoH(probe, out));
    row.e2e_ms = {};
    if (single > 1000) { row.e2e_ms[1] = single; throw Object.assign(new Error('slow'), { slow: true }); } // one launch is the figure
    // each figure is the median of five runs of the loop: a stall of tens of ms (a GC pause, or a
    // read-back that waits long) hits one run in several. e2e_split keeps, per run, where the time
    // went (below), for runs whose end-to-end time strays from the shader's.
    row.e2e_split = {};
    for (const sync of [1, 10, 100]) {
      if (sync > total) continue;
      const runs = [];
      row.e2e_split[sync] = [];
      for (let r = 0; r < 5; r++) {
        let inLaunch = 0, inWait = 0, longest = 0;
        const gcBefore = gcMs;
        t0 = performance.now();
        for (let i = 1; i <= total; i++) {
          const a = performance.now(); fn.launch(shape, args); const b = performance.now(); inLaunch += b - a;
          if (i % sync === 0) { await ctx.memcpyDtoH(probe, out); inWait += performance.now() - b; }
          longest = Math.max(longest, performance.now() - a);
        }
        runs.push((performance.now() - t0) / total);
        // per launch: in launch(), waiting; the longest iteration and the run's GC pauses (ms)
        row.e2e_split[sync].push([+(inLaunch / total).toFixed(4), +(inWait / total).toFixed(4), +longest.toFixed(3), +(gcMs - gcBefore).toFixed(3)]);
      }
      row.e2e_ms[sync] = median(runs);
    }
    // the shader alone: the launched WGSL, its own buffers (the same inputs), timestamps; module
    // memory is the module's buffer, runtime-owned buffers (trap record, locks, deferred-add
    // slots) zeroed ones, and a kernel with an epilogue has it dispatched after each launch
    const raw = [];
    const g3 = [spec.grid[0], spec.grid[1] ?? 1, spec.grid[2] ?? 1];
    const plan = planDispatch(g3, device.limits.maxComputeWorkgroupsPerDimension);
    const module = device.createShaderModule({ code: kernel.wgsl });
    const bgl = device.createBindGroupLayout({ entries: bindGroupLayoutEntries(kernel.layout) });
    const pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [bgl] });
    t0 = performance.now();
    const pipeline = await device.createComputePipelineAsync({
      layout: pipelineLayout,
      compute: { module, entryPoint: kernel.entryPoint, constants: overrideConstants(kernel, { block: [spec.block[0], spec.block[1] ?? 1, spec.block[2] ?? 1], sharedBytes: spec.shared ?? 0, directGrid: plan.direct }) },
    });
    row.pipeline_ms = performance.now() - t0;
    const epilogue = kernel.epilogueEntryPoint ? await device.createComputePipelineAsync({ layout: pipelineLayout, compute: { module, entryPoint: kernel.epilogueEntryPoint } }) : undefined;
    const values = args.map((v, j) => (host[j] ? 0n : v));
    const u = packUniforms(kernel.layout, { nctaid: g3, dispatchX: plan.x }, values);
    const ub = device.createBuffer({ size: u.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(ub, 0, u); raw.push(ub);
    const entries = [{ binding: 0, resource: { buffer: ub } }];
    for (const b of kernel.layout.bindings) {
      if (b.kind === 'launch-params') continue;
      let gb;
      if (b.kind === 'global-slot') {
        const h = host[b.param];
        gb = device.createBuffer({ size: Math.max(16, Math.ceil(h.byteLength / 16) * 16), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
        device.queue.writeBuffer(gb, 0, h.buffer, h.byteOffset, h.byteLength);
      } else if (b.kind === 'module-memory') {
        // the module's own buffer, holding the symbols copied to it (a constant filter)
        entries.push({ binding: b.binding, resource: { buffer: mod.owned(b) } });
        continue;
      } else {
        gb = b.kind === 'deferred-adds' ? new DeferredAddSlots(device).buffer(g3[0] * g3[1] * g3[2]) : device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
      }
      raw.push(gb); entries.push({ binding: b.binding, resource: { buffer: gb } });
    }
    const bg = device.createBindGroup({ layout: bgl, entries });
    const t = await timeDispatches(device, pipeline, bg, [plan.x, plan.y, plan.z], Math.max(2, Math.min(20, Math.round(100 / Math.max(single, 1)))), 3, epilogue);
    row.shader_ms = t.ms; row.timer = t.timer;
    raw.forEach((b) => b.destroy());
  } catch (e) {
    if (!e?.slow) row.error = String(e?.message ?? e).split('\n').slice(0, 2).join(' ');
  }
  for (const p of ptrs) ctx.free(p);
  await ctx.synchronize().catch(() => {});
  console.log(JSON.stringify(row));
  results.push(row);
}
writeFileSync(`${nativeDir}/ours${float === 'probe' ? '' : `-${float}`}${replay ? `-replay-${replay}` : ''}${label ? `-${label}` : ''}${pass ? `.p${pass}` : ''}.json`, JSON.stringify(results, null, 1));
ctx.destroy();
process.exit(0);
