/**
 * Which f32 operations this device computes natively exactly as PTX does, probed once per
 * device with the shader the compiler supplies (RuntimeCompiler.floatProbe; lowering/wgsl/
 * native-float.ts says what is tested and why). undefined when the probe fails: nothing native.
 */
import type { DeviceProbe, NativeFloat } from '../src/compile-types.js';
import { runProbe } from './probe-dispatch.js';

const probes = new WeakMap<GPUDevice, Promise<NativeFloat | undefined>>();

export function probeNativeFloat(device: GPUDevice, probe: () => DeviceProbe<NativeFloat>): Promise<NativeFloat | undefined> {
  let p = probes.get(device);
  if (!p) probes.set(device, (p = run(device, probe()).catch(() => undefined)));
  return p;
}

async function run(device: GPUDevice, probe: DeviceProbe<NativeFloat>): Promise<NativeFloat> {
  const init = new Uint32Array(probe.bytes / 4);
  init.set(probe.input);
  const out = new Uint32Array(await runProbe(device, 'ptx-wgsl float probe', probe.code, probe.bytes, init));
  return probe.read(out);
}
