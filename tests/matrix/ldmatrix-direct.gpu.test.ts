// mma operands fed by ldmatrix (kernels/ldmatrix_direct.cu) against a JS reference, on every
// device: where the device offers f16 16x8x16 subgroup matrices (the H100/H200 with
// PTX_WGSL_DAWN_FLAGS) on the tensor-core path, whose mma reads an operand straight from the
// shared tile when the ldmatrix lane addresses form a strided matrix (matrix_ldmatrix,
// lowering/wgsl/emit-matrix.ts) and otherwise does what ldmatrix does (the swizzled kernel);
// elsewhere on the portable path. Inputs are multiples of 1/8 below 1 in magnitude, so every
// product and sum is exact in f32 and D compares word for word. shared_words checks that words
// moved through shared memory viewed as halves come back bit for bit, NaN and subnormal half
// patterns included.
import { afterAll, describe, expect, it } from 'vitest';
import { getDefaultDevice, releaseDefaultDevice, subgroupMatrixConfigs } from '../../runtime/device.js';
import { firstDifference, runKernel } from './harness.js';

const device = await getDefaultDevice().catch(() => undefined);
const tensorCores = device ? subgroupMatrixConfigs(device).some((c) => c.componentType === 'f16' && c.M === 16 && c.N === 8 && c.K === 16) : false;
afterAll(() => releaseDefaultDevice());

/** k/8 for |k| < 8 as f16 bits (exact: sign, exponent and at most 3 significand bits). */
function half(k: number): number {
  if (k === 0) return 0;
  const sign = k < 0 ? 0x8000 : 0;
  const m = Math.abs(k);
  const e = Math.floor(Math.log2(m));
  return sign | ((e - 3 + 15) << 10) | (((m / 2 ** e - 1) * 1024) & 0x3ff);
}

const value = (i: number, salt: number): number => ((i * 7 + salt * 5 + 3) % 15) - 7;
const packHalves = (ks: readonly number[]): Uint32Array => {
  const out = new Uint32Array(Math.ceil(ks.length / 2));
  ks.forEach((k, i) => { out[i >> 1] = ((out[i >> 1] as number) | (half(k) << (16 * (i & 1)))) >>> 0; });
  return out;
};

/** A (16 x K) and B (K x 8) as multiples of 1/8, their f16 words, and D = A * B as f32 bits. */
function problem(K: number): { a: Uint32Array; b: Uint32Array; d: Uint32Array } {
  const A = Array.from({ length: 16 * K }, (_, i) => value(i, 1));
  const B = Array.from({ length: K * 8 }, (_, i) => value(i, 2));
  const d = new Float32Array(16 * 8);
  for (let r = 0; r < 16; r++) for (let c = 0; c < 8; c++) {
    let s = 0;
    for (let k = 0; k < K; k++) s += (A[r * K + k] as number) * (B[k * 8 + c] as number);
    d[r * 8 + c] = s / 64;
  }
  return { a: packHalves(A), b: packHalves(B), d: new Uint32Array(d.buffer) };
}

const LAUNCH = { grid: 1, block: 32 };
const matrixPath = 'auto' as const;

describe(`mma operands from ldmatrix tiles (${tensorCores ? 'tensor-core path' : 'portable path'})`, () => {
  it.each([
    ['lds_k16', 16], ['lds_k16_bt', 16], ['lds_k16_permuted', 16], ['lds_k16_swizzled', 16], ['lds_k16_reversed', 16], ['lds_k8', 8],
  ] as const)('%s: D = A * B', async (kernel, K) => {
    const p = problem(K);
    const out = await runKernel('ldmatrix_direct', kernel, LAUNCH, [{ in: p.a }, { in: p.b }, { out: 128 }], 'auto', undefined, matrixPath);
    if (tensorCores) expect(out.matrix).toBe('tensor-core');
    expect(firstDifference(out.outputs[0] as Uint32Array, p.d)).toBe('none');
  });

  it('shared_words: words, 16-byte stores and halves through shared memory come back bit for bit', async () => {
    const p = problem(16);
    const specials = [0x7c017c01, 0xfc00fe00, 0x00010000, 0x83ff8001, 0x7fff7c00, 0x7e00ffff, 0x80000000, 0x00008000];
    const words = Uint32Array.from({ length: 352 }, (_, i) => (i < specials.length ? specials[i] as number : Math.imul(i + 1, 0x9e3779b1) >>> 0));
    words.set(specials, 256); // through the 16-byte stores
    words.set(specials, 320); // through the 2-byte stores
    const out = await runKernel('ldmatrix_direct', 'shared_words', LAUNCH, [{ in: words }, { in: p.a }, { in: p.b }, { out: 352 }, { out: 128 }], 'auto', undefined, matrixPath);
    if (tensorCores) expect(out.matrix).toBe('tensor-core');
    expect(firstDifference(out.outputs[0] as Uint32Array, words)).toBe('none');
    expect(firstDifference(out.outputs[1] as Uint32Array, p.d)).toBe('none');
  });
});
