// JS references of the image, graph, vector, math, half, struct and hand-written kernels
// (kernels/image.cu, graph.cu, vector.cu, mathlib.cu, half.cu, structs.cu, triton_*.ptx,
// hand_plain_regs.ptx).
import { halfValue, roundHalf } from '../inputs.ts';
import type { Bufs, Ref } from './types.ts';

const f32 = Math.fround;
const clamp = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), hi);

/** erf(x) = 2/sqrt(pi) exp(-x^2) sum_n 2^n x^(2n+1) / (1*3*...*(2n+1)): positive terms, no cancellation. */
export function erf(x: number): number {
  const ax = Math.abs(x);
  if (ax > 6) return Math.sign(x);
  let term = ax;
  let sum = ax;
  for (let n = 1; n < 500 && term > sum * 1e-18; n++) {
    term *= (2 * ax * ax) / (2 * n + 1);
    sum += term;
  }
  return Math.sign(x) * (2 / Math.sqrt(Math.PI)) * Math.exp(-ax * ax) * sum;
}

function map1(b: Bufs, from: string, pairs: [string, (x: number) => number][]): void {
  const x = b.get(from);
  for (const [name, fn] of pairs) {
    const out = b.get(name) as Float64Array;
    for (let i = 0; i < x.length; i++) out[i] = fn(x[i] as number);
  }
}

function softmaxRows(out: Float32Array, inp: Float32Array, rows: number, cols: number): void {
  for (let r = 0; r < rows; r++) {
    const row = inp.subarray(r * cols, (r + 1) * cols);
    const max = Math.max(...row);
    let sum = 0;
    for (const v of row) sum += Math.exp(v - max);
    for (let j = 0; j < cols; j++) out[r * cols + j] = Math.exp((row[j] as number) - max) / sum;
  }
}

