// alloca / stacksave / stackrestore (issue 4) on a real WebGPU against JS references written
// from the CUDA source (tests/kernels/mem_alloca.cu) and the hand-written PTX
// (tests/kernels/mem_stack.ptx); native.gpu.test.ts checks the same launches against CUDA.
import { afterAll, describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { STACK_BYTES } from '../../src/translate/handlers-stack.js';
import { kernelText, nativeCases, POISON } from './native/cases.js';

afterAll(() => releaseDefaultDevice());

const launchOf = (name: string, entry: string) => {
  const l = nativeCases().find((c) => c.name === name)?.launches.find((x) => x.entry === entry);
  if (!l) throw new Error(`no case ${name}/${entry}`);
  return l;
};
const arrayArg = (a: unknown): Int32Array => (a as { array: Int32Array }).array;

function lineOf(src: string, re: RegExp): number {
  return src.split('\n').findIndex((l) => re.test(l)) + 1;
}

describe('mem_alloca: __builtin_alloca with data-dependent sizes, in the kernel and in a function called 40 times', () => {
  it('matches the JS reference (the function releases its allocation on return)', async () => {
    const l = launchOf('mem_alloca', 'mem_alloca');
    const input = arrayArg(l.args[0]);
    const out = arrayArg(l.args[1]);
    const n = (l.args[2] as { i32: number }).i32;
    await runPtx(kernelText('mem_alloca'), [input, out, n], { entry: l.entry, grid: l.grid, block: l.block });
    const fold = (i: number, k: number): number => {
      const buf = Array.from({ length: k }, (_, j) => (input[(i + j) % n] as number) ^ Math.imul(j, 0x9e3779b9));
      let s = 0;
      for (let j = 0; j < k; j++) s = (Math.imul(s, 31) + (buf[k - 1 - j] as number)) | 0;
      return s;
    };
    const exp = new Int32Array(out.length).fill(POISON | 0);
    for (let i = 0; i < n; i++) {
      const v = input[i] as number;
      const k = (v & 15) + 1;
      const buf = Array.from({ length: k }, (_, j) => Math.imul(input[(i + j) % n] as number, j + 1));
      let s = 0;
      for (let j = k - 1; j >= 0; j--) s = (Math.imul(s, 3) + (buf[j] as number)) | 0;
      let acc = 0;
      for (let r = 0; r < 40; r++) acc = (Math.imul(acc, 7) + fold(i + r, ((v >> ((r % 8) * 4)) & 15) + 1)) | 0;
      exp[2 * i] = s;
      exp[2 * i + 1] = (acc + (buf[0] as number)) | 0;
    }
    expect([...out]).toEqual([...exp]);
  });
});

describe('mem_stack: stacksave / alloca / stackrestore in a loop', () => {
  it('matches the JS reference: the stack grows down and each round starts from the saved pointer', async () => {
    const l = launchOf('mem_stack', 'mem_stack');
    const input = arrayArg(l.args[0]);
    const out = arrayArg(l.args[1]);
    const n = (l.args[2] as { i32: number }).i32;
    await runPtx(kernelText('mem_stack'), [input, out, n], { entry: l.entry, grid: l.grid, block: l.block });
    const exp = new Int32Array(out.length).fill(POISON | 0);
    for (let i = 0; i < n; i++) {
      const v = input[i] as number;
      let acc = 0;
      let same = 1;
      let first = -1;
      for (let r = 0; r < 8; r++) {
        const k = ((v >>> (4 * r)) & 15) + 1;
        // alloca.u64 p, 4k, 16 below the restored stack pointer (the stack's end).
        const at = (STACK_BYTES - 4 * k) & ~15;
        if (r === 0) first = at;
        else if (at !== first) same = 0;
        const buf = Array.from({ length: k }, (_, j) => (input[(i + j + r) % n] as number) ^ Math.imul(j, -1640531527));
        for (let j = 0; j < k; j++) acc = (Math.imul(acc, 31) + (buf[k - 1 - j] as number)) | 0;
      }
      exp[2 * i] = acc;
      exp[2 * i + 1] = same;
    }
    expect([...out]).toEqual([...exp]);
  });

  it(`an allocation that fits the ${STACK_BYTES}-byte stack runs`, async () => {
    const out = new Int32Array(64 + 4).fill(POISON | 0);
    await runPtx(kernelText('mem_stack'), [out, STACK_BYTES], { entry: 'mem_stack_big', block: 64 });
    expect([...out]).toEqual([...Array.from({ length: 64 }, (_, i) => i), POISON | 0, POISON | 0, POISON | 0, POISON | 0]);
  });

  it('an allocation beyond the stack traps (R004 at the alloca) instead of corrupting memory', async () => {
    const src = kernelText('mem_stack');
    const line = lineOf(src, /alloca\.u64\s+%rd3/);
    expect(line).toBeGreaterThan(0);
    const out = new Int32Array(64).fill(POISON | 0);
    await expect(runPtx(src, [out, STACK_BYTES + 4], { entry: 'mem_stack_big', block: 64 }))
      .rejects.toThrow(new RegExp(`R004[\\s\\S]*mem_stack_big' trapped at kernel.ptx:${line}:[\\s\\S]*64 threads executed[\\s\\S]*alloca stack of ${STACK_BYTES} bytes`));
    // A size near 2^32 (far beyond the stack) traps too.
    await expect(runPtx(src, [out, 0xfffffffc], { entry: 'mem_stack_big', block: 64 })).rejects.toThrow(/R004/);
  });

  it('stackrestore with a pointer from stacksave in a predicated path, and alloca.u32', async () => {
    const ptx = `.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 sz)
{
  .reg .pred %p<2>; .reg .b32 %r<12>; .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd1, %rd1;
  ld.param.u32 %r1, [sz];
  mov.u32 %r2, %tid.x;
  stacksave.u32 %r3;
  alloca.u32 %r4, %r1, 32;
  setp.ne.u32 %p1, %r2, 0;
  @%p1 stackrestore.u32 %r3;
  alloca.u32 %r5, 4;
  sub.u32 %r6, %r3, %r4;
  sub.u32 %r7, %r3, %r5;
  and.b32 %r8, %r4, 31;
  st.local.u32 [%r5], %r2;
  ld.local.u32 %r9, [%r5];
  mul.wide.u32 %rd2, %r2, 16; add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r6, %r7, %r8, %r9};
  ret;
}`;
    const out = new Uint32Array(32 * 4 + 4).fill(POISON);
    await runPtx(ptx, [out, 40], { block: 32 });
    const exp = new Uint32Array(32 * 4 + 4).fill(POISON);
    for (let t = 0; t < 32; t++) {
      // 40 bytes aligned to 32 below the stack's end: 64 bytes; then 4 more bytes (align 8) below
      // it for thread 0 (whose stack was not restored), or from the end for the others.
      exp.set([64, t === 0 ? 72 : 8, 0, t], t * 4);
    }
    expect([...out]).toEqual([...exp]);
  });

  it('an alloca (with its overflow branch) before bar.sync keeps the barrier uniform', async () => {
    const ptx = `.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>; .reg .b32 %r<6>; .reg .b64 %rd<6>;
  .shared .align 4 .b32 sh[64];
  ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 7;
  shl.b32 %r2, %r2, 2;
  add.u32 %r2, %r2, 4;
  cvt.u64.u32 %rd2, %r2;
  alloca.u64 %rd3, %rd2, 8;
  st.local.u32 [%rd3], %r1;
  mov.u32 %r3, sh;
  shl.b32 %r4, %r1, 2;
  add.u32 %r3, %r3, %r4;
  ld.local.u32 %r5, [%rd3];
  st.shared.u32 [%r3], %r5;
  bar.sync 0;
  xor.b32 %r4, %r4, 4;
  mov.u32 %r3, sh;
  add.u32 %r3, %r3, %r4;
  ld.shared.u32 %r5, [%r3];
  mul.wide.u32 %rd4, %r1, 4; add.s64 %rd5, %rd1, %rd4;
  st.global.u32 [%rd5], %r5;
  ret;
}`;
    const out = new Uint32Array(64 + 4).fill(POISON);
    await runPtx(ptx, [out], { block: 64 });
    expect([...out]).toEqual([...Array.from({ length: 64 }, (_, t) => t ^ 1), POISON, POISON, POISON, POISON]);
  });
});
