// The tensor-core path of mma.sync (src/translate/mma-tensor-core.ts) without a GPU: which
// kernels take it and why (layout.matrix), and the staging WGSL it emits for a device that
// offers f16 16x8x16 and 16x8x8 subgroup matrices. Its results are checked against native CUDA
// on the GPU (mma-tensor-core-device.gpu.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import type { CompileOptions } from '../../src/compile-types.js';
import { H100_MATRIX_CONFIGS, kernelSource } from './harness.js';

const H100 = H100_MATRIX_CONFIGS;
const OPTIONS: CompileOptions = { subgroupSize: 32, subgroupMatrixConfigs: H100, warpPath: 'auto' };
const kernel = (ptx: string, entry: string, options: CompileOptions = OPTIONS) => {
  const k = compile(kernelSource(ptx), { ...options, entry, fileName: `${ptx}.ptx` }).kernels[0];
  if (!k) throw new Error(`no kernel ${entry}`);
  return k;
};

describe('staged mma path selection', () => {
  it.each([
    ['mma_m16n8k16_f32_f16', 'f16->f32 16x8x16'],
    ['mma_m16n8k16_f16_f16', 'f16->f16 16x8x16'],
    ['mma_m16n8k8_f32_f16', 'f16->f32 16x8x8'],
    ['mma_m16n8k8_f16_f16', 'f16->f16 16x8x8'],
  ])('takes %s to subgroup matrices %s', (entry, shape) => {
    const k = kernel('mma_forms', entry);
    expect(k.layout.matrix).toEqual({ path: 'tensor-core', reason: `the device offers subgroup matrices ${shape}; mma fragments are staged through workgroup memory` });
    expect(k.wgsl).toContain('enable chromium_disable_uniformity_analysis;');
  });

  it.each([
    ['a bf16 form', 'mma_forms', 'mma_m16n8k16_f32_bf16', OPTIONS, '`mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32` has no tensor-core lowering: .bf16 inputs (f16 only)'],
    ['an int8 form with .satfinite', 'mma_forms', 'mma_m16n8k32_u8_s8_sat', OPTIONS, '`mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32` has no tensor-core lowering: `.satfinite`'],
    ['a device without 16x8x16', 'mma_forms', 'mma_m16n8k16_f32_f16', { ...OPTIONS, subgroupMatrixConfigs: [H100[2], H100[4]] as never }, 'the device has no subgroup-matrix configuration f16->f32 16x8x16'],
    ['the emulated warp path', 'mma_forms', 'mma_m16n8k16_f32_f16', { ...OPTIONS, warpPath: 'emulated' }, 'the warp path is emulated: a warp is not one subgroup'],
    ['ldmatrix without mma', 'ldmatrix_forms', 'ldmatrix_x4', OPTIONS, 'ldmatrix/stmatrix/movmatrix alone move registers: nothing for tensor cores'],
  ] as const)('keeps the portable path for %s', (_, ptx, entry, options, reason) => {
    const k = kernel(ptx, entry, options as CompileOptions);
    expect(k.layout.matrix).toEqual({ path: 'portable', reason });
    expect(k.wgsl).not.toContain('subgroupMatrix');
  });
});

