/**
 * Pass `converge`: puts every collective (collective.ts: barriers, and warp operations on the
 * emulated path) in workgroup-uniform control flow, as WGSL's uniformity analysis demands,
 * while keeping PTX's per-thread semantics through an "active" predicate.
 *
 * Expects: structurize has run (`fn.structured`).
 * Guarantees: every collective is reached by every thread of the workgroup in control flow
 *   WGSL proves uniform. A thread that is not on the collective's path (returned early, on the
 *   other side of a divergent branch, done with a divergent loop) reaches it with its `active`
 *   predicate false: the instruction's `active` field names that predicate (null: every
 *   running thread is active), and everything with an effect (stores, atomics, block-argument
 *   copies the thread could later observe) is guarded by it, so inactive threads commit
 *   nothing. Functions whose collectives are already in uniform control flow are left exactly
 *   as they were (the same WGSL as without this pass).
 * Does not: change anything in functions without collectives. Where running predicated regions
 *   in program order could match barrier instances differently from NVIDIA's arrival counting
 *   (threads of one side meeting further barriers, `continue` before a barrier, a divergent
 *   multi-level exit or irreducible dispatch around a collective), it hands the function to
 *   converge-steps.ts, which is exact for any CFG.
 *
 * Algorithm (docs/ARCHITECTURE.md, "Convergence"): a uniformity analysis of SSA values that
 * mirrors WGSL's (constants, parameters, ctaid/ntid/nctaid and pure functions of uniform values
 * computed in uniform control flow, and `bar.red` results are uniform; tid, loads, atomics and
 * warp results are not; block parameters are uniform when every copy into them is unguarded
 * with a uniform source) decides, per statement, one of:
 *  - untouched/guarded: no collective and no escape inside: `if (active) { s }`;
 *  - kept: `if`/`loop` whose condition and exits are uniform: the structure stays, its body is
 *    transformed recursively;
 *  - predicated `if (c) {A} else {B}`: A runs under `active && c`, B under `active && !c`, one
 *    after the other, or barrier phase by barrier phase when both are flat sequences with the
 *    same number of barriers (a thread on one side meets the other side at the same barrier
 *    instance, as on hardware);
 *  - predicated loop: `loopActive` and `iterActive` flags replace break and continue; the loop
 *    runs while any thread of the workgroup is still in it, decided by a uniform
 *    `bar.red.or` of `loopActive` at the end of every iteration;
 *  - divergent `return` clears the function's `live` flag (and the flags of the predicated
 *    loops it leaves); the active predicate after it is recomputed.
 * Inside predicated code, pure instructions run unguarded (their operands may be garbage for
 * inactive threads, which is harmless and keeps uniform values uniform), except those whose
 * values a thread that left a predicated loop still reads after it; effects are guarded.
 * Because the decisions and the uniformity of block parameters depend on each other, the
 * walk runs in a dry mode until the set of non-uniform values is stable, then once for real.
 */
import { blockId, valueId, type BlockId, type InstId, type ValueId } from '../src/ir/entities.js';
import type { IrFunction } from '../src/ir/function.js';
import { BLOCK_UNIFORM_SPECIALS, HAS_EFFECTS, someOperand, type Inst } from '../src/ir/inst.js';
import type { Stmt } from '../src/ir/structured.js';
import { useLists, type Use } from '../src/ir/cfg.js';
import * as T from '../src/ir/types.js';
import { hasActiveField, isCollective } from './collective.js';
import type { Pass, PassContext } from './pass.js';
import { barrierSteps, needsCounting } from './converge-steps.js';


/** Escapes out of a statement: `return`, or break/continue of a loop around it. */
interface Escapes { readonly ret: boolean; readonly jump: boolean }

interface PredLoop { readonly loopAct: ValueId; readonly iterAct: ValueId }
interface LoopFrame { readonly pred: PredLoop | null; readonly outer: LoopFrame | null }

