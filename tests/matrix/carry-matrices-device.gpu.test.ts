// The loops of carry-matrices-cases.ts run: D = C + sum over n steps of A_s * B_s, against the
// ISA's mma (reference.ts) applied step by step, on small integers so that every f32 and f16 sum
// is exact in any order and the words must match. On a device with f16 16x8x16 subgroup matrices
// (the H100/H200 with PTX_WGSL_DAWN_FLAGS, README) they take the tensor cores with the
// accumulators carried as subgroup matrices (lowering/carry-matrices.ts); elsewhere the portable
// path runs the same kernels, which checks the kernels and the reference themselves.
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/api.js';
import { getDefaultDevice, releaseDefaultDevice, subgroupMatrixConfigs } from '../../runtime/device.js';
import { FORMS, carryPtx, stepsOf, type CarryKernel } from './carry-matrices-cases.js';
import { POISON, firstDifference } from './harness.js';
import { MMA_CASES, Random, pack, referenceMma, type MmaCase } from './reference.js';

const device = await getDefaultDevice().catch(() => undefined);
const offered = device ? subgroupMatrixConfigs(device).some((c) => c.componentType === 'f16' && c.M === 16 && c.N === 8 && c.K === 16) : false;
afterAll(() => releaseDefaultDevice());

const caseOf = (kernel: string): MmaCase => MMA_CASES.find((c) => c.kernel === kernel) as MmaCase;

/** IEEE bits of a small integer (|v| < 2048) as f16 or f32. */
function bitsOf(v: number, t: 'f16' | 'f32'): bigint {
  if (t === 'f32') { const d = new DataView(new ArrayBuffer(4)); d.setFloat32(0, v, true); return BigInt(d.getUint32(0, true)); }
  if (v === 0) return 0n;
  const a = Math.abs(v);
  const e = Math.floor(Math.log2(a));
  return BigInt((v < 0 ? 0x8000 : 0) | ((e + 15) << 10) | ((a / 2 ** e - 1) * 1024));
}

const small = (r: Random, rows: number, cols: number, span: number, t: 'f16' | 'f32'): bigint[][] =>
  Array.from({ length: rows }, () => Array.from({ length: cols }, () => bitsOf(r.below(2 * span + 1) - span, t)));

/** The kernel's inputs for `steps` steps, and the D words the ISA gives after `n` of them. */
function inputs(kernel: CarryKernel, steps: number, n: number): { a: Uint32Array; b: Uint32Array; d: Uint32Array; want: Uint32Array } {
  const f = FORMS[kernel];
  const c = caseOf(f.acc === 'f16' ? 'mma_m16n8k16_f16_f16' : 'mma_m16n8k16_f32_f16');
  const r = new Random(0x2545f491 ^ steps ^ kernel.length);
  const A = Array.from({ length: steps }, () => small(r, 16, 16, 3, 'f16'));
  const B = Array.from({ length: steps }, () => small(r, 16, 8, 3, 'f16'));
  const C = f.init === 'load' ? small(r, 16, 8, 8, c.c as 'f16' | 'f32') : small(r, 16, 8, 0, c.c as 'f16' | 'f32');
  let D = C;
  for (let s = 0; s < n; s++) D = referenceMma(c, A[s] as bigint[][], B[s] as bigint[][], D);
  const words = (m: bigint[][]): Uint32Array => Uint32Array.from(pack(m, c.cAt, c.cCount, c.d));
  return {
    a: Uint32Array.from(A.flatMap((m) => pack(m, c.aAt, c.aCount, c.a))),
    b: Uint32Array.from(B.flatMap((m) => pack(m, c.bAt, c.bCount, c.b))),
    d: f.init === 'load' ? words(C) : new Uint32Array(words(C).length).fill(POISON),
    want: words(D),
  };
}

async function run(kernel: CarryKernel, n: number, matrixPath: 'auto' | 'portable'): Promise<{ out: Uint32Array; want: Uint32Array; matrix: string | undefined }> {
  const { a, b, d, want } = inputs(kernel, Math.max(4, stepsOf(kernel, n)), stepsOf(kernel, n));
  const ctx = await createContext({});
  try {
    const fn = ctx.loadModule(carryPtx(), { fileName: 'carry.ptx', warpPath: 'auto', matrixPath }).getFunction(kernel);
    const bufs = [a, b, d].map((w) => { const x = ctx.malloc(w.byteLength); ctx.memcpyHtoD(x, w); return x; });
    const args = [...bufs, n];
    const config = { grid: 1, block: 32 };
    const compiled = await fn.prepareAsync(config, args);
    fn.launch(config, args);
    const out = new Uint32Array(d.length);
    await ctx.memcpyDtoH(out, bufs[2] as never);
    return { out, want, matrix: compiled.layout.matrix?.path };
  } finally {
    ctx.destroy();
  }
}

const RUNS: readonly (readonly [CarryKernel, number])[] = [
  ['carry_f32_zero', 4], ['carry_f32_loaded', 4], ['carry_f16_zero', 4], ['carry_b32_guarded', 4], ['carry_b32_guarded', 0],
  ['carry_f32_top_test', 4], ['carry_f32_top_test', 0], ['carry_f32_nested', 4], ['keep_two_exits', 4],
];

describe.skipIf(!offered)('mma loops with carried accumulators on tensor cores', () => {
  it.each(RUNS)('%s, n = %i', async (kernel, n) => {
    const { out, want, matrix } = await run(kernel, n, 'auto');
    expect(matrix).toBe('tensor-core');
    expect(firstDifference(out, want)).toBe('none');
  });
});

describe.skipIf(offered)('the same loops on the portable path (kernels and reference)', () => {
  it.each(RUNS.filter(([k]) => k === 'carry_f32_loaded' || k === 'carry_f16_zero' || k === 'carry_b32_guarded' || k === 'carry_f32_nested'))('%s, n = %i', async (kernel, n) => {
    const { out, want, matrix } = await run(kernel, n, 'portable');
    expect(matrix).toBe('portable');
    expect(firstDifference(out, want)).toBe('none');
  });
});
