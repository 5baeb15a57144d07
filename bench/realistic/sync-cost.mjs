// node bench/realistic/sync-cost.mjs (on the GPU machine: docs/BENCHMARKS.md, read-back cost)
// What one synchronisation costs in Node: onSubmittedWorkDone on an idle queue, a 4-byte
// mapAsync read-back, and the runtime's memcpyDtoH of 4 bytes.
const { createContext, getDefaultDevice } = await import('../../dist/src/index.js');
const device = await getDefaultDevice();
const time = async (f, n = 50) => { await f(); const t0 = performance.now(); for (let i = 0; i < n; i++) await f(); return (performance.now() - t0) / n; };
const rb = device.createBuffer({ size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
const src = device.createBuffer({ size: 4, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.STORAGE });
const res = {};
res.workDone_ms = await time(() => device.queue.onSubmittedWorkDone());
res.mapAsync_ms = await time(async () => { const e = device.createCommandEncoder(); e.copyBufferToBuffer(src, 0, rb, 0, 4); device.queue.submit([e.finish()]); await rb.mapAsync(GPUMapMode.READ); rb.unmap(); });
const ctx = await createContext({ device });
const p = ctx.malloc(4); const h = new Uint32Array(1);
res.memcpyDtoH4_ms = await time(() => ctx.memcpyDtoH(h, p));
res.setTimeout0_ms = await time(() => new Promise((r) => setTimeout(r, 0)));
res.errorScope_ms = await time(async () => { device.pushErrorScope('validation'); await device.popErrorScope(); });
res.errorScope2_ms = await time(async () => { device.pushErrorScope('out-of-memory'); device.pushErrorScope('validation'); const a = device.popErrorScope(); const b = device.popErrorScope(); await Promise.all([a, b]); });
res.scopeThenMap_ms = await time(async () => { device.pushErrorScope('validation'); const s = device.popErrorScope(); const e = device.createCommandEncoder(); e.copyBufferToBuffer(src, 0, rb, 0, 4); device.queue.submit([e.finish()]); await rb.mapAsync(GPUMapMode.READ); rb.unmap(); await s; });
console.log(JSON.stringify(res));
process.exit(0);
