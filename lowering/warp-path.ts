/**
 * Which lowering a kernel's warp-level instructions take (issue 5), decided once per
 * (kernel, device) before the passes run, so the convergence pass and the emitter agree:
 *  - `subgroups`: WGSL subgroup built-ins; only where the runtime proved that the device runs
 *    32-lane subgroups laid out as consecutive local_invocation_index (`subgroupSize: 32`); on
 *    devices whose size varies, only with `@subgroup_size(32)` (`pinSubgroupSize`), which the
 *    report carries as `pinnedSubgroupSize` for the emitter and the runtime.
 *  - `emulated`: workgroup memory and barriers, exact on every device (subgroups of any size,
 *    or none). Also taken for kernels with `bar.warp.sync`: WGSL has no subgroup-scoped memory
 *    barrier, so only the emulation orders memory between the lanes of a warp.
 *  - `none`: the kernel has no warp operations (%laneid and friends need no path).
 * CompileOptions.warpPath forces a path (tests; the GPU machine runs both).
 */
import type { CompileOptions } from '../src/compile-types.js';
import type { IrFunction } from '../src/ir/function.js';
import type { Op } from '../src/ir/inst.js';
import type { WarpReport } from './layout.js';

export const WARP_OPS: ReadonlySet<Op> = new Set<Op>(['shfl', 'vote', 'activemask', 'match', 'redux', 'warp_sync']);

export function isWarpOp(op: Op): boolean {
  return WARP_OPS.has(op);
}

/**
 * `callees`: the module's `.func`s, which call inlining may bring into the kernel; counted
 * whether or not this kernel calls them (an unused emulation costs only its declarations).
 */
export function chooseWarpPath(fn: IrFunction, options: CompileOptions, callees: readonly IrFunction[] = []): WarpReport {
  const ops = new Set<Op>();
  for (const f of [fn, ...callees]) {
    for (const b of f.blockIds()) for (const id of f.block(b).insts) if (isWarpOp(f.inst(id).inst.op)) ops.add(f.inst(id).inst.op);
  }
  if (ops.size === 0) return { path: 'none', reason: 'the kernel uses no warp-level instructions' };
  const pin = options.pinSubgroupSize === true ? { pinnedSubgroupSize: 32 } : {};
  if (options.warpPath === 'emulated') return { path: 'emulated', reason: `forced by the warpPath option` };
  if (options.warpPath === 'subgroups') return { path: 'subgroups', reason: `forced by the warpPath option`, ...pin };
  if (ops.has('warp_sync')) return { path: 'emulated', reason: 'bar.warp.sync needs a memory barrier between lanes, which only the emulation has' };
  const size = options.subgroupSize;
  if (size === 32) {
    return options.pinSubgroupSize === true
      ? { path: 'subgroups', reason: 'the device runs 32-lane subgroups in thread order when pinned with @subgroup_size(32) (probed)', ...pin }
      : { path: 'subgroups', reason: 'the device runs 32-lane subgroups in thread order (probed)' };
  }
  if (size === undefined) return { path: 'emulated', reason: 'the device has no subgroups of a known, fixed size' };
  return { path: 'emulated', reason: `the device's subgroups have ${size} lanes, not 32` };
}
