/**
 * Whether a device's WGSL `fma()` is a true fused multiply-add. WGSL lets it be a multiply
 * and an add (lavapipe does that), which is not PTX's `fma.rn.f32`; the compiler then emits
 * an exact emulation. Probed once per device with inputs whose fused and unfused results
 * differ: (1 + 2^-12)^2 - (1 + 2^-11) is exactly 2^-24 fused, 0 when the product is rounded.
 */
import { runProbe } from './probe-dispatch.js';

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
  const data = new Float32Array([1 + 2 ** -12, 1 + 2 ** -12, -(1 + 2 ** -11), -1]);
  const result = new Float32Array(await runProbe(device, 'ptx-wgsl fma probe', SHADER, 16, data))[3];
  return result === 2 ** -24;
}
