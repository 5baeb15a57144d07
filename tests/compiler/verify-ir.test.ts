// The IR verifier runs after every pass in the test suite (tests/setup/verify-ir.ts turns it on;
// compile() skips it otherwise): IR broken before the passes is reported as an internal error
// naming the stage, instead of reaching the emitter.
import { describe, expect, it } from 'vitest';
import { SourceFile } from '../../src/diagnostics/source.js';
import { parsePtx } from '../../src/ptx/parse.js';
import { buildModule } from '../../src/translate/build-module.js';
import { runPasses } from '../../src/pipeline.js';

const PTX = `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  st.global.u32 [%rd1], %r1;
  ret;
}
`;

function built() {
  const module = buildModule(parsePtx(PTX, 'k.ptx'), new SourceFile('k.ptx', PTX), []);
  const fn = module.functions[0];
  if (!fn) throw new Error('no kernel');
  return { fn, cx: { module, options: {}, diagnostics: [] } };
}

describe('IR verifier in the test suite', () => {
  it('passes well-formed IR', () => {
    const { fn, cx } = built();
    expect(() => runPasses(fn, cx)).not.toThrow();
  });

  it('names the stage after which a block lost its terminator', () => {
    const { fn, cx } = built();
    fn.block(fn.entry).term = null;
    expect(() => runPasses(fn, cx)).toThrow(/IR invalid after pass `ssa-build` in `k`:\n {2}block0 has no terminator/);
  });
});
