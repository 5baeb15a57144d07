/**
 * Whether a device's WGSL `fma()` is a true fused multiply-add. WGSL lets it be a multiply
 * and an add (lavapipe does that), which is not PTX's `fma.rn.f32`; the compiler then emits
 * an exact emulation. Probed once per device with inputs whose fused and unfused results
 * differ: (1 + 2^-12)^2 - (1 + 2^-11) is exactly 2^-24 fused, 0 when the product is rounded.
 */
const probes = new WeakMap<GPUDevice, Promise<boolean>>();

const SHADER = `
@group(0) @binding(0) var<storage, read_write> out: array<f32, 4>;
@compute @workgroup_size(1) fn main() {
  let a = out[0]; let b = out[1]; let c = out[2];
  out[3] = fma(a, b, c);
}`;

export function probeFusedFma(device: GPUDevice): Promise<boolean> {
  let p = probes.get(device);
  if (!p) probes.set(device, (p = run(device).catch(() => false)));
  return p;
}

async function run(device: GPUDevice): Promise<boolean> {
  const module = device.createShaderModule({ code: SHADER, label: 'ptx-wgsl fma probe' });
  const pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const data = new Float32Array([1 + 2 ** -12, 1 + 2 ** -12, -(1 + 2 ** -11), -1]);
  const buffer = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  const readback = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(buffer, 0, data);
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer } }] }));
  pass.dispatchWorkgroups(1);
  pass.end();
  encoder.copyBufferToBuffer(buffer, 0, readback, 0, 16);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(GPUMapMode.READ);
  const result = new Float32Array(readback.getMappedRange().slice(0))[3];
  readback.unmap();
  buffer.destroy();
  readback.destroy();
  return result === 2 ** -24;
}
