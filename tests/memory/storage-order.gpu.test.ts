// Which barriers order global memory too (lowering/storage-order.ts): storageBarrier() is written
// where a global write can reach the barrier, or a global read that is not .nc can reach it and a
// global write can follow it (loops included); not where global accesses on one side cannot
// conflict with the other. Each kernel runs on the device against its expected result.
import { afterAll, describe, expect, it } from 'vitest';
import { compile, releaseDefaultDevice, runPtx } from '../../src/index.js';

process.env['XDG_RUNTIME_DIR'] ??= '/tmp';
afterAll(() => releaseDefaultDevice());

const N = 128;

/** A one-block kernel: `body` with %r1 = %tid.x, %r2 = (tid + 1) % N, %rd1 = in, %rd2 = out and their element addresses %rd3 (in[tid]), %rd4 (out[tid]), %rd5 (out[(tid + 1) % N]), %rd6 (in[(tid + 1) % N]). */
function kernel(body: string): string {
  return `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout)
{
  .reg .pred %p<4>; .reg .b32 %r<12>; .reg .b64 %rd<12>;
  .shared .align 4 .b32 s[${N}];
  ld.param.u64 %rd1, [pin]; ld.param.u64 %rd2, [pout];
  cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  add.u32 %r2, %r1, 1; rem.u32 %r2, %r2, ${N};
  mul.wide.u32 %rd7, %r1, 4; mul.wide.u32 %rd8, %r2, 4;
  add.s64 %rd3, %rd1, %rd7; add.s64 %rd4, %rd2, %rd7; add.s64 %rd5, %rd2, %rd8; add.s64 %rd6, %rd1, %rd8;
  mov.u32 %r10, s; shl.b32 %r3, %r1, 2; add.u32 %r4, %r10, %r3; shl.b32 %r5, %r2, 2; add.u32 %r6, %r10, %r5;
${body}
  ret;
}`;
}

const CASES: { name: string; body: string; ordered: boolean; want: (input: Uint32Array) => number[] }[] = [
  {
    // in[tid] = tid * 3, then every thread reads its neighbour's word of in: a write before
    name: 'a global write before the barrier, read by another thread after it',
    body: '  mul.lo.u32 %r7, %r1, 3; st.global.u32 [%rd3], %r7;\n  bar.sync 0;\n  ld.global.u32 %r8, [%rd6]; st.global.u32 [%rd4], %r8;',
    ordered: true,
    want: () => Array.from({ length: N }, (_, t) => ((t + 1) % N) * 3),
  },
  {
    // .nc reads of in, exchanged through shared memory: nothing global on both sides can conflict
    name: 'ld.global.nc before the barrier, a global write after it',
    body: '  ld.global.nc.u32 %r7, [%rd3]; st.shared.u32 [%r4], %r7;\n  bar.sync 0;\n  ld.shared.u32 %r8, [%r6]; st.global.u32 [%rd4], %r8;',
    ordered: false,
    want: (input) => Array.from({ length: N }, (_, t) => input[(t + 1) % N] as number),
  },
  {
    // a plain read of in[tid + 1] before the barrier, in[tid] overwritten after it: the write must
    // not reach the neighbour's read
    name: 'a plain global read before the barrier, a write to the same buffer after it',
    body: '  ld.global.u32 %r7, [%rd6];\n  bar.sync 0;\n  st.global.u32 [%rd3], %r1; st.global.u32 [%rd4], %r7;',
    ordered: true,
    want: (input) => Array.from({ length: N }, (_, t) => input[(t + 1) % N] as number),
  },
  {
    // the write after the barrier reaches it again through the loop's back edge
    name: 'a global write after the barrier inside a loop',
    body: '  mov.u32 %r9, 0;\nLOOP:\n  bar.sync 0;\n  ld.global.u32 %r7, [%rd5]; add.u32 %r7, %r7, 1;\n  bar.sync 0;\n  st.global.u32 [%rd4], %r7;\n  add.u32 %r9, %r9, 1; setp.lt.u32 %p1, %r9, 4; @%p1 bra LOOP;',
    ordered: true,
    want: () => Array.from({ length: N }, () => 4),
  },
  {
    name: 'shared memory only between global accesses that cannot conflict',
    body: '  st.shared.u32 [%r4], %r1;\n  bar.sync 0;\n  ld.shared.u32 %r8, [%r6]; st.global.u32 [%rd4], %r8;',
    ordered: false,
    want: () => Array.from({ length: N }, (_, t) => (t + 1) % N),
  },
];

describe('storage ordering at barriers', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const src = kernel(c.body);
    const wgsl = compile(src).kernels[0]?.wgsl ?? '';
    expect(wgsl.includes('storageBarrier()'), 'storageBarrier() written').toBe(c.ordered);
    const input = Uint32Array.from({ length: N }, (_, i) => (i * 2654435761) >>> 8);
    const inBuf = c.name.includes('inside a loop') ? new Uint32Array(N) : input.slice();
    const out = new Uint32Array(N).fill(0xdeadbeef);
    if (c.name.includes('inside a loop')) out.fill(0);
    await runPtx(src, [inBuf, out], { grid: 1, block: N });
    expect(Array.from(out)).toEqual(c.want(input));
  });
});
