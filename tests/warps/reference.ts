// JS references for the warp kernels (tests/kernels/warp_*.cu), written from the PTX ISA's
// pseudo-code for shfl and the CUDA/PTX descriptions of vote, match, redux and activemask.
// A block is a list of warps of 32 lanes; lanes past the block's end do not exist.

export const POISON = 0xdeadbeef;

/** The test input: small signed integers, the same formula as tests/warps/record_native.py. */
export function warpInput(n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => (((Math.imul(i ^ 0x5bd1e995, 2654435761 | 0) >>> 8) % 2001) - 1000));
}

export type ShflMode = 'up' | 'down' | 'bfly' | 'idx';

/** The source lane and pval of shfl (ISA pseudo-code). */
export function shflSource(mode: ShflMode, lane: number, b: number, c: number): [number, boolean] {
  const bval = b & 31;
  const cval = c & 31;
  const mask = (c >>> 8) & 31;
  const maxLane = (lane & mask) | (cval & ~mask);
  const minLane = lane & mask;
  let j: number;
  let p: boolean;
  switch (mode) {
    case 'up': j = lane - bval; p = j >= maxLane; break;
    case 'down': j = lane + bval; p = j <= maxLane; break;
    case 'bfly': j = lane ^ bval; p = j <= maxLane; break;
    case 'idx': j = minLane | (bval & ~mask); p = j <= maxLane; break;
  }
  return [p ? j : lane, p];
}

/** One shfl across a warp: `vals[l]` from each lane, `b(l)` its b operand. */
export function shflWarp(mode: ShflMode, vals: readonly number[], b: (lane: number) => number, c: number): number[] {
  return vals.map((v, l) => { const [j] = shflSource(mode, l, b(l), c); return vals[j] ?? v; });
}

/** CUDA's width argument as PTX's c operand: ((32 - width) << 8) | clamp. */
export const cUp = (width = 32): number => (32 - width) << 8;
export const cDown = (width = 32): number => ((32 - width) << 8) | 31;

const i32 = (x: number): number => x | 0;

/** Applies `f` to each warp of `n` threads split in blocks of `block` threads. */
function perWarp(n: number, block: number, f: (first: number, count: number) => void): void {
  for (let b0 = 0; b0 < n; b0 += block) {
    for (let w = 0; w < block; w += 32) f(b0 + w, Math.min(32, block - w));
  }
}

const lanes = (inp: Int32Array, first: number, count: number): number[] => Array.from(inp.subarray(first, first + count));

export function reduceDown(inp: Int32Array, block: number): Int32Array {
  const out = new Int32Array(inp.length);
  perWarp(inp.length, block, (f, n) => {
    let v = lanes(inp, f, n);
    for (let off = 16; off > 0; off >>= 1) { const s = shflWarp('down', v, () => off, cDown()); v = v.map((x, l) => i32(x + (s[l] as number))); }
    out.set(v, f);
  });
  return out;
}

export function scanUp(inp: Int32Array, block: number): Int32Array {
  const out = new Int32Array(inp.length);
  perWarp(inp.length, block, (f, n) => {
    let v = lanes(inp, f, n);
    for (let off = 1; off < 32; off <<= 1) { const s = shflWarp('up', v, () => off, cUp()); v = v.map((x, l) => (l >= off ? i32(x + (s[l] as number)) : x)); }
    out.set(v, f);
  });
  return out;
}

export function xorAllreduce(inp: Int32Array, block: number): Int32Array {
  const out = new Int32Array(3 * inp.length);
  const fb = new Float32Array(1);
  const fbits = new Int32Array(fb.buffer);
  perWarp(inp.length, block, (f, n) => {
    let s = lanes(inp, f, n);
    let m = [...s];
    let fl = s.map((x) => Math.fround((x & 0xffff) * 0.25));
    for (let mask = 1; mask < 32; mask <<= 1) {
      const ss = shflWarp('bfly', s, () => mask, cDown());
      const mm = shflWarp('bfly', m, () => mask, cDown());
      const ff = shflWarp('bfly', fl, () => mask, cDown());
      s = s.map((x, l) => i32(x + (ss[l] as number)));
      m = m.map((x, l) => Math.max(x, mm[l] as number));
      fl = fl.map((x, l) => Math.fround(x + (ff[l] as number)));
    }
    for (let l = 0; l < n; l++) {
      fb[0] = fl[l] as number;
      out.set([s[l] as number, m[l] as number, fbits[0] as number], 3 * (f + l));
    }
  });
  return out;
}

