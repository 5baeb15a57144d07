// cp.async (performed at issue: src/translate/handlers-async-copy.ts) on WebGPU, against a JS
// reference of tests/matrix/kernels/cp_async.cu: every form of the non-bulk copy, zero-fill by
// src-size and ignore-src, commit/wait groups, and the shared-memory results read by other threads.
import { afterAll, describe, expect, it } from 'vitest';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { compile } from '../../src/compile.js';
import { PtxError } from '../../src/diagnostics/ptx-error.js';
import { kernelSource, randomWords, runMatrixKernel } from './harness.js';

afterAll(() => releaseDefaultDevice());

/** Word `w` of a copy kept up to `size` bytes (the rest zero-filled). */
function keep(word: number, w: number, size: number): number {
  const rest = size - 4 * w;
  if (rest >= 4) return word >>> 0;
  if (rest <= 0) return 0;
  return (word & ((1 << (8 * rest)) - 1)) >>> 0;
}

/** What thread t's 16 bytes of sh[0] hold after its copies (cp_async.cu, switch on t % 8). */
function copied(src: readonly number[], t: number): number[] {
  switch (t % 8) {
    case 3: { const sz = (t * 5) % 17; return src.map((x, w) => keep(x, w, sz)); }
    case 4: {
      const a = (t * 7) % 9;
      const b = Math.floor(t / 3) % 9;
      return src.map((x, w) => (w < 2 ? keep(x, w, a) : keep(x, w - 2, b)));
    }
    case 5: return ((t >> 3) & 1) !== 0 ? [0, 0, 0, 0] : [...src];
    case 7: return [keep(src[0] ?? 0, 0, 4), keep(src[1] ?? 0, 0, 2), 0, keep(src[3] ?? 0, 0, 3)];
    default: return [...src];
  }
}

export function cpAsyncReference(input: Uint32Array, grid: number, block: number): Uint32Array {
  const n = block * 4;
  const total = grid * block;
  const out = new Uint32Array(grid * n * 2);
  for (let b = 0; b < grid; b++) {
    const sh0: number[] = [];
    const sh1: number[] = [];
    for (let t = 0; t < block; t++) {
      const gi = b * block + t;
      sh0.push(...copied([...input.subarray(gi * 4, gi * 4 + 4)], t));
      sh1.push(...input.subarray(total * 4 + gi * 4, total * 4 + gi * 4 + 4));
    }
    for (let i = 0; i < n; i++) {
      out[b * n * 2 + i] = sh0[(i * 37 + 11) % n] ?? 0;
      out[b * n * 2 + n + i] = sh1[(i * 13 + 5) % n] ?? 0;
    }
  }
  return out;
}

describe('cp.async forms (cp_async.cu)', () => {
  it.each([[2, 128], [3, 72]])('grid %i, block %i', async (grid, block) => {
    const input = randomWords(grid * block * 8, 0x51ed + block);
    const run = await runMatrixKernel('cp_async', 'cp_async_forms', { grid, block }, [input], [grid * block * 8], 'auto');
    expect([...(run.outputs[0] as Uint32Array)]).toEqual([...cpAsyncReference(input, grid, block)]);
  });
});

describe('cp.async diagnostics', () => {
  const wrap = (body: string): string => `.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p) {\n.reg .b32 %r<4>; .reg .b64 %rd<4>;\n${body}\n}\n`;
  const error = (body: string): string => {
    try { compile(wrap(body)); } catch (e) { if (e instanceof PtxError) return e.message; throw e; }
    return '';
  };
  it('names unsupported cp forms as written (L001), and a bad cp-size (L002)', () => {
    expect(error('cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r1], %r2;'))
      .toMatch(/L001\]: instruction `cp\.reduce\.async\.bulk\.global\.shared::cta\.bulk_group\.add\.u32` is not supported yet \(of the asynchronous copies, the `cp\.async` and non-tensor `cp\.async\.bulk` families are\)/);
    expect(error('cp.async.ca.shared::cluster.global [%r1], [%rd1], 4;'))
      .toMatch(/L001\]: instruction `cp\.async\.ca\.shared::cluster\.global` is not supported yet \(cp\.async copies from `\.global` to `\.shared\{::cta\}` only\)/);
    expect(error('cp.async.cg.shared.global [%r1], [%rd1], 8;')).toMatch(/L002.*`cp\.async\.cg\.shared\.global` has cp-size 16 only/);
  });
  it('compiles the kernel without warp machinery', () => {
    const [k] = compile(kernelSource('cp_async'), { entry: 'cp_async_forms' }).kernels;
    expect(k?.layout.warp.path).toBe('none');
  });
});
