// The tensor-core path of mma.sync (src/translate/mma-tensor-core.ts) without a GPU: which
// kernels take it and why (layout.matrix), and the staging WGSL it emits for a device that
// offers f16 16x8x16 and 16x8x8 subgroup matrices. Its results are checked against native CUDA
// on the GPU (mma-tensor-core-device.gpu.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import type { CompileOptions } from '../../src/compile-types.js';
import { kernelSource } from './harness.js';

const config = (componentType: string, resultComponentType: string, M: number, N: number, K: number) => ({ componentType, resultComponentType, M, N, K });
const H100 = [config('f16', 'f32', 16, 8, 16), config('f16', 'f16', 16, 8, 16), config('f16', 'f32', 16, 8, 8), config('f16', 'f16', 16, 8, 8), config('f16', 'f32', 16, 16, 16)];
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

  it('stages each A and B register set once per block and chains D into the next C (the Triton matmul)', () => {
    const src = readFileSync(join(import.meta.dirname, '../../bench/tensor-core/triton/matmul_128x128x32.ptx'), 'utf8');
    const k = compile(src, { ...OPTIONS, entry: 'mm', fileName: 'matmul_128x128x32.ptx' }).kernels[0];
    const count = (s: string): number => (k?.wgsl.split(s).length ?? 1) - 1;
    expect(k?.layout.matrix?.path).toBe('tensor-core');
    // per k step of 32: 64 mma over 4 A sets and 8 B sets per k16, each accumulator twice
    expect([count('ptx_mma_put_a16(ptx_tid_linear'), count('ptx_mma_put_b16(ptx_tid_linear'), count('ptx_mma_put_c_f32(ptx_tid_linear'), count('subgroupMatrixMultiplyAccumulate(')]).toEqual([8, 16, 32, 64]);
  });
});
