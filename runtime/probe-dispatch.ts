/**
 * Runs a device probe: one workgroup of a WGSL `main` over one storage buffer at binding 0,
 * optionally initialised, and returns the buffer's bytes afterwards. The capability probes
 * (probe-fma.ts, probe-subgroups.ts) differ only in their shader and how they read the result.
 */
export async function runProbe(device: GPUDevice, label: string, code: string, bytes: number, init?: ArrayBufferView<ArrayBuffer>): Promise<ArrayBuffer> {
  const module = device.createShaderModule({ code, label });
  const pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const buffer = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  const readback = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  try {
    if (init) device.queue.writeBuffer(buffer, 0, init);
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer } }] }));
    pass.dispatchWorkgroups(1);
    pass.end();
    encoder.copyBufferToBuffer(buffer, 0, readback, 0, bytes);
    device.queue.submit([encoder.finish()]);
    await readback.mapAsync(GPUMapMode.READ);
    const out = readback.getMappedRange().slice(0);
    readback.unmap();
    return out;
  } finally {
    buffer.destroy();
    readback.destroy();
  }
}
