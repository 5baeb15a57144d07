// The mem_* kernels on a real WebGPU against native CUDA results recorded on an H100
// (tests/memory/native: cases.ts defines the launches, record.py ran them, mem.json holds every
// array's bytes after each launch). The JS references of the same kernels are in
// calls/module/special/stack.gpu.test.ts; this file checks the hardware agrees bit for bit.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { kernelText, nativeCases } from './native/cases.js';

afterAll(() => releaseDefaultDevice());

const recorded = JSON.parse(readFileSync(new URL('./native/mem.json', import.meta.url), 'utf8')) as {
  device: string; cases: Record<string, string[][]>; errors: Record<string, string>;
};

describe(`mem_* kernels match native CUDA (${recorded.device})`, () => {
  it('every case was recorded', () => {
    expect(recorded.errors).toEqual({});
    expect(Object.keys(recorded.cases).sort()).toEqual(nativeCases().map((c) => c.name).sort());
  });

  it.each(nativeCases().map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const src = kernelText(c.ptx);
    const native = recorded.cases[c.name] ?? [];
    for (const [l, launch] of c.launches.entries()) {
      const args = launch.args.map((a) => ('array' in a ? a.array : 'i32' in a ? a.i32 : 'u32' in a ? a.u32 : a.f32));
      await runPtx(src, args, { entry: launch.entry, grid: launch.grid, block: launch.block, ...(launch.shared ? { sharedBytes: launch.shared } : {}) });
      const arrays = launch.args.flatMap((a) => ('array' in a ? [a.array] : []));
      expect(arrays.length).toBe(native[l]?.length);
      arrays.forEach((arr, ai) => {
        const got = new Uint32Array(arr.buffer, arr.byteOffset, arr.length);
        const want = new Uint32Array(new Uint8Array(Buffer.from(native[l]?.[ai] ?? '', 'hex')).buffer);
        const argIndex = launch.args.findIndex((x) => 'array' in x && x.array === arr);
        const keep = (_: number, w: number): boolean => !c.skip?.(l, argIndex, w);
        expect([...got].filter(keep), `launch ${l} (${launch.entry}) array ${ai}`).toEqual([...want].filter(keep));
      });
    }
  });
});
