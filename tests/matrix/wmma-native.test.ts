// How the H100's own wmma.mma results (kernels/wmma_native.json, recorded by
// record_wmma_layout.py on the inputs the WebGPU tests use) compare with the JS reference that
// our lowering matches bit for bit (wmma.gpu.test.ts):
//  - integer forms (s8, u8, s4, u4, b1, with .satfinite), f64 (an fma chain in increasing k)
//    and every .f16 D: identical bits;
//  - .f32 D of f16/bf16/tf32 inputs: the tensor cores add the exact products with more internal
//    precision than a chain of f32 additions, so the last bits differ (up to hundreds of ulps
//    where a sum cancels, 1-3 ulps on average); both stay within the error bound of sequential
//    f32 summation, (k + 1) * 2^-24 * (|c| + sum |a_k b_k|), which is what is asserted. That the
//    tf32 inputs' low 13 bits are dropped (not rounded) shows here: rounding them would move
//    results by about 2^-11 of each product, far past the bound.
import { describe, expect, it } from 'vitest';
import { BITS, NATIVE, asNumber, expectedMma, mmaInputs, mmaKernel, unpackMemory } from './wmma-reference.js';

const hexBytes = (h: string): Uint8Array => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));

describe(`wmma.mma on the ${NATIVE.device} against the reference`, () => {
  it.each(Object.keys(NATIVE.mma))('%s', (name) => {
    const mk = mmaKernel(name);
    const rec = NATIVE.mma[name] as { seed: number; problems: number; d: string };
    const { A, B, C } = mmaInputs(mk, rec.seed, rec.problems);
    const { m, n, k, d, input } = mk.spec;
    const native = unpackMemory(d, hexBytes(rec.d), rec.problems * m * n);
    const want = expectedMma(mk, A, B, C);
    if (d !== 'f32') {
      expect(native.map((v) => v.toString(16))).toEqual(want.map((v) => v.toString(16)));
      return;
    }
    native.forEach((v, at) => {
      const p = Math.floor(at / (m * n));
      const i = Math.floor((at % (m * n)) / n);
      const j = at % n;
      const a = A[p] as bigint[]; const b = B[p] as bigint[];
      let magnitude = Math.abs(asNumber(mk.spec.c, (C[p] as bigint[])[i * n + j] as bigint));
      for (let kk = 0; kk < k; kk++) magnitude += Math.abs(asNumber(input, a[i * k + kk] as bigint) * asNumber(input, b[j * k + kk] as bigint));
      const bound = (k + 1) * 2 ** -24 * magnitude;
      expect(Math.abs(asNumber(d, v) - asNumber(d, want[at] as bigint)), `element ${at}`).toBeLessThanOrEqual(bound);
    });
  });

  it('records every element type', () => {
    expect(new Set(Object.keys(NATIVE.mma).map((name) => mmaKernel(name).spec.input))).toEqual(new Set(Object.keys(BITS).filter((t) => !['f32', 's32'].includes(t))));
  });
});
