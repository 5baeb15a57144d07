/**
 * `wmma.mma` without tensor cores: each thread computes the D elements its fragment holds,
 * D[i][j] = C[i][j] + sum over k of A[i][k] * B[k][j], reading A's row i, B's column j and
 * C[i][j] out of the fragments wherever the recorded layouts put them (wmma-gather.ts: shuffles,
 * none for what the thread holds itself), then ordinary IR arithmetic. Later passes see only
 * shfl and arithmetic.
 *
 * Arithmetic, as for mma (handlers-mma.ts), where the ISA fixes neither order nor precision:
 *  - f16/bf16/tf32 inputs widen exactly to f32 (tf32: the low 13 bits of each f32 ignored), so
 *    each product is exact; D = C + a0*b0 + a1*b1 + ... in increasing k, each addition rounded
 *    to nearest even in f32 (an .f16 C widened first; an .f16 D rounded to nearest even once);
 *  - f64: a chain of fma in increasing k, rounded as the instruction's `.rnd` says (.rn default);
 *  - s8/u8/s4/u4: exact dot products (dp4a over runs of four bytes, nibbles as bytes), C added
 *    modulo 2^32 or, with .satfinite, clamped to the s32 range;
 *  - b1: the number of set bits of (A row) AND/XOR (B column), plus C modulo 2^32.
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import { packLanes } from './handlers-float.js';
import { LaneTables } from './lane-table.js';
import { ELEMENT_BITS, type FragmentLayout, type WmmaAccumulator, type WmmaInput } from './wmma-fragments.js';
import { FragmentGather } from './wmma-gather.js';
import { WarpExchange } from './warp-exchange.js';

export interface WmmaMmaForm {
  readonly m: number; readonly n: number; readonly k: number;
  readonly input: WmmaInput;
  readonly d: WmmaAccumulator; readonly c: WmmaAccumulator;
  readonly a: FragmentLayout; readonly b: FragmentLayout;
  readonly dLayout: FragmentLayout; readonly cLayout: FragmentLayout;
  readonly satfinite: boolean;
  readonly rounding: 'rn' | 'rz' | 'rm' | 'rp';
  /** b1 only: the bit operation before the population count. */
  readonly bitOp: 'and' | 'xor' | null;
}

export class WmmaMma {
  private readonly x: WarpExchange;
  private readonly tables: LaneTables;
  private readonly widened = new Map<ValueId, ValueId>();

  constructor(private readonly cx: BuildContext, private readonly span: Ast.Instruction['span'], private readonly f: WmmaMmaForm) {
    this.x = new WarpExchange(cx, span);
    this.tables = new LaneTables(this.x);
  }

  /** D's registers from A's, B's and C's (i32 words; f32 for .f32 accumulators, f64 for .f64). */
  run(a: readonly ValueId[], b: readonly ValueId[], c: readonly ValueId[]): ValueId[] {
    const { f } = this;
    const inBits = ELEMENT_BITS[f.input];
    const A = new FragmentGather(this.x, this.tables, f.a, a, inBits);
    const B = new FragmentGather(this.x, this.tables, f.b, b, inBits);
    const C = new FragmentGather(this.x, this.tables, f.cLayout, c, ELEMENT_BITS[f.c]);
    const count = f.dLayout.regs * f.dLayout.per;
    const results: ValueId[] = [];
    for (let e = 0; e < count; e++) {
      const at = f.dLayout.at.map((row) => row[e] as number);
      const i = at.map((v) => Math.floor(v / f.n));
      const j = at.map((v) => v % f.n);
      const cv = this.accumulator(C.element(at));
      results.push(this.dot(A, B, i, j, cv));
    }
    return this.pack(results);
  }

  private get float(): boolean { return this.f.input === 'f16' || this.f.input === 'bf16' || this.f.input === 'tf32'; }

  private accumulator(bits: ValueId): ValueId {
    const { cx, f, span } = this;
    if (f.c === 'f16') return this.toF32(cx.emit({ op: 'bitcast', type: T.f16, value: cx.emit({ op: 'truncate', type: T.i16, value: bits }, span) }, span));
    if (f.c === 'f32') return cx.coerce(bits, T.f32, false, span);
    return bits;
  }

  private toF32(v: ValueId): ValueId {
    return this.cx.emit({ op: 'convert', type: T.f32, value: v, fromSigned: false, toSigned: false, rounding: 'default', sat: false, ftz: false }, this.span);
  }

  /** An input element (bits) as f32 (f64 stays). */
  private input(bits: ValueId): ValueId {
    const hit = this.widened.get(bits);
    if (hit !== undefined) return hit;
    const { cx, f, span, x } = this;
    let v: ValueId;
    if (f.input === 'f64') v = bits;
    else if (f.input === 'tf32') v = cx.emit({ op: 'bitcast', type: T.f32, value: x.bin('and', bits, x.k(0xffffe000)) }, span);
    else v = this.toF32(cx.emit({ op: 'bitcast', type: f.input === 'bf16' ? T.bf16 : T.f16, value: cx.emit({ op: 'truncate', type: T.i16, value: bits }, span) }, span));
    this.widened.set(bits, v);
    return v;
  }

  /** want tables of A[i][k] and B[k][j] for each lane. */
  private wantA = (i: readonly number[], k: number): number[] => i.map((r) => r * this.f.k + k);
  private wantB = (j: readonly number[], k: number): number[] => j.map((col) => k * this.f.n + col);

