/**
 * Pass `unroll-loops`: a loop of one block whose trip test depends only on integer arithmetic
 * (a grid-stride or block-stride loop: `for (i = tid; i < n; i += stride) s += x[i]`) also runs
 * four trips at a time, where the next three trip tests are known to pass.
 *
 * Why: ptxas unrolls such loops by itself, so the loads of four trips are in flight together;
 * NVIDIA's Vulkan compiler does not unroll our WGSL loops. The block reduction's grid-stride loop
 * with four trips per test ran its shader in 0.102 ms against 0.157 (native CUDA 0.108; H200,
 * 2026-11-29, the exactness checks of its adds kept), which is what this pass emits.
 *
 * Expects: address-spaces and if-convert have run (a bounds-checked loop body is one block), and
 *   structurize has not. Guarantees: for a block H that branches to itself (the back edge) and to
 *   one other block, has at most BODY_MAX instructions, at least one load, only instructions that
 *   may run more than once in one thread without changing what any other thread sees (arithmetic,
 *   loads, stores; see `copyable`), and whose trip test and the induction values it reads are
 *   integer arithmetic of H's parameters and loop-invariant values (the `control slice`): a new
 *   header N computes the slice for the next three trips and goes to B4, four copies of H's body
 *   in order with one trip test at the end, when all three pass, else to H, which runs one trip.
 *   Both go back to N. Every trip runs the same instructions in the same order as before. H's
 *   values must leave it through the exit's arguments only (see `usedOutsideTheirBlock`).
 * Does not: unroll loops with barriers, warp or matrix operations, atomics, calls or traps (lanes
 *   taking B4 and H differently must not meet a collective a different number of times), loops
 *   of several blocks, or the function's entry block.
 */
import type { BlockId, InstId, ValueId } from '../src/ir/entities.js';
import { mapOperands, operandsOf, someOperand, type Inst } from '../src/ir/inst.js';
import { someTerminatorOperand, type BlockCall, type IrFunction, type Terminator } from '../src/ir/function.js';
import { pred } from '../src/ir/types.js';
import type { Pass } from './pass.js';

/** Trips per test in the unrolled copy. */
const FACTOR = 4;
/** Larger bodies keep their one trip per test: the copies cost code size and registers. */
const BODY_MAX = 32;

/**
 * Instructions whose value depends only on their operands: the control slice may hold these.
 * A list rather than `!HAS_EFFECTS`: matrix operations have no effects yet are warp-collective,
 * and an op added later stays out until someone decides it may be copied.
 */
function pure(inst: Inst): boolean {
  switch (inst.op) {
    case 'const': case 'bitcast': case 'extract': case 'compose': case 'iunary': case 'icmp': case 'extend': case 'truncate':
    case 'select': case 'mul_wide': case 'kernel_param': case 'ibinary': case 'ibits': case 'special': case 'undef':
      return true;
    default: return false;
  }
}

/** Instructions a thread may run in either copy of the body. */
function copyable(inst: Inst): boolean {
  switch (inst.op) {
    case 'fbinary': case 'fcmp': case 'fma': case 'funary': case 'convert': case 'cvta': case 'address_of': case 'load': case 'store':
      return true;
    default: return pure(inst);
  }
}

/** The block call of a terminator with `to` instead of `from`. */
function retarget(t: Terminator, from: BlockId, to: BlockId): Terminator {
  const call = (c: BlockCall): BlockCall => (c.block === from ? { block: to, args: c.args } : c);
  switch (t.op) {
    case 'jump': return { ...t, target: call(t.target) };
    case 'branch': return { ...t, then: call(t.then), else: call(t.else) };
    case 'switch': return { ...t, targets: t.targets.map(call), fallback: call(t.fallback) };
    default: return t;
  }
}

/**
 * The instructions of `h` that the trip test and the back-edge arguments of the induction
 * parameters they read depend on, and those parameters' indices; undefined if one is not pure.
 */
function controlSlice(fn: IrFunction, h: BlockId, cond: ValueId, backArgs: readonly ValueId[]): { insts: Set<InstId>; params: Set<number> } | undefined {
  const insts = new Set<InstId>();
  const params = new Set<number>();
  const work: ValueId[] = [cond];
  while (work.length > 0) {
    const v = work.pop() as ValueId;
    const def = fn.value(v).def;
    if (def.kind === 'param') {
      if (def.block === h && !params.has(def.index)) {
        params.add(def.index);
        work.push(backArgs[def.index] as ValueId);
      }
      continue;
    }
    const data = fn.inst(def.inst);
    if (data.block !== h || insts.has(def.inst)) continue;
    if (!pure(data.inst)) return undefined;
    insts.add(def.inst);
    work.push(...operandsOf(data.inst));
  }
  return { insts, params };
}

/** Appends copies of `ids` to `to`, reading through `map` (H's parameters, earlier copies) and adding to it. */
function copyInto(fn: IrFunction, ids: readonly InstId[], to: BlockId, map: Map<ValueId, ValueId>): void {
  const f = (v: ValueId): ValueId => map.get(v) ?? v;
  for (const id of ids) {
    const data = fn.inst(id);
    const types = data.results.map((r) => fn.typeOf(r));
    const hint = data.results.length > 0 ? fn.value(data.results[0] as ValueId).hint : undefined;
    const results = fn.append(to, mapOperands(data.inst, f), data.span, types, hint);
    data.results.forEach((r, i) => map.set(r, results[i] as ValueId));
  }
}

/**
 * The instructions of `h` a trip needs when it is not the last of the copy: its stores and what
 * the next trip's parameters are computed from, without the trip test (dead-code has run, and
 * does not run again, so the copy must not leave unread tests behind).
 */
