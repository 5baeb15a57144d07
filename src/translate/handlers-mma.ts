/**
 * `mma.sync.aligned` (ISA "Warp-level matrix multiply-accumulate instructions: mma") without
 * tensor cores: each thread computes its own D fragment elements D[g + 8mi][2t + j] from the
 * whole row of A and column of B it needs, gathered from the lanes that hold them with
 * whole-warp shuffles (warp-exchange.ts; fragment layouts in matrix-fragments.ts), then a loop
 * over k unrolled into ordinary IR arithmetic. Later passes see only shfl, loads, arithmetic.
 *
 * Forms (all `.row.col`):
 *  - m16n8k16 and m16n8k8 with .f16 inputs (D and C both .f16 or both .f32) and with .bf16 inputs
 *    (.f32 accumulators); m16n8k8 and m16n8k4 with .tf32 inputs (.f32 accumulators);
 *  - m16n8k32, m16n8k16 and m8n8k16 with .s8/.u8 inputs (each of A and B either), .s32
 *    accumulators, with or without .satfinite;
 *  - m8n8k4 with .f64.
 * Arithmetic, where the ISA leaves it open (it documents neither the order of the sums nor their
 * internal precision):
 *  - f16/bf16/tf32: inputs widen exactly to f32, so every product is exact in f32 (at most
 *    11-bit significands; bf16 and tf32 products of huge or tiny values may leave f32's range,
 *    which the hardware does not document either). D = C + a0*b0 + a1*b1 + ... in increasing k,
 *    each addition rounded to nearest even in f32 (.f16 C widened exactly first; .f16 D is the
 *    f32 result rounded to nearest even). tf32 operands are f32 bit patterns of which the low
 *    13 bits are ignored (truncated), as the tensor cores read them. The hardware adds with
 *    more internal precision, so results may differ from it in the last bits of f32.
 *  - f64: D = fma(a3, b3, fma(a2, b2, fma(a1, b1, fma(a0, b0, C)))), each .rn.
 *  - s8/u8: exact; the products sum into 32 bits (|sum| < 2^22 for k <= 32), then C is added
 *    wrapping modulo 2^32, or with .satfinite clamped to the s32 range.
 * Everything else (other shapes and types, sparse `.sp`, `.kind::`, block scaling) is L001
 * naming the instruction as written; a fragment with the wrong register count is L002.
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { notSupported, operand, unsupported } from './handler.js';
import { packLanes, unpackLanes } from './handlers-float.js';
import { registerList } from './handlers-matrix.js';
import { accumulator, mmaShape, sources, type AccumulatorFragment, type MmaInput, type MmaShape, type Source } from './matrix-fragments.js';
import { WarpExchange } from './warp-exchange.js';

interface MmaForm {
  readonly shape: MmaShape;
  readonly a: MmaInput;
  readonly b: MmaInput;
  /** Accumulator types: D and C. */
  readonly d: 'f16' | 'f32' | 'f64' | 's32';
  readonly c: 'f16' | 'f32' | 'f64' | 's32';
  readonly satfinite: boolean;
}

const INPUTS: ReadonlySet<string> = new Set(['f16', 'bf16', 'tf32', 'f64', 's8', 'u8']);

/** The accumulator types an input type allows (ISA syntax blocks). */
function accumulatorsOk(a: MmaInput, d: string, c: string): boolean {
  if (a === 'f16') return (d === 'f16' || d === 'f32') && c === d;
  if (a === 'f64') return d === 'f64' && c === 'f64';
  if (a === 's8' || a === 'u8') return d === 's32' && c === 's32';
  return d === 'f32' && c === 'f32';
}

/** The form of `inst`, or undefined after an L001 saying what is supported. */
function mmaForm(cx: BuildContext, inst: Ast.Instruction): MmaForm | undefined {
  const m = inst.modifiers;
  const [d, a, b, c] = m.types;
  const fail = (note: string): undefined => { notSupported(cx, inst, note); return undefined; };
  if (!m.sync || !m.aligned) return fail('mma needs `.sync.aligned`');
  if ((m.extra ?? []).length > 0) return fail('sparse, `.kind::` and block-scaled mma are not');
  if (m.types.length !== 4 || !a || !b || !d || !c || !INPUTS.has(a) || !INPUTS.has(b)) return fail('mma inputs are .f16, .bf16, .tf32, .f64, .s8 or .u8');
  const int = (t: string): boolean => t === 's8' || t === 'u8';
  if (a !== b && !(int(a) && int(b))) return fail('A and B of different types are .s8/.u8 only');
  if (m.layouts?.join('.') !== 'row.col') return fail('only `.row.col` is');
  const shape = m.shape ? mmaShape(m.shape, a as MmaInput) : undefined;
  if (!shape) return fail(`shape .${m.shape ?? '?'} with .${a} inputs is not`);
  if (!accumulatorsOk(a as MmaInput, d, c)) return fail(`.${a} inputs with .${d} D and .${c} C are not`);
  if (m.satfinite && !int(a)) return fail('`.satfinite` with floating-point inputs is not');
  if (m.rounding !== undefined && a !== 'f64') return fail('a rounding modifier is .f64 only');
  return { shape, a: a as MmaInput, b: b as MmaInput, d: d as MmaForm['d'], c: c as MmaForm['c'], satfinite: !!m.satfinite };
}