interface Ctx {
  /** The thread's active predicate here (null: every thread that is still running). */
  readonly cur: ValueId | null;
  /** Inactive threads here have returned: they never observe a variable again. */
  readonly dead: boolean;
  /** Inside a predicated branch or loop: escapes must become flags. */
  readonly predicated: boolean;
  readonly loop: LoopFrame | null;
  /** A collective may run after this point before the thread exits (later statements, later iterations). */
  readonly after: boolean;
  /** A collective may run after this point within the current iteration of the innermost predicated loop. */
  readonly afterIter: boolean;
  /**
   * Block parameters only this region's code reads, where inactive threads never enter the
   * region again (a branch side outside every loop): copies into them need no guard.
   */
  readonly local: ReadonlySet<ValueId> | null;
  /**
   * Values defined inside an enclosing predicated loop and used after it: a thread that left
   * the loop keeps reading them, so later iterations must not recompute them for it.
   */
  readonly keep: ReadonlySet<ValueId>;
}

interface Out { readonly stmts: Stmt[]; readonly cur: ValueId | null; readonly flagged: boolean }

/** Per statement of the original tree: whether it holds a collective, and how it escapes. */
interface TreeFacts { readonly collective: WeakMap<Stmt, boolean>; readonly escapes: WeakMap<Stmt, Escapes> }

function newTreeFacts(): TreeFacts {
  return { collective: new WeakMap(), escapes: new WeakMap() };
}

/**
 * A set of the function's values as flags by value id, with the ids in the order they were
 * added; negative ids (a dry walk's own variables) are never facts of the function and are
 * not kept. Sets of ids cost the fixpoint rounds 24 MB of hash tables in a pass of the
 * repository's kernels (issue 13).
 */
class ValueFlags {
  private flags: Uint8Array;
  readonly added: ValueId[] = [];
  constructor(size: number) { this.flags = new Uint8Array(size); }

  has(v: ValueId): boolean {
    return this.flags[v] === 1;
  }

  add(v: ValueId): this {
    if (v < 0 || this.flags[v] === 1) return this;
    if (v >= this.flags.length) { const grown = new Uint8Array(Math.max(2 * this.flags.length, v + 1)); grown.set(this.flags); this.flags = grown; }
    this.flags[v] = 1;
    this.added.push(v);
    return this;
  }
}

class Walk {
  /** Values this walk found non-uniform (the fixpoint's next input). */
  readonly found: ValueFlags;
  exitGuarded = false;
  stateGuarded = false;
  /** Whether the walk changed anything (a guard, a split, a predicated construct). */
  changed = false;
  /**
   * Whether running predicated regions one after the other could match barrier instances
   * differently from NVIDIA's arrival counting (then converge-steps.ts takes over).
   */
  inexact = false;
  private live: ValueId | null = null;
  private holder: BlockId | null = null;
  private readonly consts = new Map<string, ValueId>();
  private fake = 0;
  private readonly collectiveMemo: WeakMap<Stmt, boolean>;
  private readonly escapeMemo: WeakMap<Stmt, Escapes>;

  constructor(
    private readonly fn: IrFunction,
    private readonly cx: PassContext,
    private readonly dry: boolean,
    private readonly nonUniform: ValueFlags,
    private readonly exitNonUniform: boolean,
    private readonly stateNonUniform: boolean,
    /** Use lists of the function as structurize left it, before any block is split (dry walks change nothing, so every round shares one). */
    private readonly uses: () => ReadonlyMap<ValueId, readonly Use[]>,
    /** Facts of the tree as structurize left it: dry walks change nothing, so every round shares them. */
    memo: TreeFacts = newTreeFacts(),
  ) {
    this.collectiveMemo = memo.collective;
    this.escapeMemo = memo.escapes;
    this.found = new ValueFlags(fn.values.length);
  }

  body(stmts: readonly Stmt[]): Stmt[] {
    const out = this.list(stmts, { cur: null, dead: true, predicated: false, loop: null, after: false, afterIter: false, local: null, keep: new Set() });
    const init: Stmt[] = this.live !== null ? [{ kind: 'copy', targets: [this.live], sources: [this.constant(true)] }] : [];
    return [...init, ...out.stmts];
  }

  // ---- static facts about the original tree ----

  private hasCollective(s: Stmt): boolean {
    let r = this.collectiveMemo.get(s);
    if (r !== undefined) return r;
    r = false;
    if (s.kind === 'code') r = this.fn.block(s.block).insts.some((id) => isCollective(this.fn.inst(id).inst, this.cx));
    else r = children(s).some((c) => this.hasCollective(c));
    this.collectiveMemo.set(s, r);
    return r;
  }

