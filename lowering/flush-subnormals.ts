/**
 * Pass `flush-subnormals`: f32 arithmetic as nvcc's `-ftz=true` would have emitted it. Opt-in
 * (CompileOptions.flushSubnormals, `createContext({ float: 'ftz' })`): it changes results
 * (subnormal operands and results become zeros of the same sign), so it is never the default.
 * It exists because a device whose WGSL arithmetic flushes subnormals (NVIDIA's Vulkan driver)
 * runs `.ftz` instructions natively and must check every other f32 operation
 * (lowering/wgsl/native-float.ts, docs/BENCHMARKS.md).
 *
 * Expects: SSA IR. Guarantees: every f32 `fbinary`, `fma`, `funary` and `fcmp` has `ftz` set,
 *   which is what PTX's `.ftz` modifier means on each.
 * Does not: touch f16/bf16/f64 instructions (`.ftz` is f32-only in PTX), conversions, or
 *   loads and stores (subnormal data passes through unchanged, as on the hardware).
 */
import type { IrFunction } from '../src/ir/function.js';
import { isFloat } from '../src/ir/types.js';
import type { Pass } from './pass.js';

export const flushSubnormals: Pass = {
  name: 'flush-subnormals',
  run(fn: IrFunction, cx): void {
    if (!cx.options.flushSubnormals) return;
    for (const b of fn.blockIds()) {
      for (const id of fn.block(b).insts) {
        const data = fn.inst(id);
        const inst = data.inst;
        if (inst.op !== 'fbinary' && inst.op !== 'fma' && inst.op !== 'funary' && inst.op !== 'fcmp') continue;
        if (inst.ftz || !isFloat(fn.typeOf(inst.op === 'funary' ? inst.value : inst.a), 32)) continue;
        data.inst = { ...inst, ftz: true };
      }
    }
  },
};
