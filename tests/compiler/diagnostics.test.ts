// Bad input yields PtxError with file:line:col, a code frame, and the instruction named.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { runPtx } from '../../src/index.js';
import type { PtxError } from '../../src/diagnostics/ptx-error.js';
import { expectCompileError } from '../helpers/ptx-errors.js';

const kernel = (body: string): string => `.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
${body}
  ret;
}
`;

const errorOf = (src: string): PtxError => expectCompileError(src, 'bad.ptx');

describe('compile diagnostics', () => {
  it('says why %envreg cannot be read', () => {
    const e = errorOf(kernel('  mov.u32 %r1, %envreg3;\n  st.global.u32 [%rd1], %r1;'));
    expect(e.message).toContain('error[L002]: special register %envreg3 is not supported: the CUDA driver fills it from its launch environment');
  });

  it.each([
    ['  mov.u64 %rd2, k;', /error\[L002\]: the address of kernel `k` is for launching it from the GPU \(CUDA dynamic parallelism\), which WebGPU cannot do/],
    ['  mov.u64 %rd2, out;\n  cvta.param.u64 %rd3, %rd2;\n  st.u32 [%rd3], %r1;', /error\[L002\]: a store or atomic through a kernel parameter's generic address: kernel parameters are read-only/],
  ])('says why a form has no WGSL meaning: %s', (body, message) => {
    expect(errorOf(kernel(body)).message).toMatch(message);
  });

  it("gives %reserved_smem_offset_* a reserved shared region of CUDA's 1 KB", async () => {
    const src = readFileSync(new URL('../kernels/cg_tile_reduce.ptx', import.meta.url), 'utf8');
    const k = compile(src).kernels[0];
    expect(k?.layout.staticSharedBytes).toBeGreaterThanOrEqual(1024);
    const out = new Uint32Array([0xdeadbeef, 0xdeadbeef]);
    await runPtx(kernel('  mov.u32 %r1, %reserved_smem_offset_cap;\n  mov.u32 %r2, %reserved_smem_offset_end;\n  mov.u32 %r3, %reserved_smem_offset_begin;\n  sub.u32 %r2, %r2, %r3;\n  st.global.v2.u32 [%rd1], {%r1, %r2};'), [out], { grid: 1, block: 1 });
    expect([...out]).toEqual([1024, 1024]);
  });

  it('names an unsupported instruction exactly as it is written', () => {
    const cases: [string, string][] = [
      ['  .shared .align 16 .b8 s[64];\n  cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [s], 16;', 'cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32'],
      ['  .shared .align 8 .b64 bar;\n  .shared .align 128 .b8 s[64];\n  cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [s], [%rd1, {%r1}], [bar];', 'cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes'],
      ['  .reg .f32 %f<8>;\n  mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, {%r0, %r1, %r2, %r3}, {%f4, %f5, %f6, %f7}, %r1, 0x0;', 'mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32'],
      ['  wmma.load.a.sync.aligned.row.m16n16k16.local.f16 {%r0, %r1, %r2, %r3, %r0, %r1, %r2, %r3}, [%rd1], 16;', 'wmma.load.a.sync.aligned.row.m16n16k16.local.f16'],
      ['  .reg .f32 %f<8>;\n  wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, {%r0, %r1, %r2, %r3, %r0, %r1, %r2, %r3}, {%r0, %r1, %r2, %r3, %r0, %r1, %r2, %r3}, {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};', 'wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite'],
      ['  .shared .align 16 .b8 s[256];\n  ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r0, %r1}, [s];', 'ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8'],
      ['  .reg .f32 %f<8>;\n  tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];', 'tex.2d.v4.f32.f32'],
      ['  sust.b.2d.b32.trap [%rd1, {%r1, %r2}], {%r3};', 'sust.b.2d.b32.trap'],
    ];
    for (const [body, name] of cases) {
      const e = errorOf(kernel(body));
      expect(e.message).toContain(`error[L001]: instruction \`${name}\` is not supported yet`);
    }
  });

  it.each([
    ['mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, {%r0, %r1, %r2, %r3}, {%f4, %f5, %f6, %f7}, %r1, 0x0;', 'sparse `mma.sp` may come later'],
    ['mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32 {%r0, %r1, %r2, %r3}, {%r0, %r1}, {%r2, %r3}, {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};', '.f16 inputs with .f16 D and .f32 C are not'],
    ['mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e5m2.f16 {%f0, %f1, %f2, %f3}, {%r0, %r1}, {%r2}, {%r0, %r1};', '.e4m3 inputs with .f32 D and .f16 C are not'],
    ['mma.sync.aligned.m16n8k16.row.col.satfinite.f32.e4m3.e4m3.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1}, {%r2}, {%f0, %f1, %f2, %f3};', '`.satfinite` is .s8/.u8/.s4/.u4 only'],
    ['mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32 {%r0, %r1}, {%r2}, {%r3}, {%r0, %r1};', '.b1 mma needs `.and.popc` or `.xor.popc`'],
    ['mma.sync.aligned.m16n8k32.row.col.s32.s4.s8.s32 {%r0, %r1, %r2, %r3}, {%r0, %r1}, {%r2}, {%r0, %r1, %r2, %r3};', 'A and B of different types are .s8/.u8, .s4/.u4 or .e4m3/.e5m2 pairs only'],
    ['mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1, %r2, %r3}, {%r0, %r1}, {%f0, %f1, %f2, %f3};', 'shape .m16n8k16 with .f16 inputs is `.row.col` only'],
    ['mma.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32 {%r0, %r1, %r2, %r3}, {%r0, %r1, %r2, %r3}, {%r0, %r1}, {%r0, %r1, %r2, %r3};', 'shape .m16n8k64 with .s8 inputs is not'],
  ])('says which mma forms are not supported: %s', (inst, note) => {
    const e = errorOf(kernel(`  .reg .f32 %f<8>;\n  ${inst}`));
    expect(e.message).toContain(`error[L001]: instruction \`${inst.split(' ')[0]}\` is not supported yet (${note})`);
  });

  it('rejects kernels that require clusters of more than one CTA', () => {
    const cluster = (directive: string): string => kernel('').replace('.visible .entry k(.param .u64 out)', `.visible .entry k(.param .u64 out) ${directive}`);
    const e = errorOf(cluster('.reqnctapercluster 2, 1, 1'));
    expect(e.message).toMatch(/^bad\.ptx:4:\d+: error\[L002\]: kernel `k` requires clusters of 2 CTAs \(\.reqnctapercluster 2, 1, 1\); clusters of more than one CTA are not supported/m);
    expect(() => compile(cluster('.reqnctapercluster 1, 1, 1'))).not.toThrow();
    expect(() => compile(cluster('.maxclusterrank 8'))).not.toThrow();
  });

  it('names an unsupported instruction with its line, column and a code frame', () => {
    const e = errorOf(kernel('  suld.b.1d.b32.trap {%r1}, [%rd1, {%r2}];'));
    expect(e.diagnostics.length).toBeGreaterThan(0);
    expect(e.message).toMatch(/^bad\.ptx:9:\d+: error\[L00[12]\]: .*suld/m);
    expect(e.message).toContain('9 |   suld.b.1d.b32.trap {%r1}, [%rd1, {%r2}];');
    expect(e.message).toMatch(/\|\s+\^+/);
  });

  it('rejects an unsigned-integer compare on floats (setp.lo.f32), which the IR has no float meaning for', () => {
    const e = errorOf(kernel('  .reg .f32 %f<3>;\n  .reg .pred %p<2>;\n  setp.lo.f32 %p1, %f1, %f2;'));
    expect(e.message).toMatch(/^bad\.ptx:11:\d+: error\[P005\]: \.lo compares unsigned integers, not \.f32/m);
    const packed = errorOf(kernel('  .reg .pred %p<3>;\n  setp.hs.f16x2 %p1|%p2, %r1, %r2;'));
    expect(packed.message).toMatch(/error\[P005\]: \.hs compares unsigned integers, not \.f16x2/);
  });

  it('reports a parse error with position instead of crashing', () => {
    const e = errorOf(kernel('  add.s32 %r1, %r2 %r3;'));
    expect(e.message).toMatch(/bad\.ptx:9:\d+: error\[P\d{3}\]/);
  });

  it('reports an undeclared register', () => {
    const e = errorOf(kernel('  add.s32 %r1, %r2, %q9;'));
    expect(e.diagnostics.map((d) => d.code)).toContain('S001');
    expect(e.message).toContain('%q9');
  });

  it('reports a branch to a missing label', () => {
    const e = errorOf(kernel('  bra $L__nowhere;'));
    expect(e.message).toMatch(/\$L__nowhere|label/);
  });

  it('reports an unknown entry with the entries that exist', () => {
    expect(() => compile(kernel(''), { entry: 'nope' })).toThrow(/no kernel `nope`.*`k`/);
  });
});
