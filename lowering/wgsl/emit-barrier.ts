/**
 * `bar`/`barrier` in WGSL. Every form becomes `workgroupBarrier()` (preceded by
 * `storageBarrier()` where global accesses on either side could conflict, since bar.sync also
 * orders global accesses between the threads of the CTA: lowering/storage-order.ts), executed
 * by every thread of the workgroup: the
 * convergence pass (lowering/converge.ts) guarantees each barrier is reached in uniform
 * control flow, threads that are not on its path (returned early, on the other side of a
 * branch, done with a loop) arriving with `active` false.
 *
 * Why that is exact:
 *  - `bar.sync 0` / `barrier.sync{.aligned}` / `__syncthreads()`: threads that exited no longer
 *    count (since sm_70), which is what arriving-but-inactive threads amount to.
 *  - named barriers `bar.sync a, b` / `bar.arrive a, b` (a in 0..15, b a multiple of 32): in
 *    the converged program every thread passes every barrier position, so a full workgroup
 *    barrier at each position waits for a superset of the threads PTX would wait for; the
 *    producer's writes before its `bar.arrive` are visible to the consumer after its
 *    `bar.sync` because the converged schedule runs both sides of a divergent branch in
 *    barrier-aligned phases (converge.ts). A constant count that is not a positive multiple
 *    of 32 or an id above 15 is rejected (PTX leaves them undefined).
 *  - `counted` barriers (only in the step loop, lowering/converge-steps.ts, for kernels whose
 *    named barriers are reached in divergent code, or whose barriers meet emulated warp
 *    operations there): exact arrival counting per barrier id, the `arrive`/`step`/`done`/
 *    `total` forms below; a counted `bar.red` adds its contribution at arrival, and thread 0
 *    moves the barrier's total to a plain word when it completes it, where the released
 *    threads read it.
 *  - `bar.red.popc.u32`, `bar.red.and.pred`, `bar.red.or.pred`: active threads add to a
 *    workgroup counter, a barrier, thread 0 takes the total (resetting the counter) into a
 *    plain workgroup word, and `workgroupUniformLoad` (itself a barrier) hands it to every
 *    thread, so the result is uniform (loops may exit on it). The next use adds only after
 *    that barrier and thread 0 writes the word only after the next one, so uses never overlap.
 */
import type { ValueId } from '../../src/ir/entities.js';
import type { IrFunction } from '../../src/ir/function.js';
import type { Inst, InstOf } from '../../src/ir/inst.js';
import type { InstContext } from './expr-context.js';
import { countsMbarrierEvents, MBAR_EVENTS } from './emit-mbarrier.js';
import { barriersOrderingStorage } from '../storage-order.js';

const storageOrdered = new WeakMap<IrFunction, ReadonlySet<Inst>>();

/** Whether barrier `i` needs storageBarrier() (the analysis runs once per function, at its first barrier). */
function ordersStorage(fn: IrFunction, i: InstOf<'barrier'>): boolean {
  let set = storageOrdered.get(fn);
  if (!set) storageOrdered.set(fn, (set = barriersOrderingStorage(fn)));
  return set.has(i);
}

const COUNTER = 'ptx_bar_count';
const RESULT = 'ptx_bar_total';
/** Exact named barriers (step loop only): threads arrived per barrier id, and its count. */
const ARRIVED = 'ptx_bar_arrived';
const NEED = 'ptx_bar_need';
/** Bit `id`: barrier `id` completed in this step (written by thread 0 between two barriers). */
const DONE = 'ptx_bar_done';
/** Threads waiting at a counted barrier at the end of a step. */
const WAITING = 'ptx_bar_waiting';
/** Counted `bar.red` per barrier id: contributions of the arrivals so far, and the total of the last completion. */
const RED = 'ptx_bar_red';
const RED_TOTAL = 'ptx_bar_red_total';
/** NEED value of a barrier without a thread count: every running thread of the CTA. */
const ALL = '0xffffffffu';
/** 1, plus the lanes a trailing partial warp lacks for its lane 0 (counts are per warp). */
const WARP_WEIGHT = '(1u + select(0u, (32u - (ptx_ntid_x * ptx_ntid_y * ptx_ntid_z)) & 31u, ptx_tid_linear == ((ptx_ntid_x * ptx_ntid_y * ptx_ntid_z) & ~31u)))';

