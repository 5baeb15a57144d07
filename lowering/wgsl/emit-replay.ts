/**
 * Writes a replay region (replay-regions.ts plans them): its checked f32 arithmetic natively with
 * one test ANDed over the region, then, where the test fails, the region replayed exactly through
 * the exact fma: in a straight line for small regions, as a loop over a small program for large
 * ones.
 */
import type { InstId, ValueId } from '../../src/ir/entities.js';
import type { IrFunction, InstData } from '../../src/ir/function.js';
import { operandsOf, type Inst } from '../../src/ir/inst.js';
import type { ExprContext } from './expr-context.js';
import { fastArith, type CheckedArith } from './emit-float.js';
import type { ReplayRegion } from './replay-regions.js';
import { wgslType } from './types.js';

/**
 * 'on' where the checked f32 arithmetic would otherwise be inlined per operation, 'off' to inline
 * it, 'always' to replay every region (tests: the exact replay runs even on a device whose native
 * arithmetic is already exact), 'flushing' as 'on' with the regions' native arithmetic made to
 * flush subnormal operands and results (tests: what the checks must catch on NVIDIA's driver,
 * run on a device that keeps subnormals).
 */
export type ReplayMode = 'on' | 'off' | 'always' | 'flushing';

/** Lines taken out of the function's text, with the PTX source offset of each. */
export interface Cut { readonly lines: string[]; readonly offsets: number[] }

/** What writing a region needs of the function emitter (FunctionEmitter implements it). */
export interface ReplayHost extends ExprContext {
  readonly fn: IrFunction;
  /** Runs `write` positioned at the instruction, its all-constant operands as run-time lets. */
  positioned<T>(data: InstData, write: () => T): T;
  /** An instruction's value as an expression, its statements written first, as usual. */
  expressionOf(data: InstData): string | undefined;
  /**
   * Lets notSubnormal take `v` as known not subnormal (a checked result, while the region's fast
   * path is written); undefined ends every such assumption.
   */
  assumeNormal(v: ValueId | undefined): void;
  /** `vN = e;` or `let vN = e;`, as the value's home requires. */
  define(v: ValueId, expr: string): void;
  /** Refers to `v` by `text` from now on; undefined: as usual again. */
  rename(v: ValueId, text: string | undefined): void;
  indent(delta: number): void;
  readonly lineCount: number;
  /** Takes out the lines written from line `from` on. */
  cut(from: number): Cut;
  paste(cut: Cut): void;
}

const KIND_CODE: Readonly<Record<CheckedArith, number>> = { add: 0, sub: 1, mul: 2, fma: 3 };
/** Regions with more checked operations than this get no second chance (see secondChanceWanted). */
const SECOND_CHANCE_MAX = 32;
/**
 * Regions with at most this many checked operations replay as straight-line code (writeUnrolled);
 * larger ones as a loop, whose code does not grow with them: straight-line replays of n-body's
 * regions of about a hundred operations made it 22% slower on an H100.
 */
export const UNROLL_MAX = 32;

interface LoopPlan {
  readonly names: { readonly x: string; readonly prog: string; readonly k: string; readonly w: string; readonly d: string };
  readonly inputs: readonly ValueId[];
  readonly first: number;
  readonly slot: ReadonlyMap<ValueId, number>;
  readonly words: readonly string[];
  readonly caseCuts: readonly { id: number; cut: Cut }[];
}
/** 2^-100 as f32 bits: results below it (and zeros, NaNs) fail the test (round32.wgsl f32r_suspect). */
const TINY = 'bitcast<f32>(0x0d800000u)';

export class ReplayWriter {
  /** The region's test so far (a `let` chain), and whether some fma result equals its addend. */
  private ok: string | undefined;
  private eq: string | undefined;
  /** Values known not to be subnormal while the test holds (checked results). */
  private readonly safe = new Set<ValueId>();
  /** fma addends already tested for subnormals. */
  private readonly guarded = new Set<ValueId>();
  /** fma factors tested for subnormals only when `eq` holds. */
  private readonly deferred: ValueId[] = [];
  /** Per member, a test that also accepts exact zeros (the second chance before a replay). */
  private readonly second: string[] = [];

  /**
   * Whether the region gets the second chance: only where an exact zero is likely (an add or sub
   * of two computed values, which cancel exactly, x - max(x) in every softmax) and the region is
   * small. Its code sits in the rarely taken branch, but the driver still pays for its presence:
   * with it in every region, an H100 ran our shared-tiled SGEMM (fma chains, where a zero result
   * is rare) 24% slower.
   */
  private readonly secondChanceWanted: boolean;

