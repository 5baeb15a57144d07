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
import { HAS_EFFECTS, operandsOf, type Inst } from '../../src/ir/inst.js';
import type { Stmt } from '../../src/ir/structured.js';
import { useLists, type Use } from '../../src/ir/cfg.js';
import type { InstContext } from './expr-context.js';
import { emitInst } from './emit-inst.js';
import { constant } from './emit-data.js';
import { wgslType } from './types.js';
import { checkedArith, fastArith, type CheckedArith } from './emit-float.js';
import { planReplayRegions, type ReplayRegion } from './replay-regions.js';
import type { BlockId, InstId } from '../../src/ir/entities.js';
import type { InstData } from '../../src/ir/function.js';

/**
 * Replay regions (replay-regions.ts): 'on' where the checked f32 arithmetic would otherwise be
 * inlined per operation, 'off' to inline it, 'always' to replay every region (tests: the exact
 * replay runs even on a device whose native arithmetic is already exact).
 */
export type ReplayMode = 'on' | 'off' | 'always';

/** The state of the region being written: its test so far and the operands already guarded. */
interface RegionState {
  ok: string | undefined;
  /** Whether some fma result equals its addend (`eq` chain; see checkedMember). */
  eq: string | undefined;
  /** Values known not to be subnormal while the test holds (checked results). */
  readonly safe: Set<ValueId>;
  readonly guarded: Set<ValueId>;
  /** fma factors tested for subnormals only when `eq` holds. */
  readonly deferred: ValueId[];
}

const KIND_CODE: Readonly<Record<CheckedArith, number>> = { add: 0, sub: 1, mul: 2, fma: 3 };

export class FunctionEmitter implements InstContext {
  readonly lines: string[] = [];
  /** Per entry of `lines`: the PTX source offset of the instruction that wrote it, or -1 (statement tree, copies). */
  readonly lineOffsets: number[] = [];
  readonly library = new Set<string>();
  /** Whether the body traps: the kernel then binds the trap record (emit-module.ts). */
  traps = false;
  /** Why the compiler's own checks trap, by PTX source offset (KernelLayout.trapReasons). */
  readonly trapReasons = new Map<number, string>();
  private depth = 1;
  private temps = 0;
  private readonly vars = new Set<ValueId>();
  private readonly inlined = new Map<ValueId, string>();
  private span: Span = { start: 0, end: 0 };
  /** The span start of the instruction being emitted, -1 between instructions. */
  private at = -1;
  private uses = new Map<ValueId, readonly Use[]>();
  private results: readonly ValueId[] = [];

  constructor(readonly fn: IrFunction, private readonly diagnostics: Diagnostic[], readonly dynamicSmemBytes: string, readonly nativeFma: boolean, readonly nativeFloat: NativeFloat = NO_NATIVE_FLOAT, readonly subgroupOps = false, private readonly replay: ReplayMode = 'on') {
    this.classifyValues();
  }

  ref(v: ValueId): string {
    const inlined = this.inlined.get(v);
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
    this.lines.push('  '.repeat(this.depth) + text);
    this.lineOffsets.push(this.at);
  }

  temp(prefix: string): string {
    return `${prefix}_${this.temps++}`;
  }

  valueUnused(v: ValueId): boolean {
    return (this.uses.get(v)?.length ?? 0) === 0;
  }

  resultUnused(): boolean {
    return this.results.every((r) => this.valueUnused(r));
  }

  unsupported(what: string): string {
    this.diagnostics.push({ code: DiagnosticCode.LowerUnsupportedFeature, severity: 'error', span: this.span, message: `${what} is not supported yet` });
    return '0u';
  }

  /** `var` declarations for every value that crosses blocks. */
  declarations(): string[] {
    return [...this.vars].sort((a, b) => a - b).map((v) => `  var v${v}: ${wgslType(this.fn.typeOf(v))};`);
  }

  emitBody(body: readonly Stmt[]): void {
    for (const s of body) this.stmt(s);
  }