function fragmentOf(shape: MmaShape, t: MmaForm['d']): AccumulatorFragment {
  return accumulator(shape.m, t === 'f16');
}

/** The register operands of `inst`'s operand i, checked against the fragment's count. */
function registers(cx: BuildContext, inst: Ast.Instruction, i: number, count: number): readonly Ast.Operand[] | undefined {
  const list = registerList(operand(inst, i));
  if (list.length === count) return list;
  unsupported(cx, inst, `needs ${count} registers in operand ${i + 1} (it has ${list.length})`);
  return undefined;
}

/** Lowers one mma: gathers, computes and writes D. */
class MmaLowering {
  private readonly x: WarpExchange;
  private readonly elements = new Map<string, ValueId>();

  constructor(private readonly cx: BuildContext, private readonly inst: Ast.Instruction, private readonly f: MmaForm) {
    this.x = new WarpExchange(cx, inst.span);
  }

  private get s(): Ast.Instruction['span'] { return this.inst.span; }

  /** Register r of lane 4g + t (A: the thread's own row group). */
  private aWord(regs: readonly ValueId[], src: Source): ValueId {
    const x = this.x;
    const quad = x.memo('quad', () => x.bin('and', x.lane, x.k(~3)));
    const lane = src.t === 0 ? quad : x.memo(`a${src.t}`, () => x.bin('or', quad, x.k(src.t)));
    return x.shuffleWide(regs[src.r] as ValueId, lane);
  }

  /** Register r of lane 4(2t + j) + t' (B: column 2t + j). */
  private bWord(regs: readonly ValueId[], j: number, src: Source): ValueId {
    const x = this.x;
    const lane = x.memo(`b${j}.${src.t}`, () => x.affine(x.inGroup, 8, 4 * j + src.t));
    return x.shuffleWide(regs[src.r] as ValueId, lane);
  }

  /** Element s of a gathered register as an f32 (f64 for .f64). */
  private element(word: ValueId, s: number, t: MmaInput): ValueId {
    const key = `${word}.${s}`;
    const hit = this.elements.get(key);
    if (hit !== undefined) return hit;
    const cx = this.cx;
    let v: ValueId;
    if (t === 'f64') v = word;
    else if (t === 'tf32') {
      const bits = cx.emit({ op: 'ibinary', kind: 'and', type: T.i32, a: word, b: cx.constant(T.i32, 0xffffe000n, this.s) }, this.s);
      v = cx.emit({ op: 'bitcast', type: T.f32, value: bits }, this.s);
    } else {
      const half = unpackLanes(cx, word, t === 'bf16' ? T.bf16 : T.f16, this.s)[s] as ValueId;
      v = this.widen(half);
    }
    this.elements.set(key, v);
    return v;
  }

  private widen(half: ValueId): ValueId {
    return this.cx.emit({ op: 'convert', type: T.f32, value: half, fromSigned: false, toSigned: false, rounding: 'default', sat: false, ftz: false }, this.s);
  }

  /** C's elements by position (mi, j), as f32/f64/s32 values. */
  private accumulators(regs: readonly ValueId[]): Map<string, ValueId> {
    const frag = fragmentOf(this.f.shape, this.f.c);
    const out = new Map<string, ValueId>();
    for (let r = 0; r < frag.regs; r++) {
      const halves = frag.perReg === 2 ? unpackLanes(this.cx, regs[r] as ValueId, T.f16, this.s) : undefined;
      for (let s = 0; s < frag.perReg; s++) {
        const { mi, j } = frag.at(r, s);
        out.set(`${mi}.${j}`, halves ? this.widen(halves[s] as ValueId) : (regs[r] as ValueId));
      }
    }
    return out;
  }

  /** D[g + 8mi][2t + j] = C + sum over k of A[g + 8mi][k] * B[k][2t + j]. */
  private dot(a: readonly ValueId[], b: readonly ValueId[], c: ValueId, mi: number, j: number): ValueId {
    const { cx, f } = this;
    const srcA = sources(f.shape.a, f.shape.m / 8, f.shape.k)[mi] as Source[];
    const srcB = sources(f.shape.b, 1, f.shape.k)[0] as Source[];
    if (f.a === 's8' || f.a === 'u8') return this.intDot(a, b, c, j, srcA, srcB);
    let acc = c;
    for (let k = 0; k < f.shape.k; k++) {
      const av = this.element(this.aWord(a, srcA[k] as Source), (srcA[k] as Source).s, f.a);
      const bv = this.element(this.bWord(b, j, srcB[k] as Source), (srcB[k] as Source).s, f.b);
      acc = f.a === 'f64'
        ? cx.emit({ op: 'fma', type: T.f64, a: av, b: bv, c: acc, rounding: 'rn', ftz: false, sat: false }, this.s)
        : this.fadd(acc, cx.emit({ op: 'fbinary', kind: 'mul', type: T.f32, a: av, b: bv, rounding: 'default', ftz: false, sat: false }, this.s));
    }
    return acc;
  }

