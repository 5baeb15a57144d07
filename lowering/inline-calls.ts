/**
 * Pass `inline-calls`: replaces every `call` in a kernel with a copy of the callee's body.
 *
 * Expects: SSA from the builder, run on entries; the module holds every `.func` with a body,
 *   each with `formals` (its `.param` parameter and return variables, in the local window).
 * Guarantees: no `call` remains (or an error was reported). A call's block is split at the
 *   call: the part before jumps to the copied callee entry, the callee's `ret`s jump to the
 *   part after, its `exit`s end the thread, its `trap`s trap. The callee's parameter and
 *   return variables are not copied: their addresses become the caller's argument and return
 *   variables' addresses, so `st.param` before the call and `ld.param` in the callee (and the
 *   reverse for results) meet in the same local slot. Every later pass is intra-procedural.
 *   `__assertfail` (what nvcc emits for a failed `assert`) is a `trap`; `vprintf` is a no-op
 *   that returns 0 (printf output is discarded).
 * Does not: allow recursion, which WGSL forbids: a cycle is error L003 naming it
 *   (`f -> g -> f`) at the call that closes it. Indirect calls are direct calls of their
 *   candidates by then (src/translate/function-pointers.ts).
 *
 * A callee's own `.local` variables are shared by all its inlined copies: without recursion
 * no two activations of one function are live at once, as with a static frame.
 *
 * Forwarding: where it is provably the same value, an `ld.param` becomes the value that the
 * matching `st.param` stored (same variable, offset and width): a callee's parameter load
 * takes the caller's last store before the call when the callee never stores to it; a
 * caller's load of a return value right after the call takes the value each `ret` block
 * stored last (a block parameter when there are several). Values then keep their provenance
 * (a pointer argument still points into its slot for address-space lowering), and the local
 * slots are left with stores nothing reads. Anything else stays a local-memory access.
 */
import { DiagnosticCode } from '../src/diagnostics/diagnostic.js';
import type { Span } from '../src/diagnostics/span.js';
import type { BlockId, InstId, ValueId } from '../src/ir/entities.js';
import { mapTerminator, type BlockData, type IrFunction, type Terminator } from '../src/ir/function.js';
import { mapOperands, operandsOf, type Inst, type InstOf } from '../src/ir/inst.js';
import { bitWidth, type IrType } from '../src/ir/types.js';
import { predecessors } from '../src/ir/cfg.js';
import type { Pass, PassContext } from './pass.js';

/** Calls inlined into one kernel before we call the result too large to compile. */
const MAX_INLINED_CALLS = 4096;

const TRAPPING = new Set(['__assertfail']);
const DISCARDED = new Set(['vprintf']);

export const inlineCalls: Pass = {
  name: 'inline-calls',
  run(fn: IrFunction, cx: PassContext): void {
    const funcs = new Map(cx.module.functions.filter((f) => !f.isEntry).map((f) => [f.name, f]));
    if (!findCycles(fn, funcs, cx)) return;
    // Blocks before the last site's block have no calls left, and inlining only appends
    // blocks: each search resumes there instead of rescanning the kernel per call.
    let from = 0;
    for (let count = 0; ; count++) {
      const site = firstCall(fn, from);
      if (site === undefined) { removeUnreadStores(fn); return; }
      from = fn.inst(site).block;
      if (count >= MAX_INLINED_CALLS) {
        cx.diagnostics.push({ code: DiagnosticCode.LowerLimit, severity: 'error', span: fn.inst(site).span, message: `kernel \`${fn.name}\` makes more than ${MAX_INLINED_CALLS} calls once inlined` });
        return;
      }
      inlineAt(fn, site, funcs, cx);
    }
  },
};

/** The first call in block order, from block `from` on. */
function firstCall(fn: IrFunction, from: number): InstId | undefined {
  for (let b = from; b < fn.blocks.length; b++) for (const id of (fn.blocks[b] as BlockData).insts) if (fn.inst(id).inst.op === 'call') return id;
  return undefined;
}

function callsOf(fn: IrFunction): { callee: string; span: Span }[] {
  const out: { callee: string; span: Span }[] = [];
  for (const b of fn.blockIds()) {
    for (const id of fn.block(b).insts) {
      const d = fn.inst(id);
      if (d.inst.op === 'call') out.push({ callee: d.inst.callee, span: d.span });
    }
  }
  return out;
}

