/**
 * Bulk asynchronous copies (PTX ISA "cp.async.bulk", "cp.async.bulk.prefetch",
 * "cp.async.bulk.commit_group", "cp.async.bulk.wait_group") and `cp.async.mbarrier.arrive`.
 *
 * As for `cp.async` (handlers-async-copy.ts), WebGPU has no copy engine, so a bulk copy is
 * performed at issue by the issuing thread: a loop of 16-byte loads and stores over `size`
 * bytes (the ISA requires 16-byte aligned addresses and a size that is a multiple of 16).
 * Completion is then signalled as the ISA says, right after the copy:
 *  - `.mbarrier::complete_tx::bytes` (global -> `.shared::cluster`/`.shared::cta`, and
 *    `.shared::cta` -> `.shared::cluster`): a complete-tx of `size` bytes on the mbarrier, which
 *    may complete its phase. The copied bytes are written before that update, so a thread
 *    that sees the phase complete (after the barrier its wait meets) reads them.
 *  - `.bulk_group` (`.shared::cta` -> global): the copy is complete when issued, so
 *    `cp.async.bulk.commit_group` and `cp.async.bulk.wait_group{.read} N` have nothing to wait for.
 * `.shared::cluster` destinations are the executing CTA's shared memory (kernels run in
 * clusters of one CTA, handlers-mbarrier.ts). `cp.async.bulk.prefetch.L2` is a cache hint: no-op.
 * `cp.async.mbarrier.arrive{.noinc} [a]`: the arrive-on that fires once the thread's earlier
 * `cp.async` copies complete, which they did at issue: with `.noinc` an arrive-on now; without,
 * the ISA increments the pending count before that arrive-on, a net change of zero, so nothing.
 * Not supported (L001, naming the form): `.multicast::cluster` (it writes the shared memory of
 * several CTAs of a cluster), and the `.tensor` forms (their copies are described by a tensor
 * map, a CUtensorMap the CUDA driver encodes on the host for the TMA unit; WebGPU has neither).
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import type { MemorySpace } from '../ir/inst.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { notSupported, operand, unsupported } from './handler.js';
import type { Variable } from './ssa.js';
import { mbarrierSpace, mbarrierUpdate } from './handlers-mbarrier.js';

let loops = 0;

/** `for (i = 0; i < bytes; i += 16) body(i)` as IR blocks, the counter an SSA variable. */
function byteLoop(cx: BuildContext, bytes: ValueId, body: (offset: ValueId) => void, s: Ast.Instruction['span']): void {
  const fn = cx.fn;
  const counter: Variable = { key: `bulk-copy#${++loops}`, type: T.i32, hint: 'bulk_offset' };
  cx.ssa.write(counter, cx.block, cx.constant(T.i32, 0n, s));
  const head = fn.addBlock();
  const loop = fn.addBlock();
  const exit = fn.addBlock();
  const jump = (to: typeof head): void => {
    const e = { from: cx.block, to, args: [] as ValueId[] };
    cx.ssa.addEdge(e);
    fn.block(cx.block).term = { op: 'jump', target: { block: to, args: e.args }, span: s };
  };
  jump(head);
  cx.block = head;
  const i = cx.ssa.read(counter, head, s);
  const more = cx.emit({ op: 'icmp', type: T.pred, cond: 'ult', a: i, b: bytes }, s);
  const inLoop = { from: head, to: loop, args: [] as ValueId[] };
  const out = { from: head, to: exit, args: [] as ValueId[] };
  cx.ssa.addEdge(inLoop);
  cx.ssa.addEdge(out);
  fn.block(head).term = { op: 'branch', cond: more, then: { block: loop, args: inLoop.args }, else: { block: exit, args: out.args }, span: s };
  cx.ssa.seal(loop, s);
  cx.block = loop;
  body(i);
  cx.ssa.write(counter, cx.block, cx.emit({ op: 'ibinary', kind: 'add', type: T.i32, a: i, b: cx.constant(T.i32, 16n, s) }, s));
  jump(head);
  cx.ssa.seal(head, s);
  cx.ssa.seal(exit, s);
  cx.block = exit;
}

