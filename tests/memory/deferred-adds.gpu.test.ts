// Deferred float adds (lowering/deferred-adds.ts): a `red.add.f32` on a word the kernel touches
// no other way leaves its block's contribution in a slot, and an epilogue applies the slots in
// block order after the kernel. Kernels of tests/kernels/float_sums.cu, written as CUDA code
// writes sums; references in JS from the PTX ISA (atom.add.f32: round to nearest even, subnormal
// operands and results flushed), outputs poisoned or preset to known values.
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compile, createContext } from '../../src/index.js';
import type { Context } from '../../runtime/context.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

process.env['XDG_RUNTIME_DIR'] ??= '/tmp';
const SRC = readFileSync(new URL('../kernels/float_sums.ptx', import.meta.url), 'utf8');
// A context per test: the slot array is the context's, so a test whose epilogue failed to clear
// it cannot make the next test's adds take the immediate path and pass for the wrong reason.
let ctx: Context;
beforeEach(async () => { ctx = await createContext(); });
afterEach(() => ctx.destroy());
afterAll(() => releaseDefaultDevice());

const f32 = Math.fround;
/** f32 bits of `x` flushed to zero when subnormal (sign kept). */
const ftz = (x: number): number => (x !== 0 && Math.abs(x) < 2 ** -126 ? (x < 0 ? -0 : 0) : x);
/** One atom.add.f32: the f32 sum (the double sum of two f32 rounds to the same f32), flushed. */
const atomAdd = (a: number, b: number): number => ftz(f32(ftz(a) + ftz(b)));

