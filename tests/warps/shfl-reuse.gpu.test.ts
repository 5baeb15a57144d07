// The emulated warp path publishes a shuffled value once and reads the ptx_warp ring for further
// shuffles of it while it is among the last three publications (lowering/wgsl/emit-warp.ts), as
// the matrix instructions' fragment exchanges need. Checked against a JS reference of
// shfl.sync.idx on both warp paths, and in the WGSL: which shuffles publish and which only read.
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/api.js';
import { compile } from '../../src/compile.js';

// Eight shuffles of four values: r1 is read again one and two publications later (no new
// publication), then after r4 evicted it from the readable three (published again); r2 likewise.
// bar.sync between the last two forgets what was published, so r2 is published a third time.
const PTX = `.version 8.0
.target sm_80
.address_size 64
.visible .entry shfl_reuse(.param .u64 out)
{
  .reg .b32 %r<32>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  mov.u32 %r5, %laneid;
  mad.lo.u32 %r1, %r0, 3, 1;
  mad.lo.u32 %r2, %r0, 7, 5;
  xor.b32 %r3, %r0, 0x55;
  add.u32 %r4, %r0, 100;
  add.u32 %r6, %r5, 1;
  shfl.sync.idx.b32 %r10, %r1, %r6, 31, -1;
  add.u32 %r6, %r5, 3;
  shfl.sync.idx.b32 %r11, %r2, %r6, 31, -1;
  add.u32 %r6, %r5, 5;
  shfl.sync.idx.b32 %r12, %r1, %r6, 31, -1;
  add.u32 %r6, %r5, 7;
  shfl.sync.idx.b32 %r13, %r3, %r6, 31, -1;
  add.u32 %r6, %r5, 9;
  shfl.sync.idx.b32 %r14, %r1, %r6, 31, -1;
  xor.b32 %r6, %r5, 1;
  shfl.sync.idx.b32 %r15, %r4, %r6, 31, -1;
  xor.b32 %r6, %r5, 2;
  shfl.sync.idx.b32 %r16, %r1, %r6, 31, -1;
  xor.b32 %r6, %r5, 3;
  shfl.sync.idx.b32 %r17, %r2, %r6, 31, -1;
  bar.sync 0;
  xor.b32 %r6, %r5, 4;
  shfl.sync.idx.b32 %r18, %r2, %r6, 31, -1;
  mov.u32 %r7, %ctaid.x;
  mov.u32 %r8, %ntid.x;
  mad.lo.u32 %r9, %r7, %r8, %r0;
  mul.wide.u32 %rd2, %r9, 48;
  add.u64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r10, %r11, %r12, %r13};
  st.global.v4.u32 [%rd3+16], {%r14, %r15, %r16, %r17};
  st.global.u32 [%rd3+32], %r18;
  ret;
}
`;

const GRID = 2;
const POISON = 0xdeadbeef;
const BLOCK = 64;

/** shfl.sync.idx over whole warps, c = 31: lane (b & 31) of the thread's warp; 12 words a thread, 9 written. */
function expected(): Uint32Array {
  const out: number[] = [];
  for (let b = 0; b < GRID; b++) {
    for (let t = 0; t < BLOCK; t++) {
      const base = t & ~31;
      const lane = t & 31;
      const at = (f: (u: number) => number, src: number): number => f(base + (src & 31)) >>> 0;
      const r1 = (u: number): number => u * 3 + 1;
      const r2 = (u: number): number => u * 7 + 5;
      const r3 = (u: number): number => u ^ 0x55;
      const r4 = (u: number): number => u + 100;
      out.push(at(r1, lane + 1), at(r2, lane + 3), at(r1, lane + 5), at(r3, lane + 7), at(r1, lane + 9),
        at(r4, lane ^ 1), at(r1, lane ^ 2), at(r2, lane ^ 3), at(r2, lane ^ 4), POISON, POISON, POISON);
    }
  }
  return Uint32Array.from(out);
}

describe('emulated shuffles of published values', () => {
  it('publish each value once while it stays readable', () => {
    const [k] = compile(PTX, { warpPath: 'emulated', subgroupSize: 8 } as never).kernels;
    const body = (k?.wgsl ?? '').split('fn k_shfl_reuse')[1] ?? '';
    expect(body.match(/ptx_warp_shfl\(/g)?.length).toBe(7);
    expect(body.match(/ptx_warp_get_back\(\(v\d+ & 31u\), 1u\)/g)?.length).toBe(1);
    expect(body.match(/ptx_warp_get_back\(\(v\d+ & 31u\), 2u\)/g)?.length).toBe(1);
  });

  it.each(['emulated', 'auto'] as const)('match shfl.sync.idx, warpPath %s', async (warpPath) => {
    const c = await createContext({});
    try {
      const fn = c.loadModule(PTX, { fileName: 'shfl_reuse.ptx', warpPath }).getFunction('shfl_reuse');
      const words = GRID * BLOCK * 12;
      const out = c.malloc(4 * words);
      c.memcpyHtoD(out, new Uint32Array(words).fill(POISON));
      fn.launch({ grid: GRID, block: BLOCK }, [out]);
      const got = new Uint32Array(words);
      await c.memcpyDtoH(got, out);
      const want = expected();
      const bad = [...got].flatMap((g, i) => (g === want[i] ? [] : [`${i}: ${g} != ${want[i]}`]));
      expect(bad.slice(0, 12)).toEqual([]);
    } finally {
      c.destroy();
    }
  });
});
