// ldmatrix, stmatrix and movmatrix (.m8n8 .b16; src/translate/handlers-matrix.ts) on WebGPU,
// against a JS reference written from the ISA's description of the fragment (thread L holds
// row L/4, columns 2(L%4) and +1 of each 8x8 matrix; matrix i's row r is at the address of lane
// 8i + r; .trans holds the transpose). Kernels: tests/matrix/kernels/ldmatrix_forms.cu, whose
// lane L points at row p(L) = (7L + 3) % 32 of its warp's 32 rows.
import { afterAll, describe, expect, it } from 'vitest';
import { getDefaultDevice, releaseDefaultDevice } from '../../runtime/device.js';
import { compile } from '../../src/compile.js';
import { kernelSource, randomWords, runMatrixKernel, type WarpPath } from './harness.js';

afterAll(() => releaseDefaultDevice());

export const LD_LAUNCH = { grid: 2, block: 128 } as const;
const WARPS = (LD_LAUNCH.grid * LD_LAUNCH.block) / 32;
const rowOf = (lane: number): number => (7 * lane + 3) & 31;
const half = (word: number, h: number): number => (h ? word >>> 16 : word & 0xffff);
const pack = (lo: number, hi: number): number => ((hi << 16) | lo) >>> 0;

/** Half `col` of row `row` of warp w's rows (row L holds input words 4(32w + L) .. +3). */
const memory = (input: Uint32Array, w: number, row: number, col: number): number => half(input[(w * 32 + row) * 4 + (col >> 1)] ?? 0, col & 1);

export interface MatrixCase { readonly kernel: string; readonly count: 1 | 2 | 4; readonly trans: boolean; readonly op: 'ld' | 'st' | 'mov' }

export const LD_CASES: readonly MatrixCase[] = [
  { kernel: 'ldmatrix_x1', count: 1, trans: false, op: 'ld' },
  { kernel: 'ldmatrix_x2', count: 2, trans: false, op: 'ld' },
  { kernel: 'ldmatrix_x4', count: 4, trans: false, op: 'ld' },
  { kernel: 'ldmatrix_x1_trans', count: 1, trans: true, op: 'ld' },
  { kernel: 'ldmatrix_x2_trans', count: 2, trans: true, op: 'ld' },
  { kernel: 'ldmatrix_x4_trans', count: 4, trans: true, op: 'ld' },
  { kernel: 'ldmatrix_x4_generic', count: 4, trans: false, op: 'ld' },
  { kernel: 'stmatrix_x1', count: 1, trans: false, op: 'st' },
  { kernel: 'stmatrix_x2_trans', count: 2, trans: true, op: 'st' },
  { kernel: 'stmatrix_x4', count: 4, trans: false, op: 'st' },
  { kernel: 'stmatrix_x4_trans', count: 4, trans: true, op: 'st' },
  { kernel: 'movmatrix_trans', count: 1, trans: true, op: 'mov' },
];

/** Fragment element (matrix i, half h) of lane L: its (memory row slot of lane, column). */
function element(L: number, i: number, h: number, trans: boolean): { lane: number; col: number } {
  return trans ? { lane: 8 * i + 2 * (L & 3) + h, col: L >> 2 } : { lane: 8 * i + (L >> 2), col: 2 * (L & 3) + h };
}

export function ldReference(c: MatrixCase, input: Uint32Array): Uint32Array {
  const out = new Uint32Array(WARPS * 32 * 4);
  for (let w = 0; w < WARPS; w++) {
    for (let L = 0; L < 32; L++) {
      const at = (w * 32 + L) * 4;
      if (c.op === 'ld') {
        for (let i = 0; i < c.count; i++) {
          const [lo, hi] = [0, 1].map((h) => { const e = element(L, i, h, c.trans); return memory(input, w, rowOf(e.lane), e.col); });
          out[at + i] = pack(lo ?? 0, hi ?? 0);
        }
      } else if (c.op === 'st') {
        // the rows each lane writes out, filled by every lane's registers
        for (let K = 0; K < 32; K++) {
          for (let i = 0; i < c.count; i++) {
            for (let h = 0; h < 2; h++) {
              const e = element(K, i, h, c.trans);
              if (rowOf(e.lane) !== L) continue;
              const v = half(input[(w * 32 + K) * 4 + i] ?? 0, h);
              const word = at + (e.col >> 1);
              out[word] = (e.col & 1 ? ((out[word] ?? 0) & 0xffff) | (v << 16) : ((out[word] ?? 0) & 0xffff0000) | v) >>> 0;
            }
          }
        }
      }
    }
  }
  return out;
}

/** movmatrix: lane L gets A^T's fragment: A[2(L%4) + h][L/4], A[R][C] being half C%2 of lane 4R + C/2. */
export function movReference(input: Uint32Array): Uint32Array {
  const out = new Uint32Array(WARPS * 32);
  for (let w = 0; w < WARPS; w++) {
    const a = (R: number, C: number): number => half(input[w * 32 + 4 * R + (C >> 1)] ?? 0, C & 1);
    for (let L = 0; L < 32; L++) out[w * 32 + L] = pack(a(2 * (L & 3), L >> 2), a(2 * (L & 3) + 1, L >> 2));
  }
  return out;
}

export const ldSeed = (c: MatrixCase): number => 0xa5a5 + LD_CASES.indexOf(c);
export const ldWords = (c: MatrixCase): number => WARPS * 32 * (c.op === 'mov' ? 1 : 4);

const paths: WarpPath[] = ['auto', 'emulated'];

describe.each(paths)('ldmatrix / stmatrix / movmatrix, warpPath %s', (warpPath) => {
  it.each(LD_CASES.map((c) => [c.kernel, c] as const))('%s', async (_n, c) => {
    const input = randomWords(ldWords(c), ldSeed(c));
    const run = await runMatrixKernel('ldmatrix_forms', c.kernel, LD_LAUNCH, [input], [ldWords(c)], warpPath);
    // auto: the emulation on lavapipe (subgroups of 8), native subgroups where they have 32 lanes (the GPU machine)
    expect(warpPath === 'emulated' ? ['emulated'] : ['emulated', 'subgroups']).toContain(run.path);
    const want = c.op === 'mov' ? movReference(input) : ldReference(c, input);
    expect([...(run.outputs[0] as Uint32Array)].map((x) => x.toString(16))).toEqual([...want].map((x) => x.toString(16)));
  });
});

describe('the subgroups path of ldmatrix / stmatrix / movmatrix is valid WGSL', () => {
  it.each(LD_CASES.map((c) => [c.kernel] as const))('%s', async (kernel) => {
    const [k] = compile(kernelSource('ldmatrix_forms'), { entry: kernel, warpPath: 'subgroups' }).kernels;
    expect(k?.wgsl).toMatch(/subgroupShuffle\(/);
    const device = await getDefaultDevice();
    if (!device.features.has('subgroups')) return;
    const info = await device.createShaderModule({ code: k?.wgsl ?? '' }).getCompilationInfo();
    expect(info.messages.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([]);
  });
});
