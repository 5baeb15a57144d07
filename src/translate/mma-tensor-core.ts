/**
 * The tensor-core path of `mma.sync` (issue 14): the forms WGSL subgroup matrices can compute
 * and their lowering to `matrix_stage`, `matrix_mma` and `matrix_unstage` (src/ir/inst.ts), which the emitter stages through
 * workgroup memory (lowering/wgsl/emit-matrix.ts). Fragments of mma live in ordinary registers
 * that the kernel may compute with in any way, so unlike wmma's path no fragment analysis is
 * needed: every mma meets its operands in registers and leaves D in registers. The exception:
 * an A or B operand that one ldmatrix of the same block read with nothing written since is read
 * again as a matrix from the tile (`matrix_ldmatrix`), which spares its staging where the tile is
 * a strided matrix (lowering/wgsl/emit-matrix.ts).
 * The forms: .m16n8k16 and .m16n8k8 .row.col with .f16 A and B and D and C both .f32 or both
 * .f16 (the configurations f16->f32 and f16->f16 at 16x8x16 and 16x8x8 that NVIDIA's Vulkan
 * driver offers through Dawn). Tensor cores add in their own order and precision, as native
 * mma does; the portable path (handlers-mma.ts) is exact in a documented order instead.
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import { operand, unsupported } from './handler.js';
import { registerList } from './handlers-matrix.js';
import type { MatrixShape } from './wmma-fragment-plan.js';
import { ldmatrixOrigin } from './ldmatrix-origins.js';
import type { Op } from '../ir/inst.js';

/** The subgroup-matrix configuration `inst` (an mma) needs, or the reason it has none. */
export function stagedShape(inst: Ast.Instruction): MatrixShape | string {
  const m = inst.modifiers;
  const [d, a, b, c] = m.types;
  const shape = m.shape;
  if (m.satfinite) return '`.satfinite`';
  if ((m.extra ?? []).length > 0 || m.mode || m.boolOp) return 'a modified form';
  if (shape !== 'm16n8k16' && shape !== 'm16n8k8') return `.${shape ?? '?'} (the tensor-core path takes .m16n8k16 and .m16n8k8)`;
  if (a !== 'f16' || b !== 'f16') return `.${a ?? '?'} inputs (f16 only)`;
  if ((d !== 'f32' && d !== 'f16') || c !== d) return `.${d ?? '?'} D with .${c ?? '?'} C (both .f32 or both .f16)`;
  if ((m.layouts ?? []).join('.') !== 'row.col') return 'layouts other than .row.col';
  return { m: 16, n: 8, k: shape === 'm16n8k16' ? 16 : 8, input: 'f16', result: d };
}

/**
 * Fragments already staged in the current block, by the registers' values: an A register set
 * is used by every mma of its row of tiles, a B set by every mma of its column, and a C set
 * that is the D of an earlier mma of the block (k steps unrolled) is still that mma's matrix.
 */
interface Staged { block: number; readonly matrices: Map<string, ValueId> }
const stagedIn = new WeakMap<BuildContext, Staged>();

function memoOf(cx: BuildContext): Map<string, ValueId> {
  let s = stagedIn.get(cx);
  if (!s || s.block !== (cx.block as unknown as number)) stagedIn.set(cx, (s = { block: cx.block as unknown as number, matrices: new Map() }));
  return s.matrices;
}