  private escapes(s: Stmt): Escapes {
    let r = this.escapeMemo.get(s);
    if (r !== undefined) return r;
    switch (s.kind) {
      case 'return': case 'trap': r = { ret: true, jump: false }; break;
      case 'break': case 'continue': r = { ret: false, jump: true }; break;
      case 'loop': r = { ret: children(s).some((c) => this.escapes(c).ret), jump: false }; break;
      default: {
        const cs = children(s).map((c) => this.escapes(c));
        r = { ret: cs.some((e) => e.ret), jump: cs.some((e) => e.jump) };
      }
    }
    this.escapeMemo.set(s, r);
    return r;
  }

  private needs(s: Stmt): boolean {
    const e = this.escapes(s);
    return this.hasCollective(s) || e.ret || e.jump;
  }

  /**
   * Not non-uniform by the previous round's facts nor by what this walk found so far: found
   * values count at once, so a round follows def-use chains in program order and the fixpoint
   * takes about as many rounds as loops carry values around, not as many as the longest chain is
   * long (a Triton matmul's unrolled mma chains took hundreds of rounds, half its compile time).
   * Only real values: the walk's own variables (negative ids) are not facts of the function.
   */
  private uniform(v: ValueId): boolean {
    return !this.nonUniform.has(v) && !this.found.has(v);
  }

  /** An `if`-like statement whose condition is uniform keeps its structure. */
  private keptIf(s: Stmt): boolean {
    switch (s.kind) {
      case 'if': return this.uniform(s.cond);
      case 'if-index': return this.uniform(s.index);
      case 'if-exit': return !this.exitNonUniform;
      case 'if-state': return !this.stateNonUniform;
      default: return true;
    }
  }

  /**
   * A loop keeps its structure when all its exits are taken in uniform control flow, and,
   * inside predicated code (where `return` must become a flag), it has no `return`.
   */
  private keptLoop(s: Extract<Stmt, { kind: 'loop' }>, predicated: boolean): boolean {
    if (predicated && this.escapes(s).ret) return false;
    return this.exitsUniform(s.body, predicated);
  }

  private exitsUniform(list: readonly Stmt[], predicated: boolean): boolean {
    for (const s of list) {
      if (!this.needs(s)) continue;
      if (s.kind === 'loop') {
        if (this.escapes(s).ret && !this.keptLoop(s, predicated)) return false;
        continue;
      }
      const e = this.escapes(s);
      if (!(e.ret || e.jump)) continue;
      if (!this.keptIf(s)) return false;
      if (!this.exitsUniform(children(s), predicated)) return false;
    }
    return true;
  }

  // ---- the transform ----

  private list(stmts: readonly Stmt[], ctx: Ctx): Out {
    const out: Stmt[] = [];
    let cur = ctx.cur;
    let flagged = false;
    // Whether a collective follows each statement, from the end: asking it of every suffix
    // made long straight-line bodies quadratic.
    const later: boolean[] = new Array<boolean>(stmts.length).fill(false);
    for (let i = stmts.length - 1; i > 0; i--) later[i - 1] = later[i] || this.hasCollective(stmts[i] as Stmt);
    for (const [i, s] of stmts.entries()) {
      const r = this.stmt(s, { ...ctx, cur, after: ctx.after || (later[i] as boolean), afterIter: ctx.afterIter || (later[i] as boolean) });
      out.push(...r.stmts, ...this.takePending());
      cur = r.cur;
      flagged ||= r.flagged;
    }
    return { stmts: out, cur, flagged };
  }

  private stmt(s: Stmt, ctx: Ctx): Out {
    const cur = ctx.cur;
    const same = (stmts: Stmt[]): Out => ({ stmts, cur, flagged: false });
    switch (s.kind) {
      case 'code': return same(this.code(s.block, ctx));
      case 'copy': {
        const guarded = cur !== null && !ctx.dead && !s.targets.every((t) => ctx.local?.has(t));
        for (const [i, t] of s.targets.entries()) {
          if (guarded || !this.uniform(s.sources[i] as ValueId)) this.found.add(t);
        }
        return same(guarded ? [this.guard(cur, [s])] : [s]);
      }
      case 'set-exit': case 'set-state': {
        if (cur !== null && !ctx.dead) {
          if (s.kind === 'set-exit') this.exitGuarded = true; else this.stateGuarded = true;
          return same([this.guard(cur, [s])]);
        }
        return same([s]);
      }
      case 'break': case 'continue': return this.jump(s, ctx);
      case 'return': case 'trap': return this.ret(s, ctx);
      case 'loop': return this.loop(s, ctx);
      default: return this.branch(s, ctx);
    }
  }

