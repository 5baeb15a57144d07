/**
 * A table of 32 small non-negative integers, one per lane, known at translation time, as IR
 * computed from %laneid: wmma's recorded fragment layouts give each lane its rows, columns and
 * source lanes as such tables. The forms tried, cheapest first:
 *  - a constant;
 *  - another table already built plus a constant (columns c, c + 1, ... of one row);
 *  - XOR-linear in the lane's bits (NVIDIA's layouts mostly are): bit b of the lane moves to
 *    the bits of image(b); lane bits moved by the same shift share one shift and one mask;
 *  - anything else: bit c of the value is bit `lane` of a 32-bit constant, for each c.
 * One LaneTables serves one instruction and builds each distinct table once.
 */
import type { ValueId } from '../ir/entities.js';
import type { WarpExchange } from './warp-exchange.js';

export class LaneTables {
  private readonly built = new Map<string, { values: readonly number[]; id: ValueId }>();

  constructor(private readonly x: WarpExchange) {}

  /** The value `values[%laneid]`. */
  get(values: readonly number[]): ValueId {
    const key = values.join(',');
    const hit = this.built.get(key);
    if (hit) return hit.id;
    const id = this.build(values);
    this.built.set(key, { values, id });
    return id;
  }

  private build(values: readonly number[]): ValueId {
    const x = this.x;
    const first = values[0] as number;
    if (values.every((v) => v === first)) return x.k(first);
    for (const { values: other, id } of this.built.values()) {
      const d = first - (other[0] as number);
      if (values.every((v, l) => v - (other[l] as number) === d)) return d > 0 ? x.bin('add', id, x.k(d)) : x.bin('sub', id, x.k(-d));
    }
    return this.linear(values) ?? this.bitwise(values);
  }

  /** values[l] = values[0] ^ XOR of image(b) over the set bits b of l, if it is so. */
  private linear(values: readonly number[]): ValueId | undefined {
    const origin = values[0] as number;
    const image = [0, 1, 2, 3, 4].map((b) => (values[1 << b] as number) ^ origin);
    for (let l = 0; l < 32; l++) {
      const v = image.reduce((acc, im, b) => ((l >> b) & 1 ? acc ^ im : acc), origin);
      if (v !== values[l]) return undefined;
    }
    // lane bit b lands on bit c of the value: group by the shift c - b (one-bit images only)
    const shifts = new Map<number, number>();
    const terms: ValueId[] = [];
    const x = this.x;
    image.forEach((im, b) => {
      if (im === 0) return;
      if ((im & (im - 1)) === 0) {
        const d = Math.log2(im) - b;
        shifts.set(d, (shifts.get(d) ?? 0) | im);
      } else {
        // bit b of the lane set: all of im's bits (0 - bit, masked)
        const bit = x.bin('and', x.bin('shr_u', x.lane, x.k(b)), x.k(1));
        terms.push(x.bin('and', x.bin('sub', x.k(0), bit), x.k(im)));
      }
    });
    for (const [d, mask] of shifts) {
      const moved = d === 0 ? x.lane : d > 0 ? x.bin('shl', x.lane, x.k(d)) : x.bin('shr_u', x.lane, x.k(-d));
      terms.unshift(x.bin('and', moved, x.k(mask)));
    }
    let v = terms.reduce((acc, t) => x.bin('xor', acc, t));
    if (origin !== 0) v = x.bin('xor', v, x.k(origin));
    return v;
  }

  /** Any table: bit c of the value is bit l of a constant mask. */
  private bitwise(values: readonly number[]): ValueId {
    const x = this.x;
    const width = Math.max(...values).toString(2).length;
    let v: ValueId | undefined;
    for (let c = 0; c < width; c++) {
      let mask = 0;
      values.forEach((val, l) => { if ((val >> c) & 1) mask |= 1 << l; });
      if (mask === 0) continue;
      const bit = x.bin('and', x.bin('shr_u', x.k(mask >>> 0), x.lane), x.k(1));
      const term = c === 0 ? bit : x.bin('shl', bit, x.k(c));
      v = v === undefined ? term : x.bin('or', v, term);
    }
    return v ?? x.k(0);
  }
}
