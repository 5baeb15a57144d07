/**
 * Which instructions are *collectives*: instructions every thread of the workgroup must reach
 * together, in workgroup-uniform control flow, because their WGSL contains a barrier
 * (WGSL's uniformity analysis rejects `workgroupBarrier()` anywhere else). The convergence
 * pass (converge.ts) moves exactly these into uniform control flow, so this predicate is the
 * one place that decides it:
 *  - `barrier` (bar/barrier .sync/.arrive/.red): always a `workgroupBarrier()`;
 *  - warp operations (shfl, vote, activemask, match, redux, bar.warp.sync) when the kernel's
 *    warp path is `emulated`: they exchange through workgroup memory between barriers. On the
 *    `subgroups` path they stay where they are (subgroup built-ins);
 *  - `mbarrier_wait` (test_wait/try_wait): PTX waits by spinning on it, for arrivals of other
 *    threads. WebGPU does not promise that invocations of a workgroup make independent
 *    progress (lavapipe runs a subgroup until it meets a barrier), so a spinning thread could
 *    keep the threads it waits for from ever running: each test is a collective, and a kernel
 *    that spins on one runs in the step loop (converge-steps.ts), where every thread advances
 *    between two tests of the spinning ones.
 */
import type { CompileOptions } from '../src/compile-types.js';
import type { Inst } from '../src/ir/inst.js';
import type { PassContext } from './pass.js';
import { isWarpOp } from './warp-path.js';

export function isCollective(inst: Inst, cx: Pick<PassContext, 'options'>): boolean {
  if (inst.op === 'barrier' || inst.op === 'mbarrier_wait') return true;
  return isWarpOp(inst.op) && warpEmulated(cx.options);
}

/** compile() sets `warpPath` to the chosen path before the passes run (lowering/warp-path.ts). */
function warpEmulated(options: CompileOptions): boolean {
  return options.warpPath === 'emulated';
}

/** Whether `inst` has an `active` field the convergence pass may set (barrier and warp ops). */
export function hasActiveField(inst: Inst): inst is Extract<Inst, { active: unknown }> {
  return 'active' in inst;
}
