// Extern dynamic shared memory, special registers, brx.idx jump tables and exit (issue 4)
// on a real WebGPU. References follow the PTX ISA and the CUDA source (tests/kernels/mem_special.cu).
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

const kernel = (name: string): string => readFileSync(new URL(`../kernels/${name}.ptx`, import.meta.url), 'utf8');
const POISON = 0xdeadbeef;

describe('mem_special: extern __shared__ and special registers', () => {
  it.each([[3, 64], [2, 128], [1, 32]])('grid %i block %i', async (grid, block) => {
    const n = grid * block;
    const input = Int32Array.from({ length: n }, (_, i) => i * 7 + 3);
    const out = new Int32Array(n).fill(POISON | 0);
    const regs = new Uint32Array(grid * 12 + 4).fill(POISON);
    await runPtx(kernel('mem_special'), [input, out, regs], { grid, block, sharedBytes: block * 4 });
    const expOut = Array.from({ length: n }, (_, i) => {
      const b = Math.floor(i / block);
      return (input[b * block + block - 1 - (i % block)] as number);
    });
    expect([...out]).toEqual(expOut);
    for (let b = 0; b < grid; b++) {
      const r = [...regs.subarray(b * 12, b * 12 + 12)];
      // %dynamic_smem_size is the launch's dynamic shared memory; %total_smem_size counts it too.
      expect(r[0]).toBe(block * 4);
      expect(r[1]).toBeGreaterThanOrEqual(block * 4);
      // %smid < %nsmid; %nwarpid covers the block's warps; cluster registers with cluster size 1:
      // %clusterid = %ctaid, %nclusterid = %nctaid, %cluster_ctarank = 0, %cluster_nctarank = 1.
      expect(r.slice(2, 8)).toEqual([1, 1, b, grid, 0, 1]);
      // %clock64 and %clock increase between reads; %globaltimer does not go back.
      expect(r.slice(8, 12)).toEqual([1, 1, 1, 0x600d]);
    }
    expect([...regs.subarray(grid * 12)]).toEqual([POISON, POISON, POISON, POISON]);
  });
});

/** brx.idx through a .branchtargets table, with `exit` in one arm (PTX ISA "brx.idx"). */
const BRX = `
.version 7.8
.target sm_80
.address_size 64
.visible .entry brx_table(.param .u64 out_p, .param .u64 in_p)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  .reg .pred %p;
  ld.param.u64 %rd1, [out_p];
  ld.param.u64 %rd2, [in_p];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  add.s64 %rd5, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  and.b32 %r3, %r2, 3;
  mov.u32 %r4, 100;
ts: .branchtargets L0, L1, L2, L3;
  brx.idx %r3, ts;
L0:
  add.u32 %r4, %r4, %r2;
  bra.uni DONE;
L1:
  mul.lo.u32 %r4, %r2, 3;
  bra.uni DONE;
L2:
  exit;
L3:
  xor.b32 %r4, %r2, 0x5555;
DONE:
  st.global.u32 [%rd5], %r4;
  ret;
}`;

describe('brx.idx jump table', () => {
  it('branches through the table and exits in one arm', async () => {
    const input = Uint32Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 0xfff);
    const out = new Uint32Array(64).fill(POISON);
    await runPtx(BRX, [out, input], { block: 64 });
    const exp = [...input].map((v) => [100 + v, (v * 3) >>> 0, POISON, v ^ 0x5555][v & 3]);
    expect([...out]).toEqual(exp);
  });
});

/**
 * isspacep and generic loads for generic addresses of every space (PTX ISA "isspacep",
 * "cvta"), chosen per thread at run time; calls without arguments and with only a return.
 */
const SPACES = `
.version 7.8
.target sm_80
.address_size 64
.const .align 4 .b32 cval[2] = {5, 6};
.global .align 4 .b32 gval[2] = {7, 8};
.func noargs()
{
  ret;
}
.func (.param .b32 r) seven()
{
  st.param.b32 [r], 7;
  ret;
}
.visible .entry spaces(.param .u64 out_p, .param .u64 in_p)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<12>;
  .reg .pred %p<6>;
  .shared .align 4 .b32 sh[4];
  .local .align 4 .b32 lo[4];
  ld.param.u64 %rd1, [out_p];
  ld.param.u64 %rd2, [in_p];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 7;
  mov.u64 %rd3, sh;
  cvta.shared.u64 %rd3, %rd3;
  mov.u64 %rd4, lo;
  cvta.local.u64 %rd4, %rd4;
  mov.u64 %rd5, cval;
  cvta.const.u64 %rd5, %rd5;
  mov.u64 %rd6, gval;
  cvta.global.u64 %rd6, %rd6;
  setp.eq.u32 %p1, %r2, 1;
  selp.b64 %rd7, %rd3, %rd2, %p1;
  setp.eq.u32 %p1, %r2, 2;
  selp.b64 %rd7, %rd4, %rd7, %p1;
  setp.eq.u32 %p1, %r2, 3;
  selp.b64 %rd7, %rd5, %rd7, %p1;
  setp.eq.u32 %p1, %r2, 4;
  selp.b64 %rd7, %rd6, %rd7, %p1;
  isspacep.global %p1, %rd7;
  isspacep.shared %p2, %rd7;
  isspacep.local %p3, %rd7;
  isspacep.const %p4, %rd7;
  selp.u32 %r3, 1, 0, %p1;
  selp.u32 %r4, 2, 0, %p2;
  selp.u32 %r5, 4, 0, %p3;
  selp.u32 %r6, 8, 0, %p4;
  or.b32 %r3, %r3, %r4;
  or.b32 %r3, %r3, %r5;
  or.b32 %r3, %r3, %r6;
  add.u32 %r7, %r1, 11;
  st.shared.u32 [sh], %r7;
  add.u32 %r8, %r1, 22;
  st.local.u32 [lo], %r8;
  ld.u32 %r9, [%rd7];
  call.uni noargs, ();
  {
    .param .b32 r;
    call.uni (r), seven;
    ld.param.b32 %r10, [r];
  }
  mul.lo.u32 %r11, %r1, 3;
  mul.wide.u32 %rd8, %r11, 4;
  add.s64 %rd9, %rd1, %rd8;
  st.global.u32 [%rd9], %r3;
  st.global.u32 [%rd9+4], %r9;
  st.global.u32 [%rd9+8], %r10;
  ret;
}`;

describe('generic addresses of every space', () => {
  it('isspacep and generic loads agree with the space each thread chose', async () => {
    const input = Uint32Array.from([1234, 5678]);
    const all = new Uint32Array(32 * 3).fill(POISON);
    await runPtx(SPACES, [all, input], { block: 32 });
    for (let t = 0; t < 32; t++) {
      const kind = t & 7;
      const [mask, loaded, seven] = [...all.subarray(t * 3, t * 3 + 3)];
      expect(seven, `thread ${t}`).toBe(7);
      // every thread stores its own value to sh[0] without a barrier: any thread's may be read
      if (kind === 1) { expect(mask).toBe(2); expect(loaded).toBeGreaterThanOrEqual(11); expect(loaded).toBeLessThan(11 + 32); }
      else if (kind === 2) { expect(mask).toBe(4); expect(loaded).toBe(t + 22); }
      else if (kind === 3) { expect((mask as number) & ~1).toBe(8); expect(loaded).toBe(5); }
      else if (kind === 4) { expect(mask).toBe(1); expect(loaded).toBe(7); }
      else { expect(mask).toBe(1); expect(loaded).toBe(1234); }
    }
  });
});
