// rsqrt.approx.f32 and lg2.approx.f32 (without .ftz) of a checked result inside a replay region
// take the device's built-in where its probe vouches for the .ftz form only (an H100: NVIDIA's
// driver flushes the subnormal operands that the form without .ftz must keep). That is right only
// because the region's test rejects every subnormal operand and replays the region through the
// exact helpers: these tests run such a chain on operands that make it subnormal, zero, negative,
// infinite and NaN, under the device's own facts and under facts that claim the built-ins, against
// the ISA's bounds (rsqrt: 2^-22.4 relative, lg2: 2^-22.6 absolute) and, for the checked mul that
// reads the rsqrt, against exact rounding of the value the kernel itself produced; and check the
// WGSL for an H100's facts: built-in on the fast path, helper in the replay, helper outside regions.
import { afterAll, describe, expect, it } from 'vitest';
import { compile, createContext, getDefaultDevice, releaseDefaultDevice } from '../../src/index.js';
import { runtimeCompiler } from '../../src/runtime-compiler.js';
import { Context } from '../../runtime/context.js';
import { NO_NATIVE_FLOAT } from '../../lowering/wgsl/native-float.js';
import * as R from '../conformance/ref/float.ts';
import { H100_FLOAT, runTriples, tripleKernel } from './f32-triples.ts';

process.env['XDG_RUNTIME_DIR'] ??= '/tmp';
afterAll(() => releaseDefaultDevice());

const PTX = tripleKernel('approx_chain', `
  add.f32 %f4, %f1, %f2;
  mul.f32 %f5, %f4, %f3;
  fma.rn.f32 %f6, %f1, %f2, %f5;
  rsqrt.approx.f32 %f7, %f6;
  abs.f32 %f8, %f6;
  lg2.approx.f32 %f9, %f8;
  mul.f32 %f10, %f7, %f4;`, ['%f6', '%f7', '%f9', '%f10']);


const F = new Float32Array(1);
const U = new Uint32Array(F.buffer);
const f32 = (u: number): number => ((U[0] = u), F[0] as number);
const isNaN32 = (u: number): boolean => (u & 0x7fffffff) > 0x7f800000;

function inputs(n: number): Uint32Array {
  let seed = 0x9e3779b9;
  const rnd = (): number => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return seed >>> 0; };
  const special = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x1f800000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000];
  const out = new Uint32Array(3 * n);
  for (let i = 0; i < out.length; i++) {
    const k = rnd() % 4;
    out[i] = k === 0 ? (special[rnd() % special.length] as number)
      : k === 1 ? ((rnd() & 0x801fffff) | ((rnd() % 70) << 23)) >>> 0 // products and sums near and below 2^-126
        : ((rnd() & 0x807fffff) | ((110 + (rnd() % 30)) << 23)) >>> 0;
  }
  return out;
}

