// Indirect calls (`call (r), %rd, (a), targets;`) through a `.calltargets` list, with function
// addresses from `mov.u64 %rd, fname;` (ISA "Labels and Function Names as Operands"): the call
// reaches the function whose address the register holds; an address that is no candidate traps,
// naming why. (tests/kernels/fn_pointers.cu covers `.callprototype`s and tables of pointers.)
import { afterAll, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

const PTX = `.version 8.0
.target sm_80
.address_size 64
.func (.param .b32 r) twice(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  add.s32 %r2, %r1, %r1;
  st.param.b32 [r], %r2;
  ret;
}
.func (.param .b32 r) square(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  mul.lo.s32 %r2, %r1, %r1;
  st.param.b32 [r], %r2;
  ret;
}
.func (.param .b32 r) unused(.param .b32 x)
{
  .reg .b32 %r<2>;
  ld.param.b32 %r1, [x];
  st.param.b32 [r], %r1;
  ret;
}
.visible .entry k(.param .u64 out, .param .u32 sel)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<7>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [sel];
  mov.u32 %r2, %tid.x;
  mov.u64 %rd2, twice;
  mov.u64 %rd3, square;
  and.b32 %r4, %r2, 1;
  setp.eq.u32 %p1, %r4, %r1;
  selp.b64 %rd4, %rd2, %rd3, %p1;
  setp.eq.u32 %p2, %r1, 2;
  @%p2 mov.u64 %rd4, %rd1;
  Ftargets: .calltargets twice, square;
  {
    .param .b32 a;
    .param .b32 r;
    st.param.b32 [a], %r2;
    call (r), %rd4, (a), Ftargets;
    ld.param.b32 %r3, [r];
  }
  mul.wide.u32 %rd5, %r2, 4;
  add.s64 %rd6, %rd1, %rd5;
  st.global.u32 [%rd6], %r3;
  ret;
}
`;

it('calls the function whose address the register holds', async () => {
  for (const sel of [0, 1]) {
    const out = new Uint32Array(16).fill(0xdeadbeef);
    await runPtx(PTX, [out, sel], { grid: 1, block: 16 });
    expect([...out], `sel ${sel}`).toEqual([...out.keys()].map((t) => ((t & 1) === sel ? 2 * t : t * t)));
  }
});

it('traps on an address that is not a candidate of the call', async () => {
  const out = new Uint32Array(16);
  await expect(runPtx(PTX, [out, 2], { grid: 1, block: 16 })).rejects.toThrow(/R004.*\n?.*indirect call through an address that is not a function of this module/s);
});
