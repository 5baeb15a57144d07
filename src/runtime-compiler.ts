/**
 * The compiler as the runtime takes it (RuntimeCompiler, src/compile-types.ts): loaded modules
 * through `compileModule()`, and the device probes whose WGSL the emitter writes. src/api.ts
 * hands it to every context.
 */
import { compileModule } from './compile-module.js';
import type { DeviceProbe, NativeFloat, RuntimeCompiler } from './compile-types.js';
import { floatProbe, readFloatProbe } from '../lowering/wgsl/native-float.js';

/** The f32 probe (lowering/wgsl/native-float.ts) with its reading. */
export function nativeFloatProbe(): DeviceProbe<NativeFloat> {
  const probe = floatProbe();
  return { ...probe, read: (out) => readFloatProbe(probe, out) };
}

export const runtimeCompiler: RuntimeCompiler = { compileModule, floatProbe: nativeFloatProbe };