/** Depth-first over the call graph from `root`; reports each cycle once. True if none. */
function findCycles(root: IrFunction, funcs: ReadonlyMap<string, IrFunction>, cx: PassContext): boolean {
  const path: string[] = [];
  const done = new Set<string>();
  let ok = true;
  const visit = (fn: IrFunction): void => {
    path.push(fn.name);
    for (const call of callsOf(fn)) {
      const at = path.indexOf(call.callee);
      if (at >= 0) {
        ok = false;
        const cycle = [...path.slice(at), call.callee].join(' -> ');
        cx.diagnostics.push({ code: DiagnosticCode.LowerRecursion, severity: 'error', span: call.span, message: `recursive call cycle ${cycle}: WGSL forbids recursion, so calls are inlined and cannot recurse` });
        continue;
      }
      const callee = funcs.get(call.callee);
      if (callee && !done.has(callee.name)) visit(callee);
    }
    path.pop();
    done.add(fn.name);
  };
  visit(root);
  return ok;
}

/** Splits the call's block after the call; returns the block that continues after it. */
function splitAfter(fn: IrFunction, site: InstId): { before: BlockId; after: BlockId; call: InstOf<'call'>; span: Span } {
  const data = fn.inst(site);
  const before = data.block;
  const block = fn.block(before);
  const at = block.insts.indexOf(site);
  const moved = block.insts.splice(at);
  moved.shift();
  const after = fn.addBlock();
  const rest = fn.block(after);
  rest.insts.push(...moved);
  for (const id of moved) fn.inst(id).block = after;
  rest.term = block.term;
  block.term = null;
  if (fn.exits.delete(before)) fn.exits.add(after);
  return { before, after, call: data.inst as InstOf<'call'>, span: data.span };
}

function inlineAt(fn: IrFunction, site: InstId, funcs: ReadonlyMap<string, IrFunction>, cx: PassContext): void {
  const { before, after, call, span } = splitAfter(fn, site);
  const jumpAfter: Terminator = { op: 'jump', target: { block: after, args: [] }, span };
  if (TRAPPING.has(call.callee)) { fn.block(before).term = { op: 'trap', span }; return; }
  if (DISCARDED.has(call.callee)) { fn.block(before).term = jumpAfter; return; }
  const callee = funcs.get(call.callee);
  const formals = callee?.formals;
  if (!callee || !formals) {
    cx.diagnostics.push({ code: DiagnosticCode.LowerUnsupportedFeature, severity: 'error', span, message: `call of \`${call.callee}\`, which has no body in this module (external device functions cannot be linked)` });
    fn.block(before).term = jumpAfter;
    return;
  }
  if (call.args.length !== formals.params.length || call.returns.length > formals.returns.length) {
    cx.diagnostics.push({ code: DiagnosticCode.SemaOperandCount, severity: 'error', span, message: `call of \`${call.callee}\` passes ${call.args.length} argument(s) and ${call.returns.length} return(s); it takes ${formals.params.length} and returns ${formals.returns.length}` });
    fn.block(before).term = jumpAfter;
    return;
  }
  const shared = new Map<string, ValueId>();
  formals.params.forEach((s, k) => shared.set(s, call.args[k] as ValueId));
  formals.returns.forEach((s, k) => { const r = call.returns[k]; if (r !== undefined) shared.set(s, r); });

  const blocks = new Map<BlockId, BlockId>();
  for (const b of callee.blockIds()) blocks.set(b, fn.addBlock());
  const values = new Map<ValueId, ValueId>();
  for (const b of callee.blockIds()) {
    for (const p of callee.block(b).params) values.set(p, fn.addBlockParam(blocks.get(b) as BlockId, callee.typeOf(p), callee.value(p).hint));
  }
  const copied: InstId[] = [];
  for (const b of callee.blockIds()) {
    const nb = blocks.get(b) as BlockId;
    for (const id of callee.block(b).insts) {
      const d = callee.inst(id);
      const inst = d.inst;
      const formal = inst.op === 'address_of' ? shared.get(inst.symbol) : undefined;
      if (formal !== undefined && fn.typeOf(formal) === inst.type) { values.set(d.results[0] as ValueId, formal); continue; }
      const { id: nid, results } = fn.createDetached(nb, inst, d.span, d.results.map((r) => callee.typeOf(r)));
      d.results.forEach((r, k) => values.set(r, results[k] as ValueId));
      fn.block(nb).insts.push(nid);
      copied.push(nid);
    }
  }
  const map = (v: ValueId): ValueId => {
    const m = values.get(v);
    if (m === undefined) throw new Error(`ptx-wgsl internal error: inlining \`${callee.name}\`: value ${v} has no copy`);
    return m;
  };
  for (const nid of copied) { const d = fn.inst(nid); d.inst = mapOperands(d.inst, map); }
  for (const b of callee.blockIds()) {
    const t = callee.block(b).term;
    const nb = blocks.get(b) as BlockId;
    if (!t) continue;
    if (t.op === 'return' && callee.exits.has(b)) { fn.block(nb).term = { op: 'return', values: [], span: t.span }; fn.exits.add(nb); continue; }
    if (t.op === 'return') { fn.block(nb).term = { op: 'jump', target: { block: after, args: [] }, span: t.span }; continue; }
    const mapped = mapTerminator(t, map);
    fn.block(nb).term = remapBlocks(mapped, blocks);
  }
  fn.block(before).term = { op: 'jump', target: { block: blocks.get(callee.entry) as BlockId, args: [] }, span };
  // One walk judges the argument and return variables together: forwarding a load does not
  // change which variables are private (the value it forwards was stored by a store that
  // stays, so any variable that value's address derives from has escaped already).
  const symbolsOf = (values: readonly ValueId[]): string[] => values.flatMap((a) => { const s = slotOf(fn, a); return s ? [s.symbol] : []; });
  const argSymbols = symbolsOf(call.args);
  const returnSymbols = symbolsOf(call.returns);
  const privateSymbols = private_(fn, [...argSymbols, ...returnSymbols]);
  forwardArguments(fn, before, argSymbols.filter((s) => privateSymbols.has(s)), copied);
  forwardReturns(fn, after, new Set(returnSymbols.filter((s) => privateSymbols.has(s))), [...blocks.values()].filter((b) => fn.block(b).term?.op === 'jump' && (fn.block(b).term as Extract<Terminator, { op: 'jump' }>).target.block === after));
}