function constantOf(cx: InstContext, v: InstOf<'barrier'>['id']): bigint | undefined {
  if (v === null) return undefined;
  const def = cx.fn.defOf(v);
  return def?.op === 'const' ? def.bits : undefined;
}

/** Ids above 15 are rejected when constant; a register id is taken modulo 16 (PTX: undefined). */
function barId(cx: InstContext, i: InstOf<'barrier'>): string {
  return i.id === null ? '0u' : `u32(${cx.ref(i.id)})`;
}

export function emitBarrier(cx: InstContext, i: InstOf<'barrier'>): string | undefined {
  const id = constantOf(cx, i.id);
  if (id !== undefined && id > 15n) return cx.unsupported(`barrier id ${id} (PTX allows 0 to 15)`), undefined;
  const count = constantOf(cx, i.count);
  if (count !== undefined && (count <= 0n || count % 32n !== 0n)) {
    return cx.unsupported(`a barrier thread count of ${count} (PTX requires a positive multiple of 32)`), undefined;
  }
  if (i.counted === 'arrive') {
    // NVIDIA counts a warp's arrival as 32 threads; whole warps arrive together, so each
    // thread adds 1 and lane 0 of a trailing partial warp adds its missing lanes (WARP_WEIGHT).
    const bar = `${barId(cx, i)} & 15u`;
    const need = i.count === null ? ALL : `u32(${cx.ref(i.count)})`;
    const guard = i.active === null ? 'true' : cx.ref(i.active);
    const red = i.reduce !== null && i.pred !== null ? ` if (${contribution(cx, i.reduce, i.pred)}) { atomicAdd(&${RED}[${bar}], 1u); }` : '';
    cx.line(`if (${guard}) { atomicAdd(&${ARRIVED}[${bar}], ${WARP_WEIGHT}); atomicStore(&${NEED}[${bar}], ${need});${red} }`);
    return undefined;
  }
  if (i.counted === 'done') {
    return `(((${DONE} >> (${barId(cx, i)} & 15u)) & 1u) != 0u)`;
  }
  if (i.counted === 'total') return reduced(i, `${RED_TOTAL}[${barId(cx, i)} & 15u]`);
  if (ordersStorage(cx.fn, i)) cx.line('storageBarrier();');
  if (i.counted === 'step' && i.pred !== null) {
    // All arrivals of this step happened before this barrier and the next step's come after
    // the workgroupUniformLoad below, so thread 0 sees a stable count per barrier; a barrier
    // completes when its arrivals reach its count (all running threads without a count),
    // and is reset for its next use by taking that count away.
    // `active` marks threads waiting at a barrier: when all running threads wait and nothing
    // completed, the result is 0 so the step loop ends (its waiting threads then trap).
    cx.line(`if (${cx.ref(i.pred)}) { atomicAdd(&${COUNTER}, ${WARP_WEIGHT}); }`);
    if (i.active !== null) cx.line(`if (${cx.ref(i.active)}) { atomicAdd(&${WAITING}, ${WARP_WEIGHT}); }`);
    cx.line('workgroupBarrier();');
    cx.line(`if (ptx_tid_linear == 0u) {`);
    cx.line(`  let live = atomicExchange(&${COUNTER}, 0u);`);
    cx.line(`  let waiting = atomicExchange(&${WAITING}, 0u);`);
    // A thread parked at an mbarrier try_wait waits for updates, not for a barrier.
    const quiet = countsMbarrierEvents(cx.fn) ? ` & (atomicExchange(&${MBAR_EVENTS}, 0u) == 0u)` : '';
    cx.line(`  var done = 0u;`);
    cx.line(`  for (var b = 0u; b < 16u; b++) {`);
    cx.line(`    let need = atomicLoad(&${NEED}[b]);`);
    cx.line(`    let want = select(need, live, need == ${ALL});`);
    const red = hasCountedRed(cx.fn) ? ` ${RED_TOTAL}[b] = atomicExchange(&${RED}[b], 0u);` : '';
    cx.line(`    if ((need != 0u) & (atomicLoad(&${ARRIVED}[b]) >= want)) { atomicSub(&${ARRIVED}[b], want); atomicStore(&${NEED}[b], 0u); done |= 1u << b;${red} }`);
    cx.line(`  }`);
    cx.line(`  ${DONE} = done;`);
    cx.line(`  ${RESULT} = select(live, 0u, (done == 0u) & (waiting == live)${quiet});`);
    cx.line(`}`);
    const total = cx.temp('bar_total');
    cx.line(`let ${total} = workgroupUniformLoad(&${RESULT});`);
    return total;
  }
  if (i.reduce === null || i.pred === null) { cx.line('workgroupBarrier();'); return undefined; }
  const active = i.active === null ? '' : ` && ${cx.ref(i.active)}`;
  cx.line(`if (${contribution(cx, i.reduce, i.pred)}${active}) { atomicAdd(&${COUNTER}, 1u); }`);
  cx.line('workgroupBarrier();');
  cx.line(`if (ptx_tid_linear == 0u) { ${RESULT} = atomicExchange(&${COUNTER}, 0u); }`);
  const total = cx.temp('bar_total');
  cx.line(`let ${total} = workgroupUniformLoad(&${RESULT});`);
  return reduced(i, total);
}

