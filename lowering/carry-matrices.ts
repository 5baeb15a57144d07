/**
 * Pass `carry-matrices`: mma accumulators that a loop carries in registers are carried as
 * subgroup matrices instead (issue 14, the tensor-core path of mma.sync).
 *
 * Why: src/translate/mma-tensor-core.ts meets every mma's C in registers, so in a GEMM main loop
 * each iteration stages the accumulators from the loop header's parameters into workgroup memory
 * and back out as a matrix (`matrix_stage` c), and unstages D into registers again for the back
 * edge (`matrix_unstage`): a workgroup-memory round trip per accumulator per iteration that the
 * mma itself does not need.
 *
 * Expects: block parameters (before structurize); dead-code has run (unreachable blocks emptied).
 *   A dead-code run must follow: it removes the extracts and unstages this pass leaves unused.
 * Guarantees: where the loop header H's parameters p0..pn-1 (in order) are the parts of `matrix_stage`
 *   c instructions in the loop and nowhere else in it, every back edge passes them either unchanged
 *   or as the extracts 0..n-1 of one `matrix_unstage` U in the loop whose extracts the loop uses
 *   for nothing else, then H takes one matrix parameter instead of p0..pn-1: back edges pass U's
 *   matrix (or the parameter itself), entry edges a `matrix_stage` of their arguments at the end
 *   of the predecessor (on a block of its own when the predecessor also branches elsewhere; a
 *   `matrix_fill` when they are all zero bits), or the matrix of a `matrix_unstage` they pass the
 *   extracts of. Bitcasts between same-width scalars count as the values they cast (Triton keeps
 *   f32 accumulators in .b32 registers). Inner loops go first, so nested loops carry the matrix
 *   through both. Uses of those scalars after the
 *   loop read a `matrix_unstage` of the carried matrix on the loop's one exit edge, where the
 *   warp is converged (`mma.sync.aligned` obliges the whole warp to run the loop's mmas together,
 *   so it leaves the loop together). The mma sequence and its matrices are unchanged: only the
 *   round trips through registers go.
 * Does not: touch an accumulator read in the loop by anything but its stage (a ReLU each
 *   iteration), back edges that pass other values (the stage would only move to the latch), or one
 *   whose value is needed after a loop with several exit edges (it would need a merge of matrices
 *   at the exits); chain a D into a later mma's C across blocks outside loops.
 */
import type { BlockId, InstId, ValueId } from '../src/ir/entities.js';
import type { BlockCall, IrFunction, Terminator } from '../src/ir/function.js';
import { mapOperands, someOperand, type Inst, type InstOf } from '../src/ir/inst.js';
import { mapTerminator, someTerminatorOperand } from '../src/ir/function.js';
import { dominates, dominators, predecessors, reversePostorder, useLists, type Use } from '../src/ir/cfg.js';
import * as T from '../src/ir/types.js';
import { invariant } from '../src/diagnostics/ptx-error.js';
import type { Span } from '../src/diagnostics/span.js';
import type { Pass } from './pass.js';

export const carryMatrices: Pass = {
  name: 'carry-matrices',
  run(fn: IrFunction): void {
    if (!fn.insts.some((d) => d.inst.op === 'matrix_stage' && d.inst.fragment === 'c')) return;
    const rpo = reversePostorder(fn);
    const preds = predecessors(fn);
    const idom = dominators(fn, rpo, preds);
    const headers = rpo.filter((h) => (preds.get(h) ?? []).some((p) => idom.has(p) && dominates(idom, h, p)));
    // Inner loops first: an inner loop's carried accumulators enter it through a stage and leave it
    // through an unstage inside the outer loop, which the outer loop's rewrite then removes. Each
    // rewrite adds blocks and edges, so the CFG facts are taken again for the next header.
    for (const h of headers.reverse()) carryAt(fn, h);
  },
};

/** One edge: the `index`th successor call of `from` (fn.successors order). */
interface Edge { readonly from: BlockId; readonly index: number; readonly call: BlockCall }

/** What an edge into the header passes for one accumulator. */
type Incoming =
  | { readonly kind: 'self' }
  | { readonly kind: 'unstage'; readonly matrix: ValueId }
  | { readonly kind: 'stage'; readonly parts: readonly ValueId[] };

