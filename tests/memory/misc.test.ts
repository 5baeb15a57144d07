// Bad operands of the hint and cluster instructions (src/translate/handlers-misc.ts), elect and
// fence.mbarrier_init are PtxErrors naming the instruction, checked as ptxas checks them; and
// what each lowers to (no code, or a trap check only where the rank is not a literal 0).
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { expectCompileError } from '../helpers/ptx-errors.js';

const kernel = (body: string): string => `.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<3>; .reg .b32 %r<8>; .reg .b64 %rd<8>;
  .shared .align 4 .b32 sh[4];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
${body}
  ret;
}
`;

const codes = (body: string): string[] => expectCompileError(kernel(body), 'bad.ptx').diagnostics.map((d) => `${d.code} ${d.message}`);

describe('operands checked as ptxas checks them', () => {
  it.each([
    ['pmevent 16;', /P006 `pmevent`: the operand is 16, not in \[0, 15\]/],
    ['pmevent %r1;', /P006 `pmevent`: the operand must be an integer constant/],
    ['pmevent.mask 0x10000;', /P006 `pmevent.mask`: the operand is 65536, not in \[0, 65535\]/],
    ['setmaxnreg.inc.sync.aligned.u32 16;', /P006 `setmaxnreg.inc`: the operand is 16, not in \[24, 256\]/],
    ['setmaxnreg.dec.sync.aligned.u32 264;', /P006 `setmaxnreg.dec`: the operand is 264, not in \[24, 256\]/],
    ['setmaxnreg.inc.sync.aligned.u32 100;', /P006 `setmaxnreg.inc`: the register count 100 is not a multiple of 8/],
    ['setmaxnreg.inc.sync.aligned.u32 %r1;', /P006 `setmaxnreg.inc`: the operand must be an integer constant/],
    ['setmaxnreg.inc.u32 32;', /P005 `setmaxnreg` is `setmaxnreg.\{inc,dec\}.sync.aligned.u32 N`/],
    ['setmaxnreg.sync.aligned.u32 32;', /P005 `setmaxnreg` is `setmaxnreg.\{inc,dec\}.sync.aligned.u32 N`/],
    ['griddepcontrol;', /P005 `griddepcontrol` is `griddepcontrol.\{launch_dependents,wait\}`/],
    ['pmevent -1;', /P006 `pmevent`: the operand is -1, not in \[0, 15\]/],
    ['nanosleep.u32 %q1;', /S001 register `%q1` is not declared/],
    ['getctarank.u64 %r2, %rd9;', /S001 register `%rd9` is not declared/],
    ['mapa.u64 %rd2, %rd1, %r9;', /S001 register `%r9` is not declared/],
    ['elect.sync %r2, -1;', /P006 `elect` is `elect.sync d\|p, membermask`/],
    ['fence.mbarrier_init.release.cta;', /P005 `fence.mbarrier_init` takes exactly `.release.cluster`/],
    ['fence.mbarrier_init.acquire.cluster;', /P005 `fence.mbarrier_init` takes exactly `.release.cluster`/],
  ])('%s', (body, want) => {
    expect(codes(`  ${body}`).join('\n')).toMatch(want);
  });

  it('accepts the boundary values', () => {
    for (const body of ['pmevent 0;', 'pmevent 15;', 'pmevent.mask 0xffff;', 'setmaxnreg.dec.sync.aligned.u32 24;', 'setmaxnreg.inc.sync.aligned.u32 256;']) {
      expect(() => compile(kernel(`  ${body}`)), body).not.toThrow();
    }
  });
});

describe('lowering', () => {
  const bindings = (body: string): string[] => compile(kernel(body)).kernels[0]?.layout.bindings.map((b) => b.kind) ?? [];

  it('the hints emit no code', () => {
    const base = compile(kernel('')).kernels[0]?.wgsl;
    const hints = compile(kernel(['nanosleep.u32 %r1;', 'nanosleep.u32 100;', 'pmevent 3;', 'pmevent.mask 5;', 'griddepcontrol.wait;',
      'griddepcontrol.launch_dependents;', 'setmaxnreg.dec.sync.aligned.u32 40;', 'fence.mbarrier_init.release.cluster;'].map((l) => `  ${l}`).join('\n'))).kernels[0]?.wgsl;
    expect(hints).toBe(base);
  });

  it('mapa checks the rank only where it is not the literal 0', () => {
    expect(bindings('  cvt.u64.u32 %rd2, %r1;\n  mapa.u64 %rd3, %rd2, 0;\n  st.u64 [%rd1], %rd3;')).not.toContain('trap');
    expect(bindings('  cvt.u64.u32 %rd2, %r1;\n  mapa.u64 %rd3, %rd2, %r1;\n  st.u64 [%rd1], %rd3;')).toContain('trap');
    expect(bindings('  mapa.shared::cluster.u32 %r2, sh+4, 1;\n  ld.shared::cluster.u32 %r3, [%r2];\n  st.u32 [%rd1], %r3;')).toContain('trap');
  });

  it('brkpt is a trap', () => {
    expect(bindings('  setp.eq.u32 %p1, %r1, 3;\n  @%p1 brkpt;')).toContain('trap');
  });
});