  /** A statement with no collective and no escape: it runs as one piece for active threads. */
  private whole(s: Stmt, ctx: Ctx): Out {
    this.markNonUniform(s);
    return { stmts: [ctx.cur === null ? s : this.guard(ctx.cur, [s])], cur: ctx.cur, flagged: false };
  }

  private branch(s: Extract<Stmt, { kind: 'if' | 'if-index' | 'if-exit' | 'if-state' }>, ctx: Ctx): Out {
    if (!this.needs(s)) return this.whole(s, ctx);
    if (this.keptIf(s)) {
      if (s.kind === 'if' || s.kind === 'if-index') {
        const a = this.list(s.then, ctx);
        const b = this.list(s.else, ctx);
        const flagged = a.flagged || b.flagged;
        return { stmts: [{ ...s, then: a.stmts, else: b.stmts }], cur: flagged ? this.afterEscape(ctx) : ctx.cur, flagged };
      }
      const a = this.list(s.body, ctx);
      return { stmts: [{ ...s, body: a.stmts }], cur: a.flagged ? this.afterEscape(ctx) : ctx.cur, flagged: a.flagged };
    }
    if (s.kind === 'if-exit' || s.kind === 'if-state') {
      // A divergent multi-level exit or irreducible dispatch: converge-steps.ts handles any CFG.
      this.inexact = true;
      this.changed = true;
      return this.whole(s, ctx);
    }
    this.changed = true;
    const pre: Stmt[] = [];
    const cond = s.kind === 'if' ? s.cond : this.indexEquals(pre, s.index, s.value);
    const onThen = this.and(pre, ctx.cur, cond);
    const onElse = this.and(pre, ctx.cur, this.not(pre, cond));
    // A side whose other side always returns (the early-exit idiom) only has returned threads
    // inactive besides the ones already inactive here: it stays "dead" and unpredicated.
    const arm = (list: readonly Stmt[], other: readonly Stmt[], act: ValueId): Out => {
      const dead = ctx.dead && !ctx.predicated && alwaysReturns(other);
      const local = !dead && ctx.dead && !ctx.predicated && ctx.loop === null ? this.paramsIn(list) : null;
      return this.list(list, { ...ctx, cur: act, dead, predicated: !dead, local });
    };
    this.checkBranch(s.then, s.else, ctx);
    const a = arm(s.then, s.else, onThen);
    const b = arm(s.else, s.then, onElse);
    const e = this.escapes(s);
    const escaped = e.ret || e.jump;
    return { stmts: [...pre, ...this.interleave(a.stmts, b.stmts)], cur: escaped ? this.afterEscape(ctx) : ctx.cur, flagged: escaped };
  }

  /**
   * A predicated branch is exact when the threads of a side without collectives meet no
   * collective afterwards either (they return, or nothing follows), or when both sides are
   * plain sequences with the same number of barriers (met phase by phase, see interleave()).
   */
  private checkBranch(a: readonly Stmt[], b: readonly Stmt[], ctx: Ctx): void {
    const ca = a.some((x) => this.hasCollective(x));
    const cb = b.some((x) => this.hasCollective(x));
    if (ca && cb) {
      const na = this.flatBarriers(a);
      if (na < 0 || na !== this.flatBarriers(b)) this.inexact = true;
      return;
    }
    if (!ca && !cb) return;
    const quiet = ca ? b : a;
    if (ctx.after && !alwaysReturns(quiet)) this.inexact = true;
  }

  /** Values defined in the blocks of loop `s` and used by blocks outside it. */
  private usedAfter(s: Stmt): Set<ValueId> {
    const inside = new Set<BlockId>();
    const walk = (l: readonly Stmt[]): void => { for (const x of l) { if (x.kind === 'code') inside.add(x.block); walk(children(x)); } };
    walk([s]);
    const out = new Set<ValueId>();
    for (const b of inside) {
      for (const id of this.fn.block(b).insts) {
        for (const r of this.fn.inst(id).results) {
          const outside = (this.uses().get(r) ?? []).some((u) => !inside.has(u.kind === 'inst' ? this.fn.inst(u.inst).block : u.block));
          if (outside) out.add(r);
        }
      }
    }
    return out;
  }

