// JS references of the stencil, convolution, transpose, GEMM, n-body and Monte Carlo kernels
// (kernels/stencil.cu, conv.cu, transpose.cu, gemm.cu, nbody.cu, montecarlo.cu).
import { halfValue, roundHalf } from '../inputs.ts';
import type { Bufs, Dims, Ref } from './types.ts';

function stencil2d(b: Bufs, d: Dims, alpha: number, from = 'in', to = 'out'): void {
  const [inp, out] = [b.f32(from), b.f32(to)];
  const { nx, ny } = d;
  for (let y = 0; y < ny; y++)
    for (let x = 0; x < nx; x++) {
      const i = y * nx + x;
      const c = inp[i] as number;
      if (x === 0 || y === 0 || x === nx - 1 || y === ny - 1) out[i] = c;
      else out[i] = c + alpha * ((inp[i - 1] as number) + (inp[i + 1] as number) + (inp[i - nx] as number) + (inp[i + nx] as number) - 4 * c);
    }
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), hi);

// ---------------------------------------------------------------- RNG of montecarlo.cu

const mix32 = (x: number): number => {
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, 0x45d9f3b) >>> 0;
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, 0x45d9f3b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
};

class Xorwow {
  private readonly v: number[] = [];
  private d: number;
  constructor(seed: number, sub: number) {
    let h = mix32((seed ^ mix32((sub + 0x9e3779b9) >>> 0)) >>> 0);
    for (let k = 0; k < 5; k++) {
      h = mix32((h + Math.imul(0x6a09e667, k + 1)) >>> 0);
      this.v.push((h | (k === 0 ? 1 : 0)) >>> 0);
    }
    this.d = mix32((h ^ 0xbb67ae85) >>> 0);
  }
  next(): number {
    const v = this.v;
    const t = (v[0]! ^ (v[0]! >>> 2)) >>> 0;
    v.shift();
    const last = v[3]!;
    v.push((last ^ (last << 4) ^ t ^ (t << 1)) >>> 0);
    this.d = (this.d + 362437) >>> 0;
    return (v[4]! + this.d) >>> 0;
  }
}

const toUnit = (r: number): number => ((r >>> 8) + 1) / 16777216;