/** Drops stores to private local variables that nothing reads any more (forwarded `.param`s). */
function removeUnreadStores(fn: IrFunction): void {
  const symbols = new Set<string>();
  for (const d of fn.insts) if (d.inst.op === 'address_of' && d.inst.space === 'local') symbols.add(d.inst.symbol);
  const unread = private_(fn, [...symbols]);
  for (const b of fn.blockIds()) {
    for (const id of fn.block(b).insts) {
      const inst = fn.inst(id).inst;
      if (inst.op !== 'load' && inst.op !== 'atomic') continue;
      const slot = slotOf(fn, inst.address);
      if (slot) unread.delete(slot.symbol);
    }
  }
  if (unread.size === 0) return;
  for (const b of fn.blockIds()) {
    const block = fn.block(b);
    block.insts = block.insts.filter((id) => {
      const inst = fn.inst(id).inst;
      if (inst.op !== 'store') return true;
      const slot = slotOf(fn, inst.address);
      return !(slot && unread.has(slot.symbol));
    });
  }
}

interface Slot { readonly symbol: string; readonly offset: number }

/** The local variable and constant byte offset of an address `address_of(sym) (+ c)`, if it is one. */
function slotOf(fn: IrFunction, v: ValueId): Slot | undefined {
  let offset = 0;
  let cur = v;
  for (let steps = 0; steps < 32; steps++) {
    const inst = fn.defOf(cur);
    if (!inst) return undefined;
    if (inst.op === 'address_of') return inst.space === 'local' ? { symbol: inst.symbol, offset } : undefined;
    if (inst.op === 'truncate' || inst.op === 'extend' || inst.op === 'bitcast') { cur = inst.value; continue; }
    if (inst.op !== 'ibinary' || inst.kind !== 'add') return undefined;
    const c = fn.defOf(inst.b);
    if (c?.op !== 'const') return undefined;
    offset += Number(BigInt.asIntN(32, c.bits));
    cur = inst.a;
  }
  return undefined;
}

const bytesOf = (fn: IrFunction, v: ValueId): number => bitWidth(fn.typeOf(v)) / 8;

/**
 * Variables whose address is only ever used, at constant offsets, as the address of loads,
 * stores and calls: no other access can reach them (an access through any other address
 * cannot be derived from theirs), so tracking their stores is exact.
 *
 * A value derives from at most one variable's address, through one chain of links (`add` of a
 * constant, truncate, extend, bitcast) back to an `address_of`: each use of a derived value is
 * judged where it is, in one walk over the placed instructions, instead of following every
 * address forward through use lists of the whole kernel (rebuilt at every call site).
 */
