// lowering/param-extents.ts: which accesses every launch certainly makes through a pointer
// parameter (checked against the buffers at launch, runtime/extent-checks.ts). A wrong extent
// would reject a valid launch, so the cases that must give none matter as much as the others.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import type { ParamExtent } from '../../lowering/layout.js';

const HEAD = '.version 8.0\n.target sm_80\n.address_size 64\n';

/** `body` after the usual index i = ctaid.x * ntid.x + tid.x (%r1), pointers %rd1 (pa) and %rd2 (pb), n in %r2. */
function extents(body: string): readonly Omit<ParamExtent, 'site'>[] {
  const src = `${HEAD}.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u32 pn)
{
  .reg .pred %p<4>; .reg .f32 %f<2>; .reg .b32 %r<10>; .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb]; ld.param.u32 %r2, [pn];
  mov.u32 %r3, %ctaid.x; mov.u32 %r4, %ntid.x; mov.u32 %r5, %tid.x;
  mad.lo.s32 %r1, %r4, %r3, %r5;
${body}
DONE:
  ret;
}`;
  return (compile(src).kernels[0]?.layout.extents ?? []).map(({ site: _, ...e }) => e);
}

const GUARD = { index: 'global.x', param: 2, offset: 0, bits: 32, inclusive: false } as const;

describe('param extents', () => {
  it('finds the guarded a[i] accesses of the common `if (i < n)` kernel', () => {
    expect(extents(`
  setp.ge.s32 %p1, %r1, %r2; @%p1 bra DONE;
  cvta.to.global.u64 %rd3, %rd1; mul.wide.s32 %rd4, %r1, 4; add.s64 %rd5, %rd3, %rd4;
  ld.global.f32 %f1, [%rd5+8];
  cvt.u64.u32 %rd6, %r1; shl.b64 %rd7, %rd6, 3; add.s64 %rd8, %rd2, %rd7; st.global.v2.u32 [%rd8], {%r1, %r1};`)).toEqual([
      { param: 0, index: 'global.x', stride: 4, offset: 8, bytes: 4, guard: { ...GUARD, signed: true } },
      { param: 1, index: 'global.x', stride: 8, offset: 0, bytes: 8, guard: { ...GUARD, signed: true } },
    ]);
  });

  it('reads the guard in every form: swapped, negated, inclusive, unsigned', () => {
    const store = 'mul.wide.u32 %rd4, %r1, 4; add.s64 %rd5, %rd1, %rd4; st.global.u32 [%rd5], %r1;';
    const guardOf = (test: string): unknown => extents(`${test}\n${store}`)[0]?.guard;
    expect(guardOf('setp.lt.u32 %p1, %r1, %r2; @!%p1 bra DONE;')).toEqual({ ...GUARD, signed: false });
    expect(guardOf('setp.gt.s32 %p1, %r2, %r1; @!%p1 bra DONE;')).toEqual({ ...GUARD, signed: true });
    expect(guardOf('setp.gt.s32 %p1, %r1, %r2; @%p1 bra DONE;')).toEqual({ ...GUARD, signed: true, inclusive: true });
    expect(guardOf('setp.le.s32 %p1, %r1, %r2; not.pred %p2, %p1; @%p2 bra DONE;')).toEqual({ ...GUARD, signed: true, inclusive: true });
  });

  it('finds unguarded accesses by every thread, by tid.x, and at a constant offset', () => {
    expect(extents(`
  mul.wide.u32 %rd4, %r5, 4; add.s64 %rd5, %rd1, %rd4; ld.global.u32 %r6, [%rd5];
  st.global.u8 [%rd2+12], %r6;`)).toEqual([
      { param: 0, index: 'tid.x', stride: 4, offset: 0, bytes: 4 },
      { param: 1, index: 'none', stride: 0, offset: 12, bytes: 1 },
    ]);
  });

  it('finds nothing that some launch might not do', () => {
    const store = 'mul.wide.u32 %rd4, %r1, 4; add.s64 %rd5, %rd2, %rd4; st.global.u32 [%rd5], %r1;';
    // Behind a data-dependent condition, or a second condition.
    expect(extents(`ld.global.u32 %r6, [%rd1]; setp.eq.s32 %p1, %r6, 0; @%p1 bra DONE; ${store}`)).toEqual([
      { param: 0, index: 'none', stride: 0, offset: 0, bytes: 4 },
    ]);
    expect(extents(`setp.ge.s32 %p1, %r1, %r2; @%p1 bra DONE; setp.eq.s32 %p2, %r5, 3; @%p2 bra DONE; ${store}`)).toEqual([]);
    // After a barrier or a call, a predicated store, an index of another form, an index other than the guard's.
    expect(extents(`bar.sync 0; ${store}`)).toEqual([]);
    expect(extents(`setp.ne.s32 %p1, %r5, 0; @%p1 st.global.u32 [%rd1], %r1;`)).toEqual([]);
    expect(extents(`add.s32 %r6, %r1, 1; mul.wide.u32 %rd4, %r6, 4; add.s64 %rd5, %rd2, %rd4; st.global.u32 [%rd5], %r1;`)).toEqual([]);
    expect(extents(`setp.ge.s32 %p1, %r1, %r2; @%p1 bra DONE; mul.wide.u32 %rd4, %r5, 4; add.s64 %rd5, %rd2, %rd4; st.global.u32 [%rd5], %r1;`)).toEqual([]);
    // A grid-stride loop: the loop's index is a block parameter.
    expect(extents(`
LOOP:
  setp.ge.s32 %p1, %r1, %r2; @%p1 bra DONE; ${store}
  add.s32 %r1, %r1, %r4; bra LOOP;`)).toEqual([]);
  });
});
