// STAND-IN for src/index.ts (infra development only; PTXW_STANDIN=1). Ignores the PTX and runs a
// WGSL saxpy: y[i] = a*x[i] + y[i], args = [x: Float32Array, y: Float32Array, a: number, n: number].
export async function runPtx(_ptx: string, args: unknown[], opts: { device: GPUDevice; grid: number; block: number }): Promise<void> {
  const dev = opts.device;
  const x = args[0] as Float32Array, y = args[1] as Float32Array, a = args[2] as number, n = args[3] as number;
  const code = `
struct P { a: f32, n: u32 }
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@group(0) @binding(2) var<uniform> p: P;
@compute @workgroup_size(${opts.block}) fn main(@builtin(global_invocation_id) g: vec3u) {
  if (g.x < p.n) { y[g.x] = p.a * x[g.x] + y[g.x]; }
}`;
  const m = dev.createShaderModule({ code });
  const pl = await dev.createComputePipelineAsync({ layout: 'auto', compute: { module: m, entryPoint: 'main' } });
  const mk = (data: ArrayBufferView, usage: number) => {
    const b = dev.createBuffer({ size: Math.max(16, data.byteLength), usage: usage | GPUBufferUsage.COPY_DST });
    dev.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, data.byteLength);
    return b;
  };
  const bx = mk(x, GPUBufferUsage.STORAGE);
  const by = mk(y, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
  const pb = new ArrayBuffer(16); new Float32Array(pb, 0, 1)[0] = a; new Uint32Array(pb, 4, 1)[0] = n;
  const bp = mk(new Uint8Array(pb), GPUBufferUsage.UNIFORM);
  const rb = dev.createBuffer({ size: y.byteLength, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const bg = dev.createBindGroup({ layout: pl.getBindGroupLayout(0), entries: [bx, by, bp].map((buffer, binding) => ({ binding, resource: { buffer } })) });
  const e = dev.createCommandEncoder(); const pass = e.beginComputePass();
  pass.setPipeline(pl); pass.setBindGroup(0, bg); pass.dispatchWorkgroups(opts.grid); pass.end();
  e.copyBufferToBuffer(by, 0, rb, 0, y.byteLength); dev.queue.submit([e.finish()]);
  await rb.mapAsync(GPUMapMode.READ); y.set(new Float32Array(rb.getMappedRange())); rb.unmap();
  for (const b of [bx, by, bp, rb]) b.destroy();
}
