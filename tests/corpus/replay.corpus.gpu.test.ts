// The corpus's f32-arithmetic kernels with every replay region replayed (lowering/wgsl/replay-regions.ts),
// against the native H100 recordings. On NVIDIA the regions' native arithmetic is checked and a
// region replays exactly only when a check fails, which this machine cannot provoke (lavapipe keeps
// subnormals): here the context claims what an H100 has (fused fma, add/mul that may flush) and
// the compiler replays every region, so every checked add/sub/mul/fma result of these realistic
// kernels comes from the replay's exact interpreter. lavapipe's own fma() is not fused, so a result
// that escaped a region unreplayed would differ from CUDA's bits.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getDefaultDevice, releaseDefaultDevice } from '../../src/index.js';
import { runtimeCompiler } from '../../src/runtime-compiler.js';
import { Context } from '../../runtime/context.js';
import { reliableSubgroups } from '../../runtime/probe-subgroups.js';
import { NO_NATIVE_FLOAT } from '../../lowering/wgsl/native-float.js';
import { runs, Session, type Expectations } from './host.ts';
import type { NativeManifest } from './native.ts';

const here = import.meta.dirname;
const nativeDir = join(here, 'native');
const expectations: Expectations = {
  mode: 'native',
  manifest: JSON.parse(readFileSync(join(nativeDir, 'manifest.json'), 'utf8')) as NativeManifest,
  load: async (name) => {
    const p = join(nativeDir, name);
    return existsSync(p) ? new Uint8Array(readFileSync(p)) : undefined;
  },
};

/**
 * Cases whose kernels are f32 add/mul/fma-heavy: GEMMs, stencils, convolutions, n-body, softmax,
 * norms. With a fused fma() claimed, div.rn/rcp.rn/sqrt.rn take the fast division and root
 * (round32.wgsl f32r_div_rn, f32r_sqrt_rn), which need a truly fused fma, outside any region:
 * layernorm-warp, layernorm-backward and math/f32-misc then differ from CUDA in the last bit and
 * are left out (softmax-block's and adamw's quotients come out right with lavapipe's fma anyway);
 * they run with the device's real facts in node.corpus.gpu.test.ts, and the fast paths on the GPU
 * machine in tests/float/f32-div-sqrt.gpu.test.ts.
 */
const CASES = ['llm/softmax-block', 'llm/attention', 'llm/gelu-forward', 'llm/adamw', 'llm/matmul-forward', 'stencil/heat-10-steps', 'stencil/3d-7pt', 'conv/2d-tiled', 'conv/separable', 'gemm/sgemm-shared', 'gemm/sgemm-regblock-f4', 'nbody/step', 'mc/option-gbm', 'image/gaussian-f4', 'graph/spmv-csr-vector'];

const session = new Session(() => getDefaultDevice(), () => releaseDefaultDevice(), async (device) =>
  new Context(device, runtimeCompiler.compileModule, {
    fusedFma: true,
    nativeFloat: NO_NATIVE_FLOAT,
    subgroups: await reliableSubgroups(device),
    replayRegions: 'always',
  }));

afterAll(() => session.end());

const kernel = (file: string): string => readFileSync(join(here, 'kernels', file), 'utf8');

describe('corpus with every replay region replayed', () => {
  // Not the -use_fast_math variants: their fma.rn.ftz is no region member, and this context's claim
  // of a fused fma() would send it to lavapipe's unfused one.
  const selected = runs.filter((r) => CASES.some((c) => r.id.startsWith(`${c}@`)) && r.variant !== 'fast' && r.c.slow === undefined);
  it('selects the cases', () => expect(selected.length).toBeGreaterThanOrEqual(CASES.length));
  for (const run of selected) {
    it(run.id, async () => {
      const r = await session.run(run, kernel(run.ptxFile), expectations);
      expect(r.message === null ? r.status : `${r.status}: ${r.message}`).toBe('pass');
    }, 600_000);
  }
});
