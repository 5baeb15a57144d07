// Which mma operands read from ldmatrix tiles get a proven stride (lowering/ldmatrix-strides.ts),
// so that the tensor-core path loads them with one subgroupMatrixLoad and no run-time test: the
// repository's tensor-core kernels, and small kernels whose A address is computed in ways the
// proof must accept or refuse. A refused address keeps the run-time test (ldmatrix-direct.gpu.test.ts
// runs both ways on the GPU); a wrongly proven one would load the wrong tile, so the refusals are
// the cases where each lane's address differs from the strided pattern or cannot be known.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import type { CompileOptions } from '../../src/compile-types.js';
import { H100_MATRIX_CONFIGS, kernelSource } from './harness.js';

const H100 = H100_MATRIX_CONFIGS;
const OPTIONS: CompileOptions = { subgroupSize: 32, subgroupMatrixConfigs: H100, warpPath: 'auto' };

/** The stride proven for each matrix_ldmatrix of the kernel, in order (null: none). */
function strides(src: string, entry: string, fileName: string): (number | null)[] {
  let ir = '';
  compile(src, { ...OPTIONS, entry, fileName, dumpAfter: { pass: 'ldmatrix-strides', sink: (t) => { ir += t; } } });
  return [...ir.matchAll(/matrix_ldmatrix.*$/gm)].map((m) => { const s = /stride=(\d+)/.exec(m[0]); return s ? Number(s[1]) : null; });
}

describe('proven ldmatrix strides in the tensor-core kernels', () => {
  it.each([
    // 64x64 tiles padded to 40 halves (A) and 72 halves (B) per row
    ['realistic_tc', 'gemm_f16_mma_pipelined', [80, 144, 144, 144, 144, 80, 80, 144, 144, 144, 144, 80]],
    ['realistic_tc', 'flash_attn_f16', Array(16).fill(144)],
    ['ldmatrix_direct', 'lds_k16', [48, 32]],
    ['ldmatrix_direct', 'lds_k16_bt', [48, 48]],
    ['ldmatrix_direct', 'lds_k8', [32, 32]],
    // rows in another order than the lanes': only B is strided
    ['ldmatrix_direct', 'lds_k16_permuted', [null, 32]],
    // rows going down in memory: a negative stride, which the load cannot take
    ['ldmatrix_direct', 'lds_k16_reversed', [null, 32]],
  ] as const)('%s %s', (file, entry, expected) => {
    expect(strides(kernelSource(file), entry, `${file}.ptx`)).toEqual(expected);
  });

  it('loads a proven operand without the run-time test where the block\'s x size is a multiple of 32', () => {
    const k = compile(kernelSource('realistic_tc'), { ...OPTIONS, entry: 'gemm_f16_mma_pipelined', fileName: 'realistic_tc.ptx' }).kernels[0];
    const wgsl = k?.wgsl ?? '';
    expect(wgsl).toContain([
      'fn ptx_ldsm_a16_n0123_s80(addr: u32, ptx_tid_linear: u32) -> subgroup_matrix_left<f16, 16, 16> {',
      '  if ((ptx_ntid_x & 31u) == 0u) {',
      '    return subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&ptx_shared, subgroupBroadcast(addr, 0u) >> 1u, 40u);',
      '  }',
    ].join('\n'));
    expect(wgsl).toContain('subgroupMatrixLoad<subgroup_matrix_right<f16, 8, 16>, row_major>(&ptx_shared, subgroupBroadcast(addr, 16u) >> 1u, 72u);');
  });

  it('says in layout.matrix how many strides it proved', () => {
    const k = compile(kernelSource('ldmatrix_direct'), { ...OPTIONS, entry: 'lds_k16_permuted', fileName: 'ldmatrix_direct.ptx' }).kernels[0];
    expect(k?.layout.matrix?.reason).toMatch(/; 2 A\/B operands come from ldmatrix tiles, loaded from shared memory where their lane addresses form a strided matrix \(1 proven at compile time, the rest tested at run time\), else staged$/);
  });
});

/**
 * One warp's m16n8k16 from an A tile (16 rows of 48 bytes) and a B tile, with `addressA` computing
 * %r10, A's lane address, from %r1 (%tid.x), %r3 (A's base), %r5 (%tid.x & 15) and %r2 (a
 * parameter).
 */
