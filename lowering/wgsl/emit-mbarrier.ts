/**
 * mbarrier objects in WGSL (src/ir/inst.ts `mbarrier`, `mbarrier_wait`). The object's 64 bits
 * are two `atomic<u32>` words of `ptx_shared` (address-spaces gives shared memory that view
 * when it holds an mbarrier); shaders/mbarrier.wgsl says which bits hold what.
 *
 * WGSL has no 64-bit atomics, and an update reads and writes fields of both words (a phase
 * completes when the pending count, in one word, and the tx-count, across both, reach zero),
 * so updates run under a lock bit in the high word: the holder reads both words, writes the
 * low word and then the high word without the lock, all in one iteration of the loop that
 * took it, so a holder never waits on anything and lock-step SIMD execution (lavapipe,
 * GPUs without independent thread scheduling) cannot park it (the pattern of emit-atomic.ts's
 * locked 64-bit atomics). Waits read the phase bit of the low word with one atomic load; the
 * holder writes it before it releases the lock, so the phase a test sees is always a
 * completed update's. Like emit-atomic.ts, the protocol relies on one invocation's atomics to
 * different words becoming visible in program order (true of lavapipe and of the backends
 * Dawn uses, not promised by WGSL's relaxed atomics).
 *
 * In kernels that run the step loop (lowering/converge-steps.ts), every init and update also
 * counts in `ptx_mbar_events`, which the step's barrier reads: a step in which every running
 * thread waits, no barrier completes and no mbarrier changed can never change again.
 */
import type { IrFunction } from '../../src/ir/function.js';
import { MBARRIER_TOKEN, type InstOf } from '../../src/ir/inst.js';
import * as T from '../../src/ir/types.js';
import type { InstContext } from './expr-context.js';

/** Workgroup counter of mbarrier changes in the current step of the step loop. */
export const MBAR_EVENTS = 'ptx_mbar_events';
const LOCK = '0x80000000u';
const COUNT_MASK = '0xfffffu';

/** Whether the function's mbarrier changes are counted (it runs the counted step loop). */
export function countsMbarrierEvents(fn: IrFunction): boolean {
  let step = false;
  let changes = false;
  for (const b of fn.blockIds()) {
    for (const id of fn.block(b).insts) {
      const x = fn.inst(id).inst;
      if (x.op === 'barrier' && x.counted === 'step') step = true;
      if (x.op === 'mbarrier') changes = true;
    }
  }
  return step && changes;
}

/** The two words of the object at the instruction's shared byte offset. */
function words(cx: InstContext, i: InstOf<'mbarrier' | 'mbarrier_wait'>): { lo: string; hi: string } | undefined {
  if (i.region?.kind !== 'shared' || cx.fn.memory?.shared.view !== 'atomic<u32>') {
    cx.unsupported('an mbarrier object outside shared memory');
    return undefined;
  }
  const w = `(${cx.ref(i.address)} >> 2u)`;
  return { lo: `&ptx_shared[${w}]`, hi: `&ptx_shared[${w} + 1u]` };
}

/** A u32 operand, or 0 when absent. */
function u32(cx: InstContext, v: InstOf<'mbarrier'>['count']): string {
  return v === null ? '0u' : `u32(${cx.ref(v)})`;
}

export function emitMbarrier(cx: InstContext, i: InstOf<'mbarrier'>): string | undefined {
  const at = words(cx, i);
  if (!at) return i.kind === 'update' ? 'vec2<u32>()' : undefined;
  const event = (): void => { if (countsMbarrierEvents(cx.fn)) cx.line(`atomicAdd(&${MBAR_EVENTS}, 1u);`); };
  if (i.kind !== 'update') {
    // init: phase 0, pending = expected = count, tx-count 0, unlocked; inval: all zero.
    const count = i.kind === 'init' ? `(${u32(cx, i.count)} & ${COUNT_MASK})` : '0u';
    cx.line(`atomicStore(${at.hi}, ${count}); atomicStore(${at.lo}, ${count});`);
    event();
    return undefined;
  }
  const old = cx.temp('mbar');
  const done = cx.temp('locked');
  const tx = `(i32(${u32(cx, i.expectTx)}) - i32(${u32(cx, i.completeTx)}))`;
  cx.line(`var ${old}: vec2<u32>;`);
  cx.line(`var ${done} = false;`);
  // Test before test-and-set; the holder leaves the loop only after its branch has merged
  // with the spinners (emit-atomic.ts, locked64, says why).
  cx.line(`loop { if ((atomicLoad(${at.hi}) & ${LOCK}) == 0u) { let h = atomicOr(${at.hi}, ${LOCK}); if ((h & ${LOCK}) == 0u) {`);
  cx.line(`  ${old} = vec2<u32>(atomicLoad(${at.lo}), h);`);
  cx.line(`  let n = ${cx.call('mbar_update', old, u32(cx, i.arrive), u32(cx, i.drop), tx)};`);
  cx.line(`  atomicStore(${at.lo}, n.x); atomicStore(${at.hi}, n.y); ${done} = true;`);
  cx.line(`} } if (${done}) { break; } }`);
  event();
  const keep = `0x${(((1 << MBARRIER_TOKEN.phaseBit) | MBARRIER_TOKEN.pendingMask) >>> 0).toString(16)}u`;
  return `vec2<u32>(${old}.x & ${keep}, 0u)`;
}

export function emitMbarrierWait(cx: InstContext, i: InstOf<'mbarrier_wait'>): string {
  const at = words(cx, i);
  if (!at) return 'false';
  if (i.sync) cx.line('workgroupBarrier();');
  const phase = `(atomicLoad(${at.lo}) >> ${MBARRIER_TOKEN.phaseBit}u)`;
  const p = cx.ref(i.phase);
  const wide = T.bitWidth(cx.typeOf(i.phase)) === 64;
  const named = i.parity ? `(u32(${p}) & 1u)` : `(${wide ? `${p}.x` : `u32(${p})`} >> ${MBARRIER_TOKEN.phaseBit}u)`;
  return `(${phase} != ${named})`;
}

/** Module declarations the function's mbarriers need. */
export function mbarrierDeclarations(fn: IrFunction): string[] {
  return countsMbarrierEvents(fn) ? [`var<workgroup> ${MBAR_EVENTS}: atomic<u32>;`] : [];
}