function private_(fn: IrFunction, symbols: readonly string[]): Set<string> {
  const out = new Set(symbols);
  if (out.size === 0) return out;
  // Per value: the variable whose address it derives from (null: none), and how many links away.
  const root: (string | null | undefined)[] = [];
  const depth: number[] = [];
  const rootOf = (v: ValueId): string | null => {
    const chain: ValueId[] = [];
    let cur = v;
    while (root[cur] === undefined) {
      const inst = fn.defOf(cur);
      const from = inst === undefined ? undefined
        : inst.op === 'truncate' || inst.op === 'extend' || inst.op === 'bitcast' ? inst.value
        : inst.op === 'ibinary' && inst.kind === 'add' && fn.defOf(inst.b)?.op === 'const' ? inst.a
        : undefined;
      if (from === undefined) { root[cur] = inst?.op === 'address_of' ? inst.symbol : null; depth[cur] = 0; break; }
      chain.push(cur);
      cur = from;
    }
    for (let i = chain.length - 1, prev = cur; i >= 0; i--) {
      const x = chain[i] as ValueId;
      root[x] = root[prev] as string | null;
      depth[x] = (depth[prev] as number) + 1;
      prev = x;
    }
    return root[v] as string | null;
  };
  // A use of a value derived from a tracked address (forward: `ok` through its chain of links).
  const allowed = (inst: Inst, v: ValueId): boolean => {
    if ((depth[v] as number) > 32) return false;
    switch (inst.op) {
      case 'load': case 'call': case 'truncate': case 'extend': case 'bitcast': return true;
      case 'store': return inst.value !== v;
      case 'ibinary': return inst.kind === 'add' && inst.a === v && fn.defOf(inst.b)?.op === 'const';
      default: return false;
    }
  };
  const judge = (v: ValueId, user: Inst | undefined): void => {
    const r = rootOf(v);
    if (r !== null && out.has(r) && (user === undefined || !allowed(user, v))) out.delete(r);
  };
  for (const block of fn.blocks) {
    for (const id of block.insts) {
      const inst = fn.inst(id).inst;
      for (const v of operandsOf(inst)) judge(v, inst);
    }
    const t = block.term;
    if (!t) continue;
    if (t.op === 'branch') judge(t.cond, undefined);
    else if (t.op === 'switch') judge(t.index, undefined);
    else if (t.op === 'return') for (const v of t.values) judge(v, undefined);
    if (t.op === 'jump') for (const v of t.target.args) judge(v, undefined);
    else if (t.op === 'branch') for (const v of [...t.then.args, ...t.else.args]) judge(v, undefined);
    else if (t.op === 'switch') for (const c of [...t.targets, t.fallback]) for (const v of c.args) judge(v, undefined);
  }
  return out;
}

/** What an instruction writes of the tracked (private) variables: one slot, or all it passes to a call. */
function writes(fn: IrFunction, id: InstId): { slot: Slot; bytes: number } | { symbols: Set<string> } | undefined {
  const inst = fn.inst(id).inst;
  if (inst.op === 'call') return { symbols: new Set([...inst.args, ...inst.returns].flatMap((a) => { const s = slotOf(fn, a); return s ? [s.symbol] : []; })) };
  if (inst.op !== 'store' && inst.op !== 'atomic') return undefined;
  if (inst.space !== 'local' && inst.space !== 'generic') return undefined;
  const slot = slotOf(fn, inst.address);
  return slot ? { slot, bytes: inst.op === 'store' ? bytesOf(fn, inst.value) : bitWidth(inst.type) / 8 } : undefined;
}

type Stored = Map<string, Map<number, { value: ValueId; bytes: number }>>;

/** Applies one write to the known contents of the tracked variables. */
function record(known: Stored, w: ReturnType<typeof writes>, value: ValueId | undefined): void {
  if (w === undefined) return;
  if ('symbols' in w) { for (const s of w.symbols) known.get(s)?.clear(); return; }
  const m = known.get(w.slot.symbol);
  if (!m) return;
  for (const [o, e] of m) if (o < w.slot.offset + w.bytes && w.slot.offset < o + e.bytes) m.delete(o);
  if (value !== undefined) m.set(w.slot.offset, { value, bytes: w.bytes });
}

/** Replaces a load by its forwarded value, in place, when the access shapes match. */
function forwardLoad(fn: IrFunction, id: InstId, value: ValueId): boolean {
  const data = fn.inst(id);
  const load = data.inst;
  if (load.op !== 'load') return false;
  const from = fn.typeOf(value);
  if (from === load.type) { data.inst = { op: 'bitcast', type: load.type, value }; return true; }
  if (from.kind === 'vector' || load.type.kind === 'vector' || bitWidth(from) !== bitWidth(load.type)) return false;
  data.inst = { op: 'bitcast', type: load.type, value };
  return true;
}