/** `base + offset` in the width of base. */
function plus(cx: BuildContext, base: ValueId, offset: ValueId, s: Ast.Instruction['span']): ValueId {
  const t = cx.fn.typeOf(base);
  const o = T.bitWidth(t) === 64 ? cx.emit({ op: 'extend', type: T.i64, signed: false, value: offset }, s) : offset;
  return cx.emit({ op: 'ibinary', kind: 'add', type: t, a: base, b: o }, s);
}

/** Copies `size` bytes from src to dst, 16 at a time. */
function copyBytes(cx: BuildContext, inst: Ast.Instruction, dst: { space: MemorySpace; at: Ast.Operand }, src: { space: MemorySpace; at: Ast.Operand }, size: ValueId): void {
  const s = inst.span;
  const to = cx.address(dst.at, dst.space);
  const from = cx.address(src.at, src.space);
  const type = T.vector(T.i32, 4);
  byteLoop(cx, size, (i) => {
    const value = cx.emit({ op: 'load', type, space: src.space, address: plus(cx, from, i, s), region: null }, s);
    cx.effect({ op: 'store', type, space: dst.space, address: plus(cx, to, i, s), region: null, value }, s);
  }, s);
}

/** `cp.async.bulk.dst.src.completion ...`: the three forms of the ISA. */
const bulk: Handler = (cx, inst) => {
  const m = inst.modifiers;
  const extra = m.extra ?? [];
  if (extra.includes('multicast::cluster')) {
    notSupported(cx, inst, '`.multicast::cluster` writes the shared memory of several CTAs of a cluster; kernels run in clusters of one CTA, and a workgroup cannot reach another\'s memory');
    return;
  }
  const dst = m.space;
  const fromGlobal = extra.includes('global');
  const fromShared = extra.includes('shared::cta') || extra.includes('shared');
  const size = cx.read(operand(inst, 2), T.i32);
  if (dst?.space === 'shared' && (fromGlobal || fromShared) && extra.includes('mbarrier::complete_tx::bytes')) {
    const barSpace = mbarrierSpace(cx, inst, { space: 'shared' });
    if (!barSpace) return;
    copyBytes(cx, inst, { space: 'shared', at: operand(inst, 0) }, { space: fromGlobal ? 'global' : 'shared', at: operand(inst, 1) }, size);
    mbarrierUpdate(cx, inst, operand(inst, 3), barSpace, { completeTx: size });
    return;
  }
  if (dst?.space === 'global' && fromShared && extra.includes('bulk_group')) {
    if (inst.operands.length > 3 && !m.cacheHints?.includes('L2::cache_hint')) { unsupported(cx, inst, 'has a byte mask operand (`.cp_mask`), which is not supported yet'); return; }
    copyBytes(cx, inst, { space: 'global', at: operand(inst, 0) }, { space: 'shared', at: operand(inst, 1) }, size);
    return;
  }
  notSupported(cx, inst, 'bulk copies go global -> `.shared::cluster`/`.shared::cta` or `.shared::cta` -> `.shared::cluster` with `.mbarrier::complete_tx::bytes`, or `.shared::cta` -> global with `.bulk_group`');
};

const prefetch: Handler = (cx, inst) => {
  cx.address(operand(inst, 0), 'global');
  cx.read(operand(inst, 1), T.i32);
};

const mbarrierArrive: Handler = (cx, inst) => {
  const space = mbarrierSpace(cx, inst);
  if (!space) return;
  if (inst.modifiers.extra?.includes('noinc') === true) mbarrierUpdate(cx, inst, operand(inst, 0), space, { arrive: cx.constant(T.i32, 1n, inst.span) });
  else cx.address(operand(inst, 0), space);
};

/** The copies completed at issue: there is nothing to commit or wait for. */
const done: Handler = () => {};

const tensor: Handler = (cx, inst) =>
  notSupported(cx, inst, 'tensor copies are described by a tensor map (a CUtensorMap the CUDA driver encodes on the host for the TMA unit), which WebGPU has no counterpart of');

export const BULK_COPY_HANDLERS: Readonly<Record<string, Handler>> = {
  'async.bulk': bulk,
  'async.bulk.prefetch': prefetch,
  'async.bulk.commit_group': done,
  'async.bulk.wait_group': done,
  'async.bulk.tensor': tensor,
  'async.bulk.prefetch.tensor': tensor,
  'async.mbarrier.arrive': mbarrierArrive,
};
