// Vector registers as hand-written and inline-asm PTX uses them (ISA "Vectors"): `.reg .v4 .u32 v;`
// read and written whole, and element by element as `v.x`..`v.w` or `v.r`..`v.a`, declared with
// or without `%`. Checked against what the ISA says each line does (ptxas accepts the module).
import { afterAll, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

const PTX = `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b64 %rd<3>;
  .reg .v4 .u32 %v;
  .reg .v2 .b16 x16;
  .reg .u32 r, s;
  ld.param.u64 %rd1, [p];
  ld.global.v4.u32 %v, [%rd1];
  mov.u32 r, %v.w;
  add.u32 s, r, %v.x;
  mov.u32 %v.y, s;
  mov.b32 x16, 458756;
  st.global.b16 [%rd1+32], x16.y;
  st.global.v4.u32 [%rd1+16], %v;
  st.global.u32 [%rd1+36], %v.b;
  ret;
}`;

it('reads and writes single elements of vector registers', async () => {
  const buf = new Uint32Array([1, 2, 3, 4, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef, 0xdeadbeef]);
  await runPtx(PTX, [buf], { grid: 1, block: 1 });
  // v.w + v.x = 5 written into v.y; x16 = 0x00070004 so x16.y = 7 (a 2-byte store); v.b is v.z
  expect([...buf]).toEqual([1, 2, 3, 4, 1, 5, 3, 4, 0xdead0007, 3]);
});

it('rejects an element a register does not have', async () => {
  const bad = PTX.replace('mov.u32 r, %v.w;', 'mov.u32 r, r.w;');
  await expect(runPtx(bad, [new Uint32Array(10)], { grid: 1, block: 1 })).rejects.toThrow(/`r` has no element 3 \(it is not a vector register/);
});