/**
 * `block` and the chain of blocks before it that each have one predecessor (a guarded call
 * sits alone in its own block after the argument stores), farthest first: each dominates the next.
 */
function straightLineTo(fn: IrFunction, block: BlockId): BlockId[] {
  const preds = predecessors(fn);
  const chain = [block];
  for (let b = block; ; ) {
    const p = preds.get(b) ?? [];
    if (p.length !== 1 || chain.includes(p[0] as BlockId) || p[0] === undefined) break;
    b = p[0];
    chain.unshift(b);
  }
  return chain;
}

/** `symbols`: the call's private argument variables. */
function forwardArguments(fn: IrFunction, before: BlockId, symbols: readonly string[], copied: readonly InstId[]): void {
  const known: Stored = new Map();
  for (const s of symbols) known.set(s, new Map());
  if (known.size === 0) return;
  for (const b of straightLineTo(fn, before)) {
    for (const id of fn.block(b).insts) {
      const inst = fn.inst(id).inst;
      record(known, writes(fn, id), inst.op === 'store' ? inst.value : undefined);
    }
  }
  // The callee must not write its parameters (or anything unknown) for its loads to see the caller's stores.
  for (const id of copied) {
    const w = writes(fn, id);
    if (w && 'symbols' in w) for (const s of w.symbols) known.delete(s);
    else if (w) known.delete(w.slot.symbol);
  }
  for (const id of copied) {
    const inst = fn.inst(id).inst;
    if (inst.op !== 'load' || inst.space !== 'local') continue;
    const slot = slotOf(fn, inst.address);
    const e = slot ? known.get(slot.symbol)?.get(slot.offset) : undefined;
    if (e && e.bytes === bitWidth(inst.type) / 8) forwardLoad(fn, id, e.value);
  }
}

/** `symbols`: the call's private return variables. */
function forwardReturns(fn: IrFunction, after: BlockId, symbols: ReadonlySet<string>, exits: readonly BlockId[]): void {
  if (symbols.size === 0 || exits.length === 0) return;
  // What each `ret` block leaves in the return variables.
  const left = exits.map((b) => {
    const known: Stored = new Map([...symbols].map((s) => [s, new Map()]));
    for (const id of fn.block(b).insts) {
      const inst = fn.inst(id).inst;
      record(known, writes(fn, id), inst.op === 'store' ? inst.value : undefined);
    }
    return known;
  });
  for (const id of fn.block(after).insts) {
    const inst = fn.inst(id).inst;
    const w = writes(fn, id);
    if (w && 'symbols' in w && [...w.symbols].some((s) => symbols.has(s))) return;
    if (w && 'slot' in w && symbols.has(w.slot.symbol)) return;
    if (inst.op !== 'load' || inst.space !== 'local') continue;
    const slot = slotOf(fn, inst.address);
    if (!slot || !symbols.has(slot.symbol)) continue;
    const bytes = bitWidth(inst.type) / 8;
    const values = left.map((k) => k.get(slot.symbol)?.get(slot.offset));
    if (values.some((e) => !e || e.bytes !== bytes)) continue;
    const types = new Set(values.map((e) => fn.typeOf((e as { value: ValueId }).value)));
    if (types.size !== 1) continue;
    let value = (values[0] as { value: ValueId }).value;
    if (exits.length > 1) {
      value = fn.addBlockParam(after, [...types][0] as IrType);
      exits.forEach((b, i) => {
        const t = fn.block(b).term as Extract<Terminator, { op: 'jump' }>;
        fn.block(b).term = { ...t, target: { block: after, args: [...t.target.args, (values[i] as { value: ValueId }).value] } };
      });
    }
    forwardLoad(fn, id, value);
  }
}

function remapBlocks(t: Terminator, blocks: ReadonlyMap<BlockId, BlockId>): Terminator {
  const b = (x: BlockId): BlockId => blocks.get(x) as BlockId;
  switch (t.op) {
    case 'jump': return { ...t, target: { ...t.target, block: b(t.target.block) } };
    case 'branch': return { ...t, then: { ...t.then, block: b(t.then.block) }, else: { ...t.else, block: b(t.else.block) } };
    case 'switch': return { ...t, targets: t.targets.map((c) => ({ ...c, block: b(c.block) })), fallback: { ...t.fallback, block: b(t.fallback.block) } };
    default: return t;
  }
}