/** A seeded generator, so a failure reproduces. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (s + 0x6d2b79f5) >>> 0; let t = s; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32; };
}

describe('which adds are deferred', () => {
  const kernels = new Map(compile(SRC).kernels.map((k) => [k.layout.entry, k]));
  it.each(['block_sum', 'weighted_histogram', 'count_blocks', 'sum_to_device_total'])('%s: every access to the word is an add whose old value nothing reads', (entry) => {
    const k = kernels.get(entry);
    expect(k?.epilogueEntryPoint).toBe(`k_${entry}_deferred_adds`);
    expect(k?.layout.bindings.filter((b) => b.kind === 'deferred-adds')).toHaveLength(1);
    expect(k?.wgsl).toContain(`fn k_${entry}_deferred_adds(`);
  });
  it('running_sum reads the old value: its adds apply at once', () => {
    const k = kernels.get('running_sum');
    expect(k?.epilogueEntryPoint).toBeUndefined();
    expect(k?.layout.bindings.some((b) => b.kind === 'deferred-adds')).toBe(false);
  });
  it('a kernel that also loads the word adds at once', () => {
    const src = `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p, .param .f32 v)
{
  .reg .f32 %f<4>; .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p]; cvta.to.global.u64 %rd2, %rd1; ld.param.f32 %f1, [v];
  red.global.add.f32 [%rd2], %f1;
  ld.global.f32 %f2, [%rd2+4];
  st.global.f32 [%rd2+8], %f2;
  ret;
}`;
    expect(compile(src).kernels[0]?.epilogueEntryPoint).toBeUndefined();
  });
});

describe('deferred adds on the device', () => {
  it('block sums: the total is the block partials added one by one in block order, launch after launch', async () => {
    const mod = ctx.loadModule(SRC, { fileName: 'float_sums.ptx' });
    const fn = mod.getFunction('block_sum');
    const blocks = 300, threads = 256, n = blocks * threads * 2;
    const rand = random(7);
    // one nonzero element per block (its first thread's first element): each block's partial is
    // exactly that element, and the total depends on the order the partials are added in
    const launches = [0, 1].map(() => {
      const x = new Float32Array(n);
      for (let b = 0; b < blocks; b++) x[b * threads] = f32((rand() - 0.5) * 2 ** Math.floor(rand() * 24 - 12));
      return x;
    });
    const [dx, dtotal] = [ctx.malloc(n * 4), ctx.malloc(4)];
    ctx.memcpyHtoD(dtotal, Float32Array.of(1.5));
    let want = 1.5;
    for (const x of launches) {
      ctx.memcpyHtoD(dx, x);
      const compiled = fn.launch({ grid: blocks, block: threads }, [dx, dtotal, n]);
      expect(compiled.epilogueEntryPoint).toBeDefined();
      for (let b = 0; b < blocks; b++) want = atomAdd(want, x[b * threads] as number);
    }
    const total = new Float32Array(1).fill(NaN);
    await ctx.memcpyDtoH(total, dtotal);
    expect(total[0]).toBe(want);
    ctx.free(dx); ctx.free(dtotal);
  });

  it('block sums through subnormals, infinities and NaN: each add flushed and rounded as one red.add.f32', async () => {
    const mod = ctx.loadModule(SRC);
    const fn = mod.getFunction('block_sum');
    const blocks = 40, threads = 64, n = blocks * threads;
    const bits = new Uint32Array(1);
    const asBits = (x: number): number => { new Float32Array(bits.buffer)[0] = x; return bits[0] as number; };
    const [dx, dtotal] = [ctx.malloc(n * 4), ctx.malloc(4)];
    const cases: [string, number, number[]][] = [
      // 1.5 * 2^-126 - 2^-126 is subnormal: flushed to +0 before the next add
      ['a subnormal sum on the way', 1.5 * 2 ** -126, [-(2 ** -126), 2 ** -126, 3.25, -1.5, 2 ** -140, 7]],
      ['an infinity, then its opposite', 1, [2 ** 127, 2 ** 127, 1, -Infinity, 5]],
    ];
    for (const [name, start, partials] of cases) {
      const x = new Float32Array(n);
      partials.forEach((v, b) => { x[b * threads] = v; });
      ctx.memcpyHtoD(dx, x);
      ctx.memcpyHtoD(dtotal, Float32Array.of(start));
      fn.launch({ grid: blocks, block: threads }, [dx, dtotal, n]);
      let want = start;
      for (let b = 0; b < blocks; b++) want = atomAdd(want, x[b * threads] as number);
      const total = new Float32Array(1);
      await ctx.memcpyDtoH(total, dtotal);
      // NaN results are NVIDIA's canonical 0x7fffffff
      expect(asBits(total[0] as number), name).toBe(Number.isNaN(want) ? 0x7fffffff : asBits(want));
    }
  });

  it('a weighted histogram: many adds per block and bin, the first of each block deferred, the rest at once', async () => {
    const mod = ctx.loadModule(SRC);
    const n = 5000, nbins = 7, threads = 128;
    const rand = random(11);
    const keys = Int32Array.from({ length: n }, () => Math.floor(rand() * 1000));
    const weights = Float32Array.from({ length: n }, () => Math.floor(rand() * 17) - 8); // integers: every order sums exactly
    const start = Float32Array.from({ length: nbins }, (_, b) => 100 * b - 250);
    const want = Array.from(start);
    for (let i = 0; i < n; i++) { const bin = (keys[i] as number) % nbins; want[bin] = (want[bin] as number) + (weights[i] as number); }
    const [dk, dw, dbins] = [ctx.malloc(n * 4), ctx.malloc(n * 4), ctx.malloc(nbins * 4)];
    ctx.memcpyHtoD(dk, keys); ctx.memcpyHtoD(dw, weights); ctx.memcpyHtoD(dbins, start);
    mod.getFunction('weighted_histogram').launch({ grid: Math.ceil(n / threads), block: threads }, [dk, dw, dbins, nbins, n]);
    const bins = new Float32Array(nbins).fill(NaN);
    await ctx.memcpyDtoH(bins, dbins);
    expect(Array.from(bins)).toEqual(want);
  });

  it('70000 blocks: more blocks than slots and than one grid dimension holds', async () => {
    const mod = ctx.loadModule(SRC);
    const dcount = ctx.malloc(4);
    ctx.memcpyHtoD(dcount, Float32Array.of(-3));
    mod.getFunction('count_blocks').launch({ grid: 70000, block: 32 }, [2, dcount]);
    const count = new Float32Array(1).fill(NaN);
    await ctx.memcpyDtoH(count, dcount);
    expect(count[0]).toBe(-3 + 2 * 70000);
  });

  it('a __device__ variable as the target', async () => {
    const mod = ctx.loadModule(SRC);
    const n = 3000;
    // blocks 0 and 3 add nothing: their slots stay free between taken ones
    const x = Float32Array.from({ length: n }, (_, i) => (i % 5 === 0 || i < 256 || (i >= 768 && i < 1024) ? 0 : (i % 13) - 6));
    mod.copyToSymbol('device_total', Float32Array.of(0.25));
    const dx = ctx.malloc(n * 4);
    ctx.memcpyHtoD(dx, x);
    mod.getFunction('sum_to_device_total').launch({ grid: Math.ceil(n / 256), block: 256 }, [dx, n]);
    const total = new Float32Array(1).fill(NaN);
    await mod.copyFromSymbol(total, 'device_total');
    expect(total[0]).toBe(x.reduce((s, v) => s + v, 0.25));
  });

  it('running sums read the old values: each add sees the total before it', async () => {
    const mod = ctx.loadModule(SRC);
    const n = 1000;
    const [dx, dtotal, dseen] = [ctx.malloc(n * 4), ctx.malloc(4), ctx.malloc(n * 4)];
    ctx.memcpyHtoD(dx, new Float32Array(n).fill(1));
    ctx.memcpyHtoD(dseen, new Float32Array(n).fill(NaN));
    mod.getFunction('running_sum').launch({ grid: Math.ceil(n / 128), block: 128 }, [dx, dtotal, dseen, n]);
    const [total, seen] = [new Float32Array(1).fill(NaN), new Float32Array(n)];
    await ctx.memcpyDtoH(total, dtotal);
    await ctx.memcpyDtoH(seen, dseen);
    expect(total[0]).toBe(n);
    expect(Array.from(seen).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
  });
});
