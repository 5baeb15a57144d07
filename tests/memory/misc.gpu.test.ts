// The small instructions with no observable result on WebGPU and the cluster instructions in
// clusters of one CTA (src/translate/handlers-misc.ts), brkpt, and fence.mbarrier_init, run on a
// real WebGPU: nanosleep in a spin lock with back-off (tests/kernels/misc_nanosleep.cu),
// griddepcontrol in a producer/consumer pair (misc_pdl.cu), mapa/getctarank from cooperative
// groups and inline asm (misc_cluster.cu), and hand-written PTX for the rest. JS references from
// the CUDA sources; outputs poisoned.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createContext, runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { PtxError } from '../../src/diagnostics/ptx-error.js';

afterAll(() => releaseDefaultDevice());

const kernel = (name: string): string => readFileSync(new URL(`../kernels/${name}.ptx`, import.meta.url), 'utf8');
const POISON = 0xdeadbeef | 0;

/** The R004 error a launch rejects with: its message and the note quoting the PTX line. */
async function trapOf(run: Promise<unknown>): Promise<{ message: string; notes: string }> {
  const e = await run.then(() => undefined, (x: unknown) => x as PtxError);
  expect(e, 'the launch did not trap').toBeInstanceOf(PtxError);
  const d = e?.diagnostics[0];
  expect(d?.code).toBe('R004');
  return { message: e?.message ?? '', notes: (d?.notes ?? []).map((n) => n.message).join('\n') };
}

/** The 1-based line of the first line of `src` that matches `re`. */
function lineOf(src: string, re: RegExp): number {
  return src.split('\n').findIndex((l) => re.test(l)) + 1;
}

describe('nanosleep: a spin lock with exponential back-off (misc_nanosleep.cu)', () => {
  it.each([[3, 64], [2, 40]])('grid %i, block %i: every thread takes the lock once', async (grid, block) => {
    const n = grid * block;
    const input = Uint32Array.from({ length: n }, (_, i) => (Math.imul(i + 1, 2654435761) >>> 3) ^ 0x1234567);
    const lock = new Int32Array(grid);
    const counter = new Uint32Array(grid);
    const sum = new Uint32Array(grid);
    const ticket = new Int32Array(n).fill(POISON);
    await runPtx(kernel('misc_nanosleep'), [lock, counter, sum, ticket, input], { entry: 'lock_tickets', grid, block });
    expect([...lock]).toEqual(new Array(grid).fill(0));
    expect([...counter]).toEqual(new Array(grid).fill(block));
    for (let b = 0; b < grid; b++) {
      // The plain counter was read and written under the lock only: each ticket drawn once.
      const drawn = [...ticket.subarray(b * block, (b + 1) * block)].sort((x, y) => x - y);
      expect(drawn).toEqual(Array.from({ length: block }, (_, t) => t));
      const want = input.subarray(b * block, (b + 1) * block).reduce((s, x) => (s + x) >>> 0, 0);
      expect(sum[b]).toBe(want);
    }
  });
});

describe('griddepcontrol: programmatic dependent launch (misc_pdl.cu)', () => {
  it('the consumer, launched right after the producer, reads all of its results', async () => {
    const ctx = await createContext();
    try {
      const mod = ctx.loadModule(kernel('misc_pdl'));
      const grid = 4;
      const block = 64;
      const n = grid * block;
      const input = Int32Array.from({ length: n }, (_, i) => ((i * 7919) % 1001) - 500);
      const [din, dmid, dout] = [ctx.malloc(4 * n), ctx.malloc(4 * n), ctx.malloc(4 * n)];
      ctx.memcpyHtoD(din, input);
      ctx.memcpyHtoD(dmid, new Int32Array(n).fill(POISON));
      ctx.memcpyHtoD(dout, new Int32Array(n).fill(POISON));
      mod.getFunction('pdl_producer').launch({ grid, block }, [din, dmid]);
      mod.getFunction('pdl_consumer').launch({ grid, block }, [dmid, dout]);
      const out = new Int32Array(n);
      await ctx.memcpyDtoH(out, dout);
      const mid = (i: number): number => (input[i] as number) * 3 + 1;
      expect([...out]).toEqual(Array.from({ length: n }, (_, i) => mid(i) - mid((i * 7 + 3) % n)));
    } finally {
      ctx.destroy();
    }
  });
});

