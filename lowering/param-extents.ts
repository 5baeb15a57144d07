/**
 * Param extents: the global memory accesses every launch of a kernel certainly makes through
 * its pointer parameters, so the runtime can reject a launch whose buffer is shorter than what
 * the kernel reads or writes (runtime/extent-checks.ts) instead of running it out of bounds.
 *
 * Expects: SSA IR as built from PTX, before any pass (memory instructions keep their PTX
 * address values and regions are unassigned). Changes nothing.
 *
 * Guarantees: every extent it reports is made by the launch, whatever the arguments: the access
 * is reached from the entry through unconditional jumps, and at most one conditional branch that
 * is the guard `index < bound` (the successor every thread with a smaller index takes), with
 * nothing before it in that path that could stop a thread (calls, barriers, warp collectives,
 * compiler traps: the walk stops at the first). Its address is
 * `param + index * stride + offset`, where `param` is a 64-bit pointer parameter, and `index`
 * is none, `%tid.x`, or `%ctaid.x * %ntid.x + %tid.x` computed in 32 bits; the runtime evaluates
 * the largest index of the launch only where that 32-bit computation cannot wrap.
 *
 * Does not: follow loops (grid-stride loops), accesses behind any other condition, indices of
 * any other form (`tid.y`, `i + 1`, values loaded from memory), 32-bit addresses or `.func`s.
 * Those accesses are not checked: a missed check, never a wrong rejection.
 */
import type { SourceFile } from '../src/diagnostics/source.js';
import type { BlockId, ValueId } from '../src/ir/entities.js';
import type { IrFunction, Terminator } from '../src/ir/function.js';
import { HAS_EFFECTS, type Inst, type IntCompare } from '../src/ir/inst.js';
import { bitWidth } from '../src/ir/types.js';
import type { ExtentGuard, ExtentIndex, ParamExtent } from './layout.js';

/** `param + index * stride + offset` (param and index optional). */
interface Linear {
  readonly param?: number;
  readonly index?: ExtentIndex;
  readonly stride: bigint;
  readonly offset: bigint;
}

const MAX_STRIDE = 1n << 16n;
const MAX_OFFSET = 1n << 32n;

/** The certain accesses of `fn`, one per (parameter, index, stride, guard): the farthest. */
export function paramExtents(fn: IrFunction, source: SourceFile): ParamExtent[] {
  const farthest = new Map<string, ParamExtent>();
  for (const e of certainAccesses(fn, source)) {
    const key = `${e.param}|${e.index}|${e.stride}|${JSON.stringify(e.guard ?? null)}`;
    const old = farthest.get(key);
    if (!old || e.offset + e.bytes > old.offset + old.bytes) farthest.set(key, e);
  }
  return [...farthest.values()];
}

function certainAccesses(fn: IrFunction, source: SourceFile): ParamExtent[] {
  const found: ParamExtent[] = [];
  const seen = new Set<BlockId>();
  let guard: ExtentGuard | undefined;
  let block = fn.entry;
  while (!seen.has(block)) {
    seen.add(block);
    const data = fn.block(block);
    for (const id of data.insts) {
      const { inst, span } = fn.inst(id);
      if (inst.op === 'load' || inst.op === 'store' || inst.op === 'atomic') {
        const e = extentOf(fn, inst, guard);
        if (e) found.push({ ...e, site: siteOf(source, span.start) });
      } else if (HAS_EFFECTS[inst.op] && inst.op !== 'fence') {
        return found; // a call may exit, a barrier or collective may not return for every thread
      }
    }
    const next = successor(fn, data.term, guard);
    if (!next) return found;
    block = next.block;
    guard = next.guard;
  }
  return found;
}

/** The block every thread that passes the guard goes to next, if there is one. */
function successor(fn: IrFunction, term: Terminator | null, guard: ExtentGuard | undefined): { block: BlockId; guard: ExtentGuard | undefined } | undefined {
  if (term?.op === 'jump') return { block: term.target.block, guard };
  if (term?.op !== 'branch' || guard) return undefined;
  const g = guardOf(fn, term.cond);
  if (!g) return undefined;
  return { block: (g.whenTrue ? term.then : term.else).block, guard: g.guard };
}

