/**
 * Copies between host memory and allocations. WebGPU copies move whole 4-byte words at
 * 4-byte offsets; reads round the range out to words and keep only the requested bytes, so
 * any host view and any device range work. Writes cannot do that without clobbering the bytes
 * around the range, so they need word-aligned ranges, except that a write may end anywhere at
 * the end of its allocation (the padding after it is never observed).
 */
import { argumentError, hex } from './errors.js';
import { roundUp, type Location } from './memory.js';

function checkWritable(loc: Location, bytes: number, what: string): void {
  const end = loc.offset + bytes;
  if (loc.offset % 4 === 0 && (end % 4 === 0 || end === loc.allocation.size)) return;
  throw argumentError(
    `${what}: ${bytes} bytes at ${hex(loc.allocation.address + BigInt(loc.offset))} are not 4-byte aligned; ` +
      'WebGPU writes whole 32-bit words, so use an aligned offset and size, or end the write at the end of the allocation',
  );
}

/** Queues a write of `src` at `loc`; `src` is copied now, so the caller may reuse it at once. */
export function writeToDevice(device: GPUDevice, loc: Location, src: Uint8Array, what = 'memcpyHtoD'): void {
  if (src.byteLength === 0) return;
  checkWritable(loc, src.byteLength, what);
  let data = src;
  if (src.byteLength % 4 !== 0) {
    data = new Uint8Array(roundUp(src.byteLength, 4));
    data.set(src);
  }
  device.queue.writeBuffer(loc.allocation.buffer, loc.offset, data.buffer, data.byteOffset, data.byteLength);
}

/** Fills `bytes` bytes at `loc` with the byte `value` (cuMemsetD8). */
export function fillDevice(device: GPUDevice, loc: Location, value: number, bytes: number): void {
  if (!Number.isInteger(value) || value < 0 || value > 255) throw argumentError(`memset: value ${value} is not a byte`);
  writeToDevice(device, loc, new Uint8Array(bytes).fill(value), 'memset');
}

/** Copies `bytes` bytes between allocations, in queue order with launches. */
export function copyOnDevice(device: GPUDevice, dst: Location, src: Location, bytes: number): void {
  if (bytes === 0) return;
  if (dst.offset % 4 !== 0 || src.offset % 4 !== 0 || bytes % 4 !== 0) {
    throw argumentError('memcpyDtoD: offsets and size must be multiples of 4 bytes (a WebGPU copy rule)');
  }
  const encoder = device.createCommandEncoder({ label: 'ptx-wgsl memcpyDtoD' });
  encoder.copyBufferToBuffer(src.allocation.buffer, src.offset, dst.allocation.buffer, dst.offset, bytes);
  device.queue.submit([encoder.finish()]);
}

/** Reads `dst.byteLength` bytes at `loc` into `dst`, after all previously queued work. */
/**
 * Small read-back buffers kept per device for reuse: creating a mappable buffer for every
 * read cost about 0.65 ms on an H100 through NVIDIA's Vulkan driver (a 4-byte memcpyDtoH took
 * 0.71 ms against 0.05 ms for a reused buffer's mapAsync), and synchronising through a small
 * read-back is what a launch loop does every few launches. A buffer is taken while in use, so
 * concurrent reads each get their own.
 */
const STAGING_BYTES = 64 * 1024;
const STAGING_KEPT = 4;
const idleStaging = new WeakMap<GPUDevice, GPUBuffer[]>();

function takeStaging(device: GPUDevice, size: number): { buffer: GPUBuffer; pooled: boolean } {
  if (size <= STAGING_BYTES) {
    const idle = idleStaging.get(device)?.pop();
    if (idle) return { buffer: idle, pooled: true };
    return { buffer: device.createBuffer({ size: STAGING_BYTES, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, label: 'ptx-wgsl readback' }), pooled: true };
  }
  return { buffer: device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, label: 'ptx-wgsl readback' }), pooled: false };
}

function giveStaging(device: GPUDevice, staging: { buffer: GPUBuffer; pooled: boolean }, reusable: boolean): void {
  let idle = idleStaging.get(device);
  if (!idle) idleStaging.set(device, (idle = []));
  if (staging.pooled && reusable && idle.length < STAGING_KEPT) idle.push(staging.buffer);
  else staging.buffer.destroy();
}

export async function readFromDevice(device: GPUDevice, loc: Location, dst: Uint8Array): Promise<void> {
  if (dst.byteLength === 0) return;
  const start = loc.offset - (loc.offset % 4);
  // Allocations are padded to 16 bytes, so the rounded-up end is still inside the GPUBuffer.
  const size = roundUp(loc.offset + dst.byteLength, 4) - start;
  const staging = takeStaging(device, size);
  let reusable = false;
  try {
    const encoder = device.createCommandEncoder({ label: 'ptx-wgsl memcpyDtoH' });
    encoder.copyBufferToBuffer(loc.allocation.buffer, start, staging.buffer, 0, size);
    device.queue.submit([encoder.finish()]);
    await staging.buffer.mapAsync(GPUMapMode.READ, 0, size);
    dst.set(new Uint8Array(staging.buffer.getMappedRange(0, size), loc.offset - start, dst.byteLength));
    staging.buffer.unmap();
    reusable = true;
  } finally {
    giveStaging(device, staging, reusable);
  }
}