describe('mapa and getctarank in a cluster of one CTA (misc_cluster.cu)', () => {
  const grid = 3;
  const block = 128;
  const n = grid * block;

  it('map_shared_rank, __cluster_query_shared_rank and the .shared::cluster forms', async () => {
    const input = Int32Array.from({ length: n }, (_, i) => i * 3 - 100);
    const out = new Int32Array(4 * n).fill(POISON);
    await runPtx(kernel('misc_cluster'), [input, out], { entry: 'cluster_map', grid, block });
    const want = Array.from({ length: n }, (_, i) => {
      const base = i - (i % block);
      const t = i % block;
      // peer[t ^ 1]; rank 0 + 10 * (1 block per cluster); s[t ^ 2] through .shared::cluster; rank 0
      return [input[base + (t ^ 1)] as number, 10, input[base + (t ^ 2)] as number, 0];
    }).flat();
    expect([...out]).toEqual(want);
  });

  it('mapa to rank 0 (even inputs) reads the CTA\'s own shared memory', async () => {
    const input = Int32Array.from({ length: n }, (_, i) => 2 * i);
    const out = new Int32Array(n).fill(POISON);
    await runPtx(kernel('misc_cluster'), [input, out], { entry: 'cluster_map_rank', grid, block });
    expect([...out]).toEqual(Array.from({ length: n }, (_, i) => 2 * ((i - (i % block)) + ((i % block) ^ 1))));
  });

  it('mapa to a rank outside the cluster traps (R004 at the mapa)', async () => {
    const src = kernel('misc_cluster');
    const input = Int32Array.from({ length: n }, (_, i) => (i === 200 || i === 301 ? 7 : 2 * i));
    const out = new Int32Array(n).fill(POISON);
    const line = src.split('\n').findIndex((l, k) => k > lineOf(src, /\.entry cluster_map_rank/) && /^\s*mapa\.u64/.test(l)) + 1;
    expect(line).toBeGreaterThan(0);
    const e = await trapOf(runPtx(src, [input, out], { entry: 'cluster_map_rank', grid, block }));
    expect(e.message).toMatch(new RegExp(`R004.*cluster_map_rank' trapped at kernel.ptx:${line}:\\d+ \\(2 threads executed a trap\\): mapa named a CTA rank outside the cluster`));
    expect(e.notes).toMatch(new RegExp(`^${line} \\| mapa\\.u64`));
  });
});

/** One hand-written kernel with every hint, each where real code has it. */
const HINTS = `.version 8.0
.target sm_90a
.address_size 64
.visible .entry hints(.param .u64 in, .param .u64 out)
{
  .reg .pred %p<3>; .reg .b32 %r<16>; .reg .b64 %rd<8>;
  .shared .align 8 .b64 bar_obj[2];
  .shared .align 4 .b32 sh[4];
  setmaxnreg.dec.sync.aligned.u32 40;
  griddepcontrol.wait;
  ld.param.u64 %rd1, [in]; cvta.to.global.u64 %rd1, %rd1;
  ld.param.u64 %rd2, [out]; cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  @!%p1 bra L_init_done;
  mov.u64 %rd3, 0x1234567890;
  st.shared.u64 [bar_obj+8], %rd3;
  st.shared.u32 [sh+4], 77;
  fence.mbarrier_init.release.cluster;
L_init_done:
  bar.sync 0;
  pmevent 1;
  pmevent.mask 0x3;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.u32 %r2, [%rd5];
  setp.lt.s32 %p2, %r2, 0;
  @!%p2 nanosleep.u32 20;
  nanosleep.u32 %r1;
  ld.shared.u64 %rd6, [bar_obj+8];
  cvt.u32.u64 %r3, %rd6;
  getctarank.shared::cluster.u32 %r4, sh+4;
  mapa.shared::cluster.u32 %r5, sh+4, 0;
  ld.shared::cluster.u32 %r6, [%r5];
  mov.u32 %r7, %cluster_ctarank;
  mapa.shared::cluster.u32 %r8, sh, %r7;
  ld.shared::cluster.u32 %r9, [%r8+4];
  add.u32 %r10, %r2, %r3;
  add.u32 %r10, %r10, %r4;
  add.u32 %r10, %r10, %r6;
  add.u32 %r10, %r10, %r9;
  add.s64 %rd7, %rd2, %rd4;
  st.global.u32 [%rd7], %r10;
  setmaxnreg.inc.sync.aligned.u32 232;
  griddepcontrol.launch_dependents;
  ret;
}`;

describe('hints with no result, fence.mbarrier_init, and the .shared::cluster address forms (hand-written PTX)', () => {
  it('leave the kernel\'s result as its JS reference says', async () => {
    const n = 96;
    const input = Int32Array.from({ length: n }, (_, i) => (i % 5 === 0 ? -i : i * 11));
    const out = new Int32Array(n + 4).fill(POISON);
    await runPtx(HINTS, [input, out], { entry: 'hints', block: n });
    const want = [...Array.from({ length: n }, (_, i) => (input[i] as number) + 0x34567890 + 0 + 77 + 77), POISON, POISON, POISON, POISON];
    expect([...out]).toEqual(want);
  });
});

const BRKPT = (at: number): string => `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  setp.eq.u32 %p1, %r1, ${at};
  @%p1 brkpt;
  mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;
  add.u32 %r2, %r1, 1000;
  st.global.u32 [%rd3], %r2;
  ret;
}`;

describe('brkpt stops the kernel like trap', () => {
  it('runs when no thread reaches it', async () => {
    const out = new Int32Array(64).fill(POISON);
    await runPtx(BRKPT(1000), [out], { block: 64 });
    expect([...out]).toEqual(Array.from({ length: 64 }, (_, t) => t + 1000));
  });

  it('rejects with R004 naming the brkpt line when a thread reaches it', async () => {
    const out = new Int32Array(64).fill(POISON);
    const e = await trapOf(runPtx(BRKPT(9), [out], { block: 64 }));
    expect(e.message).toMatch(/R004.*trapped at kernel\.ptx:10:\d+ \(1 thread executed a trap\)/);
    expect(e.notes).toBe('10 | @%p1 brkpt;');
  });
});