export function shflWidth(inp: Int32Array, block: number): Int32Array {
  const out = new Int32Array(8 * inp.length);
  perWarp(inp.length, block, (f, n) => {
    const v = lanes(inp, f, n);
    const cols = [
      shflWarp('down', v, () => 3, cDown(8)),
      shflWarp('up', v, () => 5, cUp(16)),
      shflWarp('bfly', v, () => 9, cDown(8)),
      shflWarp('idx', v, (l) => l * 7 + 3, cDown(16)),
      shflWarp('idx', v, (l) => (v[l] as number) & 63, cDown(8)),
      shflWarp('down', v, (l) => (v[l] as number) & 31, cDown()),
      shflWarp('up', v, () => 1, cUp(8)).map((x, l) => i32(x + (shflWarp('down', v, () => 2, cDown(16))[l] as number))),
      shflWarp('idx', v, (l) => 31 - l, cDown()),
    ];
    for (let l = 0; l < n; l++) for (let k = 0; k < 8; k++) out[8 * (f + l) + k] = cols[k]?.[l] as number;
  });
  return out;
}

export function shflLegacy(inp: Int32Array, block: number): Int32Array {
  const out = new Int32Array(2 * inp.length);
  perWarp(inp.length, block, (f, n) => {
    const v = lanes(inp, f, n);
    const r = shflWarp('down', v, () => 5, 0x1f);
    for (let l = 0; l < n; l++) out.set([r[l] as number, shflSource('down', l, 5, 0x1f)[1] ? 1 : 0], 2 * (f + l));
  });
  return out;
}

export function blockReduce(inp: Int32Array, block: number): Int32Array {
  const out = new Int32Array(inp.length / block);
  for (let b = 0; b < out.length; b++) {
    let sum = 0;
    for (let t = 0; t < block; t++) sum = i32(sum + (inp[b * block + t] as number));
    out[b] = sum;
  }
  return out;
}

export function loopTrip(inp: Int32Array, block: number): Int32Array {
  const out = new Int32Array(inp.length);
  perWarp(inp.length, block, (f, n) => {
    const warp = (f % block) >> 5;
    let v = lanes(inp, f, n);
    for (let k = 0; k <= warp; k++) { const s = shflWarp('bfly', v, () => k + 1, cDown()); v = v.map((x, l) => i32(Math.imul(x, 3) + (s[l] as number))); }
    out.set(v, f);
  });
  return out;
}

const popc = (x: number): number => { let c = 0; for (let y = x >>> 0; y; y &= y - 1) c++; return c; };
const ballotOf = (bits: readonly boolean[]): number => bits.reduce((m, b, l) => (b ? m | (1 << l) : m), 0) >>> 0;

export function ballotCompact(inp: Int32Array, block: number): { out: Uint32Array; counts: Uint32Array } {
  const out = new Uint32Array(inp.length).fill(POISON);
  const counts = new Uint32Array(8 * inp.length);
  perWarp(inp.length, block, (f, n) => {
    const v = lanes(inp, f, n);
    const keep = v.map((x) => x % 3 === 0);
    const all = (bits: boolean[]): number => (bits.every((b) => b) ? 1 : 0);
    const any = (bits: boolean[]): number => (bits.some((b) => b) ? 1 : 0);
    const uni = (bits: boolean[]): number => (all(bits) || !any(bits) ? 1 : 0);
    const b = ballotOf(keep);
    const big = v.map((x) => x > -1000000);
    const eq = v.map((x) => x === 12345678);
    for (let l = 0; l < n; l++) {
      if (keep[l]) out[f + popc(b & ((1 << l) - 1))] = (v[l] as number) >>> 0;
      counts.set([b, all(big), all(keep), any(keep), any(eq), uni(keep), uni(big), popc(b)], 8 * (f + l));
    }
  });
  return { out, counts };
}

export function syncwarp(inp: Int32Array, block: number): Int32Array {
  const out = new Int32Array(inp.length);
  perWarp(inp.length, block, (f, n) => {
    const v = lanes(inp, f, n);
    const a = v.map((_, l) => i32(2 * (v[l ^ 1] as number) + 1));
    for (let l = 0; l < n; l++) out[f + l] = a[l ^ 31] as number;
  });
  return out;
}