  /** Parameters of the blocks whose code is in `list`. */
  private paramsIn(list: readonly Stmt[]): Set<ValueId> {
    const out = new Set<ValueId>();
    const walk = (l: readonly Stmt[]): void => {
      for (const s of l) {
        if (s.kind === 'code') for (const p of this.fn.block(s.block).params) out.add(p);
        walk(children(s));
      }
    };
    walk(list);
    return out;
  }

  /** Barriers (sync/arrive) in top-level blocks of `list`, or -1 if it has other collectives. */
  private flatBarriers(list: readonly Stmt[]): number {
    let n = 0;
    for (const s of list) {
      if (s.kind !== 'code') { if (this.hasCollective(s)) return -1; continue; }
      for (const id of this.fn.block(s.block).insts) {
        const inst = this.fn.inst(id).inst;
        if (!isCollective(inst, this.cx)) continue;
        if (inst.op !== 'barrier' || inst.reduce !== null) return -1;
        n++;
      }
    }
    return n;
  }

  private loop(s: Extract<Stmt, { kind: 'loop' }>, ctx: Ctx): Out {
    if (!this.needs(s)) return this.whole(s, ctx);
    if (this.keptLoop(s, ctx.predicated)) {
      const again = this.hasCollective(s);
      const body = this.list(s.body, { ...ctx, loop: { pred: null, outer: ctx.loop }, after: ctx.after || again, afterIter: ctx.afterIter || again });
      return { stmts: [{ kind: 'loop', body: body.stmts }], cur: body.flagged ? this.afterEscape(ctx) : ctx.cur, flagged: body.flagged };
    }
    this.changed = true;
    const loopAct = this.variable();
    const iterAct = this.variable();
    this.found.add(loopAct).add(iterAct);
    const frame: LoopFrame = { pred: { loopAct, iterAct }, outer: ctx.loop };
    // Threads leave the loop at different iterations: exact only if none meets a collective afterwards.
    if (ctx.after) this.inexact = true;
    const keep = new Set([...ctx.keep, ...this.usedAfter(s)]);
    const body = this.list(s.body, { cur: iterAct, dead: false, predicated: true, loop: frame, after: true, afterIter: false, local: null, keep });
    const tail: Stmt[] = [];
    const any = this.emitInst(tail, { op: 'barrier', type: T.pred, kind: 'red', id: null, count: null, aligned: true, reduce: 'or', pred: loopAct, active: null });
    const stmts: Stmt[] = [
      { kind: 'copy', targets: [loopAct], sources: [ctx.cur ?? this.constant(true)] },
      { kind: 'loop', body: [{ kind: 'copy', targets: [iterAct], sources: [loopAct] }, ...body.stmts, ...tail, { kind: 'if', cond: any, then: [], else: [{ kind: 'break' }] }] },
    ];
    const escaped = this.escapes(s).ret;
    return { stmts, cur: escaped ? this.afterEscape(ctx) : ctx.cur, flagged: escaped };
  }

  private jump(s: Extract<Stmt, { kind: 'break' | 'continue' }>, ctx: Ctx): Out {
    const frame = ctx.loop;
    if (!frame) throw new Error(`ptx-wgsl internal error: ${s.kind} outside a loop`);
    if (frame.pred === null) return { stmts: [s], cur: ctx.cur, flagged: false };
    // A thread skipping the rest of an iteration would miss barriers the others meet.
    if (s.kind === 'continue' && ctx.afterIter) this.inexact = true;
    this.changed = true;
    const f = this.constant(false);
    const sets: Stmt[] = [{ kind: 'copy', targets: [frame.pred.iterAct], sources: [f] }];
    if (s.kind === 'break') sets.push({ kind: 'copy', targets: [frame.pred.loopAct], sources: [f] });
    return { stmts: [this.guard(ctx.cur, sets)], cur: this.afterEscape(ctx), flagged: true };
  }

