// The structurizer on hand-made CFGs: every block's code appears exactly once, reducible CFGs
// need no state machine, irreducible ones get the fallback. Run results of the same shapes are
// checked on a real WebGPU in tests/compiler/control-flow.gpu.test.ts.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';

const wrap = (body: string): string => `.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<8>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
${body}
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
`;

export const IRREDUCIBLE = wrap(`
  mov.u32 %r3, 0;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra B;
A:
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, %r1;
  @%p2 bra B;
  bra DONE;
B:
  add.s32 %r3, %r3, 2;
  setp.lt.u32 %p3, %r3, %r1;
  @%p3 bra A;
DONE:`);

export const NESTED_BREAK = wrap(`
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
OUTER:
  mov.u32 %r5, 0;
INNER:
  add.s32 %r3, %r3, %r5;
  setp.gt.u32 %p1, %r3, 50;
  @%p1 bra DONE;
  add.s32 %r5, %r5, 1;
  setp.lt.u32 %p2, %r5, %r2;
  @%p2 bra INNER;
  add.s32 %r4, %r4, 1;
  setp.lt.u32 %p3, %r4, %r1;
  @%p3 bra OUTER;
DONE:`);

/**
 * Loops one after another: a do-while (test at the latch), a while (test at the header), and a
 * loop left from its middle, whose exit code runs before the next loop; then a tail.
 */
export const SEQUENTIAL_LOOPS = wrap(`
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
L1:
  add.s32 %r3, %r3, %r4;
  add.s32 %r4, %r4, 1;
  setp.lt.u32 %p1, %r4, %r2;
  @%p1 bra L1;
  mov.u32 %r4, 0;
L2:
  setp.ge.u32 %p2, %r4, %r1;
  @%p2 bra L2_DONE;
  mul.lo.s32 %r3, %r3, 3;
  add.s32 %r4, %r4, 1;
  bra L2;
L2_DONE:
  add.s32 %r3, %r3, 7;
  mov.u32 %r4, 0;
L3:
  add.s32 %r4, %r4, 1;
  xor.b32 %r3, %r3, %r4;
  setp.gt.u32 %p3, %r3, 1000;
  @%p3 bra L3_OUT;
  setp.lt.u32 %p4, %r4, 20;
  @%p4 bra L3;
L3_OUT:
  shl.b32 %r3, %r3, 1;`);

describe('structurize', () => {
  it('uses a state machine only for an irreducible CFG', () => {
    const wgsl = compile(IRREDUCIBLE).kernels[0]?.wgsl ?? '';
    expect(wgsl).toContain('ptx_state');
    const plain = compile(NESTED_BREAK).kernels[0]?.wgsl ?? '';
    expect(plain).not.toContain('ptx_state');
  });

  it('leaves two nested loops at once through the exit flag', () => {
    const wgsl = compile(NESTED_BREAK).kernels[0]?.wgsl ?? '';
    expect((wgsl.match(/loop \{/g) ?? []).length).toBe(2);
    expect(wgsl).toContain('ptx_exit');
  });

  it('puts what runs after a loop after it, not inside its body', () => {
    const wgsl = compile(SEQUENTIAL_LOOPS).kernels[0]?.wgsl ?? '';
    const loops = [...wgsl.matchAll(/^( *)loop \{$/gm)].map((m) => (m[1] as string).length);
    expect(loops).toHaveLength(3);
    // all three at the body's own depth: none nested in another's exit
    expect(new Set(loops).size).toBe(1);
  });
});
