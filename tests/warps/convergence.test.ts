// The convergence pass without a GPU: which scheme each kernel gets, that kernels whose
// barriers are already uniform keep their statement tree, and honest errors for barrier
// forms PTX leaves undefined.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import type { PtxError } from '../../src/diagnostics/ptx-error.js';
import { SourceFile } from '../../src/diagnostics/source.js';
import { buildModule } from '../../src/translate/build-module.js';
import type { IrFunction } from '../../src/ir/function.js';
import { parsePtx } from '../../src/ptx/parse.js';
import { PASSES } from '../../src/pipeline.js';
import { converge } from '../../lowering/converge.js';
import { expectCompileError } from '../helpers/ptx-errors.js';

const KERNELS = join(import.meta.dirname, '..', 'kernels');
const read = (file: string): string => readFileSync(join(KERNELS, `${file}.ptx`), 'utf8');

function wgslOf(file: string, entry: string): string {
  const k = compile(read(file), { fileName: `${file}.ptx`, entry }).kernels[0];
  if (!k) throw new Error(`no kernel ${entry}`);
  return k.wgsl;
}

/** Runs the passes before `converge` on one kernel; returns the function. */
function beforeConverge(file: string, entry: string): { fn: IrFunction; run: () => void } {
  const text = read(file);
  const diagnostics: never[] = [];
  const ir = buildModule(parsePtx(text, `${file}.ptx`), new SourceFile(`${file}.ptx`, text), diagnostics);
  const fn = ir.functions.find((f) => f.name === entry);
  if (!fn) throw new Error(`no kernel ${entry}`);
  const cx = { module: ir, options: {}, diagnostics };
  for (const p of PASSES) { if (p === converge) break; p.run(fn, cx); }
  return { fn, run: () => converge.run(fn, cx) };
}

describe('kernels whose collectives are already in uniform control flow keep their tree', () => {
  it.each([
    ['block_sum', 'block_sum'], ['sgemm_tiled', 'sgemm_tiled'], ['transpose', 'transpose'],
    ['conv_early_return', 'conv_stride_reduce'], ['conv_bar_red', 'conv_bar_red'],
  ])('%s %s', (file, entry) => {
    const { fn, run } = beforeConverge(file, entry);
    const before = fn.structured;
    const blocks = fn.blocks.length;
    run();
    expect(fn.structured).toBe(before);
    expect(fn.blocks.length).toBe(blocks);
  });
});