  private ret(s: Extract<Stmt, { kind: 'return' | 'trap' }>, ctx: Ctx): Out {
    // A trap under a thread-dependent predicate records the trap for the threads that take it
    // and makes them inactive; returning there would take every thread with it.
    const divergentTrap = s.kind === 'trap' && ctx.cur !== null && (ctx.predicated || ctx.dead);
    if (!ctx.predicated && !divergentTrap) return { stmts: [s], cur: ctx.cur, flagged: false };
    this.changed = true;
    const f = this.constant(false);
    const sets: Stmt[] = [{ kind: 'copy', targets: [this.liveFlag()], sources: [f] }];
    if (s.kind === 'trap') sets.unshift({ kind: 'trap', at: s.at, continues: true });
    for (let l = ctx.loop; l; l = l.outer) {
      if (l.pred) sets.push({ kind: 'copy', targets: [l.pred.loopAct, l.pred.iterAct], sources: [f, f] });
    }
    return { stmts: [this.guard(ctx.cur, sets)], cur: this.afterEscape(ctx), flagged: true };
  }

  /** The active predicate after a construct some threads may have escaped from. */
  private afterEscape(ctx: Ctx): ValueId {
    let flag: ValueId | null = null;
    for (let l = ctx.loop; l && flag === null; l = l.outer) if (l.pred) flag = l.pred.iterAct;
    const pre: Stmt[] = [];
    const v = this.and(pre, ctx.cur, flag ?? this.liveFlag());
    this.pending.push(...pre);
    return v;
  }

  /** Statements computing predicates, flushed before the next statement (see list()). */
  private pending: Stmt[] = [];

