/**
 * Warp exchanges built from `shfl` during translation: the matrix instructions (ldmatrix,
 * stmatrix, movmatrix, mma, wmma) are warp-collective and each thread needs registers or
 * addresses that other lanes hold, so they become whole-warp indexed shuffles (`shfl.sync.idx`
 * with member mask 0xffffffff and c = 0x1f) plus ordinary arithmetic and memory accesses.
 * Later passes and both warp paths (subgroups, emulated) already know shfl, convergence
 * included. One exchange object serves one instruction: it emits %laneid once, caches the
 * lane expressions and never shuffles the same value from the same lane twice.
 */
import type { Span } from '../diagnostics/span.js';
import type { ValueId } from '../ir/entities.js';
import type { IntBinaryOp } from '../ir/inst.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';

export class WarpExchange {
  readonly lane: ValueId;
  private readonly exprs = new Map<string, ValueId>();
  private readonly shuffled = new Map<string, ValueId>();

  constructor(readonly cx: BuildContext, readonly span: Span) {
    this.lane = cx.emit({ op: 'special', type: T.i32, register: 'laneid', component: 0 }, span);
  }

  k(n: number | bigint): ValueId {
    return this.cx.constant(T.i32, BigInt(n), this.span);
  }

  bin(kind: IntBinaryOp, a: ValueId, b: ValueId, type: T.IrType = T.i32): ValueId {
    return this.cx.emit({ op: 'ibinary', kind, type, a, b }, this.span);
  }

  /** groupID (lane >> 2) and threadID_in_group (lane & 3) of the ISA's fragment figures. */
  get group(): ValueId { return this.memo('g', () => this.bin('shr_u', this.lane, this.k(2))); }
  get inGroup(): ValueId { return this.memo('t', () => this.bin('and', this.lane, this.k(3))); }

  /** A lane expression computed once per instruction, under `key`. */
  memo(key: string, build: () => ValueId): ValueId {
    let v = this.exprs.get(key);
    if (v === undefined) this.exprs.set(key, (v = build()));
    return v;
  }

  /** `base * scale + add` with constant scale and add, folded where they are trivial. */
  affine(base: ValueId, scale: number, add: number): ValueId {
    if (scale === 0) return this.k(add);
    const scaled = scale === 1 ? base : this.memo(`${base}*${scale}`, () => ((scale & (scale - 1)) === 0
      ? this.bin('shl', base, this.k(Math.log2(scale)))
      : this.bin('mul', base, this.k(scale))));
    return add === 0 ? scaled : this.memo(`${base}*${scale}+${add}`, () => this.bin('add', scaled, this.k(add)));
  }

  /** The value `value` (32 bits) of lane `src` (0..31) of this warp. */
  shuffle(value: ValueId, src: ValueId): ValueId {
    const key = `${value}@${src}`;
    let v = this.shuffled.get(key);
    if (v === undefined) {
      const word = this.cx.fn.typeOf(value) === T.i32 ? value : this.cx.coerce(value, T.i32, false, this.span);
      v = this.cx.emit({ op: 'shfl', type: T.i32, mode: 'idx', value: word, lane: src, clamp: this.k(0x1f), mask: this.k(-1), active: null }, this.span);
      this.shuffled.set(key, v);
    }
    return v;
  }

  /** A 32- or 64-bit value of lane `src`: 64-bit values travel as two words. */
  shuffleWide(value: ValueId, src: ValueId): ValueId {
    const t = this.cx.fn.typeOf(value);
    if (T.bitWidth(t) <= 32) return this.shuffle(value, src);
    const halves = this.memo(`w${value}`, () => this.cx.emit({ op: 'bitcast', type: T.vector(T.i32, 2), value }, this.span));
    const word = (index: number): ValueId => this.memo(`w${value}.${index}`, () => this.cx.emit({ op: 'extract', type: T.i32, value: halves, index }, this.span));
    const parts = [0, 1].map((index) => this.shuffle(word(index), src));
    const joined = this.cx.emit({ op: 'compose', type: T.vector(T.i32, 2), parts }, this.span);
    return this.cx.emit({ op: 'bitcast', type: t, value: joined }, this.span);
  }
}