/** One mma (its form already checked by mmaForm and stagedShape): stage, multiply, unstage. */
export function mmaStaged(cx: BuildContext, inst: Ast.Instruction, shape: MatrixShape): void {
  const f32 = shape.result === 'f32';
  const k = shape.k as 16 | 8;
  const lists = [0, 1, 2, 3].map((i) => registerList(operand(inst, i)));
  const want = [f32 ? 4 : 2, k / 4, k / 8, f32 ? 4 : 2];
  const wrong = lists.findIndex((l, i) => l.length !== want[i]);
  if (wrong >= 0) { unsupported(cx, inst, `needs ${want[wrong]} registers in operand ${wrong + 1} (it has ${lists[wrong]?.length})`); return; }
  const [d, a, b, c] = lists as [Ast.Operand[], Ast.Operand[], Ast.Operand[], Ast.Operand[]];
  const memo = memoOf(cx);
  const result = T.matrix('result', f32 ? T.f32 : T.f16, 16, 8);
  const stage = (fragment: 'a' | 'b' | 'c', ops: readonly Ast.Operand[], type: T.MatrixType): ValueId => {
    const key = `${fragment === 'c' ? 'c' : `${fragment}${k}`}:${type.element.bits}:${ops.map((o) => cx.definition(o) ?? '?').join(',')}`;
    let m = key.includes('?') ? undefined : memo.get(key);
    if (m !== undefined) return m;
    m = fragment === 'c' ? undefined : fromLdmatrix(cx, inst, fragment, k, ops, type);
    if (m === undefined) {
      const parts = ops.map((o) => cx.read(o, fragment === 'c' && f32 ? T.f32 : T.i32));
      m = cx.emit({ op: 'matrix_stage', type, fragment, k, parts }, inst.span);
    }
    if (!key.includes('?')) memo.set(key, m);
    return m;
  };
  const ma = stage('a', a, T.matrix('left', T.f16, 16, k));
  const mb = stage('b', b, T.matrix('right', T.f16, k, 8));
  const mc = stage('c', c, result);
  const md = cx.emit({ op: 'matrix_mma', type: result, a: ma, b: mb, c: mc }, inst.span);
  const regs = cx.emit({ op: 'matrix_unstage', type: f32 ? T.vector(T.f32, 4) : T.vector(T.i32, 2), value: md }, inst.span);
  const parts = d.map((_, index) => cx.emit({ op: 'extract', type: f32 ? T.f32 : T.i32, value: regs, index }, inst.span));
  d.forEach((op, index) => cx.write(op, parts[index] as ValueId));
  // D read back as C by a later mma of this block is this matrix
  memo.set(`c:${result.element.bits}:${d.map((o) => cx.definition(o)).join(',')}`, md);
}

/** Instructions after which shared memory may hold other data than an earlier ldmatrix read. */
const WRITES_OR_SYNCS: ReadonlySet<Op> = new Set<Op>(['store', 'atomic', 'mbarrier', 'mbarrier_wait', 'barrier', 'fence', 'call', 'matrix_store']);

/**
 * The operand as `matrix_ldmatrix` when every register of it is a distinct matrix of one
 * `ldmatrix` of this block and nothing since that ldmatrix has written memory or synchronised
 * (so reading the tile here reads what the ldmatrix read); undefined otherwise.
 */
function fromLdmatrix(cx: BuildContext, inst: Ast.Instruction, fragment: 'a' | 'b', k: 16 | 8, ops: readonly Ast.Operand[], type: T.MatrixType): ValueId | undefined {
  const origins = ops.map((o) => { const v = cx.definition(o); return v === undefined ? undefined : ldmatrixOrigin(cx, v); });
  const first = origins[0];
  if (!first || origins.some((o) => o?.ldmatrix !== first.ldmatrix)) return undefined;
  const matrices = origins.map((o) => (o as { index: number }).index);
  if (new Set(matrices).size !== matrices.length) return undefined;
  const ld = first.ldmatrix;
  if (ld.block !== cx.block) return undefined;
  const insts = cx.fn.block(cx.block).insts;
  for (const id of insts.slice(ld.end)) if (WRITES_OR_SYNCS.has(cx.fn.inst(id).inst.op)) return undefined;
  return cx.emit({ op: 'matrix_ldmatrix', type, space: ld.space, address: ld.address, region: null, fragment, k, trans: ld.trans, matrices }, inst.span);
}

