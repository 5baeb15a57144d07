// GPU time of one dispatch, without the runtime's launch overhead: `count` dispatches in one
// compute pass between two timestamp queries (wall clock of the submit where the device has no
// timestamp-query). Used by the benchmarks to compare shaders, not launch paths. `epilogue`: a
// pipeline dispatched as one workgroup after each dispatch (CompiledKernel.epilogueEntryPoint).
export async function timeDispatches(device, pipeline, bindGroup, [x, y, z = 1], count, repeats = 5, epilogue = undefined) {
  const hasTs = device.features.has('timestamp-query');
  const qs = hasTs ? device.createQuerySet({ type: 'timestamp', count: 2 }) : null;
  const resolve = hasTs ? device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC }) : null;
  const read = hasTs ? device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }) : null;
  const once = async () => {
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass(hasTs ? { timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : {});
    pass.setPipeline(pipeline); pass.setBindGroup(0, bindGroup);
    for (let i = 0; i < count; i++) {
      pass.dispatchWorkgroups(x, y, z);
      if (epilogue) { pass.setPipeline(epilogue); pass.dispatchWorkgroups(1); pass.setPipeline(pipeline); }
    }
    pass.end();
    if (hasTs) { enc.resolveQuerySet(qs, 0, 2, resolve, 0); enc.copyBufferToBuffer(resolve, 0, read, 0, 16); }
    const t0 = performance.now();
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
    const wall = (performance.now() - t0) / count;
    if (!hasTs) return wall;
    await read.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(read.getMappedRange());
    const gpu = Number(t[1] - t[0]) / 1e6 / count;
    read.unmap();
    return gpu;
  };
  await once();
  const ms = [];
  for (let r = 0; r < repeats; r++) ms.push(await once());
  ms.sort((a, b) => a - b);
  return { ms: ms[Math.floor(ms.length / 2)], timer: hasTs ? 'timestamp' : 'wall' };
}