/** Why output row `t` breaks the ISA's bounds, or undefined. */
function judge(a: number, b: number, c: number, got: Uint32Array, t: number): string | undefined {
  const [g6, g7, g9, g10] = [0, 1, 2, 3].map((k) => got[4 * t + k] as number) as [number, number, number, number];
  const s4 = R.add(R.F32, BigInt(a), BigInt(b), 'rn');
  const s5 = R.mul(R.F32, s4, BigInt(c), 'rn');
  const s6 = Number(R.fma(R.F32, BigInt(a), BigInt(b), s5, 'rn'));
  if (g6 !== s6) return `fma ${g6.toString(16)} want ${s6.toString(16)}`;
  const x = f32(s6);
  // rsqrt: NaN for NaN and negatives, +-inf for +-0, +0 for +inf, else within 2^-22.4 relative
  if (Number.isNaN(x) || x < 0) { if (!isNaN32(g7)) return `rsqrt of ${x}: ${g7.toString(16)}`; }
  else if (x === 0) { if (g7 !== (Object.is(x, -0) ? 0xff800000 : 0x7f800000)) return `rsqrt of ${x}: ${g7.toString(16)}`; }
  else if (x === Infinity) { if (g7 !== 0) return `rsqrt(inf): ${g7.toString(16)}`; }
  else if (!(Math.abs(f32(g7) * Math.sqrt(x) - 1) <= 2 ** -22.4)) return `rsqrt of ${x} (${s6.toString(16)}): ${f32(g7)}`;
  // lg2 of |x|: -inf at 0, NaN for NaN, +inf at inf, else within 2^-22.6 absolute (of the
  // mantissa's logarithm) plus the f32 rounding of the exponent's part
  const ax = Math.abs(x);
  if (Number.isNaN(ax)) { if (!isNaN32(g9)) return `lg2 of NaN: ${g9.toString(16)}`; }
  else if (ax === 0) { if (g9 !== 0xff800000) return `lg2(0): ${g9.toString(16)}`; }
  else if (ax === Infinity) { if (g9 !== 0x7f800000) return `lg2(inf): ${g9.toString(16)}`; }
  else if (!(Math.abs(f32(g9) - Math.log2(ax)) <= 2 ** -22.6 + Math.abs(Math.log2(ax)) * 2 ** -23)) return `lg2 of ${ax}: ${f32(g9)}`;
  // the checked mul reads the kernel's own rsqrt value: exact rounding of that product
  const s10 = Number(R.mul(R.F32, BigInt(g7), s4, 'rn'));
  const same = g10 === s10 || (isNaN32(g10) && isNaN32(s10));
  return same ? undefined : `mul ${g10.toString(16)} want ${s10.toString(16)}`;
}

describe('approx functions of checked results in replay regions', () => {
  const n = 4096;
  const x = inputs(n);
  const contexts: [string, (device: GPUDevice) => Promise<Context>][] = [
    ['the device\'s own facts', (device) => createContext({ device })],
    // what the device computes for .ftz claimed for the built-ins: a region that let a subnormal
    // reach them would show on a device that flushes there
    ['rsqrt and lg2 built-ins claimed for .ftz', async (device) => {
      const own = await createContext({ device });
      const facts = own.nativeFloat ?? NO_NATIVE_FLOAT;
      own.destroy();
      return new Context(device, runtimeCompiler.compileModule, { nativeFloat: { ...facts, approxFtz: [...new Set([...facts.approxFtz, 'rsqrt', 'lg2'] as const)] } });
    }],
  ];
  for (const [name, make] of contexts) {
    it(`stays within the ISA's bounds: ${name}`, async () => {
      const ctx = await make(await getDefaultDevice());
      try {
        const got = await runTriples(ctx, PTX, 'approx_chain', x, 4);
        const bad: string[] = [];
        for (let t = 0; t < n && bad.length < 5; t++) {
          const why = judge(x[3 * t] as number, x[3 * t + 1] as number, x[3 * t + 2] as number, got, t);
          if (why) bad.push(`row ${t} (${[x[3 * t], x[3 * t + 1], x[3 * t + 2]].map((v) => (v as number).toString(16))}): ${why}`);
        }
        expect(bad).toEqual([]);
      } finally {
        ctx.destroy();
      }
    }, 120_000);
  }

  it('writes the built-ins on an H100\'s fast path only', () => {
    const wgsl = compile(PTX, { fusedFma: true, nativeFloat: H100_FLOAT }).kernels[0]?.wgsl ?? '';
    const body = wgsl.slice(wgsl.indexOf('@compute'));
    const replay = body.indexOf('f32_fma_exact(');
    expect(replay).toBeGreaterThan(0);
    expect(body.slice(0, replay)).toMatch(/inverseSqrt\(/);
    expect(body.slice(0, replay)).toMatch(/log2\(/);
    expect(body.slice(replay)).toMatch(/f32r_rsqrt\(/);
    expect(body.slice(replay)).toMatch(/f32r_lg2\(/);
    // outside a region the operand is a plain load: the helper
    const alone = compile(tripleKernel('alone', 'rsqrt.approx.f32 %f4, %f1;', ['%f4']), { fusedFma: true, nativeFloat: H100_FLOAT }).kernels[0]?.wgsl ?? '';
    expect(alone.slice(alone.indexOf('@compute'))).toMatch(/f32r_rsqrt\(/);
    expect(alone.slice(alone.indexOf('@compute'))).not.toMatch(/inverseSqrt\(/);
  });
});