  private fadd(a: ValueId, b: ValueId): ValueId {
    return this.cx.emit({ op: 'fbinary', kind: 'add', type: T.f32, a, b, rounding: 'default', ftz: false, sat: false }, this.s);
  }

  /** Four bytes of A and of B at a time (dp4a: their k are the same in the same byte order). */
  private intDot(a: readonly ValueId[], b: readonly ValueId[], c: ValueId, j: number, srcA: Source[], srcB: Source[]): ValueId {
    const { cx, f } = this;
    let dot = cx.constant(T.i32, 0n, this.s);
    for (let k = 0; k < f.shape.k; k += 4) {
      const sa = srcA[k] as Source;
      const sb = srcB[k] as Source;
      const args = [this.aWord(a, sa), this.bWord(b, j, sb), dot];
      dot = cx.emit({ op: 'ibits', type: T.i32, fn: { kind: 'dp4a', aSigned: f.a === 's8', bSigned: f.b === 's8' }, args }, this.s);
    }
    return f.satfinite ? this.addSaturated(c, dot) : cx.emit({ op: 'ibinary', kind: 'add', type: T.i32, a: c, b: dot }, this.s);
  }

  /** c + dot clamped to the s32 range (overflow: c and dot of one sign, the sum of the other). */
  private addSaturated(c: ValueId, dot: ValueId): ValueId {
    const { cx, s } = this;
    const bin = (kind: 'add' | 'xor' | 'and', x: ValueId, y: ValueId): ValueId => cx.emit({ op: 'ibinary', kind, type: T.i32, a: x, b: y }, s);
    const zero = cx.constant(T.i32, 0n, s);
    const sum = bin('add', c, dot);
    const overflow = cx.emit({ op: 'icmp', type: T.pred, cond: 'slt', a: bin('and', bin('xor', sum, c), bin('xor', sum, dot)), b: zero }, s);
    const negative = cx.emit({ op: 'icmp', type: T.pred, cond: 'slt', a: c, b: zero }, s);
    const clamp = cx.emit({ op: 'select', type: T.i32, cond: negative, a: cx.constant(T.i32, 0x80000000n, s), b: cx.constant(T.i32, 0x7fffffffn, s) }, s);
    return cx.emit({ op: 'select', type: T.i32, cond: overflow, a: clamp, b: sum }, s);
  }

  run(): void {
    const { cx, inst, f } = this;
    const dFrag = fragmentOf(f.shape, f.d);
    const cFrag = fragmentOf(f.shape, f.c);
    const d = registers(cx, inst, 0, dFrag.regs);
    const aOps = registers(cx, inst, 1, f.shape.a.regs);
    const bOps = registers(cx, inst, 2, f.shape.b.regs);
    const cOps = registers(cx, inst, 3, cFrag.regs);
    if (!d || !aOps || !bOps || !cOps) return;
    const wordType = (t: MmaInput): T.IrType => (t === 'f64' ? T.f64 : T.i32);
    const a = aOps.map((o) => cx.read(o, wordType(f.a)));
    const b = bOps.map((o) => cx.read(o, wordType(f.b)));
    const cType = f.c === 'f32' ? T.f32 : f.c === 'f64' ? T.f64 : T.i32;
    const c = this.accumulators(cOps.map((o) => cx.read(o, cType)));
    const results = new Map<string, ValueId>();
    for (const [key, cv] of c) {
      const [mi, j] = key.split('.').map(Number) as [number, number];
      results.set(key, this.dot(a, b, cv, mi, j));
    }
    this.write(d, dFrag, results);
  }

  private write(d: readonly Ast.Operand[], frag: AccumulatorFragment, results: Map<string, ValueId>): void {
    const { cx, s } = this;
    const at = (r: number, e: number): ValueId => { const { mi, j } = frag.at(r, e); return results.get(`${mi}.${j}`) as ValueId; };
    d.forEach((op, r) => {
      if (frag.perReg === 1) { cx.write(op, at(r, 0)); return; }
      const half = (e: number): ValueId => cx.emit({ op: 'convert', type: T.f16, value: at(r, e), fromSigned: false, toSigned: false, rounding: 'rn', sat: false, ftz: false }, s);
      cx.write(op, packLanes(cx, half(0), half(1), s));
    });
  }
}

export const mma: Handler = (cx, inst) => {
  const form = mmaForm(cx, inst);
  if (form) new MmaLowering(cx, inst, form).run();
};