interface Group {
  readonly params: readonly ValueId[];
  readonly positions: readonly number[];
  readonly type: T.MatrixType;
  /** What matrix_unstage gives for this matrix: vec4<f32> or (.f16x2) vec2<i32>. */
  readonly vector: T.VectorType;
  readonly k: 16 | 8;
  readonly span: Span;
  readonly stages: readonly ValueId[];
  /** Bitcasts of the parameters in the loop, which only the stages read. */
  readonly casts: readonly ValueId[];
  /** By edge key (`from:index`). */
  readonly incoming: ReadonlyMap<string, Incoming>;
  /** Scalars read after the loop. */
  readonly outside: ReadonlyMap<ValueId, Where>;
}

/** Element `index` of a carried scalar's matrix: null is the header's, else an unstaged D's. */
interface Where { readonly matrix: ValueId | null; readonly index: number }

interface Loop {
  readonly header: BlockId;
  readonly blocks: ReadonlySet<BlockId>;
  readonly entries: readonly Edge[];
  readonly backs: readonly Edge[];
  readonly exits: readonly Edge[];
  readonly idom: Map<BlockId, BlockId>;
  readonly preds: Map<BlockId, BlockId[]>;
  readonly uses: Map<ValueId, Use[]>;
}

const key = (e: Edge): string => `${e.from}:${e.index}`;

function edgesFrom(fn: IrFunction, b: BlockId): Edge[] {
  return fn.successors(b).map((call, index) => ({ from: b, index, call }));
}

/** A copy of terminator `t` with its `index`th successor call (fn.successors order) replaced. */
function mapCalls(t: Terminator, f: (call: BlockCall, index: number) => BlockCall): Terminator {
  switch (t.op) {
    case 'jump': return { ...t, target: f(t.target, 0) };
    case 'branch': return { ...t, then: f(t.then, 0), else: f(t.else, 1) };
    case 'switch': return { ...t, targets: t.targets.map((c, i) => f(c, i)), fallback: f(t.fallback, t.targets.length) };
    default: return t;
  }
}

function loopAt(fn: IrFunction, header: BlockId): Loop | undefined {
  const rpo = reversePostorder(fn);
  const reachable = new Set(rpo);
  const preds = predecessors(fn);
  const idom = dominators(fn, rpo, preds);
  const into = [...new Set(preds.get(header) ?? [])].filter((p) => reachable.has(p)).flatMap((p) => edgesFrom(fn, p).filter((e) => e.call.block === header));
  const backs = into.filter((e) => dominates(idom, header, e.from));
  if (backs.length === 0) return undefined;
  const blocks = new Set<BlockId>([header]);
  const work = backs.map((e) => e.from);
  while (work.length) {
    const b = work.pop() as BlockId;
    if (blocks.has(b)) continue;
    blocks.add(b);
    for (const p of preds.get(b) ?? []) if (reachable.has(p) && !blocks.has(p)) work.push(p);
  }
  const exits = [...blocks].flatMap((b) => edgesFrom(fn, b).filter((e) => !blocks.has(e.call.block)));
  return { header, blocks, entries: into.filter((e) => !blocks.has(e.from)), backs, exits, idom, preds, uses: useLists(fn) };
}

function carryAt(fn: IrFunction, header: BlockId): void {
  const loop = loopAt(fn, header);
  if (!loop) return;
  const byParams = new Map<string, ValueId[]>();
  for (const b of loop.blocks) {
    for (const id of fn.block(b).insts) {
      const { inst, results } = fn.inst(id);
      if (inst.op !== 'matrix_stage' || inst.fragment !== 'c') continue;
      const params = inst.parts.map((v) => paramUnder(fn, header, v));
      if (params.some((p) => p === undefined) || new Set(params).size !== params.length) continue;
      const k = params.join(',');
      const list = byParams.get(k);
      if (list) list.push(results[0] as ValueId); else byParams.set(k, [results[0] as ValueId]);
    }
  }
  const groups: Group[] = [];
  for (const stages of byParams.values()) {
    const g = groupOf(fn, loop, stages);
    if (g) groups.push(g);
  }
  if (groups.length > 0) rewrite(fn, loop, groups);
}

/** A bitcast between scalars of one width: `.b32` accumulators are read as `.f32` (Triton's PTX). */
function bitcastOperand(fn: IrFunction, v: ValueId): ValueId | undefined {
  const d = fn.defOf(v);
  if (d?.op !== 'bitcast') return undefined;
  const from = fn.typeOf(d.value);
  return from.kind !== 'vector' && from.kind !== 'matrix' && d.type.kind !== 'vector' && T.bitWidth(from) === T.bitWidth(d.type) ? d.value : undefined;
}

