/**
 * Pass `structurize`: turns the CFG into WGSL's structured control flow, without a
 * run-time dispatch loop for reducible CFGs.
 *
 * Expects: dead-code has run (every block reachable, unreachable ones emptied).
 * Guarantees: `fn.structured` holds a statement tree of `if`, `loop`, `break`, `continue`,
 *   `return` and block-argument copies in which every block's code appears exactly once.
 *   Reducible CFGs use Ramsey's algorithm ("Beyond Relooper", ICFP 2022: a node's
 *   dominator-tree children that are merge points follow it in nested blocks, back edges
 *   become `continue`; a loop header's children outside its loop follow the `loop`) and then resolve-jumps maps the labelled blocks and branches onto
 *   WGSL, where only the innermost loop can be left with `break`. Irreducible CFGs get a
 *   correct fallback: a state machine over all blocks inside one `loop`.
 * Does not: move barriers into uniform control flow (warp/convergence lowering does).
 */
import type { BlockId, ValueId } from '../src/ir/entities.js';
import type { BlockCall, IrFunction } from '../src/ir/function.js';
import type { Stmt } from '../src/ir/structured.js';
import { dominates, dominators, predecessors, reversePostorder } from '../src/ir/cfg.js';
import type { Pass } from './pass.js';
import { resolveJumps, type Labelled } from './resolve-jumps.js';

interface Cfg {
  readonly fn: IrFunction;
  readonly order: Map<BlockId, number>;
  readonly idom: Map<BlockId, BlockId>;
  readonly children: Map<BlockId, BlockId[]>;
  readonly loopHeaders: Set<BlockId>;
  readonly mergeNodes: Set<BlockId>;
  /**
   * Dominator-tree children of a loop header outside its loop (what runs after the loop): they
   * follow the `loop` statement, reached by `break`, instead of nesting in the loop's body, so
   * that a kernel of many loops in a row is not nested as deep as it has loops.
   */
  readonly followers: Set<BlockId>;
}

function analyse(fn: IrFunction): Cfg | 'irreducible' {
  const rpo = reversePostorder(fn);
  const preds = predecessors(fn);
  const order = new Map(rpo.map((b, i) => [b, i]));
  const idom = dominators(fn, rpo, preds);
  const children = new Map<BlockId, BlockId[]>();
  for (const b of rpo) {
    const d = idom.get(b);
    if (d !== undefined && d !== b) { const l = children.get(d); if (l) l.push(b); else children.set(d, [b]); }
  }
  const loopHeaders = new Set<BlockId>();
  const mergeNodes = new Set<BlockId>();
  for (const b of rpo) {
    let forward = 0;
    for (const p of preds.get(b) ?? []) {
      if (!order.has(p)) continue;
      if ((order.get(p) as number) >= (order.get(b) as number)) {
        if (!dominates(idom, b, p)) return 'irreducible';
        loopHeaders.add(b);
      } else forward++;
    }
    if (forward >= 2) mergeNodes.add(b);
  }
  const followers = new Set<BlockId>();
  for (const h of loopHeaders) {
    const body = naturalLoop(h, preds, order);
    for (const c of children.get(h) ?? []) if (!body.has(c)) followers.add(c);
  }
  return { fn, order, idom, children, loopHeaders, mergeNodes, followers };
}

/** The blocks of the loop headed by h: h and those that reach one of its back edges without passing h. */
function naturalLoop(h: BlockId, preds: Map<BlockId, BlockId[]>, order: Map<BlockId, number>): Set<BlockId> {
  const body = new Set<BlockId>([h]);
  const work = (preds.get(h) ?? []).filter((p) => order.has(p) && (order.get(p) as number) >= (order.get(h) as number));
  while (work.length) {
    const b = work.pop() as BlockId;
    if (body.has(b)) continue;
    body.add(b);
    for (const p of preds.get(b) ?? []) if (order.has(p)) work.push(p);
  }
  return body;
}

function copies(fn: IrFunction, call: BlockCall): Labelled[] {
  const params = fn.block(call.block).params;
  if (params.length === 0) return [];
  return [{ kind: 'copy', targets: [...params], sources: [...call.args] }];
}

