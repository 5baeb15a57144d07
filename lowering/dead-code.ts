/**
 * Pass `dead-code`: removes unreachable blocks and instructions without effects whose
 * results are unused, to a fixed point.
 *
 * Expects: any well-formed IR. Guarantees: every remaining block is reachable from the
 *   entry; every remaining pure instruction has a used result. Unreachable blocks are
 *   emptied and left unterminated-unreachable so block ids stay stable.
 * Does not: remove unused block parameters, or fold constants.
 */
import type { BlockId, InstId, ValueId } from '../src/ir/entities.js';
import type { IrFunction } from '../src/ir/function.js';
import { HAS_EFFECTS, operandsOf, someOperand } from '../src/ir/inst.js';
import { reversePostorder } from '../src/ir/cfg.js';
import type { Pass } from './pass.js';

/**
 * Use counts by value id, one array for every run (runs never overlap): a fresh typed array per
 * run, allocated outside the JS heap, cost 1% of a compile (issue 13).
 */
let useCounts = new Int32Array(1024);

export const deadCode: Pass = {
  name: 'dead-code',
  run(fn: IrFunction): void {
    const reachable = new Set<BlockId>(reversePostorder(fn));
    for (const b of fn.blockIds()) {
      if (reachable.has(b)) continue;
      const block = fn.block(b);
      block.insts = [];
      block.term = { op: 'unreachable', span: fn.span };
    }
    // Use counts once, then a worklist: removing a dead instruction can leave its operands'
    // definitions dead, and rescanning the function per layer of them cost a Triton matmul's
    // unrolled mma chains (thousands of instructions deep) a tenth of its compile time.
    if (useCounts.length < fn.values.length) useCounts = new Int32Array(Math.max(fn.values.length, 2 * useCounts.length));
    const uses = useCounts.fill(0, 0, fn.values.length);
    const use = (v: ValueId): void => { uses[v] = (uses[v] ?? 0) + 1; };
    // someOperand visits the operands without the array operandsOf makes (this walk was 5% of
    // what a compile of the repository's kernels allocates)
    const counted = (v: ValueId): boolean => { use(v); return false; };
    for (const b of reachable) {
      const block = fn.block(b);
      for (const id of block.insts) someOperand(fn.inst(id).inst, counted);
      const t = block.term;
      if (t?.op === 'branch') use(t.cond);
      if (t?.op === 'switch') use(t.index);
      if (t?.op === 'return') t.values.forEach(use);
      for (const s of fn.successors(b)) s.args.forEach(use);
    }
    const dead = new Set<InstId>();
    // A shuffle whose result nobody reads goes too: `shfl.sync` orders no memory (unlike
    // `bar.warp.sync`), so its only effect is its result, and every thread drops it alike. The
    // tensor-core path leaves such shuffles behind: an mma reads its operands straight from the
    // tile that an ldmatrix, translated into shuffles and loads, read (mma-tensor-core.ts).
    const isDead = (id: InstId): boolean => {
      const data = fn.inst(id);
      if (HAS_EFFECTS[data.inst.op] && data.inst.op !== 'shfl') return false;
      // a loop, not `every`: its callback was a closure made per instruction
      for (const r of data.results) if (uses[r]) return false;
      return true;
    };
    const work: InstId[] = [];
    for (const b of reachable) for (const id of fn.block(b).insts) if (isDead(id)) work.push(id);
    while (work.length > 0) {
      const id = work.pop() as InstId;
      if (dead.has(id)) continue;
      dead.add(id);
      for (const v of operandsOf(fn.inst(id).inst)) {
        const left = (uses[v] ?? 0) - 1;
        uses[v] = left;
        const def = fn.value(v).def;
        if (left === 0 && def.kind === 'inst' && !dead.has(def.inst) && isDead(def.inst)) work.push(def.inst);
      }
    }
    if (dead.size === 0) return;
    for (const b of reachable) {
      const block = fn.block(b);
      if (block.insts.some((id) => dead.has(id))) block.insts = block.insts.filter((id) => !dead.has(id));
    }
  },
};
