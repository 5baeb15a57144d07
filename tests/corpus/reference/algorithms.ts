// JS references of the reduction, scan, sort and histogram kernels (kernels/reduce.cu, scan.cu,
// sort.cu, histogram.cu): what each computes, independent of how the kernel gets there.
import type { NumArray } from '../inputs.ts';
import type { Ref } from './types.ts';

/** Sum of in[i] over the grid-stride share of each block (blockDim `block`, `grid` blocks). */
function gridStridePartials(inp: NumArray, n: number, block: number, grid: number): number[] {
  const out = new Array<number>(grid).fill(0);
  for (let i = 0; i < n; i++) out[Math.floor(i / block) % grid]! += Number(inp[i]);
  return out;
}

const lengthOf = (a: NumArray): number => a.length;

export const algorithms: Record<string, Ref> = {
  reduce_partials(b, d) {
    const inp = b.get('in');
    const partials = b.get('partials');
    const block = inp instanceof Float64Array ? 128 : 256;
    const p = gridStridePartials(inp, d.n, block, lengthOf(partials));
    (partials as Float64Array).set(p);
  },
  reduce_tree(b, d) {
    const [inp, out] = [b.f32('in'), b.f32('out')];
    out.fill(0);
    for (let i = 0; i < d.n; i++) out[Math.floor(i / 512)] = (out[Math.floor(i / 512)] as number) + (inp[i] as number);
  },
  int_stats(b) {
    const inp = b.i32('in');
    let s = 0;
    for (const v of inp) s = (s + v) | 0;
    b.i32('sum')[0] = s;
    b.i32('minv')[0] = Math.min(...inp);
    b.i32('maxv')[0] = Math.max(...inp);
  },
  sum_atomic(b) {
    let s = 0;
    for (const v of b.f32('in')) s += v;
    b.f32('result')[0] = s;
  },
  argmax(b, d) {
    const inp = b.f32('in');
    const [val, idx] = [b.f32('best_val'), b.i32('best_idx')];
    const grid = val.length;
    val.fill(-3.0e38);
    idx.fill(d.n);
    for (let i = 0; i < d.n; i++) {
      const blk = Math.floor(i / 256) % grid;
      if ((inp[i] as number) > (val[blk] as number)) {
        val[blk] = inp[i] as number;
        idx[blk] = i;
      }
    }
  },
  two_pass(b, d) {
    const p = gridStridePartials(b.f32('in'), d.n, 256, 128);
    b.f32('partials').set(p);
    b.f32('total')[0] = p.reduce((x, y) => x + y, 0);
  },
  warp_scan(b, d) {
    const [inp, out] = [b.i32('in'), b.i32('out')];
    let run = 0;
    for (let i = 0; i < d.n; i++) {
      if (i % 32 === 0) run = 0;
      run += inp[i] as number;
      out[i] = run;
    }
  },
  block_exclusive_scan(b, d) {
    const [inp, out] = [b.i32('in'), b.i32('out')];
    let run = 0;
    for (let i = 0; i < d.n; i++) {
      if (i % d.block === 0) run = 0;
      out[i] = run;
      run += inp[i] as number;
    }
  },
  blelloch(b, d) {
    const [inp, out, sums] = [b.f32('in'), b.f32('out'), b.f32('sums')];
    for (let t = 0; t < sums.length; t++) {
      let run = 0;
      for (let k = 0; k < 512; k++) {
        const i = t * 512 + k;
        if (i < d.n) out[i] = run;
        run += i < d.n ? (inp[i] as number) : 0;
      }
      sums[t] = run;
    }
  },
  device_scan(b, d) {
    const [inp, out, sums] = [b.u32('in'), b.u32('out'), b.u32('tile_sums')];
    let run = 0;
    for (let i = 0; i < d.n; i++) {
      run = (run + (inp[i] as number)) >>> 0;
      out[i] = run;
      if (i % 1024 === 1023 || i === d.n - 1) sums[Math.floor(i / 1024)] = run;
    }
  },
  bitonic(b) {
    const keys = b.u32('keys');
    for (let t = 0; t < keys.length / 1024; t++) {
      const tile = keys.subarray(t * 1024, (t + 1) * 1024);
      tile.sort();
      if (t % 2 === 1) tile.reverse();
    }
  },
  bitonic_kv(b) {
    const [keys, values] = [b.f32('keys'), b.i32('values')];
    for (let t = 0; t < keys.length / 256; t++) {
      const order = Array.from({ length: 256 }, (_, k) => t * 256 + k).sort((x, y) => (keys[x] as number) - (keys[y] as number));
      const k2 = order.map((i) => keys[i] as number);
      const v2 = order.map((i) => values[i] as number);
      keys.set(k2, t * 256);
      values.set(v2, t * 256);
    }
  },
  radix(b, d) {
    // Four stable passes of 8 bits; the scratch buffers hold the third pass, counts the last scan.
    let keys = Array.from(b.u32('keys'));
    let vals = Array.from(b.u32('vals'));
    const pass = (shift: number) => {
      const order = keys.map((_, i) => i).sort((x, y) => ((keys[x]! >>> shift) & 255) - ((keys[y]! >>> shift) & 255) || x - y);
      keys = order.map((i) => keys[i]!);
      vals = order.map((i) => vals[i]!);
    };
    const scanCounts = (shift: number): number[] => {
      const tiles = d.tiles;
      const counts = new Array<number>(256 * tiles).fill(0);
      keys.forEach((k, i) => counts[((k >>> shift) & 255) * tiles + Math.floor(i / 256)]!++);
      let run = 0;
      return counts.map((c) => ((run += c), run - c));
    };
    pass(0);
    pass(8);
    pass(16);
    b.u32('keys_tmp').set(keys);
    b.u32('vals_tmp').set(vals);
    b.u32('counts').set(scanCounts(24));
    pass(24);
    b.u32('keys').set(keys);
    b.u32('vals').set(vals);
  },
  histogram_bytes(b) {
    const bins = b.u32('bins');
    for (const v of b.u8('data')) bins[v]!++;
  },
  histogram_words(b) {
    const bins = b.u32('bins');
    for (const w of b.u32('data')) for (let k = 0; k < 32; k += 8) bins[(w >>> k) & 255]!++;
  },
  histogram_weighted(b, d) {
    const [values, weights] = [b.f32('values'), b.f32('weights')];
    const acc = new Float64Array(d.nbins);
    for (let i = 0; i < d.n; i++) {
      const k = Math.min(Math.max(Math.floor(Math.fround((values[i] as number) + 1) / 0.03125), 0), d.nbins - 1);
      acc[k]! += weights[i] as number;
    }
    b.f32('bins').set(acc);
  },
  histogram_u64(b, d) {
    const [keys, values, sums] = [b.u32('keys'), b.u32('values'), b.u64('sums')];
    for (let i = 0; i < d.n; i++) sums[(keys[i] as number) & 63]! += BigInt(values[i] as number) << 8n;
    b.u64('total')[0] = BigInt(d.n);
  },
};
