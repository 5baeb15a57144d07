// The plain WMMA GEMM (kernels/wmma_gemm_plain.cu) on a device without subgroup matrices
// (lavapipe): it keeps the portable path, says why, and its D is the exact f32 sums of the
// products in increasing k (as wmma-mma.ts computes them), checked against the JS reference.
import { afterAll, expect, it } from 'vitest';
import { createContext } from '../../src/api.js';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { F32, add, convert, F16, mul } from '../conformance/ref/float.js';
import type { DeviceBuffer } from '../../runtime/memory.js';
import { POISON, kernelSource } from './harness.js';
import { Random } from './reference.js';
import { packMemory, randomElements } from './wmma-reference.js';

afterAll(() => releaseDefaultDevice());

it('gemm_plain16 keeps the portable path on lavapipe and matches the reference', async () => {
  const [m, n, k] = [64, 32, 32];
  const rng = new Random(14);
  const A = randomElements('f16', m * k, rng);
  const B = randomElements('f16', k * n, rng); // column j is B[j * k ..]
  const want = Array.from({ length: m * n }, (_, at) => {
    const i = Math.floor(at / n); const j = at % n;
    let acc = 0n;
    for (let q = 0; q < k; q++) acc = add(F32, acc, mul(F32, convert(F16, F32, A[i * k + q] as bigint, 'rn'), convert(F16, F32, B[j * k + q] as bigint, 'rn'), 'rn'), 'rn');
    return acc;
  });
  const c = await createContext({});
  try {
    const fn = c.loadModule(kernelSource('wmma_gemm_plain'), { fileName: 'wmma_gemm_plain.ptx' }).getFunction('gemm_plain16');
    const words = (b: Uint8Array): Uint32Array => new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);
    const [a, b, d] = [words(packMemory('f16', A)), words(packMemory('f16', B)), new Uint32Array(m * n).fill(POISON)].map((w) => { const p = c.malloc(w.byteLength); c.memcpyHtoD(p, w); return p; });
    const config = { grid: [n / 16, m / 64] as [number, number], block: 128 };
    const args = [a as DeviceBuffer, b as DeviceBuffer, d as DeviceBuffer, m, n, k];
    const compiled = await fn.prepareAsync(config, args);
    expect(compiled.layout.matrix).toEqual({ path: 'portable', reason: "the device offers no subgroup matrices (chromium-experimental-subgroup-matrix; see the README for Dawn's flags)" });
    fn.launch(config, args);
    const out = new Uint32Array(m * n);
    await c.memcpyDtoH(out, d as never);
    expect(Array.from(out, (v) => v.toString(16))).toEqual(want.map((v) => v.toString(16)));
  } finally {
    c.destroy();
  }
}, 600_000);
