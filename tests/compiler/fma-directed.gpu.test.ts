// fma.rz/rm/rp.f32 through a fused fma() and the sign of its residual (shaders/fma32.wgsl,
// f32r_fma_directed), against the ISA's exact rounding (tests/conformance/ref/float.ts). lavapipe's
// fma() is not fused, so the context claims a fused one and the factors carry at most 12
// significant bits: their product is exact in f32, where fused and unfused agree. The addends
// cover both sides of the fast path's conditions (within a factor of two of the result or not, of
// either sign, tiny, zero, special), and expf's magic-number rounding (x * 252 + 12582913).
import { afterAll, describe, expect, it } from 'vitest';
import { compile, getDefaultDevice, releaseDefaultDevice } from '../../src/index.js';
import { runtimeCompiler } from '../../src/runtime-compiler.js';
import { Context } from '../../runtime/context.js';
import * as R from '../conformance/ref/float.ts';
import { runTriples, tripleKernel } from './f32-triples.ts';

process.env['XDG_RUNTIME_DIR'] ??= '/tmp';
afterAll(() => releaseDefaultDevice());

const MODES = ['rz', 'rm', 'rp'] as const;
const PTX = tripleKernel('fmas', `
  fma.rz.f32 %f4, %f1, %f2, %f3;
  fma.rm.f32 %f5, %f1, %f2, %f3;
  fma.rp.f32 %f6, %f1, %f2, %f3;`, ['%f4', '%f5', '%f6']);

function inputs(n: number): Uint32Array {
  let seed = 0x1234567;
  const rnd = (): number => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return seed >>> 0; };
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  const factor = (): number => { // at most 12 significant bits, exponent in [-70, 70]
    u[0] = ((rnd() & 0x80000000) | ((127 - 70 + (rnd() % 141)) << 23) | ((rnd() & 0x7ff) << 12)) >>> 0;
    return u[0] as number;
  };
  const out = new Uint32Array(3 * n);
  for (let i = 0; i < n; i++) {
    const a = factor(), b = factor();
    const fa = new Float32Array(new Uint32Array([a, b]).buffer);
    const p = (fa[0] as number) * (fa[1] as number);
    const k = rnd() % 8;
    let c: number;
    if (k <= 2) { f[0] = p * (0.3 + (rnd() % 1000) / 250) * (k === 2 ? -1 : 1); c = u[0] as number; } // near the product
    else if (k === 3) { f[0] = p * 2 ** (rnd() % 40) * (1 + (rnd() % 997) / 1000); c = u[0] as number; } // dominating addend
    else if (k === 4) { f[0] = p * 2 ** -(rnd() % 40); c = u[0] as number; } // small addend
    else if (k === 5) c = [0, 0x80000000, 0x00000001, 0x807fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f7fffff][rnd() % 8] as number;
    else if (k === 6) { out.set([((rnd() % 4097) * 0x4000 + 0x3f000000) >>> 0 & 0x3f7ff000, 0x437c0000, 0x4b400001], 3 * i); continue; } // t * 252 + 12582913
    else c = rnd();
    out.set([a, b, c >>> 0], 3 * i);
  }
  return out;
}

describe('fma.rz/rm/rp.f32 from a fused fma() and its residual', () => {
  it('takes the fused path only where fma() is fused', () => {
    const body = (fusedFma: boolean): string => { const w = compile(PTX, { fusedFma }).kernels[0]?.wgsl ?? ''; return w.slice(w.indexOf('@compute')); };
    expect(body(true).match(/f32r_fma_directed\(/g)?.length).toBe(3);
    expect(body(false)).not.toMatch(/f32r_fma_directed/);
  });

  it('matches the ISA rounding on every input', async () => {
    const n = 8192;
    const x = inputs(n);
    const device = await getDefaultDevice();
    const ctx = new Context(device, runtimeCompiler.compileModule, { fusedFma: true });
    try {
      const got = await runTriples(ctx, PTX, 'fmas', x, 3);
      const bad: string[] = [];
      for (let i = 0; i < n && bad.length < 5; i++) {
        const [a, b, c] = [x[3 * i], x[3 * i + 1], x[3 * i + 2]].map((v) => BigInt(v as number)) as [bigint, bigint, bigint];
        MODES.forEach((m, k) => {
          const want = Number(R.fma(R.F32, a, b, c, m));
          if (got[3 * i + k] !== want) bad.push(`fma.${m}(${[a, b, c].map((v) => v.toString(16))}) got ${(got[3 * i + k] as number).toString(16)} want ${want.toString(16)}`);
        });
      }
      expect(bad).toEqual([]);
    } finally {
      ctx.destroy();
    }
  }, 120_000);
});
