/**
 * Where the registers an `ldmatrix` wrote came from, for the tensor-core path of mma
 * (mma-tensor-core.ts): an mma whose A or B registers are all one ldmatrix's can read its operand
 * as a matrix straight from the shared tile (`matrix_ldmatrix`, src/ir/inst.ts) instead of
 * staging the registers through workgroup memory. Recorded per translation of a function.
 */
import type * as Ast from '../ptx/ast.js';
import type { BlockId, ValueId } from '../ir/entities.js';
import type { MemorySpace } from '../ir/inst.js';
import type { BuildContext } from './context.js';

export interface Ldmatrix {
  readonly address: ValueId;
  readonly space: MemorySpace;
  readonly trans: boolean;
  readonly block: BlockId;
  /** The length of the block's instruction list once the ldmatrix was translated. */
  readonly end: number;
}

/**
 * The registers of a function body whose value an `xor` may have gone into (flow-insensitively,
 * through any instruction but memory reads): the lane addresses of a swizzled tile (Triton lays out
 * every shared tile so), whose rows never form a strided matrix. Their ldmatrix keeps the staging,
 * without the run-time test and with shared memory in its usual view.
 */
export function swizzledRegisters(body: readonly Ast.Statement[]): Set<string> {
  const insts: Ast.Instruction[] = [];
  const visit = (list: readonly Ast.Statement[]): void => {
    for (const st of list) {
      if (st.kind === 'scope') visit(st.body);
      else if (st.kind === 'instruction') insts.push(st);
    }
  };
  visit(body);
  const tainted = new Set<string>();
  const reads = (op: Ast.Operand | undefined): boolean =>
    op !== undefined && ((op.kind === 'register' && tainted.has(op.name)) || (op.kind === 'address' && op.base.kind === 'register' && tainted.has(op.base.name)));
  for (let changed = true; changed;) {
    changed = false;
    for (const i of insts) {
      const d = i.operands[0];
      if (d?.kind !== 'register' || tainted.has(d.name) || MEMORY_READS.has(i.opcode)) continue;
      if (i.opcode === 'xor' || i.operands.slice(1).some(reads)) { tainted.add(d.name); changed = true; }
    }
  }
  return tainted;
}

const MEMORY_READS: ReadonlySet<string> = new Set(['ld', 'ldu', 'ldmatrix', 'atom', 'shfl', 'tex', 'suld', 'wmma']);

/** Whether an ldmatrix address operand's register is in `swizzled`. */
export function swizzledAddress(op: Ast.Operand, swizzled: ReadonlySet<string>): boolean {
  return op.kind === 'address' && op.base.kind === 'register' && swizzled.has(op.base.name);
}

/** A register value that is matrix `index` of the fragment `ldmatrix` loaded. */
export interface LdmatrixOrigin { readonly ldmatrix: Ldmatrix; readonly index: number }

const origins = new WeakMap<BuildContext, Map<ValueId, LdmatrixOrigin>>();

/** Records the values `ldmatrix` left in its destination registers `dst` (in matrix order). */
export function recordLdmatrix(cx: BuildContext, dst: readonly Ast.Operand[], address: ValueId, space: MemorySpace, trans: boolean): void {
  let byValue = origins.get(cx);
  if (!byValue) origins.set(cx, (byValue = new Map()));
  const ldmatrix: Ldmatrix = { address, space, trans, block: cx.block, end: cx.fn.block(cx.block).insts.length };
  dst.forEach((d, index) => {
    const v = cx.definition(d);
    if (v !== undefined) byValue.set(v, { ldmatrix, index });
  });
}

export function ldmatrixOrigin(cx: BuildContext, v: ValueId): LdmatrixOrigin | undefined {
  return origins.get(cx)?.get(v);
}