export const apps: Record<string, Ref> = {
  gray(b, d) {
    const [rgba, gray] = [b.u8('rgba'), b.u8('gray')];
    for (let i = 0; i < d.w * d.h; i++) {
      const l = f32(0.299) * (rgba[4 * i] as number) + f32(0.587) * (rgba[4 * i + 1] as number) + f32(0.114) * (rgba[4 * i + 2] as number);
      gray[i] = Math.trunc(Math.min(f32(l + 0.5), 255));
    }
  },
  box_blur(b, d) {
    const [inp, out] = [b.u8('in'), b.u8('out')];
    const { w, h, r } = d;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let [sum, count] = [0, 0];
        for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++)
          for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++) {
            sum += inp[yy * w + xx] as number;
            count++;
          }
        out[y * w + x] = Math.trunc((sum + Math.trunc(count / 2)) / count);
      }
  },
  sobel(b, d) {
    const [inp, mag, edges] = [b.u8('in'), b.f32('mag'), b.u8('edges')];
    const { w, h } = d;
    const at = (x: number, y: number) => inp[clamp(y, 0, h - 1) * w + clamp(x, 0, w - 1)] as number;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - (at(x - 1, y - 1) + 2 * at(x - 1, y) + at(x - 1, y + 1));
        const gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - (at(x - 1, y - 1) + 2 * at(x, y - 1) + at(x + 1, y - 1));
        const m = f32(Math.sqrt(gx * gx + gy * gy));
        mag[y * w + x] = m;
        edges[y * w + x] = Math.min(Math.trunc(m), 255);
      }
  },
  gaussian(b, d) {
    const [inp, out] = [b.f32('in'), b.f32('out')];
    const { w, h } = d;
    const k = [0.25, 0.5, 0.25];
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++)
        for (let c = 0; c < 4; c++) {
          let acc = 0;
          for (let dy = -1; dy <= 1; dy++)
            for (let dx = -1; dx <= 1; dx++)
              acc += (k[dy + 1] as number) * (k[dx + 1] as number) * (inp[4 * (clamp(y + dy, 0, h - 1) * w + clamp(x + dx, 0, w - 1)) + c] as number);
          out[4 * (y * w + x) + c] = acc;
        }
  },
  brighten_invert(b, d) {
    const img = b.u8('img');
    for (let i = 0; i < d.npix; i++) for (let c = 0; c < 3; c++) img[4 * i + c] = 255 - clamp((img[4 * i + c] as number) + 37, 0, 255);
  },
  downsample(b, d) {
    const [inp, out] = [b.u8('in'), b.u8('out')];
    const { w, h } = d;
    for (let y = 0; y < h / 2; y++)
      for (let x = 0; x < w / 2; x++)
        for (let c = 0; c < 4; c++) {
          const p = (yy: number, xx: number) => inp[4 * (yy * w + xx) + c] as number;
          out[4 * (y * (w / 2) + x) + c] = (p(2 * y, 2 * x) + p(2 * y, 2 * x + 1) + p(2 * y + 1, 2 * x) + p(2 * y + 1, 2 * x + 1) + 2) >> 2;
        }
  },
  bfs(b, d) {
    const [ro, cols, frontier, visited, cost, over] = [b.i32('row_offsets'), b.i32('cols'), b.u8('frontier'), b.u8('visited'), b.i32('cost'), b.i32('over')];
    let level = [0];
    for (let it = 0; it < 12 && level.length > 0; it++) {
      const next: number[] = [];
      for (const v of level) {
        frontier[v] = 0;
        for (let e = ro[v] as number; e < (ro[v + 1] as number); e++) {
          const u = cols[e] as number;
          if (!visited[u]) {
            visited[u] = 1;
            cost[u] = it + 1;
            next.push(u);
            over[0] = 1;
          }
        }
      }
      for (const u of next) frontier[u] = 1;
      level = next;
    }
  },
  cc(b, d) {
    const [ro, cols, labels] = [b.i32('row_offsets'), b.i32('cols'), b.i32('labels')];
    const parent = Array.from({ length: d.n }, (_, i) => i);
    const find = (x: number): number => {
      while (parent[x] !== x) x = parent[x] = parent[parent[x]!]!;
      return x;
    };
    for (let v = 0; v < d.n; v++)
      for (let e = ro[v] as number; e < (ro[v + 1] as number); e++) {
        const [a, c] = [find(v), find(cols[e] as number)];
        if (a !== c) parent[Math.max(a, c)] = Math.min(a, c);
      }
    for (let v = 0; v < d.n; v++) labels[v] = find(v);
  },
  spmv(b, d) {
    const [rp, ci, vals, x, y] = [b.i32('row_ptr'), b.i32('col_idx'), b.f32('vals'), b.f32('x'), b.f32('y')];
    for (let r = 0; r < d.rows; r++) {
      let acc = 0;
      for (let j = rp[r] as number; j < (rp[r + 1] as number); j++) acc += (vals[j] as number) * (x[ci[j] as number] as number);
      y[r] = acc;
    }
  },
  vec_add(b, d) {
    const [a, bb, c] = [b.f32('a'), b.f32('b'), b.f32('c')];
    for (let i = 0; i < d.n; i++) c[i] = (a[i] as number) + (bb[i] as number);
  },
  vec_add_xy(b, d) {
    const [x, y, out] = [b.f32('x'), b.f32('y'), b.f32('out')];
    for (let i = 0; i < d.n; i++) out[i] = (x[i] as number) + (y[i] as number);
  },
  saxpy(b, d) {
    const [x, y] = [b.get('x'), b.get('y')] as Float64Array[];
    const a = x instanceof Float32Array ? 2.5 : -0.7;
    for (let i = 0; i < d.n; i++) y![i] = a * (x![i] as number) + (y![i] as number);
  },
  scale_offset(b, d) {
    const [inp, out] = [b.f32('in'), b.f32('out')];
    for (let i = 0; i < d.n; i++) out[i] = (inp[i] as number) * 0.75 - 1.5;
  },
  copy_scale(b, d) {
    const [inp, out] = [b.f32('in'), b.f32('out')];
    for (let i = 0; i < d.n; i++) out[i] = (inp[i] as number) * 3;
  },
  dot(b) {
    const [a, bb] = [b.get('a'), b.get('b')] as Float64Array[];
    let s = 0;
    for (let i = 0; i < a!.length; i++) s += (a![i] as number) * (bb![i] as number);
    (b.get('result') as Float64Array)[0] = s;
  },
  count_sum(b) {
    let count = 0;
    let total = 0n;
    for (const v of b.i32('x')) {
      if (v > 500000) count++;
      if (v > 0) total += BigInt(v) * 4096n;
    }
    b.i32('count')[0] = count;
    b.u64('total')[0] = total;
  },
  compact_negative(b) {
    const kept = [...b.f32('in')].filter((v) => v < 0);
    b.f32('out').set(kept);
    b.i32('cursor')[0] = kept.length;
  },
  compact_odd(b) {
    const kept = [...b.i32('in')].filter((v) => (v & 1) !== 0);
    b.i32('out').set(kept);
    b.i32('cursor')[0] = kept.length;
  },
  math_explog(b) {
    const [x, y] = [b.f32('x'), b.f32('y')];
    for (let i = 0; i < x.length; i++) {
      const [a, c] = [x[i] as number, y[i] as number];
      b.f32('o_exp')[i] = Math.exp(a);
      b.f32('o_log')[i] = Math.log(c);
      b.f32('o_pow')[i] = c ** a;
      b.f32('o_erf')[i] = erf(a);
      b.f32('o_exp2')[i] = 2 ** a;
      b.f32('o_log10')[i] = Math.log10(c);
    }
  },
  math_trig(b) {
    map1(b, 'x', [
      ['o_sin', Math.sin],
      ['o_cos', Math.cos],
      ['o_tanh', Math.tanh],
      ['o_atan2', (a) => Math.atan2(a, f32(1.5 - a * 0.25))],
      ['o_tan', (a) => Math.tan(f32(a * f32(0.35)))],
    ]);
  },
  math_misc(b) {
    map1(b, 'x', [
      ['o_cbrt', Math.cbrt],
      ['o_log1p', (a) => Math.log1p(Math.abs(a))],
      ['o_expm1', Math.expm1],
      ['o_hypot', (a) => Math.hypot(a, f32(3 - a))],
      ['o_fmod', (a) => f32(a * 7) % 1.25],
      ['o_sqrt', (a) => Math.sqrt(Math.abs(a))],
      ['o_rcp', (a) => 1 / a],
    ]);
  },
  math_f64(b) {
    const [x, y] = [b.f64('x'), b.f64('y')];
    const fns: [string, (a: number, c: number) => number][] = [
      ['o_exp', (a) => Math.exp(a)],
      ['o_log', (_, c) => Math.log(c)],
      ['o_sqrt', (_, c) => Math.sqrt(c)],
      ['o_pow', (a, c) => c ** a],
      ['o_sin', (a) => Math.sin(a)],
      ['o_cos', (a) => Math.cos(a)],
      ['o_tanh', (a) => Math.tanh(a)],
      ['o_erf', (a) => erf(a)],
    ];
    for (const [name, fn] of fns) {
      if (!b.has(name)) continue;
      const out = b.f64(name);
      for (let i = 0; i < x.length; i++) out[i] = fn(x[i] as number, y[i] as number);
    }
  },
  haxpy(b) {
    const [x, y] = [b.u16('x'), b.u16('y')];
    for (let i = 0; i < x.length; i++) y[i] = roundHalf(0.75 * halfValue(x[i] as number) + halfValue(y[i] as number));
  },
  hrelu(b) {
    const [x, out] = [b.u16('x'), b.u16('out')];
    for (let i = 0; i < x.length; i++) {
      const v = Math.max(halfValue(x[i] as number), 0);
      out[i] = roundHalf(halfValue(roundHalf(v * 1.5)) - 0.25);
    }
  },
  half_sum(b) {
    const [x, sums] = [b.u16('x'), b.f32('sums')];
    sums.fill(0);
    for (let i = 0; i < x.length; i++) sums[Math.floor(i / 256)] = (sums[Math.floor(i / 256)] as number) + halfValue(x[i] as number);
  },
  half_convert(b) {
    const inp = b.f32('in');
    const back = b.f32('back');
    for (let i = 0; i < inp.length; i++) {
      const v = inp[i] as number;
      b.u16('rn')[i] = roundHalf(v, 'rn');
      b.u16('rz')[i] = roundHalf(v, 'rz');
      b.u16('rd')[i] = roundHalf(v, 'rd');
      b.u16('ru')[i] = roundHalf(v, 'ru');
      back[2 * i] = halfValue(roundHalf(v, 'rz'));
      back[2 * i + 1] = halfValue(roundHalf(v, 'ru'));
    }
  },
  square(b) {
    const [inp, out] = [b.get('in'), b.get('out')];
    for (let i = 0; i < inp.length; i++) (out as Float64Array)[i] = (inp[i] as number) * (inp[i] as number);
  },
  affine_clamp(b) {
    const [inp, out] = [b.f32('in'), b.f32('out')];
    for (let i = 0; i < inp.length; i++) out[i] = clamp(1.75 * (inp[i] as number) - 0.5, -1, 2);
  },
  particles(b, d) {
    const p = b.f32('p');
    const words = new Uint32Array(p.buffer, p.byteOffset, p.length);
    const dt = f32(0.05);
    for (let i = 0; i < d.n; i++) {
      const o = 8 * i;
      p[o + 4] = f32((p[o + 4] as number) - f32(f32(9.81) * dt));
      for (let k = 0; k < 3; k++) p[o + k] = (p[o + k] as number) + (p[o + 3 + k] as number) * dt;
      if ((p[o + 1] as number) < 0) {
        p[o + 1] = -(p[o + 1] as number);
        p[o + 4] = -0.5 * (p[o + 4] as number);
        words[o + 7] = ((words[o + 7] as number) | 0x10000) >>> 0;
      }
    }
  },
  select_stats(b, d) {
    const [keys, vals, out] = [b.i32('keys'), b.f32('vals'), b.u32('out')];
    const outF = new Float32Array(out.buffer, out.byteOffset, out.length);
    const blocks = out.length / 4;
    for (let blk = 0; blk < blocks; blk++) {
      const s = Array.from({ length: 128 }, (_, t) => {
        const i = blk * 128 + t;
        const k = keys[i] as number;
        return i < d.n && k >= d.lo && k < d.hi ? [1, vals[i] as number, vals[i] as number, vals[i] as number] : [0, 0, 3.0e38, -3.0e38];
      });
      for (let st = 64; st > 0; st >>= 1)
        for (let t = 0; t < st; t++) {
          const [m, o] = [s[t]!, s[t + st]!];
          s[t] = [m[0]! + o[0]!, f32(m[1]! + o[1]!), Math.min(m[2]!, o[2]!), Math.max(m[3]!, o[3]!)];
        }
      out[4 * blk] = s[0]![0]!;
      outF.set([f32(s[0]![1]!), f32(s[0]![2]!), f32(s[0]![3]!)], 4 * blk + 1);
    }
  },
  softmax_rows(b, d) {
    softmaxRows(b.f32('out'), b.f32('in'), d.rows, d.cols);
  },
  plain_regs(b, d) {
    const [inp, out, bits] = [b.f32('in'), b.f32('out'), b.u32('bits')];
    const word = new Uint32Array(1);
    const fw = new Float32Array(word.buffer);
    for (let i = 0; i < d.n; i++) {
      out[i] = 2 * (inp[i] as number) + 1;
      fw[0] = out[i] as number;
      const w = word[0] as number;
      bits[i] = ((w << 7) | (w >>> 25)) >>> 0;
    }
  },
};