describe('the scheme each divergent kernel gets', () => {
  // Predicated regions in program order: exact when the inactive threads meet no barrier again.
  it.each([
    ['conv_early_return', 'conv_early_return'], ['conv_divergent', 'conv_branch_sync'], ['conv_bar_red', 'conv_bar_red_exit'],
    ['conv_more', 'conv_loop_once'], ['conv_more', 'conv_both_sides'],
  ])(
    '%s %s is predicated in place', (file, entry) => {
      const { fn, run } = beforeConverge(file, entry);
      const before = fn.structured;
      run();
      expect(fn.structured).not.toBe(before);
      expect(wgslOf(file, entry)).not.toMatch(/loop \{\n\s+loop \{/);
    });
  // Threads reach barriers at different places: the per-thread state machine in a uniform step loop.
  it.each([['conv_divergent', 'conv_loop_warps'], ['conv_divergent', 'conv_loop_continue'], ['conv_named', 'conv_named'], ['conv_more', 'conv_loop_return']])(
    '%s %s runs in barrier steps', (file, entry) => {
      const wgsl = wgslOf(file, entry);
      expect(wgsl).toMatch(/loop \{\n\s+loop \{/);
      expect(wgsl).toContain('workgroupUniformLoad(&ptx_bar_total)');
    });
  it('both sides of a branch meet their barrier as one (barrier phases)', () => {
    expect(wgslOf('conv_more', 'conv_both_sides').match(/workgroupBarrier\(\);/g)?.length).toBe(1);
  });
  it('a divergent loop votes once per iteration on whether any thread is still in it', () => {
    const wgsl = wgslOf('conv_more', 'conv_loop_once');
    expect(wgsl.match(/workgroupUniformLoad/g)?.length).toBe(1);
    expect(wgsl.match(/loop \{/g)?.length).toBe(1);
  });
  it('the early-return scan keeps its uniform loop (no per-iteration vote)', () => {
    const wgsl = wgslOf('conv_early_return', 'conv_early_return');
    expect(wgsl).not.toContain('workgroupUniformLoad');
    expect(wgsl.match(/workgroupBarrier\(\);/g)?.length).toBe(3);
  });
});

const kernel = (body: string): string => `.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .pred %p<3>;
${body}
  ret;
}
`;

const errorOf = (src: string): PtxError => expectCompileError(src, 'bad.ptx');

describe('barrier forms', () => {
  it('compiles bar.sync/barrier.sync/bar.arrive with ids and counts, and bar.red', () => {
    const src = kernel(`  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 7;
  bar.sync 0;
  barrier.sync.aligned 1, 64;
  barrier.sync 2;
  bar.arrive 3, 96;
  bar.sync %r1, 64;
  bar.red.popc.u32 %r2, 0, %p1;
  bar.red.and.pred %p2, 0, !%p1;
  bar.red.or.pred %p2, 1, 128, %p2;`);
    const wgsl = compile(src).kernels[0]?.wgsl ?? '';
    expect(wgsl.match(/workgroupUniformLoad/g)?.length).toBe(3);
    expect(wgsl).toContain('var<workgroup> ptx_bar_count: atomic<u32>;');
  });
  it('counts arrivals per barrier id when a divergent kernel has bar.arrive or a thread count', () => {
    const divergent = (bar: string): string => kernel(`  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 64;
  @%p1 bra P;
  ${bar}
  bra.uni D;
P:
  bar.arrive 1, 128;
D:
  ret;`);
    const wgsl = compile(divergent('bar.sync 1, 128;')).kernels[0]?.wgsl ?? '';
    expect(wgsl).toContain('var<workgroup> ptx_bar_arrived: array<atomic<u32>, 16>;');
    expect(wgsl).toMatch(/atomicAdd\(&ptx_bar_arrived\[/);
    const plain = compile(kernel(`  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 64;
  @%p1 bra D;
  bar.sync 0;
D:
  ret;`)).kernels[0]?.wgsl ?? '';
    expect(plain).not.toContain('ptx_bar_arrived');
    const e = errorOf(divergent('bar.sync 1, 48;'));
    expect(e.message).toMatch(/thread count of 48/);
  });
  it('counts barrier arrivals in a step loop with emulated warp operations', () => {
    // br_layernorm: warp 0 alone shuffles through the second level while the other warps wait
    // at the next bar.sync; br_any_above: the same with bar.red.or as that barrier.
    const src = read('block_reduce');
    const wgsl = (entry: string, warpPath: 'emulated' | 'subgroups'): string => compile(src, { entry, warpPath }).kernels[0]?.wgsl ?? '';
    expect(wgsl('br_layernorm', 'emulated')).toMatch(/atomicAdd\(&ptx_bar_arrived\[/);
    expect(wgsl('br_any_above', 'emulated')).toMatch(/atomicAdd\(&ptx_bar_red\[/);
    expect(wgsl('br_layernorm', 'subgroups')).not.toContain('ptx_bar_arrived');
  });
  it.each([
    ['bar.sync 1, 48;', /thread count of 48/],
    ['bar.arrive 1, 0;', /thread count of 0/],
    ['bar.sync 16;', /barrier id 16/],
  ])('rejects %s', (line, message) => {
    const e = errorOf(kernel(`  ${line}`));
    expect(e.diagnostics.map((d) => d.code)).toContain('L002');
    expect(e.message).toMatch(message);
  });
});