export function match(inp: Int32Array, block: number): Uint32Array {
  const out = new Uint32Array(6 * inp.length);
  perWarp(inp.length, block, (f, n) => {
    const v = lanes(inp, f, n);
    const k1 = v.map((x) => x % 5);
    const k2 = v.map((x) => `${x % 3}:${x & 4}`);
    const warpKey = ((f % block) >> 5);
    const k4 = v.map((x) => x % 2);
    const full = n === 32 ? 0xffffffff : ((1 << n) - 1) >>> 0;
    const any = <T>(keys: T[], l: number): number => ballotOf(keys.map((k) => k === keys[l]));
    const allSame = k4.every((k) => k === k4[0]);
    for (let l = 0; l < n; l++) {
      out.set([any(k1, l), any(k2, l), full, 1, allSame ? full : 0, allSame ? 1 : 0], 6 * (f + l));
    }
    void warpKey;
  });
  return out;
}

export function redux(inp: Int32Array, block: number): Uint32Array {
  const out = new Uint32Array(10 * inp.length);
  perWarp(inp.length, block, (f, n) => {
    const v = lanes(inp, f, n);
    const u = v.map((x) => x >>> 0);
    const red = (xs: number[], op: (a: number, b: number) => number): number => xs.reduce(op) >>> 0;
    const add = (a: number, b: number): number => i32(a + b);
    const min = (a: number, b: number): number => Math.min(a, b);
    const max = (a: number, b: number): number => Math.max(a, b);
    const full = [
      red(v, add), red(v, min), red(v, max), red(u, min), red(u, max),
      red(u.map((x) => (x | 0x10000) >>> 0), (a, b) => (a & b) >>> 0), red(u.map((x) => x & 0xf0f0), (a, b) => a | b),
      red(u, (a, b) => (a ^ b) >>> 0),
    ];
    for (let l = 0; l < n; l++) {
      const half = (l & 16) ? [16, 32] : [0, 16];
      const hv = v.slice(half[0], half[1]);
      const hu = u.slice(half[0], half[1]);
      out.set([...full, red(hv, add), red(hu, max)], 10 * (f + l));
    }
  });
  return out;
}

export function activemask(inp: Int32Array, block: number): Uint32Array {
  const out = new Uint32Array(2 * inp.length);
  perWarp(inp.length, block, (f, n) => {
    const v = lanes(inp, f, n);
    const all = n === 32 ? 0xffffffff : ((1 << n) - 1) >>> 0;
    const odd = ballotOf(v.map((x) => (x & 1) !== 0));
    for (let l = 0; l < n; l++) out.set([all, (v[l] as number) & 1 ? odd : ~(all & ~odd) >>> 0], 2 * (f + l));
  });
  return out;
}

export function voteLegacy(inp: Int32Array, block: number): Uint32Array {
  const out = new Uint32Array(2 * inp.length);
  perWarp(inp.length, block, (f, n) => {
    const p = lanes(inp, f, n).map((x) => (x & 4) !== 0);
    const all = p.every((x) => x);
    const any = p.some((x) => x);
    const flags = (all ? 1 : 0) + (any ? 2 : 0) + (all || !any ? 4 : 0);
    for (let l = 0; l < n; l++) out.set([ballotOf(p), flags], 2 * (f + l));
  });
  return out;
}

/**
 * elect.sync: the leader is the lowest active lane of the member mask (what NVIDIA hardware
 * elects; the ISA leaves the choice open). Outputs per thread: full mask (lane, leader), half
 * warps (lane, leader), then in `v % 3 == 0` lanes (lane, leader, the leader's v), and in the
 * other odd lanes the leader among those with the same sign of v, plus 100 in the leader.
 */
export function elect(inp: Int32Array, block: number): Uint32Array {
  const out = new Uint32Array(8 * inp.length).fill(POISON);
  perWarp(inp.length, block, (f, n) => {
    const v = lanes(inp, f, n);
    const lowest = (inGroup: (l: number) => boolean): number => v.findIndex((_, l) => inGroup(l));
    const third = (l: number): boolean => (v[l] as number) % 3 === 0;
    const odd = (l: number): boolean => !third(l) && ((v[l] as number) & 1) !== 0;
    for (let l = 0; l < n; l++) {
      const o = 8 * (f + l);
      const x = v[l] as number;
      out.set([0, l === 0 ? 1 : 0], o);
      const half = lowest((k) => (k & 16) === (l & 16));
      out.set([half, l === half ? 1 : 0], o + 2);
      if (third(l)) {
        const leader = lowest(third);
        out.set([leader, l === leader ? 1 : 0, v[leader] as number], o + 4);
      } else if (odd(l)) {
        const leader = lowest((k) => odd(k) && ((v[k] as number) > 0) === (x > 0));
        out[o + 7] = leader + (l === leader ? 100 : 0);
      }
    }
  });
  return out;
}
