// Addresses with a constant part (`[%r+imm]`, or an add of a constant feeding the access) index
// WGSL arrays as `(base >> 2) + imm / 4` so that drivers fold the constant into the access
// (lowering/wgsl/emit-memory.ts). A shift does not distribute over a wrapping add: a pointer
// computed before the start of its buffer or of shared memory (a negative base that the
// constant brings back, as in `row[x + k]` with `k < 0` unrolled) must still read the right
// word. Hand-written PTX, bases built from kernel parameters so the compiler cannot fold them
// away; JS references; outputs poisoned. The shared case fails on lavapipe if a positive
// constant is folded with an unsigned shift; the global one only where the driver bounds-checks
// the index (SwiftShader in Chromium: the corpus's conv/separable found it), as lavapipe's 32-bit
// address arithmetic wraps such an index back onto the right word.
import { afterAll, describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

const POISON = 0x7fbadbad;
const N = 64;

const PTX = `
.version 8.0
.target sm_80
.address_size 64

// out[t] = in[t] (through a base 'back' bytes before it) + in[t + 1] (through a base 8 bytes past it)
.visible .entry global_bases(.param .u64 out, .param .u64 in, .param .u32 back, .param .u32 eight)
{
  .reg .b64 %rd<12>;
  .reg .b32 %r<4>;
  .reg .f32 %f<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  ld.param.u32 %r2, [back];
  ld.param.u32 %r3, [eight];
  cvt.u64.u32 %rd8, %r2;
  cvt.u64.u32 %rd9, %r3;
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  sub.s64 %rd5, %rd4, %rd8;
  ld.global.f32 %f1, [%rd5+268435456];
  add.s64 %rd6, %rd4, %rd9;
  ld.global.f32 %f2, [%rd6+-4];
  add.f32 %f3, %f1, %f2;
  add.s64 %rd7, %rd1, %rd3;
  st.global.f32 [%rd7], %f3;
  ret;
}

// Each thread stores its value to shared memory as a vector of 4; then out[t] reads the words of
// thread t + 1 through a base 'back' bytes before its own slot: a negative base for small t.
.visible .entry shared_bases(.param .u64 out, .param .u64 in, .param .u32 back)
{
  .shared .align 16 .b8 tile[1040];
  .reg .b64 %rd<6>;
  .reg .b32 %r<10>;
  .reg .f32 %f<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  ld.param.u32 %r9, [back];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  add.f32 %f2, %f1, 0f3F800000;
  add.f32 %f3, %f1, 0f40000000;
  add.f32 %f4, %f1, 0f40400000;
  mov.u32 %r2, tile;
  shl.b32 %r3, %r1, 4;
  add.s32 %r4, %r2, %r3;
  st.shared.v4.f32 [%r4], {%f1, %f2, %f3, %f4};
  bar.sync 0;
  sub.s32 %r5, %r4, %r9;
  ld.shared.f32 %f5, [%r5+80];
  ld.shared.f32 %f6, [%r5+84];
  ld.shared.v4.f32 {%f1, %f2, %f3, %f7}, [%r5+96];
  add.f32 %f5, %f5, %f6;
  add.f32 %f5, %f5, %f7;
  add.s64 %rd5, %rd1, %rd3;
  st.global.f32 [%rd5], %f5;
  ret;
}

// Block of 4: thread t reads word t of a tile through the base 4t + 4 * 0x30000000 (below 2^32)
// plus 2^30, a sum that wraps back onto 4t; the base comes from %ntid, whose range times the
// factor could wrap, so it is not taken as wrap-free (an unsigned fold would read past the tile).
.visible .entry wrapping_tid_base(.param .u64 out)
{
  .shared .align 4 .b8 words[64];
  .reg .b64 %rd<4>;
  .reg .b32 %r<10>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, words;
  shl.b32 %r3, %r1, 2;
  add.s32 %r4, %r2, %r3;
  add.s32 %r5, %r1, 100;
  st.shared.u32 [%r4], %r5;
  bar.sync 0;
  mov.u32 %r9, %ntid.x;
  mul.lo.u32 %r8, %r9, 805306368;
  add.s32 %r7, %r4, %r8;
  ld.shared.u32 %r5, [%r7+1073741824];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
`;

const input = Float32Array.from({ length: N + 2 }, (_, i) => ((i * 37) % 101) / 8);

describe('memory accesses with constant offsets from bases outside the memory', () => {
  it('global: a base 256 MB before the buffer, and a negative offset from a base past the element', async () => {
    const out = new Float32Array(N).fill(new Float32Array(new Uint32Array([POISON]).buffer)[0] as number);
    await runPtx(PTX, [out, input, 268435456, 8], { entry: 'global_bases', grid: 1, block: N });
    const want = Float32Array.from({ length: N }, (_, t) => Math.fround((input[t] as number) + (input[t + 1] as number)));
    expect([...out]).toEqual([...want]);
  });

  it('shared: a base 64 bytes before the array (threads 0-3), scalar and vector loads', async () => {
    const out = new Float32Array(N).fill(new Float32Array(new Uint32Array([POISON]).buffer)[0] as number);
    await runPtx(PTX, [out, input, 64], { entry: 'shared_bases', grid: 1, block: N });
    // [%r5+80] is thread t+1's first word, +84 its second; +96 thread t+2's vector, whose last word is x + 3
    const slot = (t: number, w: number): number => (t < N ? Math.fround((input[t] as number) + w) : Number.NaN);
    const want = Float32Array.from({ length: N }, (_, t) => Math.fround(Math.fround(slot(t + 1, 0) + slot(t + 1, 1)) + slot(t + 2, 3)));
    expect([...out.subarray(0, N - 2)]).toEqual([...want.subarray(0, N - 2)]);
  });

  it('shared: a base from thread indices whose u32 arithmetic wraps is not taken as wrap-free', async () => {
    const out = new Uint32Array(4).fill(POISON);
    await runPtx(PTX, [out], { entry: 'wrapping_tid_base', grid: 1, block: 4 });
    expect([...out]).toEqual([100, 101, 102, 103]);
  });
});