const kernel = (addressA: string): string => `
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pd, .param .u32 pn)
{
  .reg .pred %p<4>;
  .reg .b32 %r<40>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 As[2048];
  .shared .align 16 .b8 Bs[2048];
  ld.param.u64 %rd1, [pd];
  ld.param.u32 %r2, [pn];
  mov.u32 %r1, %tid.x;
  mov.u32 %r3, As;
  mov.u32 %r4, Bs;
  and.b32 %r5, %r1, 15;
  mad.lo.s32 %r6, %r5, 48, %r3;
  and.b32 %r7, %r1, -16;
${addressA}
  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r21, %r22, %r23, %r24}, [%r10];
  shl.b32 %r11, %r1, 5;
  and.b32 %r12, %r11, 480;
  add.s32 %r13, %r4, %r12;
  ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r26, %r27}, [%r13];
  mov.f32 %f1, 0f00000000;
  mov.f32 %f2, %f1;
  mov.f32 %f3, %f1;
  mov.f32 %f4, %f1;
  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r21, %r22, %r23, %r24}, {%r26, %r27}, {%f1, %f2, %f3, %f4};
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd2, %rd3;
  st.global.v4.f32 [%rd4], {%f1, %f2, %f3, %f4};
  ret;
}
`;

describe('the proof on small kernels', () => {
  it.each([
    ['the strided rows of a padded tile', 'add.s32 %r10, %r6, %r7;', 48],
    ['%laneid for the lane', 'mov.u32 %r30, %laneid;\n  and.b32 %r31, %r30, 15;\n  mad.lo.s32 %r32, %r31, 48, %r3;\n  and.b32 %r33, %r30, 16;\n  add.s32 %r10, %r32, %r33;', 48],
    ['a uniform offset chosen by a uniform branch', 'setp.eq.u32 %p1, %r2, 0;\n  mov.u32 %r8, 0;\n  @%p1 bra $L1;\n  mov.u32 %r8, 768;\n$L1:\n  add.s32 %r9, %r6, %r7;\n  add.s32 %r10, %r9, %r8;', 48],
    ['a uniform loop before the load', 'mov.u32 %r8, 0;\n  mov.u32 %r9, 0;\n$L1:\n  add.s32 %r8, %r8, 16;\n  add.s32 %r9, %r9, 1;\n  setp.lt.u32 %p1, %r9, %r2;\n  @%p1 bra $L1;\n  add.s32 %r14, %r6, %r7;\n  add.s32 %r10, %r14, %r8;', 48],
    ['a lane loop whose bound is a multiple of 32 (uniform trips)', 'mov.u32 %r8, %r1;\n$L1:\n  add.s32 %r8, %r8, 32;\n  setp.lt.u32 %p1, %r8, 256;\n  @%p1 bra $L1;\n  add.s32 %r10, %r6, %r7;', 48],
  ])('proves %s', (_, code, stride) => {
    expect(strides(kernel(code), 'k', 'k.ptx')).toEqual([stride, 32]);
  });

  it.each([
    // lanes 0-7 take one path, the others the other: the merged offset differs between lanes
    // (the store keeps the branch a branch: if-convert would make it a select)
    ['an offset chosen by a lane-dependent branch', 'setp.lt.u32 %p1, %r5, 8;\n  mov.u32 %r8, 0;\n  @%p1 bra $L1;\n  mov.u32 %r8, 64;\n  st.shared.u32 [%r4], %r8;\n$L1:\n  add.s32 %r9, %r6, %r7;\n  add.s32 %r10, %r9, %r8;'],
    // each lane leaves the loop after %r5 trips: the offset it carries out differs between lanes
    ['an offset carried out of a loop with lane-dependent trips', 'mov.u32 %r8, 0;\n  mov.u32 %r9, 0;\n$L1:\n  add.s32 %r8, %r8, 16;\n  add.s32 %r9, %r9, 1;\n  setp.le.u32 %p1, %r9, %r5;\n  @%p1 bra $L1;\n  add.s32 %r14, %r6, %r7;\n  add.s32 %r10, %r14, %r8;'],
    ['an address loaded from memory', 'ld.shared.u32 %r10, [%r6];'],
    ['a lane mask from a parameter', 'and.b32 %r8, %r1, %r2;\n  add.s32 %r10, %r6, %r8;'],
    ['rows that are not the lanes\' (two lanes per row)', 'shr.u32 %r8, %r5, 1;\n  mad.lo.s32 %r10, %r8, 48, %r3;'],
    ['a lane bit shifted out of 32 bits', 'shl.b32 %r8, %r1, 28;\n  add.s32 %r10, %r6, %r8;'],
    ['a stride of 2 KiB x 8', 'mad.lo.s32 %r10, %r5, 16384, %r3;'],
    ['a select on a lane-dependent condition', 'setp.lt.u32 %p1, %r5, 4;\n  add.s32 %r9, %r6, %r7;\n  add.s32 %r8, %r9, 32;\n  selp.b32 %r10, %r9, %r8, %p1;'],
  ])('refuses %s', (_, code) => {
    expect(strides(kernel(code), 'k', 'k.ptx')).toEqual([null, 32]);
  });
});
