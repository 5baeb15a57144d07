// bar.red (__syncthreads_count / _and / _or) in a step loop with emulated warp operations
// (lowering/converge-steps.ts): warp 0 alone shuffles through the second level of a block
// reduction while the other warps already wait at the bar.red after it. The step loop must
// count arrivals there as it does for bar.sync; pairing by step totalled the other warps'
// predicates without warp 0's and handed them the shared mean before warp 0 had written it.
// Inputs are small integers, so the block's sum (and the mean, a division by 128) is exact in
// any order.
import { afterAll, describe, expect, it } from 'vitest';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { compile } from '../../src/compile.js';
import { context, kernelSource } from './harness.js';

afterAll(() => releaseDefaultDevice());

const GRID = 4;
const BLOCK = 128;

/** Integers in [-6, 6]; 9 and -9 planted in warp 0 of some blocks, in other warps of others. */
function input(): Float32Array {
  const x = new Float32Array(GRID * BLOCK);
  let s = 12345;
  for (let i = 0; i < x.length; i++) { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; x[i] = ((s >>> 16) % 13) - 6; }
  x[5] = 9; // block 0: above the limit in warp 0 only
  x[BLOCK + 100] = 9; x[BLOCK + 1] = -9; // block 1: above in warp 3, below -limit in warp 0
  x[3 * BLOCK + 31] = 9; x[3 * BLOCK + 40] = 9; x[3 * BLOCK] = -9; // block 3: both warps 0 and 1; -9 in warp 0
  return x;
}

const bits = (v: number): number => new Int32Array(Float32Array.of(v).buffer)[0] as number;
const block = (x: Float32Array, b: number): number[] => [...x.subarray(b * BLOCK, (b + 1) * BLOCK)];
const mean = (v: number[]): number => Math.fround(v.reduce((a, c) => a + c, 0) / BLOCK);

async function run(kernel: string, words: number, scalars: number[]): Promise<{ out: Int32Array; path: string; x: Float32Array }> {
  const ctx = await context();
  try {
    const fn = ctx.loadModule(kernelSource('block_reduce'), { fileName: 'block_reduce.ptx', warpPath: 'emulated' }).getFunction(kernel);
    const x = input();
    const xb = ctx.malloc(x.byteLength); ctx.memcpyHtoD(xb, x);
    const ob = ctx.malloc(4 * words); ctx.memcpyHtoD(ob, new Int32Array(words).fill(-0x21524111));
    const args = [xb, ob, ...scalars] as never;
    const compiled = await fn.prepareAsync({ grid: GRID, block: BLOCK }, args);
    fn.launch({ grid: GRID, block: BLOCK }, args);
    const out = new Int32Array(words);
    await ctx.memcpyDtoH(out, ob as never);
    return { out, path: compiled.layout.warp.path, x };
  } finally {
    ctx.destroy();
  }
}

describe('bar.red after warp 0 shuffles alone, warpPath emulated', () => {
  it('__syncthreads_or right after the second level (br_any_above)', async () => {
    const { out, path, x } = await run('br_any_above', 2 * GRID, [8.5]);
    expect(path).toBe('emulated');
    const want = Array.from({ length: GRID }, (_, b) => [block(x, b).some((v) => v > 8.5) ? 1 : 0, bits(mean(block(x, b)))]).flat();
    expect([...out]).toEqual(want);
  });

  it('__syncthreads_count and __syncthreads_and right after the second level (br_count_shfl)', async () => {
    const { out, path, x } = await run('br_count_shfl', 3 * GRID, [6.5]);
    expect(path).toBe('emulated');
    const want = Array.from({ length: GRID }, (_, b) => {
      const v = block(x, b);
      return [v.filter((e) => e > 6.5).length, v.every((e) => e > -6.5) ? 1 : 0, bits(mean(v))];
    }).flat();
    expect([...out]).toEqual(want);
  });

  it('__syncthreads_count after a bar.sync that follows the second level (br_count_above)', async () => {
    const { out, path, x } = await run('br_count_above', 2 * GRID, []);
    expect(path).toBe('emulated');
    const want = Array.from({ length: GRID }, (_, b) => { const v = block(x, b); const m = mean(v); return [v.filter((e) => e > m).length, bits(m)]; }).flat();
    expect([...out]).toEqual(want);
  });

  it('counts bar.red arrivals in the step loop (and not on the subgroups path)', () => {
    const wgsl = (entry: string, warpPath: 'emulated' | 'subgroups'): string => compile(kernelSource('block_reduce'), { entry, warpPath }).kernels[0]?.wgsl ?? '';
    expect(wgsl('br_any_above', 'emulated')).toMatch(/atomicAdd\(&ptx_bar_red\[/);
    expect(wgsl('br_count_shfl', 'emulated')).toMatch(/ptx_bar_red_total\[/);
    expect(wgsl('br_any_above', 'subgroups')).not.toContain('ptx_bar_arrived');
  });
});
