/**
 * Writes the body of a kernel's WGSL entry point by walking the structured statement tree.
 * Values used only in their own block become `let`s at their definition; values crossing
 * blocks and block parameters become function-scope `var`s (WGSL scopes follow the tree,
 * not dominance); constants are inlined.
 */
import { NO_NATIVE_FLOAT, type NativeFloat } from './native-float.js';
import { DiagnosticCode, type Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { Span } from '../../src/diagnostics/span.js';
import type { ValueId } from '../../src/ir/entities.js';
import type { IrFunction } from '../../src/ir/function.js';
import { HAS_EFFECTS, operandsOf, someOperand, type Inst } from '../../src/ir/inst.js';
import type { Stmt } from '../../src/ir/structured.js';
import * as T from '../../src/ir/types.js';
import type { InstContext } from './expr-context.js';
import { emitInst } from './emit-inst.js';
import { constant } from './emit-data.js';
import { wgslType } from './types.js';
import { checkedArith } from './emit-float.js';
import { planReplayRegions, type ReplayRegion } from './replay-regions.js';
import { ReplayWriter, UNROLL_MAX, type Cut, type ReplayHost, type ReplayMode } from './emit-replay.js';
import { warpPaths } from './emit-warp.js';
import { u32Range } from '../value-range.js';
import type { BlockId, InstId } from '../../src/ir/entities.js';
import type { InstData } from '../../src/ir/function.js';

export type { ReplayMode } from './emit-replay.js';

/**
 * Instructions whose WGSL never writes the emulated warp exchange area (ptx_warp) nor waits at a
 * barrier, plus shfl itself, which keeps track of what it published (emit-warp.ts).
 */
const KEEPS_WARP_AREA: ReadonlySet<Inst['op']> = new Set<Inst['op']>([
  'const', 'undef', 'bitcast', 'extract', 'compose', 'ibinary', 'iunary', 'ibits', 'mul_wide', 'icmp', 'extend', 'truncate',
  'fbinary', 'fma', 'funary', 'fcmp', 'convert', 'select', 'special', 'kernel_param', 'address_of', 'cvta', 'load', 'store', 'shfl',
]);

/** Indentation by depth, made once rather than per line. */
const INDENTS: readonly string[] = Array.from({ length: 16 }, (_, depth) => '  '.repeat(depth));

export class FunctionEmitter implements InstContext, ReplayHost {
  readonly lines: string[] = [];
  /** Per entry of `lines`: the PTX source offset of the instruction that wrote it, or -1 (statement tree, copies). */
  readonly lineOffsets: number[] = [];
  readonly library = new Set<string>();
  /** Whether the body traps: the kernel then binds the trap record (emit-module.ts). */
  traps = false;
  /** Why the compiler's own checks trap, by PTX source offset (KernelLayout.trapReasons). */
  readonly trapReasons = new Map<number, string>();
  readonly publishedWarpValues: ValueId[] = [];
  private depth = 1;
  private temps = 0;
  private readonly vars = new Set<ValueId>();
  private readonly inlined = new Map<ValueId, string>();
  /**
   * Values whose instruction writes nothing but another value's `let` (a bitcast between types
   * that are one WGSL type, an f16 read from its i16 bits): they are that let. Kept apart from
   * `inlined`, which replay regions rename and restore.
   */
  private readonly aliases = new Map<ValueId, string>();
  /** Checked results of the replay region being written (notSubnormal). */
  private readonly assumedNormal = new Set<ValueId>();
  private span: Span = { start: 0, end: 0 };
  /** The block whose instructions are being emitted: its `let`s are in scope. */
  private block: BlockId | undefined;
  /** The span start of the instruction being emitted, -1 between instructions. */
  private at = -1;
  /**
   * Uses of each value by value id (an operand used twice counts twice; edge arguments count
   * as their terminator's). Counts, not use lists: the lists were 6% of what a compile of the
   * repository's kernels allocates (issue 13).
   */
  private useCounts: Int32Array = new Int32Array(0);
  private results: readonly ValueId[] = [];

  constructor(readonly fn: IrFunction, private readonly diagnostics: Diagnostic[], readonly dynamicSmemBytes: string, readonly nativeFma: boolean, readonly nativeFloat: NativeFloat = NO_NATIVE_FLOAT, readonly subgroupOps = false, private readonly replay: ReplayMode = 'on') {
    this.classifyValues();
  }

  ref(v: ValueId): string {
    const inlined = this.inlined.get(v) ?? this.aliases.get(v);
    if (inlined !== undefined) return inlined;
    // Constants only the statement tree uses (converge's flags and states) are inlined too.
    const def = this.fn.defOf(v);
    return def?.op === 'const' ? constant(def.type, def.bits, (n, ...a) => this.call(n, ...a)) : `v${v}`;
  }

  typeOf(v: ValueId): import('../../src/ir/types.js').IrType {
    return this.fn.typeOf(v);
  }

  call(name: string, ...args: string[]): string {
    this.library.add(name);
    return `${name}(${args.join(', ')})`;
  }

  line(text: string): void {
    this.lines.push((INDENTS[this.depth] ?? '  '.repeat(this.depth)) + text);
    this.lineOffsets.push(this.at);
  }

  temp(prefix: string): string {
    return `${prefix}_${this.temps++}`;
  }

  notSubnormal(v: ValueId): boolean {
    if (this.assumedNormal.has(v)) return true;
    const def = this.fn.defOf(v);
    if (def?.op === 'funary' && (def.kind === 'abs' || def.kind === 'neg')) return def.ftz || this.notSubnormal(def.value);
    // PTX flushes subnormal results of .ftz arithmetic, however the emitter computes them
    return (def?.op === 'fbinary' && def.kind !== 'div') || def?.op === 'fma' ? def.ftz && T.isFloat(def.type, 32) : false;
  }

  addressParts(v: ValueId): { readonly base: ValueId; readonly bytes: number; readonly noWrap: boolean } {
    let base = v;
    let bytes = 0;
    for (;;) {
      const def = this.fn.defOf(base);
      if (def?.op !== 'ibinary' || def.kind !== 'add' || !T.isInt(def.type, 32)) break;
      const c = [def.b, def.a].find((x) => this.fn.defOf(x)?.op === 'const');
      const next = c === def.b ? def.a : def.b;
      const k = c === undefined ? undefined : this.fn.defOf(c);
      if (k?.op !== 'const' || !this.inScope(next)) break;
      base = next;
      bytes = (bytes + Number(BigInt.asIntN(32, k.bits))) | 0;
    }
    const r = u32Range(this.fn, base);
    return { base, bytes, noWrap: r !== undefined && r[0] + bytes >= 0 && r[1] + bytes < 2 ** 32 };
  }

  /** Whether `v` can be referenced in the block being emitted (a var, a constant, or a `let` of it). */
  private inScope(v: ValueId): boolean {
    if (this.vars.has(v) || this.inlined.has(v)) return true;
    const def = this.fn.value(v).def;
    return def.kind === 'inst' && this.fn.inst(def.inst).block === this.block;
  }

  assumeNormal(v: ValueId | undefined): void {
    if (v === undefined) this.assumedNormal.clear();
    else this.assumedNormal.add(v);
  }

  valueUnused(v: ValueId): boolean {
    return (this.useCounts[v] ?? 0) === 0;
  }

  resultUnused(): boolean {
    return this.results.every((r) => this.valueUnused(r));
  }

  unsupported(what: string): string {
    this.diagnostics.push({ code: DiagnosticCode.LowerUnsupportedFeature, severity: 'error', span: this.span, message: `${what} is not supported yet` });
    return '0u';
  }

  /** `var` declarations for every value that crosses blocks (a packed array: see emitKernel). */
  declarations(): string[] {
    const out: string[] = [];
    for (const v of [...this.vars].sort((a, b) => a - b)) out.push(`  var v${v}: ${wgslType(this.fn.typeOf(v))};`);
    return out;
  }

  emitBody(body: readonly Stmt[]): void {
    for (const s of body) this.stmt(s);
  }

  private classifyValues(): void {
    const fn = this.fn;
    for (const b of fn.blockIds()) for (const p of fn.block(b).params) this.vars.add(p);
    // Each value's uses are counted, and whether one is outside the block of its definition
    // noted, in one walk; values are then classified in the order of their first use.
    const counts = new Int32Array(fn.values.length);
    const crosses = new Uint8Array(fn.values.length);
    const order: ValueId[] = [];
    const use = (v: ValueId, at: BlockId): void => {
      const n = counts[v] ?? 0;
      if (n === 0) order.push(v);
      counts[v] = n + 1;
      const def = fn.value(v).def;
      if (def.kind === 'inst' && fn.inst(def.inst).block !== at) crosses[v] = 1;
    };
    // an instruction's operands through someOperand, without operandsOf's array
    let usingBlock = fn.entry;
    const usedAt = (v: ValueId): boolean => { use(v, usingBlock); return false; };
    for (const b of fn.blockIds()) {
      const block = fn.block(b);
      for (const id of block.insts) {
        const data = fn.inst(id);
        usingBlock = data.block;
        someOperand(data.inst, usedAt);
      }
      const t = block.term;
      if (!t) continue;
      if (t.op === 'branch') use(t.cond, b);
      if (t.op === 'switch') use(t.index, b);
      if (t.op === 'return') for (const x of t.values) use(x, b);
      for (const s of fn.successors(b)) for (const x of s.args) use(x, b);
    }
    this.useCounts = counts;
    for (const v of order) {
      const def = fn.value(v).def;
      if (def.kind !== 'inst') continue;
      const data = fn.inst(def.inst);
      if (data.inst.op === 'const') { this.inlined.set(v, constant(data.inst.type, data.inst.bits, (n, ...a) => this.call(n, ...a))); continue; }
      if (crosses[v]) this.vars.add(v);
    }
  }

  private stmt(s: Stmt): void {
    switch (s.kind) {
      case 'code': this.code(s.block); break;
      case 'copy': this.copy(s.targets, s.sources); break;
      case 'if': this.nested(`if (${this.ref(s.cond)}) {`, s.then, s.else); break;
      case 'if-index': this.nested(`if (${this.ref(s.index)} == ${s.value}u) {`, s.then, s.else); break;
      case 'loop': this.nested('loop {', s.body, []); break;
      case 'break': this.line('break;'); break;
      case 'continue': this.line('continue;'); break;
      case 'return': this.line('return;'); break;
      case 'trap':
        this.line(`ptx_trap(${s.at}u);`);
        if (!s.continues) this.line('return;');
        this.traps = true;
        if (s.reason) this.trapReasons.set(s.at, s.reason);
        break;
      case 'set-exit': this.line(`ptx_exit = ${s.target}u;`); break;
      case 'if-exit': this.nested(`if (ptx_exit == ${s.target}u) {`, s.body, []); break;
      case 'set-state': this.line(`ptx_state = ${s.block}u;`); break;
      case 'if-state': this.nested(`if (ptx_state == ${s.block}u) {`, s.body, []); break;
    }
  }

  private nested(head: string, body: readonly Stmt[], otherwise: readonly Stmt[]): void {
    this.line(head);
    this.depth++;
    this.emitBody(body);
    this.depth--;
    if (otherwise.length) {
      this.line('} else {');
      this.depth++;
      this.emitBody(otherwise);
      this.depth--;
    }
    this.line('}');
  }

  /**
   * WGSL evaluates an expression whose operands are all constants when the shader is created,
   * and rejects it where PTX computes a value at run time: a non-finite float (`3e38f * 10.0f`,
   * `1.0f / 0.0f`), `log2(0.0f)`, `sqrt(-1.0f)`, a bitcast to an infinity. A pure instruction
   * whose operands are all constants reads them from `let`s of run-time values. A `let` is
   * enough for Tint, but naga evaluates lets of constants too (and, in a module with overrides,
   * mis-evaluates a constructor of their elements such as `vec2<u32>(a.x, a.y)`: "Entry point
   * ... is invalid"), so each is a select on a uniform word it cannot know (%nctaid.x is never
   * 0). Returns the values whose text it replaced (restored after the instruction).
   */
  private constantOperands(inst: Inst): ValueId[] {
    if (HAS_EFFECTS[inst.op]) return [];
    const ops = operandsOf(inst);
    if (ops.length === 0 || ops.some((v) => this.fn.defOf(v)?.op !== 'const')) return [];
    const replaced = [...new Set(ops)];
    for (const v of replaced) {
      const name = this.temp('imm');
      const c = this.ref(v);
      this.line(`let ${name} = select(${c}, ${c}, ptx_launch[0].x == 0u);`);
      this.inlined.set(v, name);
    }
    return replaced;
  }

  /** A parallel copy: through temporaries when a source is also a target. */
  private copy(targets: readonly ValueId[], sources: readonly ValueId[]): void {
    const pairs = targets.map((t, i) => [t, sources[i] as ValueId] as const).filter(([t, s]) => t !== s);
    const targetSet = new Set(targets);
    const clash = pairs.some(([, s]) => targetSet.has(s));
    if (!clash) { for (const [t, s] of pairs) this.line(`v${t} = ${this.ref(s)};`); return; }
    const tmps = pairs.map(([, s]) => { const n = this.temp('copy'); this.line(`let ${n} = ${this.ref(s)};`); return n; });
    pairs.forEach(([t], i) => this.line(`v${t} = ${tmps[i] as string};`));
  }

  /** A block's instructions, its checked f32 arithmetic grouped into replay regions. */
  private code(block: BlockId): void {
    const insts = this.fn.block(block).insts;
    this.block = block;
    const regions = this.replay === 'off' ? [] : planReplayRegions(this.fn, insts, this.useCounts, (i) => checkedArith(this, i), this.replay === 'always' ? 1 : undefined, warpPaths.get(this.fn) === 'subgroups' ? UNROLL_MAX : 0);
    const writerOf = new Map<InstId, ReplayWriter>();
    for (const r of regions) {
      const writer = new ReplayWriter(this, r, this.replay);
      for (const m of r.members) writerOf.set(m.inst, writer);
      for (const v of r.outputs) this.vars.add(v);
    }
    // A block may be entered from elsewhere, so what ptx_warp holds is known only from within it.
    this.publishedWarpValues.length = 0;
    for (const id of insts) {
      const data = this.fn.inst(id);
      const writer = writerOf.get(id);
      // Replayed regions may write their lines twice or out of order: no reuse across them.
      if (writer || !KEEPS_WARP_AREA.has(data.inst.op)) this.publishedWarpValues.length = 0;
      if (!writer || !writer.member(id, data)) this.inst(data.inst, data.results, data.span);
      if (writer?.region.last === id) writer.finish();
      if (writer) this.publishedWarpValues.length = 0;
    }
  }

  // ReplayHost (emit-replay.ts)

  positioned<T>(data: InstData, write: () => T): T {
    this.span = data.span;
    this.at = data.span.end > 0 ? data.span.start : -1;
    this.results = data.results;
    const constants = this.constantOperands(data.inst);
    const out = write();
    for (const v of constants) this.inlined.delete(v);
    this.at = -1;
    return out;
  }

  expressionOf(data: InstData): string | undefined {
    const expr = this.instExpr(data.inst, data.results, data.span);
    this.at = -1;
    return expr;
  }

  define(v: ValueId, expr: string): void {
    this.line(this.vars.has(v) ? `v${v} = ${expr};` : `let v${v} = ${expr};`);
  }

  rename(v: ValueId, text: string | undefined): void {
    if (text === undefined) this.inlined.delete(v);
    else this.inlined.set(v, text);
  }

  indent(delta: number): void {
    this.depth += delta;
  }

  get lineCount(): number {
    return this.lines.length;
  }

  cut(from: number): Cut {
    return { lines: this.lines.splice(from), offsets: this.lineOffsets.splice(from) };
  }

  paste(cut: Cut): void {
    this.lines.push(...cut.lines);
    this.lineOffsets.push(...cut.offsets);
  }

  private inst(inst: Inst, results: readonly ValueId[], span: Span): void {
    if (inst.op === 'const') return;
    const expr = this.instExpr(inst, results, span);
    const r = results[0];
    // a let that would only copy another let (both used in this block alone) is that let
    const copied = r !== undefined && expr !== undefined && !this.vars.has(r) ? /^v(\d+)$/.exec(expr) : null;
    if (copied && !this.vars.has(Number(copied[1]) as ValueId)) this.aliases.set(r as ValueId, expr as string);
    else if (r !== undefined && expr !== undefined) this.line(this.vars.has(r) ? `v${r} = ${expr};` : `let v${r} = ${expr};`);
    else if (expr) this.line(`_ = ${expr};`);
    this.at = -1;
  }

  /** An instruction's value as an expression, after any statements it needs written first. */
  private instExpr(inst: Inst, results: readonly ValueId[], span: Span): string | undefined {
    this.span = span;
    // A span of (0, 0) is an instruction the compiler made up, with no PTX line of its own.
    this.at = span.end > 0 ? span.start : -1;
    this.results = results;
    const constants = this.constantOperands(inst);
    const expr = emitInst(this, inst);
    for (const v of constants) this.inlined.delete(v);
    return expr;
  }
}
