/**
 * Reading a matrix element out of a wmma fragment held across the warp: each thread names,
 * per lane, the element it wants (a table of indices row * cols + col, wmma-fragments.ts), and
 * gets it from the lane and register that hold it, by a whole-warp shuffle (none where every
 * lane holds its own). A fragment may hold an element twice (NVIDIA's f16 inputs do): the
 * holder nearest the thread's own lane (fewest differing lane bits) is taken, so tables stay
 * simple. When lanes would need different registers, each register is shuffled and a select on
 * the lane picks the right one.
 */
import type { ValueId } from '../ir/entities.js';
import * as T from '../ir/types.js';
import type { FragmentLayout } from './wmma-fragments.js';
import type { LaneTables } from './lane-table.js';
import type { WarpExchange } from './warp-exchange.js';

interface Holder { readonly lane: number; readonly e: number }

/** A fragment's registers in one thread plus where each element is. */
export class FragmentGather {
  private readonly holders = new Map<number, Holder[]>();
  private readonly identity = Array.from({ length: 32 }, (_, l) => l);

  constructor(
    private readonly x: WarpExchange,
    private readonly tables: LaneTables,
    readonly layout: FragmentLayout,
    /** The fragment's registers: i32 words (f64 values for .f64). */
    readonly regs: readonly ValueId[],
    /** Element bits (64 for f64). */
    readonly bits: number,
  ) {
    layout.at.forEach((row, lane) => row.forEach((index, e) => {
      const list = this.holders.get(index) ?? [];
      list.push({ lane, e });
      this.holders.set(index, list);
    }));
  }

  /** Whether every wanted element is in the fragment. */
  has(want: readonly number[]): boolean {
    return want.every((i) => this.holders.has(i));
  }

  /** The nearest holder of `index` to `lane` among those with element e (any e if undefined). */
  private nearest(index: number, lane: number, e?: number): Holder | undefined {
    let best: Holder | undefined;
    for (const h of this.holders.get(index) ?? []) {
      if (e !== undefined && h.e !== e) continue;
      if (!best || (h.lane ^ lane) < (best.lane ^ lane)) best = h;
    }
    return best;
  }

  /** Register `r` of the lanes in `from` (the thread's own where from is the identity). */
  private word(r: number, from: readonly number[]): ValueId {
    const reg = this.regs[r] as ValueId;
    if (from.every((l, i) => l === this.identity[i])) return reg;
    return this.x.shuffleWide(reg, this.tables.get(from));
  }

  /** Bits of element s of a register word (i32), or the word itself for whole registers. */
  private piece(word: ValueId, s: number): ValueId {
    if (this.bits >= 32) return word;
    return this.x.memo(`piece ${word}.${s}.${this.bits}`, () => {
      const x = this.x;
      const shifted = s === 0 ? word : x.bin('shr_u', word, x.k(s * this.bits));
      return this.bits === 32 - s * this.bits ? shifted : x.bin('and', shifted, x.k(2 ** this.bits - 1));
    });
  }

  /** The element want[lane] of this fragment, as its bits (i32; f64 for .f64). */
  element(want: readonly number[]): ValueId {
    const per = this.layout.per;
    // a register element every lane can use
    const shared = this.layout.at[0]?.map((_, e) => e).find((e) => want.every((i, l) => this.nearest(i, l, e)));
    if (shared !== undefined) {
      const from = want.map((i, l) => (this.nearest(i, l, shared) as Holder).lane);
      return this.piece(this.word(Math.floor(shared / per), from), shared % per);
    }
    // lanes need different registers: one shuffle per register used, a select per lane group
    const chosen = want.map((i, l) => this.nearest(i, l) as Holder);
    const groups = new Map<number, number[]>();
    chosen.forEach((h, l) => groups.set(h.e, [...(groups.get(h.e) ?? []), l]));
    const x = this.x;
    let result: ValueId | undefined;
    for (const [e, lanes] of groups) {
      const from = chosen.map((h) => h.lane);
      const v = this.piece(this.word(Math.floor(e / per), from), e % per);
      if (result === undefined) { result = v; continue; }
      const mask = lanes.reduce((m, l) => (m | (1 << l)) >>> 0, 0);
      const inGroup = x.cx.emit({ op: 'icmp', type: T.pred, cond: 'ne', a: x.bin('and', x.bin('shr_u', x.k(mask), x.lane), x.k(1)), b: x.k(0) }, x.span);
      result = x.cx.emit({ op: 'select', type: x.cx.fn.typeOf(v), cond: inGroup, a: v, b: result }, x.span);
    }
    return result as ValueId;
  }

  /**
   * A whole register word whose elements s = 0..per-1 are want[s][lane] for every lane, if one
   * register element lines up so for all lanes (dp4a, popc over runs of k), else undefined.
   */
  word32(want: readonly (readonly number[])[]): ValueId | undefined {
    const per = this.layout.per;
    const first = want[0] as readonly number[];
    for (let r = 0; r < this.layout.regs; r++) {
      const from: number[] = [];
      const ok = first.every((index, l) => {
        const h = this.nearest(index, l, r * per);
        if (!h) return false;
        from.push(h.lane);
        const held = this.layout.at[h.lane] as readonly number[];
        return want.every((w, s) => held[r * per + s] === w[l]);
      });
      if (ok) return this.word(r, from);
    }
    return undefined;
  }
}