  private classifyValues(): void {
    const fn = this.fn;
    for (const b of fn.blockIds()) for (const p of fn.block(b).params) this.vars.add(p);
    const uses = useLists(fn);
    this.uses = uses;
    for (const [v, list] of uses) {
      const def = fn.value(v).def;
      if (def.kind !== 'inst') continue;
      const data = fn.inst(def.inst);
      if (data.inst.op === 'const') { this.inlined.set(v, constant(data.inst.type, data.inst.bits, (n, ...a) => this.call(n, ...a))); continue; }
      const home = data.block;
      const crosses = list.some((u) => (u.kind === 'inst' ? fn.inst(u.inst).block !== home : u.block !== home));
      if (crosses) this.vars.add(v);
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
    const regions = this.replay === 'off' ? [] : planReplayRegions(this.fn, insts, this.uses, (i) => checkedArith(this, i), this.replay === 'always' ? 1 : undefined);
    const regionOf = new Map<InstId, ReplayRegion>();
    for (const r of regions) for (const m of r.members) regionOf.set(m.inst, r);
    for (const r of regions) for (const v of r.outputs) this.vars.add(v);
    const states = new Map<ReplayRegion, RegionState>();
    for (const id of insts) {
      const data = this.fn.inst(id);
      const r = regionOf.get(id);
      const arith = r?.members.find((m) => m.inst === id)?.arith;
      if (!r || !arith) this.inst(data.inst, data.results, data.span);
      else {
        let state = states.get(r);
        if (!state) states.set(r, (state = { ok: undefined, eq: undefined, safe: new Set(), guarded: new Set(), deferred: [] }));
        this.checkedMember(state, data, arith);
      }
      if (r && r.last === id) this.replayRegion(r, states.get(r));
    }
  }

  /**
   * A checked operation in a region: the native result and the region's test. The test fails
   * for a result that is zero, below 2^-100 in magnitude or NaN (what a flushed operand or
   * result can make of it, round32.wgsl f32r_suspect; an infinite result is right either way),
   * and for a subnormal fma addend that no checked result of the region vouches for. A
   * subnormal factor, flushed, leaves the addend as the result (or a zero or NaN the result test
   * catches), so each fma with an unvouched factor adds only `r == c` to a second chain, and the
   * factors themselves are tested (in integers, two operations each) only when that chain holds:
   * where a loaded factor feeds each fma (a GEMM), that is one float compare per fma instead of
   * two integer tests per factor.
   */
  private checkedMember(state: RegionState, data: InstData, arith: CheckedArith): void {
    const { inst, results, span } = data;
    const r = results[0] as ValueId;
    this.span = span;
    this.at = span.end > 0 ? span.start : -1;
    this.results = results;
    const constants = this.constantOperands(inst);
    const tests: string[] = [];
    let addendCheck: string | undefined;
    if (arith === 'fma') {
      operandsOf(inst).forEach((v, i) => {
        if (state.safe.has(v) || this.normalConstant(v)) return;
        if (i < 2) {
          addendCheck = `(v${r} == ${this.ref(inst.op === 'fma' ? inst.c : v)})`;
          if (!state.deferred.includes(v)) state.deferred.push(v);
          return;
        }
        if (state.guarded.has(v)) return;
        state.guarded.add(v);
        tests.push(`!${this.call('f32r_tiny_in', `bitcast<u32>(${this.ref(v)})`)}`);
      });
    }
    const expr = fastArith(this, inst, arith);
    this.line(this.vars.has(r) ? `v${r} = ${expr};` : `let v${r} = ${expr};`);
    tests.push(`(abs(v${r}) >= bitcast<f32>(0x0d800000u))`);
    state.safe.add(r);
    const ok = this.temp('ok');
    this.line(`let ${ok} = ${[...(state.ok ? [state.ok] : []), ...tests].join(' & ')};`);
    state.ok = ok;
    if (addendCheck) {
      const eq = this.temp('eq');
      this.line(`let ${eq} = ${state.eq ? `${state.eq} | ` : ''}${addendCheck};`);
      state.eq = eq;
    }
    for (const v of constants) this.inlined.delete(v);
    this.at = -1;
  }

  /** Whether `v` is a constant whose f32 bits are not subnormal (its test is known to pass). */
  private normalConstant(v: ValueId): boolean {
    const def = this.fn.defOf(v);
    if (def?.op !== 'const') return false;
    const bits = Number(def.bits & 0x7fffffffn);
    return bits === 0 || bits >= 0x800000;
  }

  /**
   * The replay of a region whose test failed: its inputs and results in one array, its members
   * as a program of (case, operand slots) words run by a loop. Case 0 is every checked
   * operation, through one exact fma on bit patterns (shaders/fma32.wgsl); each other case is
   * a replayed instruction's own text, its member operands read from the slots of its word.
   */
  private replayRegion(r: ReplayRegion, state: RegionState | undefined): void {
    if (!state?.ok) return;
    const slot = new Map<ValueId, number>();
    const inputs: ValueId[] = [];
    for (const m of r.members) {
      if (!m.arith) continue;
      for (const v of operandsOf(this.fn.inst(m.inst).inst)) if (!r.values.has(v) && !slot.has(v)) { slot.set(v, inputs.length); inputs.push(v); }
    }
    const first = inputs.length;
    r.members.forEach((m, k) => slot.set(this.fn.inst(m.inst).results[0] as ValueId, first + k));
    const x = this.temp('rx'), prog = this.temp('rp'), k = this.temp('rk'), w = this.temp('rw'), d = this.temp('rd');
    const word = (vs: readonly ValueId[]): number => vs.reduce((acc, v, i) => acc + (slot.get(v) as number) * 2 ** (10 * i), 0);
    const cases = new Map<string, number>();
    const caseLines: { id: number; lines: string[]; offsets: number[] }[] = [];
    const words: string[] = [];
    const savedDepth = this.depth;
    this.depth += 4;
    for (const m of r.members) {
      const data = this.fn.inst(m.inst);
      if (m.arith) {
        const ops = operandsOf(data.inst);
        words.push(`vec2<u32>(0u, ${(word(ops) + KIND_CODE[m.arith] * 2 ** 30) >>> 0}u)`);
        continue;
      }
      const read = [...new Set(operandsOf(data.inst).filter((v) => r.values.has(v)))];
      read.forEach((v, i) => {
        const bits = `${x}[(${w}.y >> ${10 * i}u) & 1023u]`;
        this.inlined.set(v, wgslType(this.fn.typeOf(v)) === 'f32' ? `bitcast<f32>(${bits})` : bits);
      });
      const start = this.lines.length;
      const expr = this.instExpr(data.inst, data.results, data.span) ?? '0u';
      const result = data.results[0] as ValueId;
      this.line(`${x}[${d}] = ${wgslType(this.fn.typeOf(result)) === 'f32' ? `bitcast<u32>(${expr})` : expr};`);
      this.at = -1;
      for (const v of read) this.inlined.delete(v);
      const lines = this.lines.splice(start);
      const offsets = this.lineOffsets.splice(start);
      const key = lines.join('\n');
      let id = cases.get(key);
      if (id === undefined) { id = cases.size + 1; cases.set(key, id); caseLines.push({ id, lines, offsets }); }
      words.push(`vec2<u32>(${id}u, ${word(read)}u)`);
    }
    this.depth = savedDepth;
    const size = first + r.members.length;
    const tiny = state.deferred.map((v) => this.call('f32r_tiny_in', `bitcast<u32>(${this.ref(v)})`));
    const failed = state.eq && tiny.length > 0 ? `!${state.ok} || (${state.eq} && (${tiny.join(' | ')}))` : `!${state.ok}`;
    this.line(`if (${this.replay === 'always' ? 'true' : failed}) {`);
    this.depth++;
    this.line(`var ${x}: array<u32, ${size}>;`);
    inputs.forEach((v, i) => this.line(`${x}[${i}] = ${wgslType(this.fn.typeOf(v)) === 'f32' ? `bitcast<u32>(${this.ref(v)})` : this.ref(v)};`));
    this.line(`var ${prog} = array<vec2<u32>, ${words.length}>(${words.join(', ')});`);
    this.line(`for (var ${k} = 0u; ${k} < ${words.length}u; ${k}++) {`);
    this.depth++;
    this.line(`let ${w} = ${prog}[${k}];`);
    this.line(`let ${d} = ${k} + ${first}u;`);
    this.line(`switch ${w}.x {`);
    this.depth++;
    this.line('case 0u: {');
    this.depth++;
    const a = `${x}[${w}.y & 1023u]`, b = `${x}[(${w}.y >> 10u) & 1023u]`, c = `${x}[(${w}.y >> 20u) & 1023u]`, op = `(${w}.y >> 30u)`;
    // add: a * 1 + b; sub: a * 1 + (-b); mul: a * b + (-0), exact with the signs of zeros
    this.line(`let re = ${this.call('f32_fma_exact', a, `select(${b}, 0x3f800000u, ${op} < 2u)`, `select(select(0x80000000u, ${c}, ${op} == 3u), ${b} ^ select(0u, 0x80000000u, ${op} == 1u), ${op} < 2u)`)};`);
    this.line(`${x}[${d}] = select(re, 0x7fffffffu, (re & 0x7fffffffu) > 0x7f800000u);`);
    this.depth--;
    this.line('}');
    for (const cl of caseLines) {
      this.line(`case ${cl.id}u: {`);
      cl.lines.forEach((l, i) => { this.lines.push(l); this.lineOffsets.push(cl.offsets[i] ?? -1); });
      this.line('}');
    }
    this.line('default: {}');
    this.depth--;
    this.line('}');
    this.depth--;
    this.line('}');
    for (const v of r.outputs) {
      const bits = `${x}[${slot.get(v) as number}]`;
      this.line(`v${v} = ${wgslType(this.fn.typeOf(v)) === 'f32' ? `bitcast<f32>(${bits})` : bits};`);
    }
    this.depth--;
    this.line('}');
  }

  private inst(inst: Inst, results: readonly ValueId[], span: Span): void {
    if (inst.op === 'const') return;
    const expr = this.instExpr(inst, results, span);
    const r = results[0];
    if (r !== undefined && expr !== undefined) this.line(this.vars.has(r) ? `v${r} = ${expr};` : `let v${r} = ${expr};`);
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
