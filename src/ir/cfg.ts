/**
 * CFG facts the passes share: predecessors, reverse postorder, dominators (Cooper,
 * Harvey & Kennedy's iterative algorithm) and def-use lists.
 */
import type { BlockId, InstId, ValueId } from './entities.js';
import type { IrFunction } from './function.js';
import { operandsOf } from './inst.js';

export function predecessors(fn: IrFunction): Map<BlockId, BlockId[]> {
  const preds = new Map<BlockId, BlockId[]>(fn.blockIds().map((b) => [b, []]));
  for (const b of fn.blockIds()) for (const s of fn.successors(b)) preds.get(s.block)?.push(b);
  return preds;
}

/** Blocks reachable from the entry in reverse postorder. */
export function reversePostorder(fn: IrFunction): BlockId[] {
  const seen = new Set<BlockId>();
  const post: BlockId[] = [];
  const stack: { b: BlockId; i: number }[] = [{ b: fn.entry, i: 0 }];
  seen.add(fn.entry);
  while (stack.length) {
    const top = stack[stack.length - 1] as { b: BlockId; i: number };
    const succs = fn.successors(top.b);
    if (top.i < succs.length) {
      const s = (succs[top.i++] as { block: BlockId }).block;
      if (!seen.has(s)) { seen.add(s); stack.push({ b: s, i: 0 }); }
    } else {
      post.push(top.b);
      stack.pop();
    }
  }
  return post.reverse();
}

/** Immediate dominators of reachable blocks (the entry maps to itself). */
export function dominators(fn: IrFunction, rpo: readonly BlockId[], preds: Map<BlockId, BlockId[]>): Map<BlockId, BlockId> {
  return immediateDominators(fn.entry, rpo, (b) => preds.get(b) ?? []);
}

/**
 * Cooper, Harvey & Kennedy's iteration over a graph given by its nodes in reverse postorder
 * from `start` and each node's predecessors: dominators, or post-dominators on the reversed graph.
 */
function immediateDominators(start: BlockId, rpo: readonly BlockId[], predsOf: (b: BlockId) => readonly BlockId[]): Map<BlockId, BlockId> {
  const order = new Map(rpo.map((b, i) => [b, i]));
  const idom = new Map<BlockId, BlockId>([[start, start]]);
  const intersect = (a: BlockId, b: BlockId): BlockId => {
    let x = a, y = b;
    while (x !== y) {
      while ((order.get(x) ?? 0) > (order.get(y) ?? 0)) x = idom.get(x) as BlockId;
      while ((order.get(y) ?? 0) > (order.get(x) ?? 0)) y = idom.get(y) as BlockId;
    }
    return x;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const b of rpo) {
      if (b === start) continue;
      let nd: BlockId | undefined;
      for (const p of predsOf(b)) {
        if (!idom.has(p)) continue;
        nd = nd === undefined ? p : intersect(p, nd);
      }
      if (nd !== undefined && idom.get(b) !== nd) { idom.set(b, nd); changed = true; }
    }
  }
  return idom;
}

export function dominates(idom: Map<BlockId, BlockId>, a: BlockId, b: BlockId): boolean {
  for (let x = b; ; x = idom.get(x) as BlockId) {
    if (x === a) return true;
    const up = idom.get(x);
    if (up === undefined || up === x) return false;
  }
}

export type Use =
  | { readonly kind: 'inst'; readonly inst: InstId }
  | { readonly kind: 'term'; readonly block: BlockId };

/** Every use of every value, by value. Edge arguments count as terminator uses. */
export function useLists(fn: IrFunction): Map<ValueId, Use[]> {
  const uses = new Map<ValueId, Use[]>();
  const add = (v: ValueId, u: Use): void => { let l = uses.get(v); if (!l) uses.set(v, (l = [])); l.push(u); };
  // One Use per instruction or terminator, shared by all its operands (uses are read-only).
  for (const b of fn.blockIds()) {
    const block = fn.block(b);
    for (const id of block.insts) {
      const u: Use = { kind: 'inst', inst: id };
      for (const x of operandsOf(fn.inst(id).inst)) add(x, u);
    }
    const t = block.term;
    if (!t) continue;
    const u: Use = { kind: 'term', block: b };
    if (t.op === 'branch') add(t.cond, u);
    if (t.op === 'switch') add(t.index, u);
    if (t.op === 'return') for (const x of t.values) add(x, u);
    for (const s of fn.successors(b)) for (const x of s.args) add(x, u);
  }
  return uses;
}

/**
 * Immediate post-dominators of the blocks reachable from the entry, over a virtual exit that
 * every block without successors (return, trap, unreachable) reaches; a block whose paths end
 * at different exits maps to undefined (the virtual exit).
 */
export function postDominators(fn: IrFunction): Map<BlockId, BlockId | undefined> {
  const EXIT = -1 as BlockId;
  const reachable = reversePostorder(fn);
  const succs = new Map<BlockId, BlockId[]>();
  const preds = new Map<BlockId, BlockId[]>(reachable.map((b) => [b, []]));
  preds.set(EXIT, []);
  for (const b of reachable) {
    const s = [...new Set(fn.successors(b).map((c) => c.block))];
    succs.set(b, s.length ? s : [EXIT]);
    for (const t of succs.get(b) as BlockId[]) preds.get(t)?.push(b);
  }
  // reverse postorder of the reversed graph from the exit
  const seen = new Set<BlockId>([EXIT]);
  const post: BlockId[] = [];
  const stack: { b: BlockId; i: number }[] = [{ b: EXIT, i: 0 }];
  while (stack.length) {
    const top = stack[stack.length - 1] as { b: BlockId; i: number };
    const next = preds.get(top.b) ?? [];
    if (top.i < next.length) {
      const p = next[top.i++] as BlockId;
      if (!seen.has(p)) { seen.add(p); stack.push({ b: p, i: 0 }); }
    } else {
      post.push(top.b);
      stack.pop();
    }
  }
  // on the reversed graph a block's predecessors are its successors
  const ipdom = immediateDominators(EXIT, post.reverse(), (b) => succs.get(b) ?? []);
  const out = new Map<BlockId, BlockId | undefined>();
  // blocks in endless loops never reach the exit: no post-dominator either
  for (const b of reachable) { const p = ipdom.get(b); out.set(b, p === undefined || p === EXIT ? undefined : p); }
  return out;
}