  private dot(A: FragmentGather, B: FragmentGather, i: readonly number[], j: readonly number[], c: ValueId): ValueId {
    const { cx, f, span } = this;
    if (!this.float && f.input !== 'f64') return this.intDot(A, B, i, j, c);
    // the product is exact in f32, so whether it is fused with the sum (contract-mul-add) does not matter
    let acc = c;
    for (let k = 0; k < f.k; k++) {
      const av = this.input(A.element(this.wantA(i, k)));
      const bv = this.input(B.element(this.wantB(j, k)));
      acc = f.input === 'f64'
        ? cx.emit({ op: 'fma', type: T.f64, a: av, b: bv, c: acc, rounding: f.rounding, ftz: false, sat: false }, span)
        : cx.emit({ op: 'fbinary', kind: 'add', type: T.f32, a: acc, b: cx.emit({ op: 'fbinary', kind: 'mul', type: T.f32, a: av, b: bv, rounding: 'default', ftz: false, sat: false }, span), rounding: 'default', ftz: false, sat: false }, span);
    }
    return acc;
  }

  /** The integer dot product over runs of one register's worth of k where the layouts allow, else element by element. */
  private intDot(A: FragmentGather, B: FragmentGather, i: readonly number[], j: readonly number[], c: ValueId): ValueId {
    const { f, x } = this;
    const per = f.a.per;
    let dot: ValueId = x.k(0);
    for (let k0 = 0; k0 < f.k; k0 += per) {
      const ks = Array.from({ length: per }, (_, s) => k0 + s);
      const aw = A.word32(ks.map((k) => this.wantA(i, k)));
      const bw = B.word32(ks.map((k) => this.wantB(j, k)));
      if (aw !== undefined && bw !== undefined) dot = this.wordDot(aw, bw, dot);
      else for (const k of ks) dot = x.bin('add', dot, this.product(A.element(this.wantA(i, k)), B.element(this.wantB(j, k))));
    }
    if (f.satfinite) return this.addSaturated(c, dot);
    return x.bin('add', c, dot);
  }

  /** dot + the dot product of two registers of `per` elements with the same k in the same places. */
  private wordDot(a: ValueId, b: ValueId, dot: ValueId): ValueId {
    const { cx, f, span, x } = this;
    const dp4a = (p: ValueId, q: ValueId, acc: ValueId, signed: boolean): ValueId =>
      cx.emit({ op: 'ibits', type: T.i32, fn: { kind: 'dp4a', aSigned: signed, bSigned: signed }, args: [p, q, acc] }, span);
    switch (f.input) {
      case 's8': case 'u8': return dp4a(a, b, dot, f.input === 's8');
      case 'u4': {
        const lo = (w: ValueId): ValueId => x.bin('and', w, x.k(0x0f0f0f0f));
        const hi = (w: ValueId): ValueId => x.bin('and', x.bin('shr_u', w, x.k(4)), x.k(0x0f0f0f0f));
        return dp4a(hi(a), hi(b), dp4a(lo(a), lo(b), dot, false), false);
      }
      case 's4': {
        // each nibble in the top of its byte: a signed byte 16 times the nibble; the sum is 256 times the dot product
        const lo = (w: ValueId): ValueId => x.bin('and', x.bin('shl', w, x.k(4)), x.k(0xf0f0f0f0));
        const hi = (w: ValueId): ValueId => x.bin('and', w, x.k(0xf0f0f0f0));
        const scaled = dp4a(hi(a), hi(b), dp4a(lo(a), lo(b), x.k(0), true), true);
        return x.bin('add', dot, x.bin('shr_s', scaled, x.k(8)));
      }
      default: {
        const bits = x.bin(f.bitOp === 'xor' ? 'xor' : 'and', a, b);
        return x.bin('add', dot, cx.emit({ op: 'iunary', kind: 'popc', type: T.i32, value: bits }, span));
      }
    }
  }

  /** One product of integer elements (their bits in the low bits of i32s). */
  private product(a: ValueId, b: ValueId): ValueId {
    const { f, x } = this;
    if (f.input === 'b1') return x.bin(f.bitOp === 'xor' ? 'xor' : 'and', a, b);
    const bits = ELEMENT_BITS[f.input];
    const signed = f.input === 's8' || f.input === 's4';
    const value = (v: ValueId): ValueId => (signed ? x.bin('shr_s', x.bin('shl', v, x.k(32 - bits)), x.k(32 - bits)) : v);
    return x.bin('mul', value(a), value(b));
  }

  /** c + dot clamped to the s32 range (overflow: c and dot of one sign, the sum of the other). */
  private addSaturated(c: ValueId, dot: ValueId): ValueId {
    const { cx, span, x } = this;
    const sum = x.bin('add', c, dot);
    const overflow = cx.emit({ op: 'icmp', type: T.pred, cond: 'slt', a: x.bin('and', x.bin('xor', sum, c), x.bin('xor', sum, dot)), b: x.k(0) }, span);
    const negative = cx.emit({ op: 'icmp', type: T.pred, cond: 'slt', a: c, b: x.k(0) }, span);
    const clamp = cx.emit({ op: 'select', type: T.i32, cond: negative, a: x.k(0x80000000), b: x.k(0x7fffffff) }, span);
    return cx.emit({ op: 'select', type: T.i32, cond: overflow, a: clamp, b: sum }, span);
  }

  /** D's elements into its registers: .f16 rounded to nearest even and packed in pairs. */
  private pack(results: readonly ValueId[]): ValueId[] {
    const { cx, f, span } = this;
    if (f.d !== 'f16') return [...results];
    const half = (v: ValueId): ValueId => cx.emit({ op: 'convert', type: T.f16, value: v, fromSigned: false, toSigned: false, rounding: 'rn', sat: false, ftz: false }, span);
    return Array.from({ length: f.dLayout.regs }, (_, r) => packLanes(cx, half(results[2 * r] as ValueId), half(results[2 * r + 1] as ValueId), span));
  }
}
