// Compile-only checks of the warp lowering: path choice and its report, and diagnostics for
// warp instructions the ISA does not define.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { PtxError } from '../../src/diagnostics/ptx-error.js';

const kernel = (body: string, regs = ''): string => `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<8>;
  .reg .pred %p<4>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  ${regs}
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  ${body}
  st.global.u32 [%rd1], %r2;
  ret;
}`;

describe('warp path choice', () => {
  it('reports no path for a kernel without warp instructions (lane registers need none)', () => {
    const [k] = compile(kernel('mov.u32 %r2, %laneid;'), { subgroupSize: 32 }).kernels;
    expect(k?.layout.warp.path).toBe('none');
    expect(k?.wgsl).not.toMatch(/subgroup|ptx_warp/);
  });
  it.each([
    [{ subgroupSize: 32 }, 'subgroups', /32-lane/],
    [{ subgroupSize: 16 }, 'emulated', /16 lanes/],
    [{}, 'emulated', /no subgroups/],
    [{ subgroupSize: 32, warpPath: 'emulated' as const }, 'emulated', /forced/],
    [{ subgroupSize: 8, warpPath: 'subgroups' as const }, 'subgroups', /forced/],
  ])('%o -> %s', (options, path, reason) => {
    const [k] = compile(kernel('shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;'), options).kernels;
    expect(k?.layout.warp.path).toBe(path);
    expect(k?.layout.warp.reason).toMatch(reason);
    expect(k?.layout.features).toEqual(path === 'subgroups' ? ['subgroups'] : []);
    expect(k?.wgsl.startsWith('enable subgroups;')).toBe(path === 'subgroups');
  });
});

describe('warp diagnostics', () => {
  it('rejects redux forms the ISA does not have, naming the instruction', () => {
    try {
      compile(kernel('redux.sync.add.f32 %f2, %f1, -1;'));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PtxError);
      expect(String((e as Error).message)).toMatch(/L00\d.*redux\.sync\.add\.f32/s);
    }
  });
});

describe('warp instructions in a .func', () => {
  it('take the kernel\'s path once the call is inlined', () => {
    const src = `.version 8.0
.target sm_80
.address_size 64
.func (.param .b32 lanesum_ret) lanesum(.param .b32 lanesum_x)
{
  .reg .b32 %t<4>;
  ld.param.u32 %t1, [lanesum_x];
  shfl.sync.bfly.b32 %t2, %t1, 1, 31, -1;
  add.s32 %t3, %t2, %t1;
  st.param.b32 [lanesum_ret], %t3;
  ret;
}
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  {
  .param .b32 a;
  .param .b32 r;
  st.param.b32 [a], %r1;
  call (r), lanesum, (a);
  ld.param.b32 %r2, [r];
  }
  st.global.u32 [%rd1], %r2;
  ret;
}`;
    const [k] = compile(src, {}).kernels;
    expect(k?.layout.warp.path).toBe('emulated');
    expect(k?.wgsl).toMatch(/ptx_warp_shfl/);
  });
});
