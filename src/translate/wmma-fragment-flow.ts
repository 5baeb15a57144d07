/**
 * Whether a kernel's wmma fragments can live in WGSL subgroup matrices (issue 14's tensor-core
 * path): a subgroup matrix is opaque, so every fragment must flow only between wmma
 * instructions: loaded by wmma.load or produced by wmma.mma, consumed by wmma.mma or
 * wmma.store, and moved meanwhile only whole (nvcc's copies of an accumulator around a
 * k-loop). One PTX register list is one fragment; the registers of a list never meet other
 * instructions, except:
 *  - `mov` between two lists at the same position (a whole-fragment copy when every position
 *    is copied) or inside one list (its elements are then equal: nothing to do);
 *  - `mov` of one finite constant into a list's registers (`wmma::fill_fragment`), every
 *    register of the list covered (directly or by a copy inside the list).
 * Anything else (an epilogue scaling `frag.x[i]`, a predicated mov, a register in two lists)
 * keeps the whole kernel on the portable path, with the reason. Positions are not traced
 * through control flow: a constant moved into part of a list after the whole list was filled
 * with that same constant is taken as a fill, which is what nvcc emits.
 *
 * This first slice takes m16n16k16 with f16 A and B and f16 or f32 accumulators.
 */
import type * as Ast from '../ptx/ast.js';
import * as T from '../ir/types.js';
import type { FragmentPlan, FragmentRegister, MatrixShape } from './wmma-fragment-plan.js';
import { instructionName } from './handler.js';

export type FragmentFlow = { readonly plan: FragmentPlan } | { readonly refusal: string };

const SHAPE = { m: 16, n: 16, k: 16 } as const;

class Refusal extends Error {}

/** The instructions in order; null marks a label (where straight-line code ends). */
function instructions(body: readonly Ast.Statement[], out: (Ast.Instruction | null)[] = []): (Ast.Instruction | null)[] {
  for (const st of body) {
    if (st.kind === 'instruction') out.push(st);
    else if (st.kind === 'label') out.push(null);
    else if (st.kind === 'scope') instructions(st.body, out);
  }
  return out;
}

/** Every register name an operand mentions. */
function registersIn(op: Ast.Operand): string[] {
  switch (op.kind) {
    case 'register': return [op.name];
    case 'vector': return [...op.elements.flatMap(registersIn), ...(op.predicate ? [op.predicate.name] : [])];
    case 'address': return op.base.kind === 'register' ? [op.base.name] : [];
    case 'negated': return [op.operand.name];
    case 'pair': return [op.first, op.second].flatMap((o) => (o.kind === 'register' ? [o.name] : []));
    case 'expression': return op.args.flatMap(registersIn);
    default: return [];
  }
}

/** The fragment lists of one wmma instruction: [operand index, matrix type]. */
function listsOf(inst: Ast.Instruction, fail: (why: string) => never): [number, T.MatrixType][] {
  const m = inst.modifiers;
  if (m.shape !== 'm16n16k16') fail(`.${m.shape ?? '?'} (this slice takes .m16n16k16)`);
  const acc = (t: string | undefined): T.MatrixType => {
    if (t !== 'f32' && t !== 'f16') fail(`.${t ?? '?'} accumulators (f16 or f32 only)`);
    return T.matrix('result', t === 'f16' ? T.f16 : T.f32, SHAPE.m, SHAPE.n);
  };
  const input = (use: 'a' | 'b', t: string | undefined): T.MatrixType => {
    if (t !== 'f16') fail(`.${t ?? '?'} inputs (f16 only)`);
    return use === 'a' ? T.matrix('left', T.f16, SHAPE.m, SHAPE.k) : T.matrix('right', T.f16, SHAPE.k, SHAPE.n);
  };
  switch (m.mode) {
    case 'load': {
      const use = m.extra?.[0];
      return [[0, use === 'a' || use === 'b' ? input(use, m.types[0]) : acc(m.types[0])]];
    }
    case 'store': return [[1, acc(m.types[0])]];
    case 'mma': {
      if (m.types.length !== 2 || m.satfinite) fail('wmma.mma with f16 inputs only, without .satfinite');
      // WGSL accumulates into the accumulator's own type only
      if (m.types[0] !== m.types[1]) fail('C and D of different types');
      return [[0, acc(m.types[0])], [1, input('a', 'f16')], [2, input('b', 'f16')], [3, acc(m.types[1])]];
    }
    default: return fail(`wmma.${m.mode ?? '?'}`);
  }
}