/** The extent of one access, when its address has the recognised form. */
function extentOf(fn: IrFunction, inst: Extract<Inst, { op: 'load' | 'store' | 'atomic' }>, guard: ExtentGuard | undefined): Omit<ParamExtent, 'site'> | undefined {
  if (inst.space !== 'global' && inst.space !== 'generic') return undefined;
  if (fn.typeOf(inst.address).kind !== 'int' || bitWidth(fn.typeOf(inst.address)) !== 64) return undefined;
  const a = linear(fn, inst.address);
  if (!a || a.param === undefined || a.offset < -MAX_OFFSET || a.offset > MAX_OFFSET) return undefined;
  // An index other than the guard's says nothing about which threads pass the guard.
  if (a.index && guard && a.index !== guard.index) return undefined;
  const valueType = inst.op === 'store' ? fn.typeOf(inst.value) : inst.type;
  const bytes = Math.ceil(bitWidth(valueType) / 8);
  return {
    param: a.param, index: a.index ?? 'none', stride: Number(a.index ? a.stride : 0n), offset: Number(a.offset), bytes,
    ...(guard ? { guard } : {}),
  };
}

function linear(fn: IrFunction, v: ValueId, depth = 0): Linear | undefined {
  const def = fn.defOf(v);
  if (!def || depth > 16) return undefined;
  switch (def.op) {
    case 'kernel_param': {
      const p = fn.kernelParams[def.param];
      const whole = p && p.arrayLength === undefined && p.size === 8 && def.offset === 0 && bitWidth(def.type) === 64;
      return whole ? { param: def.param, stride: 0n, offset: 0n } : undefined;
    }
    case 'cvta': return def.space === 'global' ? linear(fn, def.value, depth + 1) : undefined;
    case 'const': return { stride: 0n, offset: BigInt.asIntN(64, def.bits) };
    case 'extend': return indexTerm(fn, def.value, 1n);
    case 'mul_wide': return scaledIndex(fn, def.a, def.b, def.signed);
    case 'ibinary': return binary(fn, def, depth);
    default: return undefined;
  }
}

function binary(fn: IrFunction, def: Extract<Inst, { op: 'ibinary' }>, depth: number): Linear | undefined {
  const a = linear(fn, def.a, depth + 1);
  const b = linear(fn, def.b, depth + 1);
  if (!a || !b) return undefined;
  switch (def.kind) {
    case 'add': return add(a, b);
    case 'sub': return isConstant(b) ? add(a, { stride: 0n, offset: -b.offset }) : undefined;
    case 'mul': return isConstant(b) ? scale(a, b.offset) : isConstant(a) ? scale(b, a.offset) : undefined;
    case 'shl': return isConstant(b) && b.offset >= 0n && b.offset < 16n ? scale(a, 1n << b.offset) : undefined;
    default: return undefined;
  }
}

function isConstant(l: Linear): boolean {
  return l.param === undefined && l.index === undefined;
}

function add(a: Linear, b: Linear): Linear | undefined {
  if ((a.param !== undefined && b.param !== undefined) || (a.index && b.index)) return undefined;
  const param = a.param ?? b.param;
  const index = a.index ?? b.index;
  return {
    ...(param !== undefined ? { param } : {}), ...(index ? { index } : {}),
    stride: a.index ? a.stride : b.stride, offset: a.offset + b.offset,
  };
}

/** `l * factor`, for an index term (a pointer times a constant is no address). */
function scale(l: Linear, factor: bigint): Linear | undefined {
  if (l.param !== undefined || factor <= 0n) return undefined;
  if (!l.index) return { stride: 0n, offset: l.offset * factor };
  const stride = l.stride * factor;
  return stride <= MAX_STRIDE ? { index: l.index, stride, offset: l.offset * factor } : undefined;
}

/** `mul.wide` of a 32-bit index and a positive constant (either order). */
function scaledIndex(fn: IrFunction, a: ValueId, b: ValueId, signed: boolean): Linear | undefined {
  const factor = (v: ValueId): bigint | undefined => {
    const d = fn.defOf(v);
    if (d?.op !== 'const') return undefined;
    return signed ? BigInt.asIntN(bitWidth(d.type), d.bits) : BigInt.asUintN(bitWidth(d.type), d.bits);
  };
  const fb = factor(b);
  if (fb !== undefined) return indexTerm(fn, a, fb);
  const fa = factor(a);
  return fa !== undefined ? indexTerm(fn, b, fa) : undefined;
}