  /**
   * A block in predicated code: pure instructions run for every thread, effects only for
   * active ones, each collective alone in uniform control flow with its `active` predicate.
   */
  private code(b: BlockId, ctx: Ctx): Stmt[] {
    const fn = this.fn;
    const ids = fn.block(b).insts;
    const kinds = ids.map((id) => {
      const inst = fn.inst(id).inst;
      if (isCollective(inst, this.cx)) return 'collective';
      // (keep is mostly empty: then no closure per instruction)
      return HAS_EFFECTS[inst.op] || (ctx.keep.size > 0 && fn.inst(id).results.some((r) => ctx.keep.has(r))) ? 'effect' : 'pure';
    });
    for (let i = 0; i < ids.length; i++) {
      const data = fn.inst(ids[i] as InstId);
      const uniform = kinds[i] === 'pure'
        ? pureUniform(data.inst) && !someOperand(data.inst, (v) => !this.uniform(v))
        : data.inst.op === 'barrier' && data.inst.reduce !== null;
      if (!uniform) for (const r of data.results) this.found.add(r);
    }
    if (ctx.cur === null || kinds.every((k) => k === 'pure')) return [{ kind: 'code', block: b }];
    this.changed = true;
    const out: Stmt[] = [];
    let run: { kind: string; ids: typeof ids[number][] } | null = null;
    const close = (): void => {
      if (!run) return;
      const nb = this.newBlock(run.ids);
      out.push(run.kind === 'effect' ? this.guard(ctx.cur, [{ kind: 'code', block: nb }]) : { kind: 'code', block: nb });
      run = null;
    };
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as InstId;
      const k = kinds[i] as string;
      if (k === 'collective') {
        close();
        const data = fn.inst(id);
        if (!this.dry && hasActiveField(data.inst) && (data.inst.op !== 'barrier' || data.inst.reduce !== null)) {
          data.inst = { ...data.inst, active: ctx.cur } as Inst;
        }
        run = { kind: k, ids: [id] };
        close();
        continue;
      }
      if (run && run.kind !== k) close();
      run ??= { kind: k, ids: [] };
      run.ids.push(id);
    }
    close();
    if (!this.dry) fn.block(b).insts = [];
    return out;
  }

  /**
   * Both sides of a predicated branch, in barrier phases when each is a plain sequence whose
   * only collectives are top-level barriers (sync/arrive): the k-th barrier of one side and
   * the k-th of the other are met as one (NVIDIA matches barrier arrivals by count, not by
   * position), so what one side writes before its k-th barrier is visible to the other side
   * after its k-th. A longer side's extra barriers follow alone. Otherwise the sides run one
   * after the other.
   */
  private interleave(a: Stmt[], b: Stmt[]): Stmt[] {
    if (this.dry) return [...a, ...b];
    const pa = this.phases(a);
    const pb = this.phases(b);
    if (!pa || !pb || pa.barriers.length === 0 || pb.barriers.length === 0) return [...a, ...b];
    const shared = Math.min(pa.barriers.length, pb.barriers.length);
    const out: Stmt[] = [];
    for (let k = 0; k < shared; k++) out.push(...(pa.parts[k] as Stmt[]), ...(pb.parts[k] as Stmt[]), pa.barriers[k] as Stmt);
    const rest = (p: { parts: Stmt[][]; barriers: Stmt[] }): Stmt[] =>
      p.parts.slice(shared).flatMap((part, j) => [...part, ...(p.barriers[shared + j] ? [p.barriers[shared + j] as Stmt] : [])]);
    out.push(...rest(pa), ...rest(pb));
    for (const s of pb.barriers.slice(0, shared)) if (s.kind === 'code') this.fn.block(s.block).insts = [];
    return out;
  }

  private phases(list: readonly Stmt[]): { parts: Stmt[][]; barriers: Stmt[] } | null {
    const parts: Stmt[][] = [[]];
    const barriers: Stmt[] = [];
    for (const s of list) {
      if (s.kind === 'code') {
        const insts = this.fn.block(s.block).insts.map((id) => this.fn.inst(id).inst);
        const only = insts[0];
        if (insts.length === 1 && only && only.op === 'barrier' && only.reduce === null) { barriers.push(s); parts.push([]); continue; }
      }
      if (this.hasCollectiveNew(s)) return null;
      (parts[parts.length - 1] as Stmt[]).push(s);
    }
    return { parts, barriers };
  }

  private hasCollectiveNew(s: Stmt): boolean {
    if (s.kind === 'code') return this.fn.block(s.block).insts.some((id) => isCollective(this.fn.inst(id).inst, this.cx));
    return children(s).some((c) => this.hasCollectiveNew(c));
  }

  // ---- building blocks ----

  private guard(cur: ValueId | null, stmts: Stmt[]): Stmt {
    this.changed = true;
    return cur === null ? { kind: 'if', cond: this.constant(true), then: stmts, else: [] } : { kind: 'if', cond: cur, then: stmts, else: [] };
  }

  private takePending(): Stmt[] {
    const p = this.pending;
    this.pending = [];
    return p;
  }

  private markNonUniform(s: Stmt): void {
    if (s.kind === 'code') { for (const id of this.fn.block(s.block).insts) for (const r of this.fn.inst(id).results) this.found.add(r); return; }
    if (s.kind === 'copy') for (const t of s.targets) this.found.add(t);
    if (s.kind === 'set-exit') this.exitGuarded = true;
    if (s.kind === 'set-state') this.stateGuarded = true;
    for (const c of children(s)) this.markNonUniform(c);
  }

  private fakeId(): ValueId {
    return valueId(-1 - this.fake++);
  }

  private holderBlock(): BlockId {
    if (this.holder === null) {
      this.holder = this.fn.addBlock();
      this.fn.block(this.holder).term = { op: 'unreachable', span: this.fn.span };
    }
    return this.holder;
  }

  private constant(b: boolean): ValueId {
    if (this.dry) return this.fakeId();
    const key = String(b);
    let v = this.consts.get(key);
    if (v === undefined) {
      v = this.fn.append(this.holderBlock(), { op: 'const', type: T.pred, bits: b ? 1n : 0n }, this.fn.span)[0] as ValueId;
      this.consts.set(key, v);
    }
    return v;
  }

  /** A function-scope boolean variable (a parameter of an unreachable holder block). */
  private variable(): ValueId {
    if (this.dry) return this.fakeId();
    return this.fn.addBlockParam(this.holderBlock(), T.pred);
  }

  private liveFlag(): ValueId {
    if (this.live === null) { this.live = this.variable(); this.found.add(this.live); }
    return this.live;
  }

  private newBlock(ids: readonly number[]): BlockId {
    if (this.dry) return blockId(-1);
    const b = this.fn.addBlock();
    this.fn.block(b).term = { op: 'unreachable', span: this.fn.span };
    for (const id of ids) this.fn.inst(id as never).block = b;
    this.fn.block(b).insts = [...ids] as never;
    return b;
  }

  /** Appends `inst` in a fresh block emitted at the current position; returns its result. */
  private emitInst(out: Stmt[], inst: Inst): ValueId {
    if (this.dry) return this.fakeId();
    const b = this.fn.addBlock();
    this.fn.block(b).term = { op: 'unreachable', span: this.fn.span };
    const [v] = this.fn.append(b, inst, this.fn.span);
    out.push({ kind: 'code', block: b });
    if (inst.op !== 'barrier') this.found.add(v as ValueId);
    return v as ValueId;
  }

  private and(out: Stmt[], a: ValueId | null, b: ValueId): ValueId {
    if (a === null) return b;
    return this.emitInst(out, { op: 'select', type: T.pred, cond: b, a, b: this.constant(false) });
  }

  private not(out: Stmt[], a: ValueId): ValueId {
    return this.emitInst(out, { op: 'iunary', kind: 'not', type: T.pred, value: a });
  }

  private indexEquals(out: Stmt[], index: ValueId, value: number): ValueId {
    if (this.dry) return this.fakeId();
    const type = this.fn.typeOf(index);
    const k = this.fn.append(this.holderBlock(), { op: 'const', type, bits: BigInt(value) }, this.fn.span)[0] as ValueId;
    return this.emitInst(out, { op: 'icmp', cond: 'eq', type: T.pred, a: index, b: k });
  }
}