function tripWithoutTest(fn: IrFunction, h: BlockId, backArgs: readonly ValueId[]): InstId[] {
  const live = new Set<ValueId>(backArgs);
  const keep: InstId[] = [];
  const insts = fn.block(h).insts;
  for (let i = insts.length - 1; i >= 0; i--) {
    const id = insts[i] as InstId;
    const data = fn.inst(id);
    if (data.inst.op !== 'store' && !data.results.some((r) => live.has(r))) continue;
    keep.push(id);
    for (const v of operandsOf(data.inst)) live.add(v);
  }
  return keep.reverse();
}

/**
 * The values used in a block other than their own. SSA lets the blocks a loop block H dominates
 * use H's values directly, but once B4 also reaches the exit, H no longer dominates it: only the
 * exit's block arguments may carry values out of the copies. Computed once per function:
 * unrolling one loop adds uses only where that loop already had them.
 */
function usedOutsideTheirBlock(fn: IrFunction): Set<ValueId> {
  const escaping = new Set<ValueId>();
  for (const b of fn.blockIds()) {
    const data = fn.block(b);
    const note = (v: ValueId): boolean => {
      const def = fn.value(v).def;
      if (def.kind === 'inst' && fn.inst(def.inst).block !== b) escaping.add(v);
      return false;
    };
    for (const id of data.insts) someOperand(fn.inst(id).inst, note);
    if (data.term) someTerminatorOperand(data.term, note);
  }
  return escaping;
}

function unroll(fn: IrFunction, h: BlockId, escaping: () => ReadonlySet<ValueId>): boolean {
  const block = fn.block(h);
  const t = block.term;
  if (h === fn.entry || t?.op !== 'branch') return false;
  const backIsThen = t.then.block === h;
  if (backIsThen === (t.else.block === h)) return false;
  const back = backIsThen ? t.then : t.else;
  const exit = backIsThen ? t.else : t.then;
  if (block.insts.length > BODY_MAX) return false;
  let loads = 0;
  for (const id of block.insts) {
    const inst = fn.inst(id).inst;
    if (!copyable(inst)) return false;
    if (inst.op === 'load') loads++;
  }
  if (loads === 0) return false;
  const out = escaping();
  if (block.insts.some((id) => fn.inst(id).results.some((r) => out.has(r)))) return false;
  const slice = controlSlice(fn, h, t.cond, back.args);
  if (!slice) return false;

  const n = fn.addBlock();
  const b4 = fn.addBlock();
  const nParams = block.params.map((p) => fn.addBlockParam(n, fn.typeOf(p), fn.value(p).hint));
  const b4Params = block.params.map((p) => fn.addBlockParam(b4, fn.typeOf(p), fn.value(p).hint));

  // N: the trip tests after the next three trips, from the control slice alone
  const sliceIds = block.insts.filter((id) => slice.insts.has(id));
  let state = nParams;
  const tests: ValueId[] = [];
  for (let trip = 1; trip < FACTOR; trip++) {
    const map = new Map<ValueId, ValueId>(block.params.map((p, i) => [p, state[i] as ValueId]));
    copyInto(fn, sliceIds, n, map);
    tests.push(map.get(t.cond) ?? t.cond);
    const next = back.args.map((a) => map.get(a) ?? a);
    state = state.map((s, i) => (slice.params.has(i) ? (next[i] as ValueId) : s));
  }
  // all three continue: cond each time when the back edge is `then`, its negation otherwise
  const combine = backIsThen ? 'and' : 'or';
  const joined = tests.slice(1).reduce((acc, c) => fn.append(n, { op: 'ibinary', kind: combine, type: pred, a: acc, b: c }, t.span)[0] as ValueId, tests[0] as ValueId);
  const toB4: BlockCall = { block: b4, args: nParams };
  const toH: BlockCall = { block: h, args: nParams };
  fn.block(n).term = { op: 'branch', cond: joined, then: backIsThen ? toB4 : toH, else: backIsThen ? toH : toB4, span: t.span };

  // B4: four bodies; the first three end in trips known to continue, so without their tests
  const untested = tripWithoutTest(fn, h, back.args);
  let args: readonly ValueId[] = b4Params;
  let map = new Map<ValueId, ValueId>();
  for (let trip = 0; trip < FACTOR; trip++) {
    map = new Map<ValueId, ValueId>(block.params.map((p, i) => [p, args[i] as ValueId]));
    copyInto(fn, trip < FACTOR - 1 ? untested : block.insts, b4, map);
    args = back.args.map((a) => map.get(a) ?? a);
  }
  const f = (v: ValueId): ValueId => map.get(v) ?? v;
  const backCall: BlockCall = { block: n, args };
  const exitCall: BlockCall = { block: exit.block, args: exit.args.map(f) };
  fn.block(b4).term = { op: 'branch', cond: f(t.cond), then: backIsThen ? backCall : exitCall, else: backIsThen ? exitCall : backCall, span: t.span };

  // the loop is entered at N, and H's trip goes back to N
  for (const b of fn.blockIds()) {
    const term = fn.block(b).term;
    if (b === h || b === n || b === b4 || !term) continue;
    if (fn.successors(b).some((c) => c.block === h)) fn.block(b).term = retarget(term, h, n);
  }
  block.term = retarget(t, h, n);
  return true;
}

export const unrollLoops: Pass = {
  name: 'unroll-loops',
  run(fn: IrFunction): void {
    let escaping: Set<ValueId> | undefined;
    const once = (): Set<ValueId> => (escaping ??= usedOutsideTheirBlock(fn));
    // only the blocks there are now: the new ones are unrolled already
    for (const h of fn.blockIds()) unroll(fn, h, once);
  },
};