/** `index * factor` for a 32-bit thread index, extended (signed or not: it is never negative). */
function indexTerm(fn: IrFunction, v: ValueId, factor: bigint): Linear | undefined {
  const index = threadIndex(fn, v);
  if (!index || factor <= 0n || factor > MAX_STRIDE) return undefined;
  return { index, stride: factor, offset: 0n };
}

function special(fn: IrFunction, v: ValueId, register: 'tid' | 'ntid' | 'ctaid'): boolean {
  const d = fn.defOf(v);
  return d?.op === 'special' && d.register === register && d.component === 0;
}

/** `%tid.x`, or `%ctaid.x * %ntid.x + %tid.x` (any operand order), as 32-bit values. */
function threadIndex(fn: IrFunction, v: ValueId): ExtentIndex | undefined {
  const t = fn.typeOf(v);
  if (t.kind !== 'int' || t.bits !== 32) return undefined;
  if (special(fn, v, 'tid')) return 'tid.x';
  const d = fn.defOf(v);
  if (d?.op !== 'ibinary' || d.kind !== 'add') return undefined;
  const blockBase = (m: ValueId): boolean => {
    const md = fn.defOf(m);
    return md?.op === 'ibinary' && md.kind === 'mul' &&
      ((special(fn, md.a, 'ctaid') && special(fn, md.b, 'ntid')) || (special(fn, md.a, 'ntid') && special(fn, md.b, 'ctaid')));
  };
  const global = (special(fn, d.b, 'tid') && blockBase(d.a)) || (special(fn, d.a, 'tid') && blockBase(d.b));
  return global ? 'global.x' : undefined;
}

const SWAPPED: Readonly<Record<IntCompare, IntCompare>> = {
  eq: 'eq', ne: 'ne', ult: 'ugt', ule: 'uge', ugt: 'ult', uge: 'ule', slt: 'sgt', sle: 'sge', sgt: 'slt', sge: 'sle',
};

/**
 * A branch condition comparing a thread index with a parameter: the guard, and which
 * successor the threads below the bound take.
 */
function guardOf(fn: IrFunction, cond: ValueId): { guard: ExtentGuard; whenTrue: boolean } | undefined {
  let negated = false;
  let c = fn.defOf(cond);
  for (let i = 0; c?.op === 'iunary' && c.kind === 'not' && i < 4; i++) {
    negated = !negated;
    c = fn.defOf(c.value);
  }
  if (c?.op !== 'icmp') return undefined;
  let op = c.cond;
  let index = comparedIndex(fn, c.a);
  let bound = c.b;
  if (!index) {
    index = comparedIndex(fn, c.b);
    bound = c.a;
    op = SWAPPED[op];
  }
  const b = fn.defOf(bound);
  if (!index || b?.op !== 'kernel_param' || b.type.kind !== 'int' || (b.type.bits !== 32 && b.type.bits !== 64)) return undefined;
  const p = fn.kernelParams[b.param];
  if (!p || p.arrayLength !== undefined || b.offset + b.type.bits / 8 > p.size) return undefined;
  // index < bound (below) or index <= bound (inclusive) on the `true` side, or their negations.
  const sense: Partial<Record<IntCompare, { below: boolean; inclusive: boolean }>> = {
    slt: { below: true, inclusive: false }, ult: { below: true, inclusive: false },
    sle: { below: true, inclusive: true }, ule: { below: true, inclusive: true },
    sge: { below: false, inclusive: false }, uge: { below: false, inclusive: false },
    sgt: { below: false, inclusive: true }, ugt: { below: false, inclusive: true },
  };
  const s = sense[op];
  if (!s) return undefined;
  const guard: ExtentGuard = { index, param: b.param, offset: b.offset, bits: b.type.bits, signed: op.startsWith('s'), inclusive: s.inclusive };
  return { guard, whenTrue: s.below !== negated };
}

/** A thread index, or a 64-bit extension of one (never negative, so either extension is exact). */
function comparedIndex(fn: IrFunction, v: ValueId): ExtentIndex | undefined {
  const d = fn.defOf(v);
  if (d?.op === 'extend' && d.type.kind === 'int' && d.type.bits === 64) return threadIndex(fn, d.value);
  return threadIndex(fn, v);
}

function siteOf(source: SourceFile, offset: number): string {
  const { line, column } = source.position(offset);
  return `${source.name}:${line}:${column}: ${source.lineText(line).trim().replace(/\s+/g, ' ')}`;
}