/** The header parameter `v` is, or is a bitcast of. */
function paramUnder(fn: IrFunction, header: BlockId, v: ValueId): ValueId | undefined {
  const p = bitcastOperand(fn, v) ?? v;
  const d = fn.value(p).def;
  return d.kind === 'param' && d.block === header ? p : undefined;
}

const stageOf = (fn: IrFunction, v: ValueId): InstOf<'matrix_stage'> => fn.defOf(v) as InstOf<'matrix_stage'>;

/** The accumulator whose stages are `stages` (all of the same parameters), if it can be carried. */
function groupOf(fn: IrFunction, loop: Loop, stages: readonly ValueId[]): Group | undefined {
  const first = stageOf(fn, stages[0] as ValueId);
  const type = first.type as T.MatrixType;
  const f32 = type.element.bits === 32;
  const n = first.parts.length;
  if (n !== (f32 ? 4 : 2) || stages.some((s) => stageOf(fn, s).type !== type)) return undefined;
  const vector = f32 ? T.vector(T.f32, 4) : T.vector(T.i32, 2);
  const header = fn.block(loop.header);
  const params = first.parts.map((v) => paramUnder(fn, loop.header, v) as ValueId);
  const positions = params.map((p) => header.params.indexOf(p));
  const stageSet = new Set(stages);

  // What every edge into the header passes for these parameters.
  const incoming = new Map<string, Incoming>();
  const unstaged = new Map<ValueId, ValueId>(); // a back edge's unstage -> its matrix
  for (const e of [...loop.entries, ...loop.backs]) {
    const args = positions.map((i) => e.call.args[i] as ValueId);
    const back = loop.blocks.has(e.from);
    if (args.every((a, i) => a === params[i])) { incoming.set(key(e), { kind: 'self' }); continue; }
    const u = unstageOf(fn, args, vector);
    if (u !== undefined) {
      const matrix = (fn.defOf(u) as InstOf<'matrix_unstage'>).value;
      if (fn.typeOf(matrix) !== type) return undefined;
      incoming.set(key(e), { kind: 'unstage', matrix });
      if (back) unstaged.set(u, matrix);
      continue;
    }
    // a back edge with other values would only move the stage from the header to the latch
    if (back || args.some((a) => T.bitWidth(fn.typeOf(a)) !== T.bitWidth(vector.element))) return undefined;
    incoming.set(key(e), { kind: 'stage', parts: args });
  }

  // The scalars the loop carries: the parameters, every extract of the back edges' unstages, and
  // bitcasts of them.
  const scalars = new Map<ValueId, Where>();
  const work: ValueId[] = [];
  const track = (v: ValueId, where: Where): void => { if (!scalars.has(v)) { scalars.set(v, where); work.push(v); } };
  params.forEach((p, index) => track(p, { matrix: null, index }));
  for (const [u, matrix] of unstaged) {
    const def = fn.value(u).def;
    if (def.kind !== 'inst' || !loop.blocks.has(fn.inst(def.inst).block)) return undefined;
    for (const use of loop.uses.get(u) ?? []) {
      if (use.kind !== 'inst') return undefined;
      const data = fn.inst(use.inst);
      if (data.inst.op !== 'extract') return undefined;
      track(data.results[0] as ValueId, { matrix, index: data.inst.index });
    }
  }

  // In the loop they may only feed the stages and the back edges' own positions; after it they
  // are read from the exit edge, which must then be the loop's only one.
  const exit = loop.exits.length === 1 ? loop.exits[0] as Edge : undefined;
  const outside = new Map<ValueId, Where>();
  while (work.length) {
    const v = work.pop() as ValueId;
    const where = scalars.get(v) as Where;
    for (const use of loop.uses.get(v) ?? []) {
      const block = use.kind === 'inst' ? fn.inst(use.inst).block : use.block;
      if (!loop.blocks.has(block)) {
        // read directly after the loop: the exit edge must be the only way there
        if (!exit || !onlyEntry(fn, loop, exit) || !dominates(loop.idom, exit.call.block, block)) return undefined;
        outside.set(v, where);
        continue;
      }
      if (use.kind === 'inst') {
        const data = fn.inst(use.inst);
        const r = data.results[0] as ValueId;
        if (data.inst.op === 'bitcast' && bitcastOperand(fn, r) === v) { track(r, where); continue; }
        if (!stageSet.has(r) || stageOf(fn, r).parts.some((x, i) => (x === v) !== (i === where.index))) return undefined;
        continue;
      }
      const t = fn.block(block).term as Terminator;
      if ((t.op === 'branch' && t.cond === v) || (t.op === 'switch' && t.index === v) || (t.op === 'return' && t.values.includes(v))) return undefined;
      for (const e of edgesFrom(fn, block)) {
        for (let i = 0; i < e.call.args.length; i++) {
          if (e.call.args[i] !== v) continue;
          if (e.call.block === loop.header) { if (i !== positions[where.index]) return undefined; continue; }
          if (!exit || e.from !== exit.from || e.index !== exit.index) return undefined;
          outside.set(v, where);
        }
      }
    }
  }
  // an unstaged D read after the loop is unstaged again on the exit edge, so its mma must be behind it
  for (const where of outside.values()) {
    if (where.matrix === null) continue;
    const d = fn.value(where.matrix).def;
    if (d.kind !== 'inst' || !exit || !dominates(loop.idom, fn.inst(d.inst).block, exit.from)) return undefined;
  }
  // bitcasts of the parameters in the loop feed only the stages, which go
  const casts = [...scalars].filter(([v, w]) => w.matrix === null && fn.value(v).def.kind === 'inst').map(([v]) => v);
  const span = fn.inst((fn.value(stages[0] as ValueId).def as { readonly inst: InstId }).inst).span;
  return { params, positions, type, vector, k: first.k, span, stages, casts, incoming, outside };
}