  constructor(private readonly host: ReplayHost, readonly region: ReplayRegion, private readonly mode: ReplayMode) {
    const checked = region.members.filter((m) => m.arith);
    const cancels = checked.some((m) => (m.arith === 'add' || m.arith === 'sub') && operandsOf(host.fn.inst(m.inst).inst).every((v) => host.fn.defOf(v)?.op !== 'const'));
    this.secondChanceWanted = mode !== 'always' && cancels && checked.length <= SECOND_CHANCE_MAX;
  }

  /**
   * Writes a checked member natively with its part of the test; false for a member replayed by
   * its own text (the caller writes it as usual).
   *
   * The test fails for a result that is zero, below 2^-100 in magnitude or NaN (what a flushed
   * operand or result can make of it; an infinite result is right either way), and for a
   * subnormal fma addend that no checked result of the region vouches for. A subnormal factor,
   * flushed, leaves the addend as the result (or a zero or NaN the result test catches), so an
   * fma with an unvouched factor adds only `r == c` to a second chain, and the factors are tested
   * (in integers, two operations each) only when that chain holds: where a loaded factor feeds
   * each fma (a GEMM), one float compare per fma instead of two integer tests per factor.
   */
  member(id: InstId, data: InstData): boolean {
    const arith = this.region.members.find((m) => m.inst === id)?.arith;
    if (!arith) return false;
    const h = this.host;
    const { inst } = data;
    const r = data.results[0] as ValueId;
    h.positioned(data, () => {
      const tests: string[] = [];
      let addendCheck: string | undefined;
      if (inst.op === 'fma') {
        operandsOf(inst).forEach((v, i) => {
          if (this.safe.has(v) || this.normalConstant(v)) return;
          if (i < 2) {
            addendCheck = `(v${r} == ${h.ref(inst.c)})`;
            if (!this.deferred.includes(v)) this.deferred.push(v);
          } else if (!this.guarded.has(v)) {
            this.guarded.add(v);
            tests.push(`!${h.call('f32r_tiny_in', `bitcast<u32>(${h.ref(v)})`)}`);
          }
        });
      }
      const unvouched = operandsOf(inst).filter((v) => !this.safe.has(v) && !this.normalConstant(v));
      h.define(r, this.mode === 'flushing' ? this.flushingArith(inst, arith) : fastArith(h, inst, arith));
      tests.push(`(abs(v${r}) >= ${TINY})`);
      if (this.secondChanceWanted) this.second.push(this.secondChance(arith, operandsOf(inst), r, unvouched));
      this.safe.add(r);
      h.assumeNormal(r);
      const ok = h.temp('ok');
      h.line(`let ${ok} = ${[...(this.ok ? [this.ok] : []), ...tests].join(' & ')};`);
      this.ok = ok;
      if (addendCheck) {
        const eq = h.temp('eq');
        h.line(`let ${eq} = ${this.eq ? `${this.eq} | ` : ''}${addendCheck};`);
        this.eq = eq;
      }
    });
    return true;
  }

  /**
   * The replay, after the region's last member, where the test failed: every member again from
   * the region's inputs, each checked operation through one exact fma on bit patterns
   * (shaders/fma32.wgsl: add = fma(a, 1, b), mul = fma(a, b, -0)), each replayed instruction by
   * its own text. Up to UNROLL_MAX checked operations it is straight-line code; larger regions
   * run it as a program of (case, operand slots) words in a loop over one array, whose size in
   * code does not grow with the region.
   */
  finish(): void {
    const h = this.host;
    // the replay recomputes exactly what the test rejected: subnormals included
    h.assumeNormal(undefined);
    if (!this.ok) return;
    const checked = this.region.members.filter((m) => m.arith).length;
    // the loop's cases are written (and cut out) before the test that guards them
    const loop = checked <= UNROLL_MAX || this.region.collective ? undefined : this.loopCases();

    const tiny = this.deferred.map((v) => h.call('f32r_tiny_in', `bitcast<u32>(${h.ref(v)})`));
    const failed = this.eq && tiny.length > 0 ? `!${this.ok} || (${this.eq} && (${tiny.join(' | ')}))` : `!${this.ok}`;
    if (this.region.collective) { this.finishCollective(failed); return; }
    h.line(`if (${this.mode === 'always' ? 'true' : failed}) {`);
    h.indent(1);
    if (this.secondChanceWanted) {
      h.line(`if (!${this.secondChanceTest()}) {`);
      h.indent(1);
    }
    if (loop) this.writeLoop(loop); else this.writeUnrolled();
    if (this.secondChanceWanted) {
      h.indent(-1);
      h.line('}');
    }
    h.indent(-1);
    h.line('}');
  }

