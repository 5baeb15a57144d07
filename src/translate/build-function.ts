/**
 * Translates one PTX function body into an IR function in SSA form.
 *
 * 1. Flatten nested `{ }` scopes into a list of labels and instructions, resolving each
 *    register declaration to a unique SSA variable (inner scopes shadow outer ones).
 * 2. Cut the list into basic blocks at labels and after branches, and record the CFG, so
 *    that every block knows how many predecessors it has before it is translated.
 * 3. Translate each block's instructions through the opcode handler table, sealing blocks
 *    as soon as all their predecessors are filled (Braun et al.).
 */
import type * as Ast from '../ptx/ast.js';
import { DiagnosticCode, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { Span } from '../diagnostics/span.js';
import type { BlockId, ValueId } from '../ir/entities.js';
import { IrFunction, type KernelParam, type Terminator } from '../ir/function.js';
import * as T from '../ir/types.js';
import { BuildContext, irTypeOf, type ModuleSymbols, type Scope } from './context.js';
import { SsaBuilder, type PendingEdge } from './ssa.js';
import { HANDLERS } from './handlers.js';
import { swizzledRegisters } from './ldmatrix-origins.js';
import { callTargetsOf } from './function-pointers.js';
import { notSupported } from './handler.js';
import { fragmentMove, isFragmentMove } from './wmma-subgroup-matrix.js';

type Item =
  | { readonly kind: 'label'; readonly name: string; readonly span: Span }
  | { readonly kind: 'inst'; readonly inst: Ast.Instruction; readonly scope: Scope };

interface SkeletonBlock {
  readonly label?: string;
  readonly items: Extract<Item, { kind: 'inst' }>[];
  id: BlockId;
  preds: number;
}

let scopeCounter = 0;

export function buildFunction(
  decl: Ast.FunctionDeclaration,
  kernelParams: readonly KernelParam[],
  symbols: ModuleSymbols,
  diagnostics: Diagnostic[],
): IrFunction {
  const fn = new IrFunction(decl.name, decl.isEntry, kernelParams, decl.span);
  const root: Scope = { parent: undefined, registers: new Map(), families: new Map() };
  const items: Item[] = [];
  flatten(decl.body ?? [], root, items);
  const blocks = cutBlocks(items);
  fn.entry = fn.addBlock();
  for (const b of blocks) b.id = fn.addBlock(b.label);
  const byLabel = new Map(blocks.filter((b) => b.label).map((b) => [b.label as string, b]));

  let cx!: BuildContext;
  const ssa = new SsaBuilder(fn, (type, span) => cx.constant(type, 0n, span));
  cx = new BuildContext(fn, ssa, symbols, diagnostics, fn.entry, root);
  cx.callTargets = callTargetsOf(decl.body ?? []);
  if (symbols.mmaTensorCores) cx.swizzledRegisters = swizzledRegisters(decl.body ?? []);
  countPredecessors(blocks, byLabel, diagnostics);
  const filledPreds = new Map<BlockId, number>();
  const expected = new Map(blocks.map((b) => [b.id, b.preds]));

  const edge = (from: BlockId, to: BlockId): PendingEdge => {
    const e: PendingEdge = { from, to, args: [] };
    ssa.addEdge(e);
    filledPreds.set(to, (filledPreds.get(to) ?? 0) + 1);
    return e;
  };
  const trySeal = (b: BlockId): void => {
    if ((filledPreds.get(b) ?? 0) >= (expected.get(b) ?? 0)) ssa.seal(b, decl.span);
  };

  ssa.seal(fn.entry, decl.span);
  const first = blocks[0];
  fn.block(fn.entry).term = first ? jump(edge(fn.entry, first.id), decl.span) : { op: 'return', values: [], span: decl.span };
  const edges = new Map<Terminator, PendingEdge[]>();
  blocks.forEach((b, i) => {
    trySeal(b.id);
    cx.block = b.id;
    let ended = false;
    for (const item of b.items) {
      cx.scope = item.scope;
      if (isTerminator(item.inst)) {
        translateTerminator(cx, item.inst, blocks[i + 1], byLabel, edge, (t, es) => edges.set(t, es), trySeal);
        ended = true;
        break;
      }
      translateInstruction(cx, item.inst, trySeal);
    }
    if (!ended) {
      const next = blocks[i + 1];
      const span = b.items.at(-1)?.inst.span ?? decl.span;
      const t: Terminator = next ? jump(edge(cx.block, next.id), span) : { op: 'return', values: [], span };
      fn.block(cx.block).term = t;
      if (next) trySeal(next.id);
    }
  });
  for (const b of blocks) ssa.seal(b.id, decl.span);
  ssa.finish();
  return fn;
}

function jump(e: PendingEdge, span: Span): Terminator {
  return { op: 'jump', target: { block: e.to, args: e.args }, span };
}

function flatten(body: readonly Ast.Statement[], scope: Scope, out: Item[]): void {
  for (const st of body) {
    switch (st.kind) {
      case 'variable': declare(st, scope); break;
      case 'label': out.push({ kind: 'label', name: st.name, span: st.span }); break;
      case 'instruction': out.push({ kind: 'inst', inst: st, scope }); break;
      case 'scope': flatten(st.body, { parent: scope, registers: new Map(), families: new Map() }, out); break;
      default: break; // directives, target lists, prototypes: no code
    }
  }
}

function declare(v: Ast.VariableDeclaration, scope: Scope): void {
  if (v.space.space !== 'reg') return; // other spaces are module/function variables, handled by the module builder
  const type = v.vector ? T.vector(irTypeOf(v.type) as T.ScalarIrType, v.vector) : irTypeOf(v.type);
  const key = `${v.name}#${++scopeCounter}:`;
  if (v.parameterizedCount !== undefined) scope.families.set(v.name, { key, type, count: v.parameterizedCount });
  else scope.registers.set(v.name, { key, type, hint: v.name });
}

function isTerminator(inst: Ast.Instruction): boolean {
  return inst.opcode === 'bra' || inst.opcode === 'ret' || inst.opcode === 'exit' || inst.opcode === 'brx' || traps(inst);
}

/** `brkpt` without a debugger attached stops the kernel with an error: a `trap`. */
function traps(inst: Ast.Instruction): boolean {
  return inst.opcode === 'trap' || inst.opcode === 'brkpt';
}

function cutBlocks(items: readonly Item[]): SkeletonBlock[] {
  const blocks: SkeletonBlock[] = [];
  let cur: SkeletonBlock = { items: [], id: 0 as BlockId, preds: 0 };
  const start = (label?: string): void => {
    if (cur.items.length > 0 || cur.label !== undefined || blocks.length === 0) blocks.push(cur);
    cur = label === undefined ? { items: [], id: 0 as BlockId, preds: 0 } : { label, items: [], id: 0 as BlockId, preds: 0 };
  };
  for (const item of items) {
    if (item.kind === 'label') { start(item.name); continue; }
    cur.items.push(item);
    if (isTerminator(item.inst)) start();
  }
  if (cur.items.length > 0 || cur.label !== undefined) blocks.push(cur);
  return blocks.filter((b, i) => i === 0 || b.items.length > 0 || b.label !== undefined);
}

function countPredecessors(blocks: SkeletonBlock[], byLabel: Map<string, SkeletonBlock>, diags: Diagnostic[]): void {
  const first = blocks[0];
  if (first) first.preds++;
  blocks.forEach((b, i) => {
    const last = b.items.at(-1)?.inst;
    const next = blocks[i + 1];
    if (!last || !isTerminator(last)) { if (next) next.preds++; return; }
    if (last.guard && next) next.preds++;
    if (last.opcode === 'bra') {
      const target = last.operands[0];
      const t = target?.kind === 'symbol' ? byLabel.get(target.name) : undefined;
      if (t) t.preds++;
      else diags.push({ code: DiagnosticCode.SemaUndefinedLabel, severity: 'error', message: `branch target ${target?.kind === 'symbol' ? `\`${target.name}\`` : ''} is not a label of this function`, span: target?.span ?? last.span });
    }
    if (last.opcode === 'brx') for (const name of branchTargets(last)) { const t = byLabel.get(name); if (t) t.preds++; }
  });
}

function branchTargets(inst: Ast.Instruction): string[] {
  const list = inst.operands[1];
  return list?.kind === 'vector' ? list.elements.flatMap((e) => (e.kind === 'symbol' ? [e.name] : [])) : [];
}

/**
 * Registers may be declared without `%` (`.reg .b64 rd<8>; ld.param.u64 rd1, [p];`, as some
 * hand-written and generated PTX does); the parser cannot tell such a name from a variable or
 * label, so a symbol operand that names a register in scope becomes that register here.
 */
function plainRegisters(cx: BuildContext, inst: Ast.Instruction): Ast.Instruction {
  let changed = false;
  const visit = (op: Ast.Operand): Ast.Operand => {
    switch (op.kind) {
      case 'symbol': {
        const reg: Ast.RegisterOperand = { kind: 'register', name: op.name, span: op.span };
        if (!cx.lookup(reg)) return op;
        changed = true;
        return reg;
      }
      case 'address': {
        const base = op.base.kind === 'symbol' ? visit(op.base) : op.base;
        return base === op.base ? op : { ...op, base: base as Ast.RegisterOperand };
      }
      case 'vector': {
        const elements = op.elements.map(visit);
        return elements.every((e, k) => e === op.elements[k]) ? op : { ...op, elements };
      }
      case 'expression': {
        const args = op.args.map(visit);
        return args.every((e, k) => e === op.args[k]) ? op : { ...op, args };
      }
      default: return op;
    }
  };
  const operands = inst.operands.map(visit);
  return changed ? { ...inst, operands } : inst;
}

/** Guarded instructions with effects become a small diamond; pure ones compute then select. */
function translateInstruction(cx: BuildContext, written: Ast.Instruction, trySeal: (b: BlockId) => void): void {
  const inst = plainRegisters(cx, written);
  const handler = cx.symbols.fragments && isFragmentMove(cx.symbols.fragments, inst) ? fragmentMove : HANDLERS[inst.opcode];
  if (!handler) {
    notSupported(cx, inst);
    return;
  }
  if (!inst.guard) { handler(cx, inst); return; }
  const cond = cx.read(inst.guard.register, T.pred);
  const fn = cx.fn;
  const then = fn.addBlock();
  const join = fn.addBlock();
  const e1 = { from: cx.block, to: then, args: [] as ValueId[] };
  const e2 = { from: cx.block, to: join, args: [] as ValueId[] };
  cx.ssa.addEdge(e1); cx.ssa.addEdge(e2);
  fn.block(cx.block).term = {
    op: 'branch', cond, span: inst.span,
    then: { block: inst.guard.negated ? join : then, args: inst.guard.negated ? e2.args : e1.args },
    else: { block: inst.guard.negated ? then : join, args: inst.guard.negated ? e1.args : e2.args },
  };
  cx.ssa.seal(then, inst.span);
  cx.block = then;
  handler(cx, inst);
  const e3 = { from: cx.block, to: join, args: [] as ValueId[] };
  cx.ssa.addEdge(e3);
  fn.block(cx.block).term = { op: 'jump', target: { block: join, args: e3.args }, span: inst.span };
  cx.ssa.seal(join, inst.span);
  cx.block = join;
  void trySeal;
}

function translateTerminator(
  cx: BuildContext,
  inst: Ast.Instruction,
  next: SkeletonBlock | undefined,
  byLabel: Map<string, SkeletonBlock>,
  edge: (from: BlockId, to: BlockId) => PendingEdge,
  record: (t: Terminator, es: PendingEdge[]) => void,
  trySeal: (b: BlockId) => void,
): void {
  const fn = cx.fn;
  const span = inst.span;
  const from = cx.block;
  let taken: Terminator;
  const exitBlock = (): BlockId => {
    const b = fn.addBlock();
    fn.block(b).term = traps(inst) ? { op: 'trap', span } : { op: 'return', values: [], span };
    return b;
  };
  if (inst.opcode === 'bra') {
    const target = inst.operands[0];
    const t = target?.kind === 'symbol' ? byLabel.get(target.name) : undefined;
    if (!t) { fn.block(from).term = { op: 'unreachable', span }; return; }
    if (!inst.guard) {
      const e = edge(from, t.id);
      fn.block(from).term = jump(e, span);
      trySeal(t.id);
      return;
    }
    const cond = cx.read(inst.guard.register, T.pred);
    const eTaken = edge(from, t.id);
    const eNext = next ? edge(from, next.id) : undefined;
    const fallthrough = eNext ? { block: eNext.to, args: eNext.args } : { block: exitBlock(), args: [] };
    const takenCall = { block: eTaken.to, args: eTaken.args };
    taken = inst.guard.negated
      ? { op: 'branch', cond, then: fallthrough, else: takenCall, span }
      : { op: 'branch', cond, then: takenCall, else: fallthrough, span };
    fn.block(from).term = taken;
    trySeal(t.id);
    if (next) trySeal(next.id);
    return;
  }
  if (inst.opcode === 'brx') {
    const index = cx.read(inst.operands[0] ?? { kind: 'sink', span }, T.i32);
    const names = branchTargets(inst);
    const targets = names.map((n) => {
      const b = byLabel.get(n);
      if (!b) return { block: exitBlock(), args: [] as ValueId[] };
      const e = edge(from, b.id);
      return { block: e.to, args: e.args };
    });
    const fallback = targets.at(-1) ?? { block: exitBlock(), args: [] };
    fn.block(from).term = { op: 'switch', index, targets: targets.slice(0, -1), fallback, span };
    for (const n of names) { const b = byLabel.get(n); if (b) trySeal(b.id); }
    return;
  }
  // ret / exit / trap / brkpt
  if (!inst.guard) {
    fn.block(from).term = traps(inst) ? { op: 'trap', span } : { op: 'return', values: [], span };
    if (inst.opcode === 'exit') fn.exits.add(from);
    return;
  }
  const cond = cx.read(inst.guard.register, T.pred);
  const out = { block: exitBlock(), args: [] as ValueId[] };
  if (inst.opcode === 'exit') fn.exits.add(out.block);
  const eNext = next ? edge(from, next.id) : undefined;
  const cont = eNext ? { block: eNext.to, args: eNext.args } : { block: exitBlock(), args: [] };
  fn.block(from).term = inst.guard.negated
    ? { op: 'branch', cond, then: cont, else: out, span }
    : { op: 'branch', cond, then: out, else: cont, span };
  if (next) trySeal(next.id);
  void record;
}
