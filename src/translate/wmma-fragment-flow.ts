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
 *    register of the list covered (directly or by a copy inside the list). The constant may
 *    come through registers in the same straight-line code: nvcc fills an f16 fragment with
 *    `cvt.rn.f16.f32 %h, <f32 constant>` and `mov.b32 %r, {%h, %h}`.
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
  const known = new Map<string, Constant>(); // register -> the constant it was last set to, in this straight line
  const add = <K>(m: Map<K, Set<number>>, k: K, p: number): void => { const s = m.get(k) ?? new Set(); s.add(p); m.set(k, s); };
  for (const inst of ordered) {
    if (inst === null || inst.opcode === 'bra' || inst.opcode === 'ret' || inst.opcode === 'exit') { known.clear(); continue; }
    const mentioned = inst.operands.flatMap(registersIn);
    const [dst, src] = inst.operands;
    const plainMov = inst.opcode === 'mov' && !inst.guard && inst.operands.length === 2 && dst?.kind === 'register' && dst.component === undefined;
    const constant = plainMov && src ? constantOf(src, known) : undefined;
    const folded = constant ?? (dst?.kind === 'register' && !inst.guard ? halfOfConstant(inst, known) : undefined);
    for (const r of mentioned) if (r !== (src?.kind === 'register' ? src.name : undefined)) known.delete(r);
    if (folded) known.set((dst as Ast.RegisterOperand).name, folded);
    if (inst.opcode === 'wmma') continue;
    const touched = mentioned.filter((r) => registers.has(r));
    if (touched.length === 0) continue;
    const fail = (why: string): never => { throw new Refusal(`${named(inst)} ${why}`); };
    const to = plainMov ? registers.get((dst as Ast.RegisterOperand).name) : undefined;
    if (!to) return fail(`uses fragment register ${touched[0] as string} element by element`);
    const bits = constant && constant.width === 32 ? fillBits(constant.bits, to.type) : undefined;
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

/** A constant a register holds: its bits and width (16 for an f16 made by cvt). */
interface Constant { readonly bits: bigint; readonly width: 16 | 32 }

/** The constant an operand denotes: an immediate, a register known to hold one, or a pair of
 *  known halves packed into 32 bits (`{%lo, %hi}`). */
function constantOf(op: Ast.Operand, known: ReadonlyMap<string, Constant>): Constant | undefined {
  if (op.kind === 'integer') return { bits: BigInt.asUintN(32, op.value), width: 32 };
  if (op.kind === 'float') return op.width === 32 ? { bits: op.bits, width: 32 } : undefined;
  if (op.kind === 'register') return op.component === undefined ? known.get(op.name) : undefined;
  if (op.kind === 'vector' && op.elements.length === 2 && !op.predicate) {
    const [lo, hi] = op.elements.map((e) => constantOf(e, known));
    return lo?.width === 16 && hi?.width === 16 ? { bits: (hi.bits << 16n) | lo.bits, width: 32 } : undefined;
  }
  return undefined;
}

const scratch = new DataView(new ArrayBuffer(4));

/** `cvt.rn.f16.f32 %h, c` of a known f32 constant that f16 holds exactly: the f16 bits. */
function halfOfConstant(inst: Ast.Instruction, known: ReadonlyMap<string, Constant>): Constant | undefined {
  const m = inst.modifiers;
  if (inst.opcode !== 'cvt' || m.types[0] !== 'f16' || m.types[1] !== 'f32' || m.rounding !== 'rn' || m.ftz || m.sat) return undefined;
  const c = inst.operands[1] ? constantOf(inst.operands[1], known) : undefined;
  if (!c || c.width !== 32) return undefined;
  scratch.setUint32(0, Number(c.bits));
  const x = scratch.getFloat32(0);
  const h = exactHalf(x);
  return h === undefined ? undefined : { bits: BigInt(h), width: 16 };
}

/** The f16 bits of x when x is a finite f16 value (normal or zero), else undefined. */
function exactHalf(x: number): number | undefined {
  if (x === 0) return Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (!Number.isFinite(a) || a < 2 ** -14 || a > 65504) return undefined;
  const e = Math.floor(Math.log2(a));
  const m = (a / 2 ** e - 1) * 1024;
  if (!Number.isInteger(m)) return undefined;
  return (x < 0 ? 0x8000 : 0) | ((e + 15) << 10) | m;
}

/** The element bits of a constant word written into a register of a fragment of `type`, if one element value. */
function fillBits(word: bigint, type: T.MatrixType): bigint | undefined {
  if (type.element.bits === 32) return (word & 0x7f800000n) === 0x7f800000n ? undefined : word;
  // .f16 fragments hold two elements per .b32 register: both halves must be the one value
  const lo = word & 0xffffn;
  return lo === word >> 16n && (lo & 0x7c00n) !== 0x7c00n ? lo : undefined;
}
