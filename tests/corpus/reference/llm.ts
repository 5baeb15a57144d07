// JS references of the GPT-2-style kernels (kernels/llm_*.cu), computed in double from what the
// CUDA source specifies; the comparison allows for float rounding (table refTol).
import type { Ref } from './types.ts';

const f32 = Math.fround;

function softmaxRows(out: Float32Array, inp: Float32Array, N: number, C: number): void {
  for (let r = 0; r < N; r++) {
    let max = -Infinity;
    for (let j = 0; j < C; j++) max = Math.max(max, inp[r * C + j] as number);
    let sum = 0;
    for (let j = 0; j < C; j++) sum += Math.exp((inp[r * C + j] as number) - max);
    for (let j = 0; j < C; j++) out[r * C + j] = Math.exp((inp[r * C + j] as number) - max) / sum;
  }
}

export const llm: Record<string, Ref> = {
  softmax(b, d) {
    softmaxRows(b.f32('out'), b.f32('inp'), d.N, d.C);
  },
  crossentropy(b, d) {
    const [losses, probs, targets] = [b.f32('losses'), b.f32('probs'), b.i32('targets')];
    for (let i = 0; i < d.B; i++) losses[i] = -Math.log(probs[i * d.V + (targets[i] as number)] as number);
  },
  layernorm(b, d) {
    const [out, mean, rstd, inp, w, bias] = ['out', 'mean', 'rstd', 'inp', 'weight', 'bias'].map((n) => b.f32(n)) as Float32Array[];
    const { N, C } = d;
    for (let r = 0; r < N; r++) {
      const x = inp!.subarray(r * C, (r + 1) * C);
      let m = 0;
      for (const v of x) m += v;
      m = f32(m / C);
      let v2 = 0;
      for (const v of x) v2 += (v - m) * (v - m);
      const s = f32(1 / Math.sqrt(v2 / C + 1e-5));
      for (let i = 0; i < C; i++) out![r * C + i] = s * ((x[i] as number) - m) * (w![i] as number) + (bias![i] as number);
      mean![r] = m;
      rstd![r] = s;
    }
  },
  rmsnorm(b, d) {
    const [out, inp, w] = [b.f32('out'), b.f32('inp'), b.f32('weight')];
    const { N, C } = d;
    for (let r = 0; r < N; r++) {
      let ss = 0;
      for (let i = 0; i < C; i++) ss += (inp[r * C + i] as number) ** 2;
      const scale = 1 / Math.sqrt(ss / C + 1e-6);
      for (let i = 0; i < C; i++) out[r * C + i] = (inp[r * C + i] as number) * scale * (w[i] as number);
    }
  },
  layernorm_backward(b, d) {
    const [dinp, dweight, dbias, dout, inp, weight, mean, rstd] = ['dinp', 'dweight', 'dbias', 'dout', 'inp', 'weight', 'mean', 'rstd'].map((n) =>
      b.f32(n),
    ) as Float32Array[];
    const { N, C } = d;
    const dw = new Float64Array(C);
    const db = new Float64Array(C);
    for (let r = 0; r < N; r++) {
      const m = mean![r] as number;
      const s = rstd![r] as number;
      let a = 0;
      let c2 = 0;
      for (let i = 0; i < C; i++) {
        const norm = ((inp![r * C + i] as number) - m) * s;
        const dn = (weight![i] as number) * (dout![r * C + i] as number);
        a += dn;
        c2 += dn * norm;
      }
      a /= C;
      c2 /= C;
      for (let i = 0; i < C; i++) {
        const g = dout![r * C + i] as number;
        const norm = ((inp![r * C + i] as number) - m) * s;
        db[i]! += g;
        dw[i]! += norm * g;
        dinp![r * C + i] = (dinp![r * C + i] as number) + ((weight![i] as number) * g - a - norm * c2) * s;
      }
    }
    dweight!.set(dw);
    dbias!.set(db);
  },
  attention(b, d) {
    const [inp, preatt, att, out] = [b.f32('inp'), b.f32('preatt'), b.f32('att'), b.f32('out')];
    const { B, T, C, NH } = d;
    const hs = C / NH;
    const C3 = 3 * C;
    const scale = 1 / Math.sqrt(hs);
    for (let bb = 0; bb < B; bb++)
      for (let h = 0; h < NH; h++)
        for (let t = 0; t < T; t++) {
          const row = ((bb * NH + h) * T + t) * T;
          let max = -Infinity;
          for (let t2 = 0; t2 < T; t2++) {
            if (t2 > t) {
              preatt[row + t2] = -Infinity;
              continue;
            }
            let dot = 0;
            for (let i = 0; i < hs; i++) dot += (inp[bb * T * C3 + t * C3 + h * hs + i] as number) * (inp[bb * T * C3 + t2 * C3 + h * hs + C + i] as number);
            preatt[row + t2] = dot * scale;
            max = Math.max(max, preatt[row + t2] as number);
          }
          let sum = 0;
          for (let t2 = 0; t2 <= t; t2++) sum += Math.exp((preatt[row + t2] as number) - max);
          for (let t2 = 0; t2 < T; t2++) att[row + t2] = t2 <= t ? Math.exp((preatt[row + t2] as number) - max) / sum : 0;
          for (let i = 0; i < hs; i++) {
            let acc = 0;
            for (let t2 = 0; t2 <= t; t2++) acc += (att[row + t2] as number) * (inp[bb * T * C3 + t2 * C3 + h * hs + 2 * C + i] as number);
            out[bb * T * C + t * C + h * hs + i] = acc;
          }
        }
  },
  encoder(b, d) {
    const [out, tokens, wte, wpe] = [b.f32('out'), b.i32('tokens'), b.f32('wte'), b.f32('wpe')];
    const { B, T, C } = d;
    for (let bt = 0; bt < B * T; bt++)
      for (let c = 0; c < C; c++) out[bt * C + c] = (wte[(tokens[bt] as number) * C + c] as number) + (wpe[(bt % T) * C + c] as number);
  },
  gelu_forward(b, d) {
    const [out, inp] = [b.f32('out'), b.f32('inp')];
    const k = Math.sqrt(2 / Math.PI);
    for (let i = 0; i < d.N; i++) {
      const x = inp[i] as number;
      out[i] = 0.5 * x * (1 + Math.tanh(k * (x + 0.044715 * x * x * x)));
    }
  },
  gelu_backward(b, d) {
    const [dinp, inp, dout] = [b.f32('dinp'), b.f32('inp'), b.f32('dout')];
    const k = Math.sqrt(2 / Math.PI);
    for (let i = 0; i < d.N; i++) {
      const x = inp[i] as number;
      const arg = k * (x + 0.044715 * x * x * x);
      const sech = 1 / Math.cosh(arg) ** 2;
      const g = 0.5 * (1 + Math.tanh(arg)) + x * 0.5 * sech * k * (1 + 3 * 0.044715 * x * x);
      dinp[i] = g * (dout[i] as number);
    }
  },
  residual(b, d) {
    const [out, a, bb] = [b.f32('out'), b.f32('a'), b.f32('b')];
    for (let i = 0; i < d.N; i++) out[i] = (a[i] as number) + (bb[i] as number);
  },
  matmul_forward(b, d) {
    const [out, inp, w, bias] = [b.f32('out'), b.f32('inp'), b.f32('weight'), b.f32('bias')];
    const { BT, C, OC } = d;
    for (let r = 0; r < BT; r++)
      for (let o = 0; o < OC; o++) {
        let acc = bias[o] as number;
        for (let i = 0; i < C; i++) acc += (inp[r * C + i] as number) * (w[o * C + i] as number);
        out[r * OC + o] = acc;
      }
  },
  adamw(b, d) {
    const [p, g, m, v] = [b.f32('params'), b.f32('grads'), b.f32('m'), b.f32('v')];
    const [lr, b1, b2, t, eps, wd] = [0.001, f32(0.9), f32(0.999), 7, 1e-8, 0.01];
    const c1 = 1 - b1 ** t;
    const c2 = 1 - b2 ** t;
    for (let i = 0; i < d.N; i++) {
      const gi = g[i] as number;
      // lerp(start, end, w) = fma(w, end, fma(-w, start, start)), rounded like the kernel
      const mi = f32(b1 * (m[i] as number) + f32(-b1 * gi + gi));
      const sq = f32(gi * gi);
      const vi = f32(b2 * (v[i] as number) + f32(-b2 * sq + sq));
      m[i] = mi;
      v[i] = vi;
      p[i] = (p[i] as number) - lr * (mi / c1 / (Math.sqrt(vi / c2) + eps) + wd * (p[i] as number));
    }
  },
};
