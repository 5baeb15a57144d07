// The plain WMMA GEMMs (kernels/wmma_gemm_plain.cu) on the tensor-core path, wherever the
// device offers subgroup matrices (the H100/H200 with PTX_WGSL_DAWN_FLAGS, README). Tensor cores
// add products in an order and with a precision of their own, so D is checked against the f64
// dot product within the bound of any order of f32 (f16 for gemm_plain16_h) additions, not bit
// for bit. Skipped, saying so, on devices without subgroup matrices (lavapipe: see
// wmma-tensor-core.gpu.test.ts for the portable path there).
import { afterAll, describe, expect, it } from 'vitest';
import { createContext, type Context } from '../../src/api.js';
import { getDefaultDevice, releaseDefaultDevice, subgroupMatrixConfigs } from '../../runtime/device.js';
import { POISON, kernelSource } from './harness.js';
import { Random } from './reference.js';

const device = await getDefaultDevice().catch(() => undefined);
const offered = device ? subgroupMatrixConfigs(device).some((c) => c.componentType === 'f16' && c.M === 16 && c.N === 16 && c.K === 16) : false;
afterAll(() => releaseDefaultDevice());

/** f16 bits of a small multiple of 1/64 (exact in f16), so every product is exact in f32. */
function halves(n: number, rng: Random): { bits: Uint16Array; values: Float64Array } {
  const values = Float64Array.from({ length: n }, () => (rng.below(129) - 64) / 64);
  const bits = Uint16Array.from(values, toHalf);
  return { bits, values };
}
function toHalf(x: number): number {
  if (x === 0) return 0;
  const s = x < 0 ? 0x8000 : 0; const a = Math.abs(x);
  const e = Math.floor(Math.log2(a));
  return s | ((e + 15) << 10) | Math.round((a / 2 ** e - 1) * 1024);
}
function fromHalf(h: number): number {
  const e = (h >> 10) & 31; const m = h & 1023;
  const v = e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15);
  return h & 0x8000 ? -v : v;
}

const CASES = [
  { entry: 'gemm_plain16', tile: 16, half: false },
  { entry: 'gemm_plain16_h', tile: 16, half: true },
  { entry: 'gemm_warp32', tile: 32, half: false },
] as const;

describe.skipIf(!offered)('wmma on tensor cores (subgroup matrices)', () => {
  it.each(CASES)('$entry takes the tensor-core path and D is within the accumulation bound', async ({ entry, tile, half }) => {
    const [m, n, k] = [128, 64, 96];
    const rng = new Random(2026 + tile + (half ? 1 : 0));
    const A = halves(m * k, rng);
    const B = halves(n * k, rng); // column j of B is B[j * k ..]
    const c: Context = await createContext({});
    try {
      const fn = c.loadModule(kernelSource('wmma_gemm_plain'), { fileName: 'wmma_gemm_plain.ptx' }).getFunction(entry);
      const dBytes = (half ? 2 : 4) * m * n;
      const a = c.malloc(A.bits.byteLength); c.memcpyHtoD(a, A.bits);
      const b = c.malloc(B.bits.byteLength); c.memcpyHtoD(b, B.bits);
      const d = c.malloc(dBytes); c.memcpyHtoD(d, new Uint32Array(dBytes / 4).fill(POISON));
      const config = { grid: [n / tile, m / (4 * tile)] as [number, number], block: 128 };
      const args = [a, b, d, m, n, k];
      const compiled = await fn.prepareAsync(config, args);
      expect(compiled.layout.matrix?.path).toBe('tensor-core');
      fn.launch(config, args);
      const raw = new Uint8Array(dBytes);
      await c.memcpyDtoH(raw, d);
      const got = half ? Array.from(new Uint16Array(raw.buffer), fromHalf) : Array.from(new Float32Array(raw.buffer));
      // every partial sum is a multiple of 2^-12 below 2^7: exact in f32; in f16 each rounding
      // (at most one per k step of 16 and one for D) costs half an ulp of a value below sum|ab|
      const bad: string[] = [];
      for (let i = 0; i < m; i++) {
        for (let j = 0; j < n; j++) {
          let sum = 0; let mag = 0;
          for (let q = 0; q < k; q++) { const p = A.values[i * k + q]! * B.values[j * k + q]!; sum += p; mag += Math.abs(p); }
          const bound = half ? (k / 16 + 1) * 2 ** -11 * mag : 0;
          const v = got[i * n + j]!;
          if (!(Math.abs(v - sum) <= bound)) bad.push(`D[${i}][${j}] = ${v}, want ${sum} (bound ${bound})`);
        }
      }
      expect(bad.slice(0, 5), `${bad.length} of ${m * n} elements outside the bound`).toEqual([]);
    } finally {
      c.destroy();
    }
  });
});

it.runIf(!offered)('the tensor-core tests are skipped: this device offers no f16 16x16x16 subgroup matrices', () => {
  expect(offered).toBe(false);
});
