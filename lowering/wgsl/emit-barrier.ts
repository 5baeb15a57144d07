/**
 * `bar`/`barrier` in WGSL. Every form becomes `workgroupBarrier()` (preceded by
 * `storageBarrier()` when the kernel writes global memory, since bar.sync also orders global
 * accesses between the threads of the CTA), executed by every thread of the workgroup: the
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
 *  - `bar.red.popc.u32`, `bar.red.and.pred`, `bar.red.or.pred`: active threads add to a
 *    workgroup counter, a barrier, thread 0 takes the total (resetting the counter) into a
 *    plain workgroup word, and `workgroupUniformLoad` (itself a barrier) hands it to every
 *    thread, so the result is uniform (loops may exit on it). The next use adds only after
 *    that barrier and thread 0 writes the word only after the next one, so uses never overlap.
 */
import type { IrFunction } from '../../src/ir/function.js';
import type { InstOf } from '../../src/ir/inst.js';
import type { FunctionEmitter } from './emit-function.js';

const COUNTER = 'ptx_bar_count';
const RESULT = 'ptx_bar_total';

function constantOf(cx: FunctionEmitter, v: InstOf<'barrier'>['id']): bigint | undefined {
  if (v === null) return undefined;
  const def = cx.fn.defOf(v);
  return def?.op === 'const' ? def.bits : undefined;
}

export function emitBarrier(cx: FunctionEmitter, i: InstOf<'barrier'>): string | undefined {
  const id = constantOf(cx, i.id);
  if (id !== undefined && id > 15n) return cx.unsupported(`barrier id ${id} (PTX allows 0 to 15)`), undefined;
  const count = constantOf(cx, i.count);
  if (count !== undefined && (count <= 0n || count % 32n !== 0n)) {
    return cx.unsupported(`a barrier thread count of ${count} (PTX requires a positive multiple of 32)`), undefined;
  }
  if (cx.fn.memory?.slots.some((s) => s.writable)) cx.line('storageBarrier();');
  if (i.reduce === null || i.pred === null) { cx.line('workgroupBarrier();'); return undefined; }
  const active = i.active === null ? '' : ` && ${cx.ref(i.active)}`;
  // Count the predicate (popc, or) or its negation (and: true when none is false).
  const counted = i.reduce === 'and' ? `!${cx.ref(i.pred)}` : cx.ref(i.pred);
  cx.line(`if (${counted}${active}) { atomicAdd(&${COUNTER}, 1u); }`);
  cx.line('workgroupBarrier();');
  cx.line(`if (ptx_tid_linear == 0u) { ${RESULT} = atomicExchange(&${COUNTER}, 0u); }`);
  const total = cx.temp('bar_total');
  cx.line(`let ${total} = workgroupUniformLoad(&${RESULT});`);
  return i.reduce === 'popc' ? total : i.reduce === 'and' ? `(${total} == 0u)` : `(${total} != 0u)`;
}

/** Module declarations `bar.red` needs (zero-initialised workgroup words). */
export function barrierDeclarations(fn: IrFunction): string[] {
  const red = fn.blocks.some((b) => b.insts.some((id) => { const x = fn.inst(id).inst; return x.op === 'barrier' && x.reduce !== null; }));
  return red ? [`var<workgroup> ${COUNTER}: atomic<u32>;`, `var<workgroup> ${RESULT}: u32;`] : [];
}
