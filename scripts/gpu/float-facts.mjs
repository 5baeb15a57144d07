// What the float probe finds on the default adapter (runtime/probe-float.ts): which f32
// operations and .approx functions the device's own WGSL arithmetic may compute, and for the
// .approx functions the largest difference between the built-in and our helper on the ranges
// the ISA states bounds for (absolute for sin/cos/lg2, relative for ex2), with its argument.
//   npm run build && node scripts/gpu/float-facts.mjs   (there: source .gpu/remote.sh first)
import { create, globals } from 'webgpu';
Object.assign(globalThis, globals);
Object.defineProperty(globalThis, 'navigator', { value: { gpu: create([]) }, configurable: true });
const { createContext } = await import('../../dist/src/index.js');
const { floatProbe } = await import('../../dist/lowering/wgsl/native-float.js');
const ctx = await createContext();
console.log(JSON.stringify(ctx.nativeFloat));
ctx.destroy();

const adapter = await navigator.gpu.requestAdapter();
const device = await adapter.requestDevice();
const probe = floatProbe();
const buf = device.createBuffer({ size: probe.bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
device.queue.writeBuffer(buf, 0, probe.input);
const read = device.createBuffer({ size: probe.bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code: probe.code }), entryPoint: 'main' } });
const enc = device.createCommandEncoder();
const pass = enc.beginComputePass();
pass.setPipeline(pipeline);
pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: buf } }] }));
pass.dispatchWorkgroups(1);
pass.end();
enc.copyBufferToBuffer(buf, 0, read, 0, probe.bytes);
device.queue.submit([enc.finish()]);
await read.mapAsync(GPUMapMode.READ);
const out = new Uint32Array(read.getMappedRange().slice(0));
const f = new Float32Array(1), u = new Uint32Array(f.buffer);
const val = (b) => ((u[0] = b), f[0]);
// layout of native-float.ts: WORDS per vector, approx pairs from word 8 (rsqrt, ex2, lg2, sin, cos, tanh)
const names = ['rsqrt', 'ex2', 'lg2', 'sin', 'cos', 'tanh'];
const words = 2 * (4 + 2 * names.length) + 4;
const count = probe.input.length / 2;
const worst = Object.fromEntries(names.map((n) => [n, { d: 0, x: 0, quad: 0 }]));
for (let i = 0; i < count; i++) {
  const x = val(probe.input[2 * i]);
  const w = probe.input.length + i * words;
  names.forEach((n, k) => {
    const a = val(out[w + 8 + 2 * k]), h = val(out[w + 9 + 2 * k]);
    if (!Number.isFinite(a) || !Number.isFinite(h) || !Number.isFinite(x)) return;
    const inRange = n === 'sin' || n === 'cos' ? Math.abs(x) <= Math.PI : n === 'ex2' ? x >= -126 && x <= 127 : n === 'lg2' ? x > 0 : true;
    if (!inRange) return;
    const d = n === 'ex2' || n === 'rsqrt' || n === 'tanh' ? Math.abs(a - h) / Math.max(Math.abs(h), 1e-38) : Math.abs(a - h);
    if (d > worst[n].d) worst[n] = { ...worst[n], d, x };
    if ((n === 'sin' || n === 'cos') && Math.abs(x) <= Math.PI / 4) worst[n].quad = Math.max(worst[n].quad, d);
  });
}
for (const n of names) console.log(`${n}: worst ${worst[n].d ? `2^${Math.log2(worst[n].d).toFixed(2)}` : 0} at x=${worst[n].x}${n === 'sin' || n === 'cos' ? `; |x|<=pi/4: ${worst[n].quad ? `2^${Math.log2(worst[n].quad).toFixed(2)}` : 0}` : ''}`);
device.destroy();