  /**
   * A collective region: each lane decides whether it failed (its second chance, where wanted,
   * only where its test failed), and the whole subgroup replays when any lane did. Lanes that hold
   * no data often make exact zeros (a block reduction's second stage adds 0 + 0 in the lanes past
   * the number of warps), which without the second chance replayed every warp's reduction: a row
   * layernorm ran 6.5 times slower on an H200.
   */
  private finishCollective(failed: string): void {
    const h = this.host;
    const fail = h.temp('fail');
    h.line(`var ${fail} = ${this.mode === 'always' ? 'true' : failed};`);
    if (this.secondChanceWanted) {
      h.line(`if (${fail}) {`);
      h.indent(1);
      h.line(`${fail} = !${this.secondChanceTest()};`);
      h.indent(-1);
      h.line('}');
    }
    h.line(`if (subgroupAny(${fail})) {`);
    h.indent(1);
    this.writeUnrolled();
    h.indent(-1);
    h.line('}');
  }

  /** Writes the second chance's `let` chain (every member exact after all: a zero that no flush could have made); its last name. */
  private secondChanceTest(): string {
    const h = this.host;
    let z = '';
    for (const term of this.second) {
      const t = h.temp('zs');
      h.line(`let ${t} = ${z ? `${z} & ` : ''}${term};`);
      z = t;
    }
    return z;
  }

  private readonly asBits = (v: ValueId, text: string): string => (wgslType(this.host.fn.typeOf(v)) === 'f32' ? `bitcast<u32>(${text})` : text);
  private readonly fromBits = (v: ValueId, text: string): string => (wgslType(this.host.fn.typeOf(v)) === 'f32' ? `bitcast<f32>(${text})` : text);

  /** The exact fma's operands for a checked operation on operand bits `ops` (add/sub/mul/fma). */
  private static fmaOperands(kind: CheckedArith, ops: readonly string[]): [string, string, string] {
    const [a, b, c] = ops as [string, string, string];
    switch (kind) {
      case 'add': return [a, '0x3f800000u', b];
      case 'sub': return [a, '0x3f800000u', `(${b} ^ 0x80000000u)`];
      case 'mul': return [a, b, '0x80000000u'];
      case 'fma': return [a, b, c];
    }
  }

  /**
   * Straight-line replay. An H100 ran a 5x5 convolution (one region of 25 fmas) at 1.73 ms per
   * launch this way and at 7.8 ms with the loop, although the loop never ran for all but 0.05%
   * of the threads: its arrays in local memory cost by their presence.
   */
  private writeUnrolled(): void {
    const h = this.host;
    const fn = h.fn;
    const bits = new Map<ValueId, string>();
    const of = (v: ValueId): string => bits.get(v) ?? this.asBits(v, h.ref(v));
    for (const m of this.region.members) {
      const data = fn.inst(m.inst);
      const result = data.results[0] as ValueId;
      const t = h.temp('rv');
      if (m.arith) {
        const re = h.temp('re');
        h.line(`let ${re} = ${h.call('f32_fma_exact', ...ReplayWriter.fmaOperands(m.arith, operandsOf(data.inst).map(of)))};`);
        h.line(`let ${t} = select(${re}, 0x7fffffffu, (${re} & 0x7fffffffu) > 0x7f800000u);`);
      } else {
        const read = [...new Set(operandsOf(data.inst).filter((v) => this.region.values.has(v)))];
        read.forEach((v) => h.rename(v, this.fromBits(v, bits.get(v) as string)));
        const expr = h.expressionOf(data) ?? '0u';
        for (const v of read) h.rename(v, undefined);
        h.line(`let ${t} = ${this.asBits(result, expr)};`);
      }
      bits.set(result, t);
    }
    for (const v of this.region.outputs) h.line(`v${v} = ${this.fromBits(v, bits.get(v) as string)};`);
  }

