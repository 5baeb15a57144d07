/**
 * The general convergence scheme, used by the `converge` pass (converge.ts) when running
 * predicated regions one after the other could pair barrier instances differently from the
 * hardware (threads of a divergent branch or loop that meet further collectives).
 *
 * Expects: structurize has run; `fn` has collectives (collective.ts).
 * Produces: a new statement tree for `fn.structured`: a workgroup-uniform *step loop*. In each
 *   step every thread runs its own path through a per-thread state machine over the CFG (a
 *   `loop` of `if (state == block)` arms, no collective inside) until it reaches a collective
 *   site or exits. Then every thread together runs each collective site for the threads
 *   waiting there (`active` = waiting at that site), releases them to the site's successor,
 *   and meets one barrier (a `bar.red.or` of "still running", so the loop's exit is uniform).
 *   A thread's k-th barrier therefore meets every other running thread's k-th barrier,
 *   wherever in the program each is: NVIDIA's arrival counting for `bar.sync 0` since sm_70
 *   (exited threads no longer count). Kernels with a thread count on a barrier or with
 *   `bar.arrive`, and kernels whose sites mix CTA barriers with warp collectives (emulated
 *   shuffles are collectives of the workgroup but no barrier of the CTA), count exactly
 *   instead (`counted` barriers, lowering/wgsl/emit-barrier.ts):
 *   a thread reaching `bar.arrive id, n` adds itself to barrier `id`'s arrival counter and
 *   goes on in the next step; one reaching `bar.sync id{, n}` (or `bar.red`, which also adds
 *   its predicate to the barrier's total) adds itself and moves to a
 *   waiting state (site | WAIT) that the dispatch does not run; the step's barrier completes
 *   each barrier whose arrivals reached its count (every running thread when it has none)
 *   and resets it by that count, and the waiting threads of a completed barrier go on. So a
 *   producer's `bar.arrive` and its consumers' `bar.sync` may fall in different steps, and
 *   warps waiting at one barrier do not hold up the others.
 *   mbarrier waits (test_wait/try_wait) are sites too, so a thread spinning on one tests once
 *   per step while every other thread advances: their test runs in the step's collective
 *   part, and a try_wait that finds its phase incomplete waits (site | WAIT) and tests again
 *   after every step's barrier (mbarrierWait below). Kernels with them count, and a step in
 *   which every running thread waits, nothing completes and no mbarrier changed ends the loop.
 *   Values crossing blocks are function variables (as for every block the emitter sees), and
 *   a collective's result reaches only the threads that were waiting at it.
 */
import type { BlockId, ValueId } from '../src/ir/entities.js';
import type { BlockCall, IrFunction } from '../src/ir/function.js';
import type { Inst } from '../src/ir/inst.js';
import type { Stmt } from '../src/ir/structured.js';
import { reversePostorder } from '../src/ir/cfg.js';
import * as T from '../src/ir/types.js';
import { hasActiveField, isCollective } from './collective.js';
import type { PassContext } from './pass.js';

const EXIT = 0xffffffff;
/** Added to a site's state while its thread waits at a counted `bar.sync` (block ids are small). */
const WAIT = 0x40000000;

/**
 * Whether the kernel needs exact arrival counting (a barrier with a thread count, or
 * bar.arrive), or the waiting states of counting for mbarrier waits: a try_wait parks its
 * thread until the phase completes, and a step in which every running thread waits, no
 * barrier completes and no mbarrier changed ends the loop (those threads trap).
 */
export function needsCounting(fn: IrFunction): boolean {
  return fn.blocks.some((b) => b.insts.some((id) => {
    const x = fn.inst(id).inst;
    return (x.op === 'barrier' && x.kind !== 'red' && (x.count !== null || x.kind === 'arrive')) || x.op === 'mbarrier_wait';
  }));
}

