// The convergence pass on a real WebGPU (Dawn + lavapipe): barriers after early returns, in
// divergent branches and loops, bar.red and named barriers, against JS references and the
// native CUDA results recorded on an NVIDIA GPU (tests/warps/native/conv_native.json).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { CONV_CASES, POISON, convInput } from './convergence-cases.js';

afterAll(() => releaseDefaultDevice());

const KERNELS = join(import.meta.dirname, '..', 'kernels');
const ptx = (file: string): string => readFileSync(join(KERNELS, `${file}.ptx`), 'utf8');
const nativePath = join(import.meta.dirname, 'native', 'conv_native.json');
const native: Record<string, number[]> = existsSync(nativePath) ? JSON.parse(readFileSync(nativePath, 'utf8')) : {};

describe('convergence kernels on WebGPU', () => {
  for (const c of CONV_CASES) {
    it(c.kernel, async () => {
      const input = convInput(c.inputWords);
      const out = new Uint32Array(c.outputWords).fill(POISON);
      await runPtx(ptx(c.file), [new Int32Array(input), out, ...c.scalars], { entry: c.kernel, grid: c.grid, block: c.block });
      expect([...out], 'vs the JS reference').toEqual([...c.reference(input)]);
      if (c.kernel in native) expect([...out], 'vs native CUDA').toEqual(native[c.kernel]);
    });
  }
});

describe('the JS references agree with native CUDA', () => {
  for (const c of CONV_CASES) {
    it.skipIf(!(c.kernel in native))(c.kernel, () => {
      expect(native[c.kernel]).toEqual([...c.reference(convInput(c.inputWords))]);
    });
  }
  it('every case has a native recording', () => {
    expect(CONV_CASES.filter((c) => !(c.kernel in native)).map((c) => c.kernel)).toEqual([]);
  });
});

// Hand-written PTX (no CUDA source): an irreducible CFG (entered at A or B by thread) with two
// barriers in A and a shared-memory exchange between neighbours, so the barrier instances each
// thread meets depend on its own path; reference: threads as generators yielding at barriers.
const IRREDUCIBLE_BARRIERS = `.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 sh[256];
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r10, sh;
  shl.b32 %r11, %r2, 2;
  add.s32 %r6, %r10, %r11;
  xor.b32 %r12, %r11, 4;
  add.s32 %r8, %r10, %r12;
  mov.u32 %r3, 0;
  mov.u32 %r9, 0;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra B;
A:
  add.s32 %r3, %r3, 1;
  st.shared.u32 [%r6], %r3;
  bar.sync 0;
  ld.shared.u32 %r7, [%r8];
  add.s32 %r9, %r9, %r7;
  bar.sync 0;
  setp.lt.u32 %p2, %r3, %r1;
  @%p2 bra B;
  bra DONE;
B:
  add.s32 %r3, %r3, 2;
  setp.lt.u32 %p3, %r3, %r1;
  @%p3 bra A;
DONE:
  mad.lo.s32 %r13, %r9, 1000, %r3;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r13;
  ret;
}
`;

function irreducibleBarriersRef(block: number, n: number): number[] {
  const s = new Uint32Array(block);
  const out = new Array<number>(block).fill(0);
  const threads = Array.from({ length: block }, (_, t) => (function* () {
    let r3 = 0, r9 = 0;
    let at: 'A' | 'B' = t === 0 ? 'B' : 'A';
    for (;;) {
      if (at === 'A') {
        r3++; s[t] = r3; yield; r9 += s[t ^ 1] as number; yield;
        if (r3 < n) { at = 'B'; continue; }
        break;
      }
      r3 += 2;
      if (r3 < n) { at = 'A'; continue; }
      break;
    }
    out[t] = (r9 * 1000 + r3) >>> 0;
  })());
  let live = threads.map(() => true);
  while (live.some((x) => x)) live = threads.map((g, t) => (live[t] ? !g.next().done : false));
  return out;
}

describe('irreducible control flow with barriers', () => {
  it.each([10, 7])('n = %i', async (n) => {
    const out = new Uint32Array(64).fill(POISON);
    await runPtx(IRREDUCIBLE_BARRIERS, [out, n], { block: 64 });
    expect([...out]).toEqual(irreducibleBarriersRef(64, n));
  });
});

describe('kernels whose barriers are already uniform are not rewritten', () => {
  for (const file of ['block_sum', 'sgemm_tiled', 'transpose', 'histogram']) {
    it(file, () => {
      const { kernels } = compile(readFileSync(join(KERNELS, `${file}.ptx`), 'utf8'), { fileName: `${file}.ptx` });
      for (const k of kernels) expect(k.wgsl).not.toMatch(/workgroupUniformLoad|ptx_bar_count/);
    });
  }
});

// Warps 0-1 wait at `bar.sync 1, 128` that only they ever reach: NVIDIA hardware hangs. The
// exact-counting step loop sees every running thread waiting with no barrier completed and
// ends the kernel with a trap at the barrier (R004) instead of looping forever.
const NAMED_DEADLOCK = `.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  setp.lt.u32 %p1, %r1, 64;
  @%p1 bra W;
  bar.arrive 2, 64;
  st.global.u32 [%rd2], 7;
  ret;
W:
  bar.sync 1, 128;
  st.global.u32 [%rd2], 9;
  ret;
}
`;

describe('a named barrier that can never complete', () => {
  it('traps at the barrier (R004) instead of hanging', async () => {
    const out = new Uint32Array(128).fill(POISON);
    const line = NAMED_DEADLOCK.split('\n').findIndex((l) => l.includes('bar.sync 1, 128')) + 1;
    await expect(runPtx(NAMED_DEADLOCK, [out], { block: 128 }))
      .rejects.toThrow(new RegExp(`R004[\\s\\S]*trapped at kernel.ptx:${line}:[\\s\\S]*64 threads executed`));
  });
});
