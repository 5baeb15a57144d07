/**
 * Pass `if-convert`: a branch around a few loads becomes the loads and a select, and a block
 * reached only by a jump from its one predecessor joins it.
 *
 * Why: nvcc guards each load of a bounds-checked neighbourhood with its own branch (`p = inside
 * ? img[i] : 0` is `mov 0; @!inside bra; ld; join:`), which ptxas turns into predicated loads on
 * one straight line. Left as branches, every load splits the arithmetic between them into its
 * own block, and replay regions (lowering/wgsl/replay-regions.ts) group checked f32 arithmetic
 * only within a block: a 5x5 convolution became 25 fmas each with its own inline exact slow
 * path. A WGSL load cannot fault (out-of-bounds reads return some value of the buffer or zero:
 * WGSL "Out-of-Bounds Access"), so a load that the branch skipped may run anyway when its value
 * is then dropped by a select.
 *
 * Expects: address-spaces has run (every load has a region). Guarantees: where a block A ends in
 *   a branch whose targets, each either the join block J itself or a side block whose only
 *   predecessor is A, that has no parameters, jumps to J and holds at most SIDE_MAX speculable
 *   instructions (integer arithmetic without division, bit moves, compares, selects, kernel
 *   parameters, and at most LOADS_MAX loads of a fixed region), A now runs the side blocks'
 *   instructions and jumps to J with a select per differing argument. A block whose only
 *   predecessor reaches it by a jump is merged into that predecessor. Emptied blocks become
 *   unreachable (dead-code removes them).
 * Does not: speculate float arithmetic (it has a cost of its own and may be checked), stores,
 *   atomics, warp operations or loads through a run-time address dispatch (a function call per
 *   load), or move anything across a loop edge.
 */
import type { BlockId, ValueId } from '../src/ir/entities.js';
import type { BlockCall, IrFunction } from '../src/ir/function.js';
import type { Inst } from '../src/ir/inst.js';
import { predecessors, reversePostorder } from '../src/ir/cfg.js';
import type { Pass } from './pass.js';

/** Side blocks larger than this keep their branch: the work they skip may be worth skipping. */
const SIDE_MAX = 8;
/** Loads a side block may hold: each costs memory traffic on the lanes that did not need it. */
const LOADS_MAX = 2;

const FIXED_REGIONS = new Set(['slot', 'shared', 'local', 'const', 'module-global']);
const DIVIDES = new Set(['div_u', 'div_s', 'rem_u', 'rem_s']);

function speculable(inst: Inst): boolean {
  switch (inst.op) {
    case 'const': case 'bitcast': case 'extract': case 'compose': case 'iunary': case 'icmp': case 'extend': case 'truncate':
    case 'select': case 'mul_wide': case 'kernel_param': case 'address_of':
      return true;
    case 'ibinary': return !DIVIDES.has(inst.kind);
    case 'load': return inst.region !== null && FIXED_REGIONS.has(inst.region.kind);
    default: return false;
  }
}

export const ifConvert: Pass = {
  name: 'if-convert',
  run(fn: IrFunction): void {
    const preds = predecessors(fn);
    const only = (b: BlockId, from: BlockId): boolean => {
      const p = preds.get(b) ?? [];
      return p.length === 1 && p[0] === from;
    };
    /** Where the edge to `call` from `a` ends after the side block, if it is one that can go. */
    const throughSide = (a: BlockId, call: BlockCall): BlockCall | undefined => {
      const side = fn.block(call.block);
      if (call.block === a || !only(call.block, a) || side.params.length > 0 || side.term?.op !== 'jump' || side.term.target.block === call.block) return undefined;
      if (side.insts.length > SIDE_MAX) return undefined;
      let loads = 0;
      for (const id of side.insts) {
        const inst = fn.inst(id).inst;
        if (!speculable(inst)) return undefined;
        if (inst.op === 'load') loads++;
      }
      return loads <= LOADS_MAX ? side.term.target : undefined;
    };

    const convert = (a: BlockId): boolean => {
      const block = fn.block(a);
      const t = block.term;
      if (t?.op !== 'branch') return false;
      // each arm: straight to the join, or through a side block that can be hoisted
      const arm = (call: BlockCall): { via?: BlockId; target: BlockCall } => {
        const through = throughSide(a, call);
        return through ? { via: call.block, target: through } : { target: call };
      };
      const then = arm(t.then), otherwise = arm(t.else);
      const join = then.target.block;
      if (join !== otherwise.target.block || join === a) return false;
      for (const via of [then.via, otherwise.via]) {
        if (via === undefined) continue;
        const side = fn.block(via);
        for (const id of side.insts) { fn.inst(id).block = a; block.insts.push(id); }
        side.insts = [];
        side.term = { op: 'unreachable', span: t.span };
        preds.set(via, []);
      }
      const args: ValueId[] = then.target.args.map((x, i) => {
        const y = otherwise.target.args[i] as ValueId;
        if (x === y) return x;
        const [r] = fn.append(a, { op: 'select', type: fn.typeOf(x), cond: t.cond, a: x, b: y }, t.span);
        return r as ValueId;
      });
      block.term = { op: 'jump', target: { block: join, args }, span: t.span };
      const rest = (preds.get(join) ?? []).filter((b) => b !== a && b !== then.via && b !== otherwise.via);
      preds.set(join, [...rest, a]);
      return true;
    };

    // a merged block's parameters are replaced once at the end: substitute walks the function
    const replaced = new Map<ValueId, ValueId>();
    const merge = (a: BlockId): boolean => {
      const block = fn.block(a);
      const t = block.term;
      const b = t?.op === 'jump' ? t.target.block : undefined;
      if (t?.op !== 'jump' || b === undefined || b === a || b === fn.entry || !only(b, a)) return false;
      const next = fn.block(b);
      next.params.forEach((p, i) => replaced.set(p, t.target.args[i] as ValueId));
      for (const id of next.insts) { fn.inst(id).block = a; block.insts.push(id); }
      block.term = next.term;
      next.insts = [];
      next.term = { op: 'unreachable', span: t.span };
      preds.set(b, []);
      for (const s of fn.successors(a)) preds.set(s.block, (preds.get(s.block) ?? []).map((p) => (p === b ? a : p)));
      return true;
    };

    for (const a of reversePostorder(fn)) {
      if (fn.block(a).term?.op === 'unreachable' && fn.block(a).insts.length === 0 && a !== fn.entry) continue;
      while (convert(a) || merge(a)) { /* to a fixed point at this block */ }
    }
    fn.substitute(replaced);
  },
};
