// The tensor-core path of wmma (issue 14) without a GPU: which kernels take it and why
// (layout.matrix), and the WGSL subgroup-matrix code it emits for a device that offers
// f16->f32 and f16->f16 16x16x16 (the configurations an H100/H200 reports through Dawn).
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import type { CompileOptions } from '../../src/compile-types.js';
import { kernelSource } from './harness.js';

const H200 = [
  { componentType: 'f16', resultComponentType: 'f32', M: 16, N: 16, K: 16 },
  { componentType: 'f16', resultComponentType: 'f16', M: 16, N: 16, K: 16 },
  { componentType: 'f16', resultComponentType: 'f32', M: 16, N: 8, K: 16 },
];
const NATIVE_WARPS: CompileOptions = { subgroupSize: 32, subgroupMatrixConfigs: H200, warpPath: 'auto' };

function kernel(ptx: string, entry: string, options: CompileOptions = NATIVE_WARPS) {
  const k = compile(kernelSource(ptx), { ...options, entry, fileName: `${ptx}.ptx` }).kernels[0];
  if (!k) throw new Error(`no kernel ${entry}`);
  return k;
}

describe('tensor-core path selection', () => {
  it('takes the plain one-warp-per-tile GEMM to subgroup matrices', () => {
    const k = kernel('wmma_gemm_plain', 'gemm_plain16');
    expect(k.layout.matrix).toEqual({ path: 'tensor-core', reason: 'the device offers subgroup matrices f16->f32 16x16x16 and every fragment flows only between wmma instructions' });
    expect(k.layout.features).toEqual(expect.arrayContaining(['subgroups', 'shader-f16', 'chromium-experimental-subgroup-matrix']));
  });

  it('and the 2x2-fragment GEMM, whose fills nvcc copies across fragments', () => {
    expect(kernel('wmma_gemm_plain', 'gemm_warp32').layout.matrix?.path).toBe('tensor-core');
  });

  it('and the f16-accumulator GEMM, whose zero fill nvcc computes by cvt.rn.f16.f32 and packs by mov.b32 {h, h}', () => {
    const k = kernel('wmma_gemm_plain', 'gemm_plain16_h');
    expect(k.layout.matrix).toEqual({ path: 'tensor-core', reason: 'the device offers subgroup matrices f16->f16 16x16x16 and every fragment flows only between wmma instructions' });
    expect(k.wgsl).toContain('subgroup_matrix_result<f16, 16, 16>(f16(0.0))');
  });

  // the same kernel with its fill constant edited: 1.0 is an f16 value, 0.1 is not (cvt would round it)
  const refilled = (f32: string): string => kernelSource('wmma_gemm_plain').replace('mov.f32 \t%f1, 0f00000000;', `mov.f32 \t%f1, ${f32};`);
  it('takes a cvt fill of a constant f16 holds exactly, and refuses one it would round', () => {
    const compileWith = (src: string) => compile(src, { ...NATIVE_WARPS, entry: 'gemm_plain16_h', fileName: 'refilled.ptx' }).kernels[0];
    const one = compileWith(refilled('0f3F800000'));
    expect(one?.layout.matrix?.path).toBe('tensor-core');
    expect(one?.wgsl).toContain('subgroup_matrix_result<f16, 16, 16>(f16(1.0))');
    const tenth = compileWith(refilled('0f3DCCCCCD'));
    expect(tenth?.layout.matrix).toEqual({ path: 'portable', reason: '`mov.b32` writes fragment register %r52 element by element' });
  });

  it.each([
    ['an epilogue scaling the accumulator element by element', 'wmma_gemm', 'gemm_tile16', NATIVE_WARPS, '`mul.f32` uses fragment register %f43 element by element'],
    ['the same with fragments from shared memory', 'wmma_gemm', 'gemm_tile32_shared', NATIVE_WARPS, '`mul.f32` uses fragment register %f195 element by element'],
    ['a device without subgroup matrices (lavapipe, or Dawn without unsafe APIs)', 'wmma_gemm_plain', 'gemm_plain16', { subgroupSize: 32 }, "the device offers no subgroup matrices (chromium-experimental-subgroup-matrix; see the README for Dawn's flags)"],
    ['subgroups of 8 lanes', 'wmma_gemm_plain', 'gemm_plain16', { ...NATIVE_WARPS, subgroupSize: 8 }, "the device's subgroups have 8 lanes, not 32"],
    ['the emulated warp path', 'wmma_gemm_plain', 'gemm_plain16', { ...NATIVE_WARPS, warpPath: 'emulated' }, 'the warp path is emulated: a warp is not one subgroup'],
    ['no f16->f32 16x16x16 configuration', 'wmma_gemm_plain', 'gemm_plain16', { ...NATIVE_WARPS, subgroupMatrixConfigs: [H200[1], H200[2]] as never }, 'the device has no subgroup-matrix configuration f16->f32 16x16x16'],
    ['the matrixPath option', 'wmma_gemm_plain', 'gemm_plain16', { ...NATIVE_WARPS, matrixPath: 'portable' }, 'forced by the matrixPath option'],
    ['a .m32n8k16 shape', 'wmma_forms', 'form_m32n8k16_f16_f16_colrow_colcol', NATIVE_WARPS, undefined],
  ] as const)('keeps the portable path for %s', (_, ptx, entry, options, reason) => {
    const k = kernel(ptx, entry, options as CompileOptions);
    expect(k.layout.matrix?.path).toBe('portable');
    if (reason) expect(k.layout.matrix?.reason).toBe(reason);
    expect(k.wgsl).not.toContain('subgroupMatrix');
  });

  it('reports nothing for a kernel without matrix instructions', () => {
    const ptx = '.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry e(.param .u64 p) { .reg .b64 %rd<2>; ld.param.u64 %rd1, [p]; cvta.to.global.u64 %rd1, %rd1; st.global.u32 [%rd1], 1; ret; }';
    expect(compile(ptx, NATIVE_WARPS).kernels[0]?.layout.matrix).toBeUndefined();
  });
});