function doTree(cx: Cfg, x: BlockId): Labelled[] {
  const merges = (cx.children.get(x) ?? []).filter((c) => cx.mergeNodes.has(c) || cx.followers.has(c));
  merges.sort((a, b) => (cx.order.get(b) as number) - (cx.order.get(a) as number));
  if (!cx.loopHeaders.has(x)) return nodeWithin(cx, x, merges);
  const after = merges.filter((c) => cx.followers.has(c));
  const loop: Labelled = { kind: 'loop', label: x, body: nodeWithin(cx, x, merges.filter((c) => !cx.followers.has(c))) };
  return following(cx, [loop], after);
}

function nodeWithin(cx: Cfg, x: BlockId, merges: readonly BlockId[]): Labelled[] {
  return following(cx, [{ kind: 'code', block: x }, ...terminator(cx, x)], merges);
}

/** `code` in blocks labelled by `merges` (latest first), each followed by its own tree. */
function following(cx: Cfg, code: Labelled[], merges: readonly BlockId[]): Labelled[] {
  const [y, ...rest] = merges;
  if (y === undefined) return code;
  return [{ kind: 'block', label: y, body: following(cx, code, rest) }, ...doTree(cx, y)];
}

function doBranch(cx: Cfg, from: BlockId, call: BlockCall): Labelled[] {
  const to = call.block;
  const pre = copies(cx.fn, call);
  if ((cx.order.get(to) as number) <= (cx.order.get(from) as number)) return [...pre, { kind: 'br', label: to, to: 'loop' }];
  if (cx.mergeNodes.has(to) || cx.followers.has(to)) return [...pre, { kind: 'br', label: to, to: 'block' }];
  return [...pre, ...doTree(cx, to)];
}

function terminator(cx: Cfg, x: BlockId): Labelled[] {
  const t = cx.fn.block(x).term;
  if (!t) return [{ kind: 'return', values: [] }];
  switch (t.op) {
    case 'jump': return doBranch(cx, x, t.target);
    case 'branch': return [{ kind: 'if', cond: t.cond, then: doBranch(cx, x, t.then), else: doBranch(cx, x, t.else) }];
    case 'switch': return switchChain(cx, x, t.index, t.targets, t.fallback);
    case 'return': return [{ kind: 'return', values: t.values }];
    case 'trap': return [{ kind: 'trap', at: t.span.start }];
    case 'unreachable': return [{ kind: 'return', values: [] }];
  }
}

/** `brx.idx` as an if-chain on the index (WGSL `break` inside `switch` would leave the switch). */
function switchChain(cx: Cfg, x: BlockId, index: ValueId, targets: readonly BlockCall[], fallback: BlockCall): Labelled[] {
  let chain: Labelled[] = doBranch(cx, x, fallback);
  for (let i = targets.length - 1; i >= 0; i--) {
    chain = [{ kind: 'if-index', index, value: i, then: doBranch(cx, x, targets[i] as BlockCall), else: chain }];
  }
  return chain;
}

function stateMachine(fn: IrFunction): Stmt[] {
  const rpo = reversePostorder(fn);
  const jump = (call: BlockCall): Stmt[] => [...(copies(fn, call) as Stmt[]), { kind: 'set-state', block: call.block }, { kind: 'continue' }];
  const arms: Stmt[] = rpo.map((b) => {
    const t = fn.block(b).term;
    let tail: Stmt[];
    if (!t || t.op === 'return' || t.op === 'unreachable') tail = [{ kind: 'return', values: t?.op === 'return' ? t.values : [] }];
    else if (t.op === 'trap') tail = [{ kind: 'trap', at: t.span.start }];
    else if (t.op === 'jump') tail = jump(t.target);
    else if (t.op === 'branch') tail = [{ kind: 'if', cond: t.cond, then: jump(t.then), else: jump(t.else) }];
    else tail = t.targets.reduceRight<Stmt[]>((chain, call, i) => [{ kind: 'if-index', index: t.index, value: i, then: jump(call), else: chain }], jump(t.fallback));
    return { kind: 'if-state', block: b, body: [{ kind: 'code', block: b }, ...tail] };
  });
  return [{ kind: 'loop', body: arms }];
}

export const structurize: Pass = {
  name: 'structurize',
  run(fn: IrFunction): void {
    const cfg = analyse(fn);
    if (cfg === 'irreducible') {
      fn.structured = { body: stateMachine(fn), usesExitFlag: false, usesStateMachine: true, entryState: fn.entry };
      return;
    }
    const { body, usesExitFlag } = resolveJumps(doTree(cfg, fn.entry));
    fn.structured = { body, usesExitFlag, usesStateMachine: false, entryState: fn.entry };
  },
};
