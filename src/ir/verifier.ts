/**
 * IR well-formedness checks, run after every pass in tests (Cranelift `verify_if`; switched on
 * by src/pipeline.ts verifyAfterEveryPass): each block has a terminator, edge arguments match
 * their target's parameters in number and type, every operand is a value that exists and, in a
 * reachable block, is defined where it dominates the use (before it in the same block, or in a
 * dominating block; until structurize, after which the structured tree places code), and memory
 * instructions have a region once address-space lowering has run. Returns the problems
 * found, so the caller can name the pass that broke the IR.
 */
import type { BlockId, InstId, ValueId } from './entities.js';
import { someTerminatorOperand, type IrFunction } from './function.js';
import { operandsOf } from './inst.js';
import { dominates, dominators, predecessors, reversePostorder } from './cfg.js';
import { typeName } from './types.js';

export interface VerifyOptions {
  readonly regionsAssigned?: boolean;
}

export function verifyFunction(fn: IrFunction, options: VerifyOptions = {}): string[] {
  const problems: string[] = [];
  const exists = (x: ValueId): boolean => x >= 0 && x < fn.values.length;
  for (const b of fn.blockIds()) {
    const block = fn.block(b);
    for (const id of block.insts) {
      const { inst } = fn.inst(id);
      for (const x of operandsOf(inst)) if (!exists(x)) problems.push(`block${b}: ${inst.op} uses missing value v${x}`);
      if (options.regionsAssigned && (inst.op === 'load' || inst.op === 'store' || inst.op === 'atomic' || inst.op === 'mbarrier' || inst.op === 'mbarrier_wait') && inst.region === null) {
        problems.push(`block${b}: ${inst.op} has no memory region after address-space lowering`);
      }
    }
    if (!block.term) { problems.push(`block${b} has no terminator`); continue; }
    for (const edge of fn.successors(b)) {
      const target = fn.blocks[edge.block];
      if (!target) { problems.push(`block${b} jumps to missing block${edge.block}`); continue; }
      if (target.params.length !== edge.args.length) {
        problems.push(`block${b} -> block${edge.block}: ${edge.args.length} arguments for ${target.params.length} parameters`);
        continue;
      }
      edge.args.forEach((a, i) => {
        const p = target.params[i] as ValueId;
        if (!exists(a)) problems.push(`block${b} -> block${edge.block}: missing value v${a}`);
        else if (fn.typeOf(a) !== fn.typeOf(p)) problems.push(`block${b} -> block${edge.block}: argument v${a}: ${typeName(fn.typeOf(a))} for parameter v${p}: ${typeName(fn.typeOf(p))}`);
      });
    }
  }
  // structurize and the passes after it (converge) place code by the structured tree instead
  if (fn.structured === null) problems.push(...dominanceProblems(fn));
  return problems;
}

/** Uses in reachable blocks whose definition does not dominate them (SSA's one rule the rest assumes). */
function dominanceProblems(fn: IrFunction): string[] {
  const problems: string[] = [];
  const rpo = reversePostorder(fn);
  const idom = dominators(fn, rpo, predecessors(fn));
  const position = new Map<InstId, number>();
  for (const b of rpo) fn.block(b).insts.forEach((id, i) => position.set(id, i));
  // where x is available: its block, and its position there (-1: a parameter, at the block's start)
  const site = (x: ValueId): { block: BlockId; at: number } | undefined => {
    if (x < 0 || x >= fn.values.length) return undefined;
    const def = fn.value(x).def;
    if (def.kind === 'param') return { block: def.block, at: -1 };
    const at = position.get(def.inst);
    return at === undefined ? undefined : { block: fn.inst(def.inst).block, at };
  };
  const check = (x: ValueId, b: BlockId, at: number, what: string): void => {
    const d = site(x);
    if (!d) {
      if (x >= 0 && x < fn.values.length) problems.push(`block${b}: ${what} uses v${x}, defined by an instruction in no reachable block`);
      return;
    }
    if (d.block === b ? d.at >= at : !dominates(idom, d.block, b)) problems.push(`block${b}: ${what} uses v${x}, whose definition in block${d.block} does not dominate it`);
  };
  for (const b of rpo) {
    const block = fn.block(b);
    block.insts.forEach((id, i) => {
      const { inst } = fn.inst(id);
      for (const x of operandsOf(inst)) check(x, b, i, inst.op);
    });
    if (block.term) someTerminatorOperand(block.term, (x) => { check(x, b, block.insts.length, block.term?.op ?? ''); return false; });
  }
  return problems;
}
