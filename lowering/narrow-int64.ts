/**
 * Pass `narrow-int64`: computes 64-bit integers in 32 bits where the high word is never
 * observed. WGSL has no 64-bit integers, so every surviving i64 costs a vec2<u32> and
 * helper calls; address arithmetic (`mul.wide.s32`, `add.s64` feeding a slot offset) is
 * the common case that narrows completely.
 *
 * Expects: address-space lowering has run (slot offsets are `truncate` of addresses).
 * Guarantees: the low 32 bits of every value are unchanged; an i64 value whose high word
 *   no instruction demands is retyped to i32 when its definition can be computed from low
 *   words alone (add, sub, mul, and, or, xor, shl, not, neg, select, mul.wide, extend,
 *   constants, kernel parameters, block parameters); `truncate` of a narrowed value
 *   becomes the value itself.
 * Does not: narrow values whose high word is demanded anywhere (compares, right shifts,
 *   division, 64-bit stores, dynamic addresses), or narrow loads.
 */
import type { BlockId, InstId, ValueId } from '../src/ir/entities.js';
import type { IrFunction } from '../src/ir/function.js';
import { operandsOf, type Inst } from '../src/ir/inst.js';
import * as T from '../src/ir/types.js';
import type { Pass } from './pass.js';

const LOW_TRANSPARENT = new Set(['add', 'sub', 'mul', 'and', 'or', 'xor', 'shl']);

/** Whether `inst`'s result's low word depends only on the low words of its i64 operands. */
function lowTransparent(inst: Inst): boolean {
  if (inst.op === 'ibinary') return LOW_TRANSPARENT.has(inst.kind);
  if (inst.op === 'iunary') return inst.kind === 'not' || inst.kind === 'neg';
  return inst.op === 'select' || inst.op === 'truncate';
}

function narrowableDef(inst: Inst | undefined): boolean {
  if (!inst) return true; // block parameter
  if (inst.op === 'const' || inst.op === 'kernel_param' || inst.op === 'mul_wide' || inst.op === 'undef') return true;
  if (inst.op === 'extend') return true;
  return lowTransparent(inst) && inst.op !== 'truncate';
}

function demandedHighWords(fn: IrFunction): Set<ValueId> {
  const demanded = new Set<ValueId>();
  const is64 = (v: ValueId): boolean => T.isInt(fn.typeOf(v), 64);
  const work: ValueId[] = [];
  const mark = (v: ValueId): void => { if (is64(v) && !demanded.has(v)) { demanded.add(v); work.push(v); } };
  for (const b of fn.blockIds()) {
    for (const id of fn.block(b).insts) {
      const { inst } = fn.inst(id);
      if (!lowTransparent(inst)) for (const v of operandsOf(inst)) mark(v);
    }
  }
  for (const b of fn.blockIds()) {
    const t = fn.block(b).term;
    if (t?.op === 'return') t.values.forEach(mark);
  }
  // A transparent instruction or a block parameter with a demanded result demands its inputs.
  const argsInto = incomingArgs(fn);
  while (work.length) {
    const v = work.pop() as ValueId;
    const def = fn.value(v).def;
    if (def.kind === 'param') { for (const a of argsInto.get(v) ?? []) mark(a); continue; }
    const inst = fn.inst(def.inst).inst;
    if (lowTransparent(inst)) for (const x of operandsOf(inst)) mark(x);
  }
  return demanded;
}

function incomingArgs(fn: IrFunction): Map<ValueId, ValueId[]> {
  const m = new Map<ValueId, ValueId[]>();
  for (const b of fn.blockIds()) {
    for (const edge of fn.successors(b)) {
      const params = fn.block(edge.block).params;
      edge.args.forEach((a, i) => {
        const p = params[i] as ValueId;
        const l = m.get(p);
        if (l) l.push(a); else m.set(p, [a]);
      });
    }
  }
  return m;
}