export function barrierSteps(fn: IrFunction, cx: PassContext): Stmt[] {
  const span = fn.span;
  const holder = fn.addBlock();
  fn.block(holder).term = { op: 'unreachable', span };
  const consts = new Map<number, ValueId>();
  const k32 = (n: number): ValueId => {
    let v = consts.get(n);
    if (v === undefined) { v = fn.append(holder, { op: 'const', type: T.i32, bits: BigInt(n >>> 0) }, span)[0] as ValueId; consts.set(n, v); }
    return v;
  };

  // Every collective alone in its own block (a site).
  const sites: BlockId[] = [];
  const splitAt = (b: BlockId, k: number): BlockId => {
    const data = fn.block(b);
    const n = fn.addBlock();
    const nd = fn.block(n);
    nd.insts = data.insts.slice(k);
    for (const id of nd.insts) fn.inst(id).block = n;
    nd.term = data.term;
    data.insts = data.insts.slice(0, k);
    data.term = { op: 'jump', target: { block: n, args: [] }, span };
    return n;
  };
  for (const b of reversePostorder(fn)) {
    for (let cur: BlockId | null = b; cur !== null; ) {
      const k: number = fn.block(cur).insts.findIndex((id) => isCollective(fn.inst(id).inst, cx));
      if (k < 0) break;
      const site: BlockId = k > 0 ? splitAt(cur, k) : cur;
      cur = fn.block(site).insts.length > 1 ? splitAt(site, 1) : null;
      sites.push(site);
    }
  }

  // A collective's results reach only the threads waiting at it: uses read a copy.
  const resultCopies = new Map<BlockId, { from: ValueId; to: ValueId }[]>();
  const subst = new Map<ValueId, ValueId>();
  for (const s of sites) {
    const data = fn.inst(fn.block(s).insts[0] as never);
    const pairs = data.results.map((r) => ({ from: r, to: fn.addBlockParam(holder, fn.typeOf(r)) }));
    for (const p of pairs) subst.set(p.from, p.to);
    resultCopies.set(s, pairs);
  }
  fn.substitute(subst);

  const st = fn.addBlockParam(holder, T.i32);
  const setState = (n: number): Stmt => ({ kind: 'copy', targets: [st], sources: [k32(n)] });
  const transfer = (call: BlockCall): Stmt[] => {
    const params = fn.block(call.block).params;
    return [...(params.length ? [{ kind: 'copy', targets: [...params], sources: [...call.args] } as Stmt] : []), setState(call.block)];
  };
  const tail = (b: BlockId): Stmt[] => {
    const t = fn.block(b).term;
    if (!t) return [setState(EXIT)];
    switch (t.op) {
      case 'jump': return transfer(t.target);
      case 'branch': return [{ kind: 'if', cond: t.cond, then: transfer(t.then), else: transfer(t.else) }];
      case 'switch': return t.targets.reduceRight<Stmt[]>((chain, call, i) => [{ kind: 'if-index', index: t.index, value: i, then: transfer(call), else: chain }], transfer(t.fallback));
      default: return [setState(EXIT)];
    }
  };
  const valueBlock = (inst: Inst): { stmt: Stmt; value: ValueId } => {
    const b = fn.addBlock();
    fn.block(b).term = { op: 'unreachable', span };
    const [value] = fn.append(b, inst, span);
    return { stmt: { kind: 'code', block: b }, value: value as ValueId };
  };

  const siteSet = new Set(sites);
  const arms: Stmt[] = reversePostorder(fn).filter((b) => !siteSet.has(b)).map((b) => ({
    kind: 'if-index', index: st, value: b, then: [{ kind: 'code', block: b }, ...tail(b), { kind: 'continue' }], else: [],
  }));
  const dispatch: Stmt = { kind: 'loop', body: [...arms, { kind: 'break' }] };

  // A plain `bar.sync` (and `bar.red`) waits for every running thread to reach a CTA barrier;
  // warp collectives (shfl, vote, ...) involve only their warp. Where both are sites, pairing by
  // step would let threads pass a barrier while another warp is still at its shuffles (a block
  // scan whose warp 0 scans the warp totals read them before they were written; a
  // `__syncthreads_or` right after warp 0's second level totalled without warp 0), so the
  // barriers count arrivals exactly then too, `bar.red` included.
  const isCtaBarrier = (s: BlockId): boolean => fn.inst(fn.block(s).insts[0] as never).inst.op === 'barrier';
  const counting = needsCounting(fn) || (sites.some(isCtaBarrier) && sites.some((s) => !isCtaBarrier(s)));
  const collectives: Stmt[] = [];
  const releases: Stmt[] = [];
  const waitSites: BlockId[] = [];
  for (const s of sites) {
    const id = fn.block(s).insts[0] as never;
    const data = fn.inst(id);
    const here = valueBlock({ op: 'icmp', cond: 'eq', type: T.pred, a: st, b: k32(s) });
    collectives.push(here.stmt);
    const bar = data.inst;
    if (bar.op === 'mbarrier_wait') {
      mbarrierWait(fn, s, bar, here.value, { state: st, k32, collectives, releases, waitSites, tail, setState, valueBlock }, resultCopies.get(s) ?? []);
      continue;
    }
    if (counting && bar.op === 'barrier') {
      data.inst = { ...bar, active: here.value, counted: 'arrive' };
      collectives.push({ kind: 'code', block: s });
      if (bar.kind === 'arrive') { collectives.push({ kind: 'if', cond: here.value, then: tail(s), else: [] }); continue; }
      collectives.push({ kind: 'if', cond: here.value, then: [setState(s + WAIT)], else: [] });
      waitSites.push(s);
      const waiting = valueBlock({ op: 'icmp', cond: 'eq', type: T.pred, a: st, b: k32(s + WAIT) });
      const done = valueBlock({ ...bar, type: T.pred, active: null, counted: 'done' });
      // bar.red: the arrivals added their predicates to the barrier's total; the released
      // threads read the total of its completion.
      const total = bar.reduce !== null ? valueBlock({ ...bar, active: null, counted: 'total' }) : null;
      const result: Stmt[] = total ? [total.stmt, ...(resultCopies.get(s) ?? []).map((p): Stmt => ({ kind: 'copy', targets: [p.to], sources: [total.value] }))] : [];
      releases.push(waiting.stmt, { kind: 'if', cond: waiting.value, then: [done.stmt, { kind: 'if', cond: done.value, then: [...result, ...tail(s)], else: [] }], else: [] });
      continue;
    }
    // Plain bar.sync/bar.arrive: the step's own barrier below is the one they wait at.
    const plain = data.inst.op === 'barrier' && data.inst.reduce === null;
    if (!plain) {
      if (hasActiveField(data.inst)) data.inst = { ...data.inst, active: here.value } as Inst;
      collectives.push({ kind: 'code', block: s });
    }
    const copies = (resultCopies.get(s) ?? []).map((p): Stmt => ({ kind: 'copy', targets: [p.to], sources: [p.from] }));
    collectives.push({ kind: 'if', cond: here.value, then: [...copies, ...tail(s)], else: [] });
  }
  const running = valueBlock({ op: 'icmp', cond: 'ne', type: T.pred, a: st, b: k32(EXIT) });
  let end: Stmt[];
  const after: Stmt[] = [];
  if (counting) {
    // The popc of running threads is also the count of a barrier without a thread count.
    // The step instruction reports 0 (leave the loop) when every running thread waits and no
    // barrier completed: nothing can change any more (the hardware would hang), so the
    // waiting threads trap at their barrier after the loop (runtime error R004, not a hang).
    const off = valueBlock({ op: 'ibinary', kind: 'sub', type: T.i32, a: st, b: k32(WAIT) });
    const waiting = valueBlock({ op: 'icmp', cond: 'ult', type: T.pred, a: off.value, b: k32(EXIT - WAIT) });
    const live = valueBlock({ op: 'barrier', type: T.i32, kind: 'red', id: null, count: null, aligned: true, reduce: 'popc', pred: running.value, active: waiting.value, counted: 'step' });
    const any = valueBlock({ op: 'icmp', cond: 'ne', type: T.pred, a: live.value, b: k32(0) });
    end = [off.stmt, waiting.stmt, live.stmt, ...releases, any.stmt, { kind: 'if', cond: any.value, then: [], else: [{ kind: 'break' }] }];
    for (const s of waitSites) {
      const stuck = valueBlock({ op: 'icmp', cond: 'eq', type: T.pred, a: st, b: k32(s + WAIT) });
      const site = fn.inst(fn.block(s).insts[0] as never);
      const reason = site.inst.op === 'mbarrier_wait' ? STUCK_TRY_WAIT : undefined;
      after.push(stuck.stmt, { kind: 'if', cond: stuck.value, then: [{ kind: 'trap', at: site.span.start, ...(reason ? { reason } : {}) }], else: [] });
    }
  } else {
    const any = valueBlock({ op: 'barrier', type: T.pred, kind: 'red', id: null, count: null, aligned: true, reduce: 'or', pred: running.value, active: null });
    end = [any.stmt, { kind: 'if', cond: any.value, then: [], else: [{ kind: 'break' }] }];
  }
  const step: Stmt = { kind: 'loop', body: [dispatch, ...collectives, running.stmt, ...end] };
  return [setState(fn.entry), step, ...after];
}