describe('staged mma WGSL', () => {
  const { wgsl } = kernel('mma_forms', 'mma_m16n8k16_f32_f16');
  it('sizes the staging areas by the block\'s warps and stages A, B and C in the ISA layouts', () => {
    expect(wgsl).toContain('var<workgroup> ptx_mma_h: array<f16, ((ptx_ntid_x * ptx_ntid_y * ptx_ntid_z + 31u) / 32u) * 512u>;');
    expect(wgsl).toContain('var<workgroup> ptx_mma_f: array<f32, ((ptx_ntid_x * ptx_ntid_y * ptx_ntid_z + 31u) / 32u) * 128u>;');
    // a2 (.z) is row g, columns 2q + 8 and 2q + 9; b1 (.y) is column g, rows 2q + 8 and 2q + 9
    expect(wgsl).toContain('ptx_mma_put(h + (g + 0u) * 16u + q + 8u, x.z);');
    expect(wgsl).toContain('ptx_mma_put(h + 256u + g * 16u + q + 8u, x.y);');
    expect(wgsl).toContain('subgroupMatrixLoad<subgroup_matrix_right<f16, 8, 16>, col_major>(&ptx_mma_h, (ptx_tid_linear >> 5u) * 512u + 256u, 16u)');
    expect(wgsl).toMatch(/subgroupMatrixMultiplyAccumulate\(v\d+, v\d+, v\d+\)/);
    expect(wgsl).toContain('ptx_mma_get_d_f32(ptx_tid_linear)');
  });

  /**
   * The k loop's WGSL from its `loop {` to its back edge's `continue;` (one iteration's path: the
   * code after the `continue;` is the exit branch, run once), and what comes before and after it.
   */
  const kLoop = (wgsl: string): { before: string; iteration: string; after: string } => {
    const start = wgsl.indexOf('loop {');
    const end = wgsl.indexOf('continue;', start);
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start);
    expect(wgsl.indexOf('loop {', start + 1)).toBe(-1); // the kernel's only loop
    return { before: wgsl.slice(0, start), iteration: wgsl.slice(start, end), after: wgsl.slice(end) };
  };
  const countIn = (text: string, s: string): number => text.split(s).length - 1;
  const staging = (text: string): number[] => ['ptx_mma_put_a16(ptx_tid_linear', 'ptx_mma_put_b16(ptx_tid_linear', 'ptx_mma_put_c_f32(ptx_tid_linear', 'subgroupMatrixMultiplyAccumulate(', 'ptx_mma_get_d_f32(ptx_tid_linear']
    .map((s) => countIn(text, s));
  const ZERO = 'subgroup_matrix_result<f32, 8, 16>(f32(0.0))';

  it('stages each A and B register set once per block and chains D into the next C (the Triton matmul)', () => {
    const src = readFileSync(join(import.meta.dirname, '../../bench/tensor-core/triton/matmul_128x128x32.ptx'), 'utf8');
    const k = compile(src, { ...OPTIONS, entry: 'mm', fileName: 'matmul_128x128x32.ptx' }).kernels[0];
    expect(k?.layout.matrix?.path).toBe('tensor-core');
    const { before, iteration, after } = kLoop(k?.wgsl ?? '');
    // per k step of 32: 64 mma over 4 A sets and 8 B sets per k16, each of the 32 accumulators
    // twice, C carried from step to step as a subgroup matrix (lowering/carry-matrices.ts): no C
    // staged and no D unstaged in the loop, the accumulators' zeros filled before it and D read
    // back once after it for the epilogue
    expect(staging(iteration)).toEqual([8, 16, 0, 64, 0]);
    expect([countIn(before, ZERO), ...staging(before)]).toEqual([32, 0, 0, 0, 0, 0]);
    expect(staging(after)).toEqual([0, 0, 0, 0, 32]);
  });

  it('carries the accumulators of our pipelined mma GEMM across its k loop', () => {
    const k = kernel('realistic_tc', 'gemm_f16_mma_pipelined');
    expect(k.layout.matrix?.path).toBe('tensor-core');
    const { before, iteration, after } = kLoop(k.wgsl);
    // per slice of 32 k: 2 x 4 m16n8k16 tiles a warp, two k16 steps; 8 accumulators. A and B
    // come from the ldmatrix tiles (ptx_ldsm_*: straight from shared memory where the lane
    // addresses form a strided matrix, which they do here, with strides that
    // ldmatrix-strides.ts proves: 40 halves for A, 72 for B): 2 A and 4 B operands per k16 step
    expect(staging(iteration)).toEqual([0, 0, 0, 16, 0]);
    expect([countIn(iteration, 'ptx_ldsm_a16_n0123_s80('), countIn(iteration, 'ptx_ldsm_b16_t01_s144('), countIn(iteration, 'ptx_ldsm_b16_t23_s144(')]).toEqual([4, 4, 4]);
    expect(k.wgsl).toMatch(/^var<workgroup> ptx_shared: array<f16, /m);
    expect(k.layout.matrix?.reason).toMatch(/; 12 A\/B operands come from ldmatrix tiles, loaded from shared memory as strided matrices \(strides proven at compile time\)$/);
    expect([countIn(before, ZERO), ...staging(before)]).toEqual([8, 0, 0, 0, 0, 0]);
    expect(staging(after)).toEqual([0, 0, 0, 0, 8]);
    // the loop's matrix parameters are function-scope variables of the result type
    expect(k.wgsl.match(/^ {2}var v\d+: subgroup_matrix_result<f32, 8, 16>;$/gm)?.length).toBeGreaterThanOrEqual(8);
  });
});

