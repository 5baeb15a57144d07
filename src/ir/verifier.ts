/**
 * IR well-formedness checks, run after every pass in tests (Cranelift `verify_if`; switched on
 * by src/pipeline.ts verifyAfterEveryPass): each block has a terminator, edge arguments match
 * their target's parameters in number and type, every operand is a value that exists, and
 * memory instructions have a region once address-space lowering has run. Returns the problems
 * found, so the caller can name the pass that broke the IR.
 */
import type { ValueId } from './entities.js';
import type { IrFunction } from './function.js';
import { operandsOf } from './inst.js';
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
  return problems;
}