export const grid: Record<string, Ref> = {
  stencil2d(b, d) {
    stencil2d(b, d, Math.fround(0.2));
  },
  stencil2d_quarter(b, d) {
    stencil2d(b, d, 0.25);
  },
  heat(b, d) {
    for (let s = 0; s < d.steps; s++) stencil2d(b, d, Math.fround(0.24), s % 2 ? 'b' : 'a', s % 2 ? 'a' : 'b');
  },
  stencil3d(b, d) {
    const [inp, out] = [b.f32('in'), b.f32('out')];
    const { nx, ny, nz } = d;
    const plane = nx * ny;
    const [c0, c1] = [Math.fround(0.4), Math.fround(0.1)];
    for (let z = 0; z < nz; z++)
      for (let y = 0; y < ny; y++)
        for (let x = 0; x < nx; x++) {
          const i = z * plane + y * nx + x;
          if (x === 0 || y === 0 || z === 0 || x === nx - 1 || y === ny - 1 || z === nz - 1) out[i] = 0;
          else {
            const s = [i - 1, i + 1, i - nx, i + nx, i - plane, i + plane].reduce((acc, j) => acc + (inp[j] as number), 0);
            out[i] = c0 * (inp[i] as number) + c1 * s;
          }
        }
  },
  conv1d(b, d) {
    const [x, y] = [b.f32('x'), b.f32('y')];
    const f = b.f32('c_filter1d');
    for (let i = 0; i < d.n; i++) {
      let acc = 0;
      for (let k = 0; k <= 2 * d.radius; k++) {
        const g = i + k - d.radius;
        if (g >= 0 && g < d.n) acc += (f[k] as number) * (x[g] as number);
      }
      y[i] = acc;
    }
  },
  conv2d(b, d) {
    const [inp, out, f] = [b.f32('in'), b.f32('out'), b.f32('c_filter2d')];
    const { w, h } = d;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let acc = 0;
        for (let dy = -2; dy <= 2; dy++)
          for (let dx = -2; dx <= 2; dx++)
            acc += (f[(dy + 2) * 5 + dx + 2] as number) * (inp[clamp(y + dy, 0, h - 1) * w + clamp(x + dx, 0, w - 1)] as number);
        out[y * w + x] = acc;
      }
  },
  separable(b, d) {
    const [inp, tmp, out, f] = [b.f32('in'), b.f32('tmp'), b.f32('out'), b.f32('c_filter1d')];
    const { w, h, radius } = d;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let acc = 0;
        for (let k = -radius; k <= radius; k++) if (x + k >= 0 && x + k < w) acc += (f[k + radius] as number) * (inp[y * w + x + k] as number);
        tmp[y * w + x] = acc;
      }
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let acc = 0;
        for (let k = -radius; k <= radius; k++) if (y + k >= 0 && y + k < h) acc += (f[k + radius] as number) * (tmp[(y + k) * w + x] as number);
        out[y * w + x] = acc;
      }
  },
  transpose(b, d) {
    const [i, o] = [b.get('idata'), b.get('odata')] as [Float64Array, Float64Array];
    for (let r = 0; r < d.rows; r++) for (let c = 0; c < d.cols; c++) o[c * d.rows + r] = i[r * d.cols + c] as number;
  },
  sgemm(b, d) {
    const [A, B, C] = [b.get('A'), b.get('B'), b.get('C')] as Float64Array[];
    const { M, N, K } = d;
    for (let r = 0; r < M; r++)
      for (let c = 0; c < N; c++) {
        let acc = 0;
        for (let k = 0; k < K; k++) acc += (A![r * K + k] as number) * (B![k * N + c] as number);
        C![r * N + c] = d.alpha * acc + d.beta * (C![r * N + c] as number);
      }
  },
  hgemm(b, d) {
    const [A, B, C] = [b.u16('A'), b.u16('B'), b.u16('C')];
    const { M, N, K } = d;
    for (let r = 0; r < M; r++)
      for (let c = 0; c < N; c++) {
        let acc = 0;
        for (let k = 0; k < K; k++) acc += halfValue(A[r * K + k] as number) * halfValue(B[k * N + c] as number);
        C[r * N + c] = roundHalf(acc);
      }
  },
  nbody(b, d) {
    const [pos, vel, acc] = [b.f32('pos'), b.f32('vel'), b.f32('acc')];
    const n = d.n;
    const dt = 0.001;
    for (let i = 0; i < n; i++) {
      let [ax, ay, az] = [0, 0, 0];
      for (let j = 0; j < n; j++) {
        const [rx, ry, rz] = [0, 1, 2].map((k) => (pos[4 * j + k] as number) - (pos[4 * i + k] as number)) as [number, number, number];
        const inv = 1 / Math.sqrt(rx * rx + ry * ry + rz * rz + 1e-3);
        const s = (pos[4 * j + 3] as number) * inv * inv * inv;
        ax += rx * s;
        ay += ry * s;
        az += rz * s;
      }
      acc.set([ax, ay, az, 0], 4 * i);
    }
    for (let i = 0; i < n; i++)
      for (let k = 0; k < 3; k++) {
        vel[4 * i + k] = (vel[4 * i + k] as number) + (acc[4 * i + k] as number) * dt;
        pos[4 * i + k] = (pos[4 * i + k] as number) + (vel[4 * i + k] as number) * dt;
      }
  },
  mc_pi(b, d) {
    const [hits, total] = [b.u32('hits'), b.u64('total')];
    let sum = 0;
    for (let t = 0; t < d.threads; t++) {
      const g = new Xorwow(20240601, t);
      let inside = 0;
      for (let k = 0; k < d.samples; k++) {
        const x = toUnit(g.next());
        const y = toUnit(g.next());
        if (Math.fround(x * x + Math.fround(y * y)) <= 1) inside++;
      }
      hits[t] = inside;
      sum += inside;
    }
    total[0] = BigInt(sum);
  },
  philox(b, d) {
    const [bits, unif] = [b.u32('bits'), b.f32('unif')];
    for (let i = 0; i < d.n; i++) {
      let [x, y] = [i, 0x1234567];
      let key = 3735928559;
      for (let r = 0; r < 7; r++) {
        const p = BigInt(0xcd9e8d57) * BigInt(x);
        const hi = Number(p >> 32n);
        const lo = Number(p & 0xffffffffn);
        [x, y] = [(hi ^ key ^ y) >>> 0, lo];
        key = (key + 0x9e3779b9) >>> 0;
      }
      bits[2 * i] = x;
      bits[2 * i + 1] = y;
      unif[2 * i] = Math.fround(x) * 2 ** -32;
      unif[2 * i + 1] = Math.fround(y) * 2 ** -32;
    }
  },
  mc_option(b, d) {
    const [payoffs, sums] = [b.f32('payoffs'), b.f32('block_sums')];
    const [S0, K, r, sigma, T] = [100, 105, 0.05, 0.2, 1];
    const drift = (r - 0.5 * sigma * sigma) * T;
    const vol = sigma * Math.sqrt(T);
    const disc = Math.exp(-r * T);
    sums.fill(0);
    for (let t = 0; t < d.threads; t++) {
      const g = new Xorwow(777, t);
      const u1 = toUnit(g.next());
      const u2 = toUnit(g.next());
      const rad = Math.sqrt(-2 * Math.log(u1));
      const ang = Math.fround(6.2831853) * u2;
      const p = [Math.cos(ang), Math.sin(ang)].map((z) => Math.max(S0 * Math.exp(drift + vol * rad * z) - K, 0) * disc);
      payoffs[2 * t] = p[0] as number;
      payoffs[2 * t + 1] = p[1] as number;
      sums[Math.floor(t / 256)] = (sums[Math.floor(t / 256)] as number) + (p[0] as number) + (p[1] as number);
    }
  },
};