  /** The loop's replayed instructions, each its own case, written (and cut out) at the depth they will have. */
  private loopCases(): LoopPlan {
    const h = this.host;
    const fn = h.fn;
    const r = this.region;
    const slot = new Map<ValueId, number>();
    const inputs: ValueId[] = [];
    for (const m of r.members) {
      if (!m.arith) continue;
      for (const v of operandsOf(fn.inst(m.inst).inst)) if (!r.values.has(v) && !slot.has(v)) { slot.set(v, inputs.length); inputs.push(v); }
    }
    const first = inputs.length;
    r.members.forEach((m, k) => slot.set(fn.inst(m.inst).results[0] as ValueId, first + k));
    const names = { x: h.temp('rx'), prog: h.temp('rp'), k: h.temp('rk'), w: h.temp('rw'), d: h.temp('rd') };
    const word = (vs: readonly ValueId[]): number => vs.reduce((acc, v, i) => acc + (slot.get(v) as number) * 2 ** (10 * i), 0);

    // deduplicated by text
    const cases = new Map<string, number>();
    const caseCuts: { id: number; cut: Cut }[] = [];
    const words: string[] = [];
    h.indent(this.secondChanceWanted ? 5 : 4);
    for (const m of r.members) {
      const data = fn.inst(m.inst);
      if (m.arith) {
        words.push(`vec2<u32>(0u, ${(word(operandsOf(data.inst)) + KIND_CODE[m.arith] * 2 ** 30) >>> 0}u)`);
        continue;
      }
      const read = [...new Set(operandsOf(data.inst).filter((v) => r.values.has(v)))];
      read.forEach((v, i) => h.rename(v, this.fromBits(v, `${names.x}[(${names.w}.y >> ${10 * i}u) & 1023u]`)));
      const start = h.lineCount;
      const expr = h.expressionOf(data) ?? '0u';
      h.line(`${names.x}[${names.d}] = ${this.asBits(data.results[0] as ValueId, expr)};`);
      for (const v of read) h.rename(v, undefined);
      const cut = h.cut(start);
      const key = cut.lines.join('\n');
      let id = cases.get(key);
      if (id === undefined) { id = cases.size + 1; cases.set(key, id); caseCuts.push({ id, cut }); }
      words.push(`vec2<u32>(${id}u, ${word(read)}u)`);
    }
    h.indent(this.secondChanceWanted ? -5 : -4);
    return { names, inputs, first, slot, words, caseCuts };
  }

  /** The replay as a loop over a program (loopCases). */
  private writeLoop(plan: LoopPlan): void {
    const h = this.host;
    const r = this.region;
    const { names: { x, prog, k, w, d }, inputs, first, slot, words, caseCuts } = plan;
    h.line(`var ${x}: array<u32, ${first + r.members.length}>;`);
    inputs.forEach((v, i) => h.line(`${x}[${i}] = ${this.asBits(v, h.ref(v))};`));
    h.line(`var ${prog} = array<vec2<u32>, ${words.length}>(${words.join(', ')});`);
    h.line(`for (var ${k} = 0u; ${k} < ${words.length}u; ${k}++) {`);
    h.indent(1);
    h.line(`let ${w} = ${prog}[${k}];`);
    h.line(`let ${d} = ${k} + ${first}u;`);
    h.line(`switch ${w}.x {`);
    h.indent(1);
    h.line('case 0u: {');
    h.indent(1);
    const a = `${x}[${w}.y & 1023u]`, b = `${x}[(${w}.y >> 10u) & 1023u]`, c = `${x}[(${w}.y >> 20u) & 1023u]`, op = `(${w}.y >> 30u)`;
    // add: a * 1 + b; sub: a * 1 + (-b); mul: a * b + (-0), exact with the signs of zeros
    h.line(`let re = ${h.call('f32_fma_exact', a, `select(${b}, 0x3f800000u, ${op} < 2u)`, `select(select(0x80000000u, ${c}, ${op} == 3u), ${b} ^ select(0u, 0x80000000u, ${op} == 1u), ${op} < 2u)`)};`);
    h.line(`${x}[${d}] = select(re, 0x7fffffffu, (re & 0x7fffffffu) > 0x7f800000u);`);
    h.indent(-1);
    h.line('}');
    for (const { id, cut } of caseCuts) {
      h.line(`case ${id}u: {`);
      h.paste(cut);
      h.line('}');
    }
    h.line('default: {}');
    h.indent(-1);
    h.line('}');
    h.indent(-1);
    h.line('}');
    for (const v of r.outputs) h.line(`v${v} = ${this.fromBits(v, `${x}[${slot.get(v) as number}]`)};`);
  }

