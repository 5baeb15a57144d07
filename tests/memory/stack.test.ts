// alloca diagnostics and the shape of the lowering (issue 4), without a GPU. Behaviour on a
// GPU: stack.gpu.test.ts and native.gpu.test.ts.
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { STACK_BYTES } from '../../src/translate/handlers-stack.js';

const kernel = (body: string): string => `.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>; .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd1, %rd1;
  ${body}
  ret;
}`;

describe('alloca', () => {
  it('rejects an alignment that is not a power of 2', () => {
    expect(() => compile(kernel('alloca.u64 %rd2, 16, 12; st.local.u32 [%rd2], 1;'))).toThrow(/alignment must be a constant power of 2/);
  });

  it(`rejects an alignment above the ${STACK_BYTES}-byte stack (L002)`, () => {
    expect(() => compile(kernel(`alloca.u64 %rd2, 16, ${STACK_BYTES * 2}; st.local.u32 [%rd2], 1;`))).toThrow(/L002[\s\S]*alignment 2048 is larger than the 1024-byte per-thread stack/);
  });

  it('traps at the alloca when the size does not fit, and binds the trap record', () => {
    const k = compile(kernel('ld.global.u64 %rd3, [%rd1]; alloca.u64 %rd2, %rd3, 64; st.local.u32 [%rd2], 1;')).kernels[0];
    expect(k?.wgsl).toMatch(/ptx_trap\(\d+u\);/);
    expect(k?.layout.bindings.some((b) => b.kind === 'trap')).toBe(true);
    // The stack is private memory: at least STACK_BYTES of the local window.
    const words = Number(/var<private> ptx_local: array<u32, (\d+)>/.exec(k?.wgsl ?? '')?.[1]);
    expect(words * 4).toBeGreaterThanOrEqual(STACK_BYTES);
  });

  it('kernels without alloca keep no stack', () => {
    const k = compile(kernel('st.global.u32 [%rd1], 1;')).kernels[0];
    expect(k?.wgsl).not.toMatch(/ptx_local/);
  });
});