/** What a thread adds to a bar.red count: its predicate (popc, or) or its negation (and: true when none is false). */
function contribution(cx: InstContext, reduce: 'popc' | 'and' | 'or', pred: ValueId): string {
  return reduce === 'and' ? `!${cx.ref(pred)}` : cx.ref(pred);
}

/** bar.red's result from the count of contributions. */
function reduced(i: InstOf<'barrier'>, total: string): string {
  return i.reduce === 'popc' ? total : i.reduce === 'and' ? `(${total} == 0u)` : `(${total} != 0u)`;
}

/** Whether the step loop counts a `bar.red` (its contributions then go to per-barrier totals). */
const hasCountedRed = (fn: IrFunction): boolean => fn.blocks.some((b) => b.insts.some((id) => { const x = fn.inst(id).inst; return x.op === 'barrier' && x.counted === 'arrive' && x.reduce !== null; }));

/** Module declarations `bar.red` needs (zero-initialised workgroup words). */
export function barrierDeclarations(fn: IrFunction): string[] {
  const red = fn.blocks.some((b) => b.insts.some((id) => { const x = fn.inst(id).inst; return x.op === 'barrier' && x.reduce !== null; }));
  const counted = fn.blocks.some((b) => b.insts.some((id) => { const x = fn.inst(id).inst; return x.op === 'barrier' && x.counted !== undefined; }));
  return [
    ...(red ? [`var<workgroup> ${COUNTER}: atomic<u32>;`, `var<workgroup> ${RESULT}: u32;`] : []),
    ...(counted ? [`var<workgroup> ${ARRIVED}: array<atomic<u32>, 16>;`, `var<workgroup> ${NEED}: array<atomic<u32>, 16>;`, `var<workgroup> ${DONE}: u32;`, `var<workgroup> ${WAITING}: atomic<u32>;`] : []),
    ...(hasCountedRed(fn) ? [`var<workgroup> ${RED}: array<atomic<u32>, 16>;`, `var<workgroup> ${RED_TOTAL}: array<u32, 16>;`] : []),
  ];
}