export function fragmentFlow(decl: Ast.FunctionDeclaration, text?: string): FragmentFlow {
  const ordered = instructions(decl.body ?? []);
  const all = ordered.filter((i): i is Ast.Instruction => i !== null);
  const named = (inst: Ast.Instruction): string => `\`${instructionName(inst, text)}\``;
  try {
    const registers = new Map<string, FragmentRegister>();
    const listKeys = new Map<string, number>();
    const shapes: MatrixShape[] = [];
    for (const inst of all.filter((i) => i.opcode === 'wmma')) {
      const fail = (why: string): never => { throw new Refusal(`${named(inst)}: ${why}`); };
      if (inst.guard) fail('a predicated wmma');
      for (const [index, type] of listsOf(inst, fail)) {
        const op = inst.operands[index];
        const regs = op?.kind === 'vector' ? op.elements : [];
        const count = type.use === 'result' && type.element.bits === 16 ? 4 : 8; // .f16 accumulators: two per register
        if (regs.length !== count || regs.some((r) => r.kind !== 'register')) fail(`operand ${index + 1} is not a list of ${count} registers`);
        const names = regs.map((r) => (r as Ast.RegisterOperand).name);
        const key = names.join(',');
        let list = listKeys.get(key);
        if (list === undefined) listKeys.set(key, (list = listKeys.size));
        names.forEach((name, position) => {
          const had = registers.get(name);
          if (had && (had.list !== list || had.type !== type)) fail(`register ${name} is in two fragments or of two types`);
          registers.set(name, { list: list as number, position, type, count });
        });
      }
      if (inst.modifiers.mode === 'mma') shapes.push({ ...SHAPE, input: 'f16', result: inst.modifiers.types[1] === 'f16' ? 'f16' : 'f32' });
      else if (inst.modifiers.mode === 'store' || inst.modifiers.extra?.[0] === 'c') shapes.push({ ...SHAPE, input: 'f16', result: inst.modifiers.types[0] === 'f16' ? 'f16' : 'f32' });
    }
    const fills = checkMoves(ordered, registers, named);
    return { plan: { registers, fills, shapes } };
  } catch (e) {
    if (e instanceof Refusal) return { refusal: e.message };
    throw e;
  }
}

/**
 * Checks the non-wmma instructions that touch fragment registers; returns the fill movs (by
 * source offset) with their constants. A mov fills when its source is a constant, or a
 * register whose last write in the same straight-line code was a mov of a constant (nvcc
 * fills one register and copies it into the others, across fragments).
 */
function checkMoves(ordered: readonly (Ast.Instruction | null)[], registers: ReadonlyMap<string, FragmentRegister>, named: (i: Ast.Instruction) => string): Map<number, bigint> {
  const fills = new Map<number, bigint>();
  const fillOf = new Map<number, bigint>(); // list -> its fill constant
  const covered = new Map<number, Set<number>>(); // list -> positions written by fills or in-list copies
  const copies = new Map<string, Set<number>>(); // "to,from" lists -> positions copied
  const known = new Map<string, Ast.Operand>(); // register -> the constant it was last set to, in this straight line
  const add = <K>(m: Map<K, Set<number>>, k: K, p: number): void => { const s = m.get(k) ?? new Set(); s.add(p); m.set(k, s); };
  for (const inst of ordered) {
    if (inst === null || inst.opcode === 'bra' || inst.opcode === 'ret' || inst.opcode === 'exit') { known.clear(); continue; }
    const mentioned = inst.operands.flatMap(registersIn);
    const [dst, src] = inst.operands;
    const plainMov = inst.opcode === 'mov' && !inst.guard && inst.operands.length === 2 && dst?.kind === 'register' && dst.component === undefined;
    const constant = plainMov && src ? (src.kind === 'integer' || src.kind === 'float' ? src : src.kind === 'register' && src.component === undefined ? known.get(src.name) : undefined) : undefined;
    for (const r of mentioned) if (r !== (src?.kind === 'register' ? src.name : undefined)) known.delete(r);
    if (plainMov && constant) known.set((dst as Ast.RegisterOperand).name, constant);
    if (inst.opcode === 'wmma') continue;
    const touched = mentioned.filter((r) => registers.has(r));
    if (touched.length === 0) continue;
    const fail = (why: string): never => { throw new Refusal(`${named(inst)} ${why}`); };
    const to = plainMov ? registers.get((dst as Ast.RegisterOperand).name) : undefined;
    if (!to) return fail(`uses fragment register ${touched[0] as string} element by element`);
    const bits = constant ? fillBits(constant, to.type) : undefined;
    if (bits !== undefined) {
      if (fillOf.has(to.list) && fillOf.get(to.list) !== bits) fail('fills one fragment with two constants');
      fillOf.set(to.list, bits);
      fills.set(inst.span.start, bits);
      add(covered, to.list, to.position);
      continue;
    }
    const from = src?.kind === 'register' && src.component === undefined ? registers.get(src.name) : undefined;
    if (!from) return fail(`writes fragment register ${touched[0] as string} element by element`);
    if (from.list === to.list) { add(covered, to.list, to.position); continue; }
    if (from.position !== to.position || from.type !== to.type) fail('moves part of a fragment into another');
    add(copies, `${to.list},${from.list}`, to.position);
  }
  const count = (list: number): number => [...registers.values()].find((r) => r.list === list)?.count ?? 0;
  for (const [list, positions] of covered) {
    if (!fillOf.has(list) || positions.size !== count(list)) throw new Refusal('a fragment is only partly filled with a constant');
  }
  for (const [key, positions] of copies) if (positions.size !== count(Number(key.split(',')[0]))) throw new Refusal('a fragment is only partly copied');
  return fills;
}

/** The element bits of a constant written into a register of a fragment of `type`, if one element value. */
function fillBits(op: Ast.Operand, type: T.MatrixType): bigint | undefined {
  let word: bigint;
  if (op.kind === 'integer') word = BigInt.asUintN(32, op.value);
  else if (op.kind === 'float' && op.width === 32) word = op.bits;
  else return undefined;
  if (type.element.bits === 32) return (word & 0x7f800000n) === 0x7f800000n ? undefined : word;
  // .f16 fragments hold two elements per .b32 register: both halves must be the one value
  const lo = word & 0xffffn;
  return lo === word >> 16n && (lo & 0x7c00n) !== 0x7c00n ? lo : undefined;
}