describe('mma operands straight from ldmatrix tiles (matrix_ldmatrix)', () => {
  const countIn = (text: string, s: string): number => text.split(s).length - 1;
  const helpers = (wgsl: string): string[] => [...wgsl.matchAll(/^fn (ptx_ldsm_\w+)\(/gm)].map((m) => m[1] as string).sort();
  const direct = (wgsl: string, name: string): string | undefined =>
    new RegExp(`^fn ${name}\\([^]*?subgroupMatrixLoad<[^>]*>, (\\w+)>\\(&ptx_shared, at, ld\\)`, 'm').exec(wgsl)?.[1];

  // (the stride suffix: proven by ldmatrix-strides.ts, tests/matrix/ldmatrix-strides.test.ts)
  it.each([
    ['lds_k16', { ptx_ldsm_a16_n0123_s48: 'row_major', ptx_ldsm_b16_t01_s32: 'row_major' }],
    ['lds_k16_bt', { ptx_ldsm_a16_n0123_s48: 'row_major', ptx_ldsm_b16_n01_s48: 'col_major' }],
    ['lds_k16_permuted', { ptx_ldsm_a16_n0213: 'row_major', ptx_ldsm_b16_t01_s32: 'row_major' }],
    ['lds_k8', { ptx_ldsm_a8_n01_s32: 'row_major', ptx_ldsm_b8_t0_s32: 'row_major' }],
    // the swizzle is an xor: A keeps the staging of its registers, without a run-time test
    ['lds_k16_swizzled', { ptx_ldsm_b16_t01_s32: 'row_major' }],
  ] as const)('%s reads its operands as matrices from shared memory viewed as halves', (entry, forms) => {
    const k = kernel('ldmatrix_direct', entry);
    expect(k.layout.matrix?.path).toBe('tensor-core');
    expect(k.wgsl).toMatch(/^var<workgroup> ptx_shared: array<f16, /m);
    expect(helpers(k.wgsl)).toEqual(Object.keys(forms).sort());
    for (const [name, major] of Object.entries(forms)) expect(direct(k.wgsl, name), name).toBe(major);
    // the registers are no longer staged for the mma (only inside the helpers' fallbacks)
    const body = k.wgsl.slice(k.wgsl.indexOf('@compute'));
    // (these kernels' __syncwarp takes the emulated warp path: its shuffles are ptx_warp_*)
    const ldmatrixWork = ['ptx_mma_put_a', 'ptx_mma_put_b', 'subgroupShuffle(', 'ptx_warp_shfl(', 'ptx_warp_get'].map((s) => countIn(body, s));
    if (entry === 'lds_k16_swizzled') expect(ldmatrixWork.slice(0, 2)).toEqual([1, 0]);
    else expect(ldmatrixWork).toEqual([0, 0, 0, 0, 0]);
  });

  it('keeps shared memory in words where a byte store needs them, and stages through ptx_mma_h', () => {
    const src = kernelSource('ldmatrix_direct').replace('st.shared.u16 \t[%r44], %rs3;', 'st.shared.u16 \t[%r44], %rs3;\n\tst.shared.u8 \t[%r44], %rs3;');
    expect(src).toContain('st.shared.u8');
    const k = compile(src, { ...OPTIONS, entry: 'lds_k16', fileName: 'ldmatrix_direct.ptx' }).kernels[0];
    expect(k?.wgsl).toMatch(/^var<workgroup> ptx_shared: array<atomic<u32>, /m);
    expect(k?.wgsl).toContain('fn ptx_ldsm_a16_n0123(');
    expect(k?.wgsl).not.toContain('(&ptx_shared, at, ld)');
    expect(k?.wgsl).toContain('ptx_mma_put_a16(ptx_tid_linear, vec4<u32>(');
  });
});
