/**
 * Pass `dead-code`: removes unreachable blocks and instructions without effects whose
 * results are unused, to a fixed point.
 *
 * Expects: any well-formed IR. Guarantees: every remaining block is reachable from the
 *   entry; every remaining pure instruction has a used result. Unreachable blocks are
 *   emptied and left unterminated-unreachable so block ids stay stable.
 * Does not: remove unused block parameters, or fold constants.
 */
import type { BlockId, ValueId } from '../src/ir/entities.js';
import type { IrFunction } from '../src/ir/function.js';
import { HAS_EFFECTS, operandsOf } from '../src/ir/inst.js';
import { reversePostorder } from '../src/ir/cfg.js';
import type { Pass } from './pass.js';

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
    for (let changed = true; changed; ) {
      changed = false;
      const used = new Set<ValueId>();
      for (const b of reachable) {
        const block = fn.block(b);
        for (const id of block.insts) for (const v of operandsOf(fn.inst(id).inst)) used.add(v);
        const t = block.term;
        if (t?.op === 'branch') used.add(t.cond);
        if (t?.op === 'switch') used.add(t.index);
        if (t?.op === 'return') t.values.forEach((v) => used.add(v));
        for (const s of fn.successors(b)) s.args.forEach((v) => used.add(v));
      }
      for (const b of reachable) {
        const block = fn.block(b);
        const kept = block.insts.filter((id) => {
          const data = fn.inst(id);
          return HAS_EFFECTS[data.inst.op] || data.results.some((r) => used.has(r));
        });
        if (kept.length !== block.insts.length) { block.insts = kept; changed = true; }
      }
    }
  },
};
