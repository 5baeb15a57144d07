// PTX immediates that are infinite or NaN (0fFF800000 is -INFINITY: softmax's running max
// starts there). WGSL rejects a constant expression with such a value, so `bitcast<f32>(0xff800000u)`
// does not compile; the emitter reads them through a call (ptx_f32_bits, lowering/wgsl/emit-data.ts).
import { afterAll, expect, it } from 'vitest';
import { compile, runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

const PTX = `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .f32 a)
{
  .reg .f32 %f<8>;
  .reg .f64 %fd<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.f32 %f1, [a];
  max.f32 %f2, %f1, 0fFF800000;
  min.f32 %f3, %f1, 0f7F800000;
  add.f32 %f4, %f1, 0f7FC00000;
  mov.f32 %f5, 0fFF800000;
  mov.f32 %f6, 0f7FFFFFFF;
  st.global.f32 [%rd1], %f2;
  st.global.f32 [%rd1+4], %f3;
  st.global.f32 [%rd1+8], %f4;
  st.global.f32 [%rd1+12], %f5;
  st.global.f32 [%rd1+16], %f6;
  mov.f64 %fd1, 0dFFF0000000000000;
  st.global.f64 [%rd1+24], %fd1;
  ret;
}`;

it('compiles and runs kernels with infinite and NaN f32 immediates', async () => {
  const [k] = compile(PTX).kernels;
  expect(k?.wgsl).not.toMatch(/bitcast<f32>\(0x(ff8|7f8|7fc|7ff)/);
  const out = new Uint32Array(8);
  await runPtx(PTX, [out, 1.5], { grid: 1, block: 1 });
  const f = new Float32Array(out.buffer);
  expect([f[0], f[1], out[3], out[4]]).toEqual([1.5, 1.5, 0xff800000, 0x7fffffff]);
  expect((out[2] as number) & 0x7fffffff).toBeGreaterThan(0x7f800000);
  expect([out[6], out[7]]).toEqual([0, 0xfff00000]);
});