export const narrowInt64: Pass = {
  name: 'narrow-int64',
  run(fn: IrFunction): void {
    const demanded = demandedHighWords(fn);
    const narrowed = new Set<ValueId>();
    fn.values.forEach((data, index) => {
      const v = index as ValueId;
      if (!T.isInt(data.type, 64) || demanded.has(v)) return;
      const def = data.def.kind === 'inst' ? fn.inst(data.def.inst).inst : undefined;
      if (narrowableDef(def)) narrowed.add(v);
    });
    for (const v of narrowed) fn.values[v] = { ...fn.value(v), type: T.i32 };
    rewriteDefinitions(fn, narrowed);
    fixEdges(fn, narrowed);
  },
};

/** Low word of an operand for a narrowed instruction: the value itself or a new truncate. */
function low(fn: IrFunction, v: ValueId, block: BlockId, before: InstId, narrowed: Set<ValueId>): ValueId {
  if (narrowed.has(v) || !T.isInt(fn.typeOf(v), 64)) return v;
  const { id, results } = fn.createDetached(block, { op: 'truncate', type: T.i32, value: v }, fn.inst(before).span);
  const insts = fn.block(block).insts;
  insts.splice(insts.indexOf(before), 0, id);
  return results[0] as ValueId;
}

function rewriteDefinitions(fn: IrFunction, narrowed: Set<ValueId>): void {
  const subst = new Map<ValueId, ValueId>();
  for (const b of fn.blockIds()) {
    for (const id of [...fn.block(b).insts]) {
      const data = fn.inst(id);
      const inst = data.inst;
      const result = data.results[0];
      if (inst.op === 'truncate' && T.isInt(fn.typeOf(inst.value), 32) && narrowed.has(inst.value)) {
        if (result !== undefined && T.isInt(inst.type, 32)) subst.set(result, inst.value);
        continue;
      }
      if (result === undefined || !narrowed.has(result)) continue;
      const lo = (v: ValueId): ValueId => low(fn, v, b, id, narrowed);
      data.inst = narrowInst(inst, lo, (v) => fn.typeOf(v));
    }
  }
  fn.substitute(subst);
}

function narrowInst(inst: Inst, lo: (v: ValueId) => ValueId, fnTypeOf: (v: ValueId) => T.IrType): Inst {
  switch (inst.op) {
    case 'const': return { ...inst, type: T.i32, bits: inst.bits & 0xffffffffn };
    case 'undef': return { ...inst, type: T.i32 };
    case 'kernel_param': return { ...inst, type: T.i32 };
    case 'mul_wide': return { op: 'ibinary', kind: 'mul', type: T.i32, a: inst.a, b: inst.b };
    case 'extend': return inst.value !== undefined && T.isInt(fnTypeOf(inst.value), 32)
      ? { op: 'bitcast', type: T.i32, value: inst.value }
      : { ...inst, type: T.i32 };
    case 'ibinary': return { ...inst, type: T.i32, a: lo(inst.a), b: inst.kind === 'shl' ? inst.b : lo(inst.b) };
    case 'iunary': return { ...inst, type: T.i32, value: lo(inst.value) };
    case 'select': return { ...inst, type: T.i32, a: lo(inst.a), b: lo(inst.b) };
    default: return inst;
  }
}

/** Edge arguments into narrowed parameters must be narrowed too. */
function fixEdges(fn: IrFunction, narrowed: Set<ValueId>): void {
  for (const b of fn.blockIds()) {
    const block = fn.block(b);
    const t = block.term;
    if (!t) continue;
    const fix = (call: { block: BlockId; args: readonly ValueId[] }): { block: BlockId; args: ValueId[] } => ({
      block: call.block,
      args: call.args.map((a, i) => {
        const p = fn.block(call.block).params[i] as ValueId;
        if (!narrowed.has(p) || !T.isInt(fn.typeOf(a), 64)) return a;
        const [r] = fn.append(b, { op: 'truncate', type: T.i32, value: a }, t.span);
        return r as ValueId;
      }),
    });
    if (t.op === 'jump') block.term = { ...t, target: fix(t.target) };
    else if (t.op === 'branch') block.term = { ...t, then: fix(t.then), else: fix(t.else) };
    else if (t.op === 'switch') block.term = { ...t, targets: t.targets.map(fix), fallback: fix(t.fallback) };
  }
}