  /**
   * A member's test for the second chance, written where the region's test failed (so its cost
   * is off the fast path): the result test with every operand a flush could have changed tested
   * too, or a rule that proves the native result exact although it is zero or tiny. Real code
   * makes exact zeros often: `expf(x - max)` at the maximum subtracts equal values and then
   * multiplies and adds the zero, which failed the result test and replayed the region for one
   * element of every row (softmax on an H200: the replays cost a third of the kernel's time).
   * - add/sub: with an operand of magnitude >= 2^-100 the exact sum is zero or normal, and a
   *   subnormal other operand is below a quarter ulp of it: the native sum is the exact one.
   * - mul: a zero factor (its bits) makes the product a signed zero or NaN either way.
   * - fma: a zero factor leaves the addend, which a flush changes only if it is subnormal.
   * A NaN result is NVIDIA's canonical one only where the probe says so; elsewhere it replays.
   */
  private secondChance(kind: CheckedArith, ops: readonly ValueId[], r: ValueId, unvouched: readonly ValueId[]): string {
    const h = this.host;
    const ref = (v: ValueId): string => h.ref(v);
    const bits = (v: ValueId): string => `bitcast<u32>(${ref(v)})`;
    // constants are decided here: WGSL rejects a constant expression whose shift drops set bits
    const known = (v: ValueId): number | undefined => {
      const def = h.fn.defOf(v);
      return def?.op === 'const' ? Number(def.bits & 0xffffffffn) : undefined;
    };
    const zero = (v: ValueId): string => {
      const k = known(v);
      return k === undefined ? `((${bits(v)} << 1u) == 0u)` : String((k & 0x7fffffff) === 0);
    };
    const big = `(abs(v${r}) >= ${TINY})`;
    const [a, b, c] = ops as [ValueId, ValueId, ValueId];
    const normalIn = (v: ValueId): string => {
      const k = known(v);
      // f32r_tiny_in: a nonzero subnormal
      return k === undefined ? `!${h.call('f32r_tiny_in', bits(v))}` : String(!((k & 0x7f800000) === 0 && (k & 0x7fffff) !== 0));
    };
    let term: string;
    if (kind === 'add' || kind === 'sub') {
      term = `(max(max(abs(${ref(a)}), abs(${ref(b)})), abs(v${r})) >= ${TINY})`;
      // two zeros, or operands that cancel exactly (x + -x, x - x: both flushed alike if subnormal),
      // give an exact zero
      if (known(a) === undefined && known(b) === undefined) {
        const cancel = kind === 'add' ? `((${bits(a)} ^ ${bits(b)}) == 0x80000000u)` : `(${bits(a)} == ${bits(b)})`;
        term = `(${term} | (((${bits(a)} | ${bits(b)}) << 1u) == 0u) | ${cancel})`;
      }
    }
    else if (kind === 'mul') term = `(${big} | ${zero(a)} | ${zero(b)})`;
    else term = `((${[big, ...unvouched.map(normalIn)].join(' & ')}) | ((${zero(a)} | ${zero(b)}) & (${normalIn(c)} | ${zero(c)})))`;
    return h.nativeFloat.canonicalNaN ? term : `(${term} & !${h.call('f32r_isnan', `bitcast<u32>(v${r})`)})`;
  }

  /** The native operation as a flushing device computes it (ReplayMode 'flushing'). */
  private flushingArith(inst: Inst, arith: CheckedArith): string {
    const h = this.host;
    const ftz = (x: string): string => `bitcast<f32>(${h.call('f32r_ftz', `bitcast<u32>(${x})`)})`;
    // a fused fma exactly (the device running the test may not fuse), of flushed operands
    if (arith === 'fma') return ftz(`bitcast<f32>(${h.call('f32_fma_exact', ...operandsOf(inst).map((v) => h.call('f32r_ftz', `bitcast<u32>(${h.ref(v)})`)))})`);
    const ops = operandsOf(inst).map((v) => ftz(h.ref(v)));
    return ftz(`(${ops[0] as string} ${arith === 'add' ? '+' : arith === 'sub' ? '-' : '*'} ${ops[1] as string})`);
  }

  /** Whether `v` is a constant whose f32 bits are not subnormal (its test is known to pass). */
  private normalConstant(v: ValueId): boolean {
    const def = this.host.fn.defOf(v);
    if (def?.op !== 'const') return false;
    const bits = Number(def.bits & 0x7fffffffn);
    return bits === 0 || bits >= 0x800000;
  }
}