describe('tensor-core WGSL', () => {
  const { wgsl } = kernel('wmma_gemm_plain', 'gemm_plain16');
  const lines = wgsl.split('\n');

  it('enables the extension and views the buffers as arrays of their elements', () => {
    expect(lines.slice(0, 4)).toEqual([
      'enable f16;', 'enable subgroups;', 'enable chromium_experimental_subgroup_matrix;',
      'enable chromium_disable_uniformity_analysis;',
    ]);
    expect(wgsl).toContain('var<storage, read> ptx_slot0: array<f16>;');
    expect(wgsl).toContain('var<storage, read> ptx_slot1: array<f16>;');
    expect(wgsl).toContain('var<storage, read_write> ptx_slot2: array<f32>;');
  });

  it('loads A row-major and B column-major at element offsets with the PTX stride, in the current builtin form', () => {
    expect(wgsl).toMatch(/subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>\(&ptx_slot0, \(v\d+ >> 1u\), v\d+\)/);
    expect(wgsl).toMatch(/subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, col_major>\(&ptx_slot1, \(v\d+ >> 1u\), v\d+\)/);
    expect(wgsl).toMatch(/subgroupMatrixStore<row_major>\(&ptx_slot2, \(v\d+ >> 2u\), v\d+, v\d+\);/);
    expect(wgsl).not.toMatch(/subgroupMatrix(Load|Store)[^;]*(true|false)/); // the deprecated bool-argument form
  });

  it('accumulates in one matrix variable carried through the k-loop, filled with zero', () => {
    expect(wgsl.match(/subgroupMatrixMultiplyAccumulate\(/g)).toHaveLength(1);
    expect(wgsl).toContain('subgroup_matrix_result<f32, 16, 16>(f32(0.0))');
    expect(lines.filter((l) => /^ {2}var v\d+: subgroup_matrix_result<f32, 16, 16>;$/.test(l)).length).toBeLessThanOrEqual(2);
    expect(wgsl).not.toContain('subgroupShuffle');
  });

  it('gives each of the 2x2 fragments its own product and store', () => {
    const w = kernel('wmma_gemm_plain', 'gemm_warp32').wgsl;
    expect(w.match(/subgroupMatrixMultiplyAccumulate\(/g)).toHaveLength(4);
    expect(w.match(/subgroupMatrixStore</g)).toHaveLength(4);
    expect(w.match(/subgroupMatrixLoad</g)).toHaveLength(4);
  });
});
