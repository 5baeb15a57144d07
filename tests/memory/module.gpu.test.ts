// Module variables and trap (issue 4) on a real WebGPU, against JS references written from
// tests/kernels/mem_globals.cu and mem_trap.cu. Outputs are poisoned before runs.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

const kernel = (name: string): string => readFileSync(new URL(`../kernels/${name}.ptx`, import.meta.url), 'utf8');
const POISON = 0xdeadbeef | 0;

describe('mem_globals: __constant__ and __device__ variables with initialisers', () => {
  it('reads constant tables and pointer tables, and the counter persists across launches', async () => {
    const src = kernel('mem_globals');
    const n = 77;
    const input = Int32Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 7 & 0xffff);
    const ctab = [3, 1, 4, 1, 5, 9, 2, 6];
    const cscale = [0.5, -2.25];
    const gdata = [10, 20, 30, 40];
    const gbytes = [1, 2, 3, 4, 5, 6];
    for (let launch = 0; launch < 2; launch++) {
      const out = new Int32Array(n * 4 + 4).fill(POISON);
      const fout = new Float32Array(n + 4);
      new Int32Array(fout.buffer).fill(POISON);
      await runPtx(src, [input, out, fout, n], { entry: 'mem_globals', grid: 3, block: 32 });
      const exp = new Int32Array(n * 4 + 4).fill(POISON);
      const expF = new Float32Array(n + 4);
      new Int32Array(expF.buffer).fill(POISON);
      for (let i = 0; i < n; i++) {
        const v = input[i] as number;
        exp[i * 4] = (ctab[v & 7] as number) * 100 + (ctab[(v >> 3) & 7] as number);
        exp[i * 4 + 1] = gdata[(v & 1) * 2 + ((v >> 1) & 1)] as number;
        exp[i * 4 + 2] = 1;
        exp[i * 4 + 3] = gbytes[v % 6] as number;
        expF[i] = Math.fround((cscale[v & 1] as number) * v);
      }
      expect([...out]).toEqual([...exp]);
      expect([...new Int32Array(fout.buffer)]).toEqual([...new Int32Array(expF.buffer)]);
    }
    const res = new Int32Array(4).fill(POISON);
    await runPtx(src, [res], { entry: 'mem_read_counter', grid: 1, block: 1 });
    expect([...res]).toEqual([1000 + 2 * n, 41, POISON, POISON]);
    await runPtx(src, [res], { entry: 'mem_read_counter', grid: 1, block: 1 });
    expect([...res]).toEqual([1000 + 2 * n, 42, POISON, POISON]);
  });
});

/** The 1-based line of the first line of `src` that matches `re`. */
function lineOf(src: string, re: RegExp): number {
  return src.split('\n').findIndex((l) => re.test(l)) + 1;
}

describe('trap and assert stop the kernel and reject with R004 naming the PTX line', () => {
  it('trap', async () => {
    const src = kernel('mem_trap');
    const input = Int32Array.from({ length: 64 }, (_, i) => (i === 37 ? 13 : i + 100));
    const out = new Int32Array(64).fill(POISON);
    const line = lineOf(src, /^\s*trap;/);
    expect(line).toBeGreaterThan(0);
    await expect(runPtx(src, [input, out, 64], { entry: 'mem_trap', grid: 2, block: 32 }))
      .rejects.toThrow(new RegExp(`R004[\\s\\S]*mem_trap' trapped at kernel.ptx:${line}:[\\s\\S]*1 thread executed`));
  });

  it('a kernel that does not trap still runs (the error is not sticky)', async () => {
    const src = kernel('mem_trap');
    const input = Int32Array.from({ length: 64 }, (_, i) => i + 100);
    const out = new Int32Array(64).fill(POISON);
    await runPtx(src, [input, out, 60], { entry: 'mem_trap', grid: 2, block: 32 });
    expect([...out]).toEqual(Array.from({ length: 64 }, (_, i) => (i < 60 ? i + 101 : POISON)));
  });

  it('assert (__assertfail) traps', async () => {
    const src = kernel('mem_trap');
    const input = Int32Array.from({ length: 64 }, (_, i) => (i % 20 === 2 ? 42 : i));
    const out = new Int32Array(64).fill(POISON);
    const line = lineOf(src, /__assertfail,/) - 1; // the `call.uni` line before the callee's name
    await expect(runPtx(src, [input, out, 64], { entry: 'mem_assert', grid: 2, block: 32 }))
      .rejects.toThrow(new RegExp(`R004[\\s\\S]*mem_assert' trapped at kernel.ptx:${line}:[\\s\\S]*4 threads executed`));
  });
});