/** Whether `exit` is the only edge into its target (which then needs no block of its own for it). */
function onlyEntry(fn: IrFunction, loop: Loop, exit: Edge): boolean {
  const target = exit.call.block;
  return (loop.preds.get(target) ?? []).length === 1 && fn.successors(exit.from).filter((c) => c.block === target).length === 1;
}

/** The unstage whose extracts 0..n-1 (or bitcasts of them) are `args`, in order. */
function unstageOf(fn: IrFunction, args: readonly ValueId[], vector: T.VectorType): ValueId | undefined {
  let u: ValueId | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as ValueId;
    const d = fn.defOf(bitcastOperand(fn, a) ?? a);
    if (d?.op !== 'extract' || d.index !== i || (u !== undefined && d.value !== u)) return undefined;
    u = d.value;
  }
  return u !== undefined && fn.defOf(u)?.op === 'matrix_unstage' && fn.typeOf(u) === vector && args.length === vector.count ? u : undefined;
}

function rewrite(fn: IrFunction, loop: Loop, groups: readonly Group[]): void {
  const h = loop.header;
  const header = fn.block(h);
  const removedAt = new Set(groups.flatMap((g) => g.positions));
  const removed = new Set(groups.flatMap((g) => g.params));
  const kept = header.params.filter((_, i) => !removedAt.has(i));
  header.params.length = 0;
  kept.forEach((p, index) => {
    header.params.push(p);
    fn.values[p] = { ...fn.value(p), def: { kind: 'param', block: h, index } };
  });
  const carried = groups.map((g) => fn.addBlockParam(h, g.type, fn.value(g.params[0] as ValueId).hint));

  // Edges into the header pass the matrices; a stage of an entry edge's values goes at the end of
  // its predecessor, or on a block of its own when the predecessor also branches elsewhere (the
  // threads that do not enter the loop must not stage).
  for (const e of [...loop.entries, ...loop.backs]) {
    const from = fn.block(e.from);
    const t = from.term as Terminator;
    const staging = groups.some((g) => g.incoming.get(key(e))?.kind === 'stage');
    const split = staging && fn.successors(e.from).length > 1;
    const place = split ? fn.addBlock() : e.from;
    const matrices = groups.map((g, gi) => {
      const incoming = g.incoming.get(key(e));
      invariant(incoming, 'carry-matrices: an edge into the loop header was not classified');
      if (incoming.kind === 'self') return carried[gi] as ValueId;
      if (incoming.kind === 'unstage') return incoming.matrix;
      // zeros (the usual initialisation) need no staging: every element of the matrix is +0
      if (incoming.parts.every((a) => { const d = fn.defOf(a); return d?.op === 'const' && d.bits === 0n; })) {
        return fn.append(place, { op: 'matrix_fill', type: g.type, bits: 0n }, g.span)[0] as ValueId;
      }
      const element = g.vector.element;
      const parts = incoming.parts.map((a) => (fn.typeOf(a) === element ? a : fn.append(place, { op: 'bitcast', type: element, value: a }, g.span)[0] as ValueId));
      return fn.append(place, { op: 'matrix_stage', type: g.type, fragment: 'c', k: g.k, parts }, g.span)[0] as ValueId;
    });
    const call: BlockCall = { block: h, args: [...e.call.args.filter((_, i) => !removedAt.has(i)), ...matrices] };
    if (split) fn.block(place).term = { op: 'jump', target: call, span: t.span };
    from.term = mapCalls(t, (c, i) => (i === e.index ? (split ? { block: place, args: [] } : call) : c));
  }
  fn.substitute(new Map(groups.flatMap((g, gi) => g.stages.map((s) => [s, carried[gi] as ValueId] as const))));

  // Scalars read after the loop come from an unstage on the exit edge: at the start of its target
  // when the loop is the only way there, else on a block of its own.
  if (groups.some((g) => g.outside.size > 0)) {
    const exit = loop.exits[0] as Edge;
    const target = exit.call.block;
    const inPlace = onlyEntry(fn, loop, exit) && fn.block(target).params.length === 0;
    const x = inPlace ? target : fn.addBlock();
    const made: InstId[] = [];
    const emit = (inst: Inst, span: Span): ValueId => {
      if (!inPlace) return fn.append(x, inst, span)[0] as ValueId;
      const { id, results } = fn.createDetached(x, inst, span);
      made.push(id);
      return results[0] as ValueId;
    };
    const known = new Map<string, ValueId>();
    const once = (k: string, make: () => ValueId): ValueId => { let v = known.get(k); if (v === undefined) known.set(k, (v = make())); return v; };
    const read = new Map<ValueId, ValueId>();
    groups.forEach((g, gi) => {
      for (const [v, where] of g.outside) {
        const matrix = where.matrix ?? (carried[gi] as ValueId);
        const u = once(`${matrix}`, () => emit({ op: 'matrix_unstage', type: g.vector, value: matrix }, g.span));
        const x0 = once(`${matrix}:${where.index}`, () => emit({ op: 'extract', type: g.vector.element, value: u, index: where.index }, g.span));
        const type = fn.typeOf(v);
        read.set(v, type === g.vector.element ? x0 : once(`${matrix}:${where.index}:${T.typeName(type)}`, () => emit({ op: 'bitcast', type, value: x0 }, g.span)));
      }
    });
    if (inPlace) fn.block(x).insts.unshift(...made);
    const f = (v: ValueId): ValueId => read.get(v) ?? v;
    const hit = (v: ValueId): boolean => read.has(v);
    for (const b of fn.blockIds()) {
      if (loop.blocks.has(b)) continue;
      const block = fn.block(b);
      for (const id of block.insts) { const data = fn.inst(id); if (someOperand(data.inst, hit)) data.inst = mapOperands(data.inst, f); }
      if (block.term && someTerminatorOperand(block.term, hit)) block.term = mapTerminator(block.term, f);
    }
    if (!inPlace) {
      const from = fn.block(exit.from);
      const t = from.term as Terminator;
      fn.block(x).term = { op: 'jump', target: { block: target, args: exit.call.args.map(f) }, span: t.span };
      from.term = mapCalls(t, (c, i) => (i === exit.index ? { block: x, args: [] } : c));
    }
  }

  // The stages and the bitcasts feeding them go; dead-code removes the unstages and extracts.
  const gone = new Set(groups.flatMap((g) => [...g.stages, ...g.casts].map((v) => (fn.value(v).def as { readonly inst: InstId }).inst)));
  for (const b of loop.blocks) { const block = fn.block(b); block.insts = block.insts.filter((id) => !gone.has(id)); }
  // The parameters' uses were those, the back edges' own positions and reads after the loop.
  for (const b of fn.blockIds()) {
    const block = fn.block(b);
    const left = block.insts.some((id) => someOperand(fn.inst(id).inst, (v) => removed.has(v))) || (block.term !== null && someTerminatorOperand(block.term, (v) => removed.has(v)));
    invariant(!left, `carry-matrices: a removed accumulator parameter of block${h} is still used in block${b}`);
  }
}
