// Registers declared without `%` (`.reg .b64 rd<4>;`, as hand-written and some generated PTX
// has them) in every operand position, and Triton's one-element brace lists
// (`ld.global.b32 { r }`), run on the WebGPU device against a JS reference.
import { describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';

const PTX = `.version 8.0
.target sm_80
.address_size 64
.visible .entry plain(.param .u64 out, .param .u64 in, .param .u32 n)
{
  .reg .pred p;
  .reg .b32 r<6>;
  .reg .b64 rd<6>;
  ld.param.u64 rd1, [out];
  ld.param.u64 rd2, [in];
  ld.param.u32 r1, [n];
  mov.u32 r2, %tid.x;
  setp.ge.u32 p, r2, r1;
  @p bra DONE;
  mul.wide.u32 rd3, r2, 4;
  add.s64 rd4, rd2, rd3;
  ld.global.b32 { r3 }, [rd4];
  mad.lo.u32 r4, r3, 3, r2;
  add.s64 rd5, rd1, rd3;
  st.global.b32 [rd5], { r4 };
DONE:
  ret;
}
`;

describe('registers without % and one-element braces', () => {
  it('load, compute and store through them', async () => {
    const n = 100;
    const input = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 0);
    const out = new Uint32Array(128).fill(0xdeadbeef);
    await runPtx(PTX, [out, input, n], { grid: 1, block: 128 });
    const want = Uint32Array.from({ length: 128 }, (_, i) => (i < n ? (Math.imul(input[i] as number, 3) + i) >>> 0 : 0xdeadbeef));
    expect([...out]).toEqual([...want]);
  });
});