function alwaysReturns(list: readonly Stmt[]): boolean {
  const last = list[list.length - 1];
  if (!last) return false;
  if (last.kind === 'return' || last.kind === 'trap') return true;
  return last.kind === 'if' && alwaysReturns(last.then) && alwaysReturns(last.else);
}

function children(s: Stmt): readonly Stmt[] {
  switch (s.kind) {
    case 'if': case 'if-index': return [...s.then, ...s.else];
    case 'loop': return s.body;
    case 'if-exit': case 'if-state': return s.body;
    default: return [];
  }
}

/** Pure instructions whose result WGSL considers uniform when their operands are. */
function pureUniform(inst: Inst): boolean {
  switch (inst.op) {
    case 'load': case 'address_of': case 'matrix_ldmatrix': return false;
    case 'special': return BLOCK_UNIFORM_SPECIALS.has(inst.register);
    default: return !HAS_EFFECTS[inst.op];
  }
}

export const converge: Pass = {
  name: 'converge',
  run(fn: IrFunction, cx: PassContext): void {
    const structured = fn.structured;
    if (!structured) return;
    const any = fn.blocks.some((b) => b.insts.some((id) => isCollective(fn.inst(id).inst, cx)));
    if (!any) return;
    // Built when a walk first needs it (a predicated loop), and before the walk that changes the
    // function: kernels whose collectives are all in uniform control flow never need it.
    let lists: ReadonlyMap<ValueId, readonly Use[]> | undefined;
    const uses = (): ReadonlyMap<ValueId, readonly Use[]> => (lists ??= useLists(fn));
    const nonUniform = new ValueFlags(fn.values.length);
    let exitNU = false;
    let stateNU = false;
    const facts = newTreeFacts();
    for (let round = 0; ; round++) {
      const w: Walk = new Walk(fn, cx, true, nonUniform, exitNU, stateNU, uses, facts);
      w.body(structured.body);
      let grown = (w.exitGuarded && !exitNU) || (w.stateGuarded && !stateNU);
      for (const v of w.found.added) if (!nonUniform.has(v)) { grown = true; break; }
      if (!grown) {
        if (!w.changed) return;
        // Counted barriers wait for arrivals from other steps, and mbarrier waits for updates
        // other threads make: only the step loop lets every thread advance while some wait.
        if (w.inexact || needsCounting(fn)) { fn.structured = { body: barrierSteps(fn, cx), usesExitFlag: false, usesStateMachine: false, entryState: fn.entry }; return; }
        break;
      }
      if (round > 1000) throw new Error('ptx-wgsl internal error: convergence analysis does not terminate');
      // the walk that read the set is done with it
      for (const v of w.found.added) nonUniform.add(v);
      exitNU ||= w.exitGuarded;
      stateNU ||= w.stateGuarded;
    }
    uses();
    const w: Walk = new Walk(fn, cx, false, nonUniform, exitNU, stateNU, uses);
    fn.structured = { ...structured, body: w.body(structured.body) };
  },
};
