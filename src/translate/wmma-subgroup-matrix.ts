/**
 * wmma on the tensor-core path (issue 14): each fragment is one WGSL subgroup matrix, kept in
 * one SSA variable per PTX register list (wmma-fragment-flow.ts proved that fragments only flow
 * between wmma instructions and whole moves), so the registers of a list are never read one
 * by one and loops carry the fragment as one block parameter.
 *  - wmma.load/store: `matrix_load`/`matrix_store` at the same address and stride (elements),
 *    `.col` as column-major; the forms are checked as on the portable path (handlers-wmma.ts).
 *  - wmma.mma: `matrix_mma` (A and B as WGSL left and right matrices; `.alayout.blayout` only
 *    say how the fragments were loaded, which the loads already did; C and D of one type).
 *  - mov of a fill constant: `matrix_fill`; mov between lists: a copy of the variable.
 * How the device accumulates (order, precision) is the tensor core's own: NVIDIA's, as in
 * native wmma, not the portable path's exact f32 sums.
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { operand } from './handler.js';
import { accessForm, mmaForm } from './handlers-wmma.js';
import type { Variable } from './ssa.js';
import type { FragmentPlan, FragmentRegister } from './wmma-fragment-plan.js';

function fragment(cx: BuildContext, op: Ast.Operand | undefined): FragmentRegister {
  const first = op?.kind === 'vector' ? op.elements[0] : op;
  const f = first?.kind === 'register' ? cx.symbols.fragments?.registers.get(first.name) : undefined;
  // wmma-fragment-flow.ts put every wmma register list in the plan
  if (!f) throw new Error('ptx-wgsl internal error: a wmma operand outside the fragment plan');
  return f;
}

const variable = (f: FragmentRegister): Variable => ({ key: `wmma-fragment#${f.list}:`, type: f.type, hint: `frag${f.list}` });

const readFragment = (cx: BuildContext, f: FragmentRegister, span: Ast.Instruction['span']): ValueId => cx.ssa.read(variable(f), cx.block, span);
const writeFragment = (cx: BuildContext, f: FragmentRegister, v: ValueId): void => cx.ssa.write(variable(f), cx.block, v);

/** The stride operand in elements (i32); absent: the matrix's own row length (16 here). */
function stride(cx: BuildContext, inst: Ast.Instruction): ValueId {
  const given = inst.operands[2];
  return given === undefined ? cx.constant(T.i32, 16n, inst.span) : cx.read(given, T.i32);
}

const matrixLoad: Handler = (cx, inst) => {
  const a = accessForm(cx, inst, inst.modifiers.extra?.[0] ?? '');
  if (!a) return;
  const f = fragment(cx, inst.operands[0]);
  const address = cx.address(operand(inst, 1), a.space);
  writeFragment(cx, f, cx.emit({ op: 'matrix_load', type: f.type, space: a.space, address, region: null, stride: stride(cx, inst), colMajor: a.order === 'col' }, inst.span));
};

const matrixStore: Handler = (cx, inst) => {
  const a = accessForm(cx, inst, 'd');
  if (!a) return;
  const f = fragment(cx, inst.operands[1]);
  const address = cx.address(operand(inst, 0), a.space);
  const value = readFragment(cx, f, inst.span);
  cx.effect({ op: 'matrix_store', type: f.type, space: a.space, address, region: null, value, stride: stride(cx, inst), colMajor: a.order === 'col' }, inst.span);
};

const matrixMma: Handler = (cx, inst) => {
  if (!mmaForm(cx, inst)) return;
  const [d, a, b, c] = [0, 1, 2, 3].map((i) => fragment(cx, inst.operands[i])) as [FragmentRegister, FragmentRegister, FragmentRegister, FragmentRegister];
  const read = (f: FragmentRegister): ValueId => readFragment(cx, f, inst.span);
  writeFragment(cx, d, cx.emit({ op: 'matrix_mma', type: d.type, a: read(a), b: read(b), c: read(c) }, inst.span));
};

const BY_MODE: Readonly<Record<string, Handler>> = { load: matrixLoad, store: matrixStore, mma: matrixMma };

/** wmma of a kernel on the tensor-core path. */
export const wmmaSubgroupMatrix: Handler = (cx, inst) => BY_MODE[inst.modifiers.mode ?? '']?.(cx, inst);

/** Whether `inst` is a mov into a fragment register (the plan admitted only whole moves and fills). */
export function isFragmentMove(plan: FragmentPlan, inst: Ast.Instruction): boolean {
  const dst = inst.operands[0];
  return inst.opcode === 'mov' && dst?.kind === 'register' && plan.registers.has(dst.name);
}

export const fragmentMove: Handler = (cx, inst) => {
  const plan = cx.symbols.fragments as FragmentPlan;
  const to = fragment(cx, inst.operands[0]);
  const fill = plan.fills.get(inst.span.start);
  if (fill !== undefined) { writeFragment(cx, to, cx.emit({ op: 'matrix_fill', type: to.type, bits: fill }, inst.span)); return; }
  const src = inst.operands[1];
  const from = src?.kind === 'register' ? plan.registers.get(src.name) : undefined;
  // a copy inside one list changes nothing; between lists it copies the whole fragment (the plan checked both)
  if (from && from.list !== to.list) writeFragment(cx, to, readFragment(cx, from, inst.span));
};
