// lowering/unroll-loops.ts on a real WebGPU: grid-stride sums and a loop that carries its value
// through memory, at every trip count modulo four (the unrolled copy, the single trip and the
// switch between them), against JS references computed with IEEE f32 rounding (Math.fround).
import { afterAll, describe, expect, it } from 'vitest';
import { compile, runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { mulberry32 } from '../e2e/reference.js';

afterAll(() => releaseDefaultDevice());

const HEAD = '.version 8.0\n.target sm_80\n.address_size 64\n';

// out[g] = x[g] + x[g + stride] + ... for g = ctaid * ntid + tid, stride = ntid * nctaid
const GRID_SUM = `${HEAD}
.visible .entry gsum(.param .u64 x, .param .u64 out, .param .u32 n) {
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %nctaid.x;
  mad.lo.s32 %r6, %r3, %r4, %r2;
  mul.lo.s32 %r7, %r4, %r5;
  mov.f32 %f1, 0f00000000;
  mov.u32 %r8, %r6;
  setp.ge.s32 %p1, %r6, %r1;
  @%p1 bra DONE;
LOOP:
  mul.wide.s32 %rd5, %r8, 4;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.f32 %f2, [%rd6];
  add.f32 %f1, %f1, %f2;
  add.s32 %r8, %r8, %r7;
  setp.lt.s32 %p2, %r8, %r1;
  @%p2 bra LOOP;
DONE:
  mul.wide.s32 %rd7, %r6, 4;
  add.s64 %rd7, %rd4, %rd7;
  st.global.f32 [%rd7], %f1;
  ret;
}`;

// the same with the trip test the other way round: the loop continues when the compare fails
const GRID_SUM_NEGATED = GRID_SUM.replace('setp.lt.s32 %p2, %r8, %r1;\n  @%p2 bra LOOP;', 'setp.ge.s32 %p2, %r8, %r1;\n  @!%p2 bra LOOP;');

// one thread: a[i + 1] = a[i] + 1 for i < n, each trip reading what the previous one stored
const CHAIN = `${HEAD}
.visible .entry chain(.param .u64 a, .param .u32 n) {
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [a];
  ld.param.u32 %r1, [n];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r2, 0;
  setp.le.s32 %p1, %r1, 0;
  @%p1 bra DONE;
LOOP:
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  add.f32 %f2, %f1, 0f3F800000;
  st.global.f32 [%rd4+4], %f2;
  add.s32 %r2, %r2, 1;
  setp.lt.s32 %p2, %r2, %r1;
  @%p2 bra LOOP;
DONE:
  ret;
}`;

// the grid-stride loop with a barrier, a warp vote or an atomic in its body: lanes that took the
// four-trip copy and lanes that took one trip would meet them a different number of times
const WITH_BARRIER = GRID_SUM.replace('add.f32 %f1, %f1, %f2;', 'add.f32 %f1, %f1, %f2;\n  bar.sync 0;');
const WITH_VOTE = GRID_SUM.replace('add.f32 %f1, %f1, %f2;', 'add.f32 %f1, %f1, %f2;\n  vote.sync.any.pred %p1, %p1, 0xffffffff;');
const WITH_ATOMIC = GRID_SUM.replace('add.f32 %f1, %f1, %f2;', 'add.f32 %f1, %f1, %f2;\n  atom.global.add.u32 %r9, [%rd4], 1;');

// a do-while: the block after the loop has the loop as its only predecessor, so SSA lets it read
// the loop's last sum and load directly rather than through block arguments
const DO_WHILE = `${HEAD}
.visible .entry dowhile(.param .u64 x, .param .u64 out, .param .u32 n) {
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r2, 0;
  mov.f32 %f1, 0f00000000;
LOOP:
  mul.wide.u32 %rd5, %r2, 4;
  add.s64 %rd5, %rd3, %rd5;
  ld.global.f32 %f2, [%rd5];
  add.f32 %f1, %f1, %f2;
  add.s32 %r2, %r2, 1;
  setp.lt.s32 %p1, %r2, %r1;
  @%p1 bra LOOP;
  st.global.f32 [%rd4], %f1;
  st.global.f32 [%rd4+4], %f2;
  ret;
}`;

const loadsIn = (wgsl: string): number => wgsl.split('bitcast<f32>(ptx_slot0[').length - 1;

describe('unroll-loops', () => {
  it.each([['back edge taken when the compare holds', GRID_SUM], ['back edge taken when it fails', GRID_SUM_NEGATED]])('unrolls the grid-stride loop (%s)', (_, src) => {
    const wgsl = compile(src).kernels[0]?.wgsl ?? '';
    expect(loadsIn(wgsl)).toBe(5);
  });

  it.each([['a barrier', WITH_BARRIER], ['a warp vote', WITH_VOTE], ['an atomic', WITH_ATOMIC]])('leaves a loop with %s alone', (_, src) => {
    expect(src).not.toBe(GRID_SUM);
    expect(loadsIn(compile(src).kernels[0]?.wgsl ?? '')).toBe(1);
  });

  it.each([0, 1, 95, 96, 97, 98, 99, 100, 191, 192, 193, 385, 1000])('grid-stride sums equal the in-order f32 sums, n = %i', async (n) => {
    const grid = 3;
    const block = 32;
    const threads = grid * block;
    const rnd = mulberry32(n + 7);
    // some subnormal and cancelling terms, so the adds' exactness checks are exercised; elements
    // past n are there to be read by a trip too many
    const x = Float32Array.from({ length: n + 4 * threads }, (_, i) => (i >= n ? 1000 + i : i % 37 === 5 ? 1.5e-39 : i % 41 === 3 ? -1.25e-38 : Math.fround(rnd() * 2 - 1)));
    const expected = new Float32Array(threads);
    for (let g = 0; g < threads; g++) {
      let s = 0;
      for (let i = g; i < n; i += threads) s = Math.fround(s + (x[i] as number));
      expected[g] = s;
    }
    for (const src of [GRID_SUM, GRID_SUM_NEGATED]) {
      const out = new Float32Array(threads).fill(Number.NaN);
      await runPtx(src, [x, out, n], { grid, block });
      expect(new Uint32Array(out.buffer)).toEqual(new Uint32Array(expected.buffer));
    }
  });

  it('keeps a loop whose values are read after it directly, and its results', async () => {
    for (const n of [1, 2, 3, 4, 5, 8, 9]) {
      const x = Float32Array.from({ length: 16 }, (_, i) => i + 0.5);
      const out = new Float32Array(2).fill(Number.NaN);
      await runPtx(DO_WHILE, [x, out, n], { grid: 1, block: 1 });
      let s = 0;
      for (let i = 0; i < n; i++) s = Math.fround(s + (x[i] as number));
      expect([...out]).toEqual([s, x[n - 1]]);
    }
  });

  it('keeps each trip\'s stores before the next trip\'s loads', async () => {
    expect(loadsIn(compile(CHAIN).kernels[0]?.wgsl ?? '')).toBe(5);
    for (let n = 0; n <= 13; n++) {
      const a = new Float32Array(16).fill(-7);
      a[0] = 2.5;
      await runPtx(CHAIN, [a, n], { grid: 1, block: 1 });
      const expected = Float32Array.from({ length: 16 }, (_, k) => (k === 0 ? 2.5 : k <= n ? 2.5 + k : -7));
      expect([...a]).toEqual([...expected]);
    }
  });
});
