/**
 * Which f32 operations this device computes natively exactly as PTX does (lowering/wgsl/
 * native-float.ts says what is tested and why), probed once per device.
 */
import { floatProbe, readFloatProbe, NO_NATIVE_FLOAT, type NativeFloat } from '../lowering/wgsl/native-float.js';
import { runProbe } from './probe-dispatch.js';

const probes = new WeakMap<GPUDevice, Promise<NativeFloat>>();

export function probeNativeFloat(device: GPUDevice): Promise<NativeFloat> {
  let p = probes.get(device);
  if (!p) probes.set(device, (p = run(device).catch(() => NO_NATIVE_FLOAT)));
  return p;
}

async function run(device: GPUDevice): Promise<NativeFloat> {
  const probe = floatProbe();
  const init = new Uint32Array(probe.bytes / 4);
  init.set(probe.input);
  const out = new Uint32Array(await runProbe(device, 'ptx-wgsl float probe', probe.code, probe.bytes, init));
  return readFloatProbe(probe, out);
}
