// Two WMMA GEMMs compiled from CUDA (kernels/wmma_gemm.cu: one warp per 16x16 tile from global
// memory; 2x2 fragments per warp from shared-memory panels), D = alpha * A * B + beta * C with
// the accumulators scaled element by element (frag.x[i]). On WebGPU D must equal the JS
// reference bit for bit: the products summed in f32 in increasing k (as wmma-mma.ts computes each
// mma, chained over the k tiles), then nvcc's epilogue fma(acc, alpha, old * beta). The H100's
// D for the same inputs (kernels/wmma_native.json) is within the bound of sequential f32
// summation of the reference (wmma-native.test.ts says why it is not identical).
import { afterAll, describe, expect, it } from 'vitest';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { F32, add, convert, F16, fma, mul } from '../conformance/ref/float.js';
import { runKernel } from './harness.js';
import { Random } from './reference.js';
import { NATIVE, asNumber, packMemory, randomElements, unpackMemory } from './wmma-reference.js';

afterAll(() => releaseDefaultDevice());

const f32Bits = (x: number): bigint => { const v = new DataView(new ArrayBuffer(4)); v.setFloat32(0, x, true); return BigInt(v.getUint32(0, true)); };
const hexBytes = (h: string): Uint8Array => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));

describe.each(Object.keys(NATIVE.gemm))('%s', (name) => {
  const g = NATIVE.gemm[name] as (typeof NATIVE.gemm)[string];
  const rng = new Random(g.seed);
  const A = randomElements('f16', g.m * g.k, rng);
  const B = randomElements('f16', g.k * g.n, rng); // column j is B[j * k ..]
  const C = randomElements('f32', g.m * g.n, rng);
  const alpha = f32Bits(g.alpha);
  const beta = f32Bits(g.beta);
  const want = Array.from({ length: g.m * g.n }, (_, at) => {
    const i = Math.floor(at / g.n); const j = at % g.n;
    let acc = 0n;
    for (let k = 0; k < g.k; k++) {
      const p = mul(F32, convert(F16, F32, A[i * g.k + k] as bigint, 'rn'), convert(F16, F32, B[j * g.k + k] as bigint, 'rn'), 'rn');
      acc = add(F32, acc, p, 'rn');
    }
    return fma(F32, acc, alpha, mul(F32, C[at] as bigint, beta, 'rn'), 'rn');
  });

  it('matches the reference on WebGPU', async () => {
    const grid: [number, number] = name === 'gemm_tile16' ? [g.n / 16, g.m / 64] : [g.n / 64, g.m / 64];
    const words = (b: Uint8Array): Uint32Array => new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
    const run = await runKernel('wmma_gemm', name, { grid, block: 128 }, [
      { in: words(packMemory('f16', A)) }, { in: words(packMemory('f16', B)) }, { in: words(packMemory('f32', C)) }, { out: g.m * g.n },
      { u32: g.m }, { u32: g.n }, { u32: g.k }, { f32: g.alpha }, { f32: g.beta },
    ], 'auto');
    expect(Array.from(run.outputs[0] as Uint32Array, (v) => v.toString(16))).toEqual(want.map((v) => v.toString(16)));
  }, 900_000); // lavapipe takes minutes to compile the 2x2 kernel's shader (eight unrolled m16n16k16 products)

  it('and the H100 is within the summation bound of it', () => {
    const native = unpackMemory('f32', hexBytes(g.d), g.m * g.n);
    native.forEach((v, at) => {
      const i = Math.floor(at / g.n); const j = at % g.n;
      let magnitude = 0;
      for (let k = 0; k < g.k; k++) magnitude += Math.abs(asNumber('f16', A[i * g.k + k] as bigint) * asNumber('f16', B[j * g.k + k] as bigint));
      const bound = (g.k + 2) * 2 ** -24 * (Math.abs(g.alpha) * magnitude + Math.abs(g.beta * asNumber('f32', C[at] as bigint)));
      expect(Math.abs(asNumber('f32', v) - asNumber('f32', want[at] as bigint)), `element ${at}`).toBeLessThanOrEqual(bound);
    });
  });
});