const STUCK_TRY_WAIT = 'the mbarrier phase this try_wait waits for can never complete (every running thread of the block was waiting, and no mbarrier changed)';

interface StepParts {
  /** The thread's state variable, and i32 constants. */
  readonly state: ValueId;
  readonly k32: (n: number) => ValueId;
  readonly collectives: Stmt[];
  readonly releases: Stmt[];
  readonly waitSites: BlockId[];
  readonly tail: (b: BlockId) => Stmt[];
  readonly setState: (n: number) => Stmt;
  readonly valueBlock: (inst: Inst) => { stmt: Stmt; value: ValueId };
}

/**
 * An mbarrier test_wait/try_wait site: its threads test in the step's collective part (after
 * the previous step's barrier, so every update of earlier steps is visible) and go on with the
 * result. A try_wait that finds the phase incomplete parks instead (site | WAIT) and tests
 * again after each step's barrier until the phase completes: a try_wait may suspend its thread
 * until then (ISA), and parked threads count as waiting for the end-of-loop rule.
 */
function mbarrierWait(fn: IrFunction, s: BlockId, wait: Extract<Inst, { op: 'mbarrier_wait' }>, here: ValueId, parts: StepParts, copies: readonly { from: ValueId; to: ValueId }[]): void {
  const data = fn.inst(fn.block(s).insts[0] as never);
  data.inst = { ...wait, active: here, sync: false };
  parts.collectives.push({ kind: 'code', block: s });
  const result = data.results[0] as ValueId;
  const give = (v: ValueId): Stmt[] => copies.map((p) => ({ kind: 'copy', targets: [p.to], sources: [v] }));
  if (!wait.blocking) {
    parts.collectives.push({ kind: 'if', cond: here, then: [...give(result), ...parts.tail(s)], else: [] });
    return;
  }
  parts.collectives.push({ kind: 'if', cond: here, then: [{ kind: 'if', cond: result, then: [...give(result), ...parts.tail(s)], else: [parts.setState(s + WAIT)] }], else: [] });
  parts.waitSites.push(s);
  const parked = parts.valueBlock({ op: 'icmp', cond: 'eq', type: T.pred, a: parts.state, b: parts.k32(s + WAIT) });
  const again = parts.valueBlock({ ...wait, active: parked.value, sync: false });
  parts.releases.push(parked.stmt, { kind: 'if', cond: parked.value, then: [again.stmt, { kind: 'if', cond: again.value, then: [...give(again.value), ...parts.tail(s)], else: [] }], else: [] });
}
