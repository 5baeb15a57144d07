// Separates shader speed from launch overhead: runs ptx-wgsl's generated WGSL for the kernels in
// bench/kernels/bandwidth.ptx with raw WebGPU calls, ITER dispatches in one compute pass (one
// submit), timed with timestamp queries where the device has them (bench/raw-dispatch.mjs), and also times ITER separate
// `launch()` calls of the runtime (CPU time spent in launch() and wall time to completion).
//   npm run build && node bench/gpu-raw.mjs
import { readFileSync } from 'node:fs';
import { compile } from '../dist/src/compile.js';
import { createContext, getDefaultDevice, releaseDefaultDevice } from '../dist/src/index.js';
import { packUniforms } from '../dist/runtime/params.js';
import { overrideConstants } from '../dist/runtime/pipeline-cache.js';
import { bindGroupLayoutEntries } from '../dist/runtime/bindings.js';
import { planDispatch } from '../dist/runtime/grid.js';
import { timeDispatches } from './raw-dispatch.mjs';

const ptx = readFileSync(new URL('./kernels/bandwidth.ptx', import.meta.url), 'utf8');
const N = Number(process.env.BENCH_N ?? 1 << 26);
const ITER = Number(process.env.BENCH_ITER ?? 30);
const BLOCK = 256;
const device = await getDefaultDevice();
const mk = (bytes) => device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC });
const x = mk(N * 4); const y = mk(N * 4);
const kernels = compile(ptx, { fileName: 'bandwidth.ptx', fusedFma: true }).kernels;

async function raw(name, grid, values, bytes) {
  const k = kernels.find((c) => c.layout.entry === name);
  const module = device.createShaderModule({ code: k.wgsl });
  const bgl = device.createBindGroupLayout({ entries: bindGroupLayoutEntries(k.layout) });
  // The runtime's dispatch shape, so this times the shader as launch() runs it.
  const plan = planDispatch([grid, 1, 1], device.limits.maxComputeWorkgroupsPerDimension);
  const pipeline = await device.createComputePipelineAsync({
    layout: device.createPipelineLayout({ bindGroupLayouts: [bgl] }),
    compute: { module, entryPoint: k.entryPoint, constants: overrideConstants(k, { block: [BLOCK, 1, 1], sharedBytes: 0, directGrid: plan.direct }) },
  });
  const u = packUniforms(k.layout, { nctaid: [grid, 1, 1], dispatchX: plan.x }, values);
  const ub = device.createBuffer({ size: u.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(ub, 0, u);
  const slots = k.layout.bindings.filter((b) => b.kind === 'global-slot');
  const bufs = { in: x, x, out: y, y };
  const entries = [{ binding: 0, resource: { buffer: ub } }, ...slots.map((b) => ({ binding: b.binding, resource: { buffer: bufs[k.layout.params[b.param].name.replace(/^.*_param_(\d+)$/, (m, i) => ['in', 'out', 'x', 'y'][+i])] ?? (b.param === 0 || b.param === 2 ? x : y) } }))];
  const bg = device.createBindGroup({ layout: bgl, entries });
  const t = await timeDispatches(device, pipeline, bg, [plan.x, plan.y, plan.z], ITER);
  console.log(JSON.stringify({ side: 'ptx-wgsl-raw', kernel: name, bytes, ms: t.ms, gbps: bytes / t.ms / 1e6, timer: t.timer }));
}

await raw('copy_f32x4', Math.ceil(N / 4 / BLOCK), [0n, 0n, N / 4], 2 * N * 4);
await raw('copy_u32', Math.ceil(N / BLOCK), [0n, 0n, N], 2 * N * 4);
await raw('saxpy', Math.ceil(N / BLOCK), [N, 2.5, 0n, 0n], 3 * N * 4);

// The runtime's per-launch path: CPU time inside launch(), and wall time to completion.
const ctx = await createContext({ device });
const fn = ctx.loadModule(ptx).getFunction('copy_f32x4');
const a = ctx.malloc(N * 4); const b = ctx.malloc(N * 4);
const small = new Uint32Array(4);
const grid = Math.ceil(N / 4 / BLOCK);
fn.launch({ grid, block: BLOCK }, [a, b, N / 4]); await ctx.memcpyDtoH(small, b);
let cpu = 0; const t0 = performance.now();
for (let i = 0; i < ITER; i++) { const c0 = performance.now(); fn.launch({ grid, block: BLOCK }, [a, b, N / 4]); cpu += performance.now() - c0; }
await ctx.memcpyDtoH(small, b);
console.log(JSON.stringify({ side: 'ptx-wgsl-launch', kernel: 'copy_f32x4', cpuMsPerLaunch: cpu / ITER, wallMsPerLaunch: (performance.now() - t0) / ITER }));
await releaseDefaultDevice();
process.exit(0);
