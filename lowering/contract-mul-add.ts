/**
 * Pass `contract-mul-add`: a `mul` and an `add`/`sub` that PTX leaves free to fuse become one
 * `fma`, as ptxas fuses them. The ISA lets the code generator fold `mul`/`add`/`sub` written
 * without a rounding modifier into a multiply-add; nvcc emits exactly those plain forms where
 * it expects the fusion (`-fmad=true`, the default), so native results are those of the fused
 * operation, and computing the rounded product and then the rounded sum gives other bits
 * (llm.c's layernorm backward, a half `__hmul` then `__hadd`).
 *
 * What ptxas fuses was measured on the H100 (bench/contraction/probe.ptx, docs/BENCHMARKS.md):
 * a plain mul feeding a plain add or sub in the same basic block is fused, as the addend or
 * as the subtrahend, also when the product has other uses (the mul then stays for them);
 * a mul in another block, or either instruction with an explicit `.rn`, is not. f16 and f64
 * pairs fuse the same way (measured for one use).
 *
 * Expects: SSA IR. Guarantees: every `fbinary` add/sub with rounding `default` whose operand is
 *   a same-block `fbinary` mul with rounding `default`, no `.sat`, the same `.ftz` and type is
 *   an `fma` (rounding `rn`, the add's `.ftz` and `.sat`); when both operands are such
 *   products the first one is fused. A subtracted product or subtrahend is negated first.
 * Products are followed through same-width bitcasts (a half held in a `.b16` register).
 * Does not: fuse across blocks, fuse packed f16x2/bf16x2 lanes (they reach the IR through
 *   bitcasts), fuse a mul marked `exact` (the portable mma's f16 and fp8 products), or remove the
 *   mul (dead-code does, when nothing else uses it).
 */
import type { BlockId, ValueId } from '../src/ir/entities.js';
import type { Span } from '../src/diagnostics/span.js';
import type { IrFunction } from '../src/ir/function.js';
import type { InstOf } from '../src/ir/inst.js';
import { bitWidth, isFloat } from '../src/ir/types.js';
import type { Pass } from './pass.js';

type FBinary = InstOf<'fbinary'>;

export const contractMulAdd: Pass = {
  name: 'contract-mul-add',
  // The helpers are functions of their own, not closures in the loop: closures capturing the
  // loop's `k` gave every instruction of the function a context of its own (2% of what a compile
  // of the repository's kernels allocates, issue 13).
  run(fn: IrFunction): void {
    for (const b of fn.blockIds()) {
      const block = fn.block(b);
      for (let k = 0; k < block.insts.length; k++) {
        const id = block.insts[k]!;
        const data = fn.inst(id);
        const x = data.inst;
        if (x.op !== 'fbinary' || (x.kind !== 'add' && x.kind !== 'sub') || x.rounding !== 'default' || x.minmax || x.relu) continue;
        if (!isFloat(x.type)) continue;
        const first = productOf(fn, b, x, x.a);
        const second = first ? undefined : productOf(fn, b, x, x.b);
        if (!first && !second) continue;
        let a: ValueId, mb: ValueId, c: ValueId;
        if (first) {
          // a*b + y, a*b - y = a*b + (-y)
          a = first.a; mb = first.b;
          if (x.kind === 'add') c = x.b;
          else { c = negateAt(fn, b, k, x.type, x.b, data.span); k++; }
        } else {
          // y + a*b, y - a*b = (-a)*b + y
          if (x.kind === 'add') a = second!.a;
          else { a = negateAt(fn, b, k, x.type, second!.a, data.span); k++; }
          mb = second!.b; c = x.a;
        }
        data.inst = { op: 'fma', type: x.type, a, b: mb, c, rounding: 'rn', ftz: x.ftz, sat: x.sat };
      }
    }
  },
};

/** The same-block product `v` is (through same-width bitcasts) that `x` may fuse, if any. */
function productOf(fn: IrFunction, b: BlockId, x: FBinary, v: ValueId): FBinary | undefined {
  // registers are typeless in PTX: a half moves through .b16 as i16 bitcasts
  for (;;) {
    const def = fn.value(v).def;
    if (def.kind !== 'inst') return undefined;
    const inst = fn.inst(def.inst).inst;
    if (inst.op !== 'bitcast' || bitWidth(fn.typeOf(inst.value)) !== bitWidth(inst.type)) break;
    v = inst.value;
  }
  const def = fn.value(v).def;
  if (def.kind !== 'inst') return undefined;
  const d = fn.inst(def.inst);
  const m = d.inst;
  if (d.block !== b || m.op !== 'fbinary' || m.kind !== 'mul' || m.rounding !== 'default' || m.sat || m.ftz !== x.ftz || m.exact) return undefined;
  return m.type === x.type ? m : undefined;
}

/** `-v`, placed at position `k` of block `b` (before the add it feeds). */
function negateAt(fn: IrFunction, b: BlockId, k: number, type: FBinary['type'], v: ValueId, span: Span): ValueId {
  const n = fn.createDetached(b, { op: 'funary', kind: 'neg', type, value: v, rounding: 'default', ftz: false }, span);
  fn.block(b).insts.splice(k, 0, n.id);
  return n.results[0]!;
}
