// Calls that cannot be inlined are reported, not miscompiled (issue 4): recursion names the
// cycle at the call that closes it; calls of functions without a body are rejected with their
// position. Indirect calls are direct calls of their candidates (issue 12).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { PtxError } from '../../src/diagnostics/ptx-error.js';

const kernel = (name: string): string => readFileSync(new URL(`../kernels/${name}.ptx`, import.meta.url), 'utf8');

function compileError(src: string): string {
  try {
    compile(src, { fileName: 'k.ptx' });
  } catch (e) {
    expect(e).toBeInstanceOf(PtxError);
    return (e as Error).message;
  }
  throw new Error('expected a compile error');
}

describe('recursion', () => {
  it('mutual recursion (mem_recursion.cu) is L003 naming the cycle at the closing call', () => {
    const src = kernel('mem_recursion');
    const msg = compileError(src);
    expect(msg).toMatch(/error\[L003\]: recursive call cycle _Z4eveni -> _Z3oddi -> _Z4eveni: WGSL forbids recursion/);
    // the caret points at the call inside `odd` (the second function in the file)
    const line = src.split('\n').findIndex((l, i, all) => /call\.uni/.test(l) && all.slice(0, i).some((x) => /\.func .*_Z3oddi\(/.test(x)) && all.slice(0, i).filter((x) => /^\.func|^\.visible \.func/.test(x)).length >= 2) + 1;
    expect(msg).toContain(`k.ptx:${line}:`);
  });

  it('self recursion', () => {
    const msg = compileError(`
.version 7.8
.target sm_80
.address_size 64
.func (.param .b32 r) f(.param .b32 n)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [n];
  {
    .param .b32 a;
    st.param.b32 [a], %r1;
    .param .b32 b;
    call (b), f, (a);
    ld.param.b32 %r2, [b];
  }
  st.param.b32 [r], %r2;
  ret;
}
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<2>;
  {
    .param .b32 a;
    st.param.b32 [a], 3;
    .param .b32 b;
    call (b), f, (a);
  }
  ret;
}`);
    expect(msg).toMatch(/L003\]: recursive call cycle f -> f/);
    expect(msg).toMatch(/k\.ptx:13:5/);
  });
});

describe('calls that cannot be inlined', () => {
  const HEAD = '.version 7.8\n.target sm_80\n.address_size 64\n';
  it('an indirect call through a register is inlined: it calls each candidate its prototype allows', () => {
    const src = `${HEAD}
.func (.param .b32 r) g(.param .b32 x) { ret; }
.visible .entry k(.param .u64 p)
{
  .reg .b64 %rd<2>;
  mov.u64 %rd1, g;
  {
    .param .b32 a;
    .param .b32 b;
    proto: .callprototype (.param .b32 _) _ (.param .b32 _);
    call (b), %rd1, (a), proto;
  }
  ret;
}`;
    // g is its one candidate (src/translate/function-pointers.ts); the call becomes a compare and g's body
    expect(() => compile(src)).not.toThrow();
  });

  it('a call of an .extern function without a body is L002 naming it', () => {
    const msg = compileError(`${HEAD}
.extern .func ext(.param .b32 x);
.visible .entry k(.param .u64 p)
{
  {
    .param .b32 a;
    st.param.b32 [a], 1;
    call.uni ext, (a);
  }
  ret;
}`);
    expect(msg).toMatch(/L002\]: call of `ext`, which has no body in this module/);
  });
});
