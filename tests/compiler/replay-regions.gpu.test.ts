// Replay regions (lowering/wgsl/replay-regions.ts) on the values that make checked f32 arithmetic
// fail its test: zeros of both signs, subnormals, results that underflow, infinities, NaNs, next to
// ordinary values. A chain of add/sub/mul/fma.rn with a replayed pure instruction (cvt.rzi) and a
// region-ending one (setp) runs under four contexts, each against the ISA's exact rounding
// (tests/conformance/ref/float.ts): the device's own facts; add/mul checked with their regions'
// native arithmetic (lavapipe keeps subnormals, so only the test and the replay of failing regions
// are exercised); and the same two with every region replayed, one of them claiming a fused fma()
// (lavapipe's is not fused, so a native fma result that escaped the replay would show); then
// twice with the regions' native arithmetic flushing subnormals as NVIDIA's driver does (replay
// mode 'flushing'), which is what the tests and their second chance must see through. The
// generated WGSL for an H100's facts is checked for the shape the speed depends on.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, createContext, getDefaultDevice, releaseDefaultDevice } from '../../src/index.js';
import { runtimeCompiler } from '../../src/runtime-compiler.js';
import { Context } from '../../runtime/context.js';
import { NO_NATIVE_FLOAT } from '../../lowering/wgsl/native-float.js';
import * as R from '../conformance/ref/float.ts';
import { H100_FLOAT, runTriples, tripleKernel } from './f32-triples.ts';

process.env['XDG_RUNTIME_DIR'] ??= '/tmp';
afterAll(() => releaseDefaultDevice());

const PTX = tripleKernel('chain', `
  add.f32 %f4, %f1, %f2;
  sub.f32 %f5, %f1, %f2;
  mul.f32 %f6, %f1, %f2;
  fma.rn.f32 %f7, %f1, %f2, %f3;
  mul.f32 %f8, %f4, %f5;
  fma.rn.f32 %f9, %f6, %f3, %f8;
  cvt.rzi.f32.f32 %f10, %f9;
  add.f32 %f11, %f10, %f3;
  setp.lt.f32 %p2, %f11, %f7;
  selp.f32 %f12, %f11, %f7, %p2;
  mul.f32 %f13, %f12, %f12;
  add.rn.f32 %f14, %f13, %f1;`, ['%f4', '%f5', '%f6', '%f7', '%f9', '%f11', '%f13', '%f14']);

/** What the kernel computes, from the ISA's exact rounding. */
function reference(a: bigint, b: bigint, c: bigint): bigint[] {
  const s1 = R.add(R.F32, a, b, 'rn');
  const s2 = R.add(R.F32, a, b ^ 0x80000000n, 'rn');
  const s3 = R.mul(R.F32, a, b, 'rn');
  const s4 = R.fma(R.F32, a, b, c, 'rn');
  const s5 = R.mul(R.F32, s1, s2, 'rn');
  const s6 = R.fma(R.F32, s3, c, s5, 'rn');
  const s7 = R.roundIntegral(R.F32, s6, 'rzi');
  const s8 = R.add(R.F32, s7, c, 'rn');
  const s9 = R.setp(R.F32, 'lt', s8, s4) ? s8 : s4;
  const s10 = R.mul(R.F32, s9, s9, 'rn');
  const s11 = R.add(R.F32, s10, a, 'rn');
  return [s1, s2, s3, s4, s6, s8, s10, s11];
}

/** Operands that make the checks fail, and ordinary ones; deterministic. */
function inputs(n: number): Uint32Array {
  const special = [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x0d800000, 0x1a000000, 0x1f800000, 0x20000000, 0x3f800000, 0xbf800000, 0x7f7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0x0c000000, 0x26000000, 0x59800000];
  let seed = 0x2545f491;
  const rnd = (): number => { seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; return seed >>> 0; };
  const out = new Uint32Array(3 * n);
  for (let i = 0; i < out.length; i++) {
    const k = rnd() % 4;
    // specials; values near the subnormal range (exponent field below 40); any exponent; near 1
    out[i] = k === 0 ? (special[rnd() % special.length] as number)
      : k === 1 ? ((rnd() & 0x801fffff) | ((rnd() % 40) << 23)) >>> 0
        : k === 2 ? rnd()
          : ((rnd() & 0x807fffff) | ((120 + (rnd() % 16)) << 23)) >>> 0;
  }
  // x - x, -0 + -0, subnormal * infinity, an fma whose subnormal c moves the rounding, x + -x
  // (an exact +0), a NaN minus itself (equal bits, still a NaN), a
  // subnormal factor of an fma whose addend is then the native result
  out.set([0x3f800001, 0x3f800001, 0x00000000, 0x80000000, 0x80000000, 0x80000000, 0x00000010, 0x7f800000, 0x3f800000, 0x3f800001, 0x3f7ffffe, 0x00000001,
    0x40400000, 0xc0400000, 0x3f800000, 0x7f800001, 0x7f800001, 0x3f800000, 0x00400000, 0x7e800000, 0x3f800000,
    // exact zeros the second chance accepts (a - b = 0, then products and fmas of that zero,
    // with zero, subnormal and normal addends), and tiny results it must not accept
    0x40000000, 0x40000000, 0x00000000, 0x3fc00000, 0x3fc00000, 0x80000000, 0x40400000, 0x40400000, 0x00000001,
    0x40a00000, 0x40a00000, 0x80000001, 0x1f800000, 0x1f800000, 0x3f800000, 0x20000000, 0x1f800000, 0x00000000,
    0x0d800000, 0x0d800000, 0x00000000, 0x0d000000, 0x8d000000, 0x00000000, 0x3f800000, 0x3f800000, 0x007fffff], 0);
  return out;
}



describe('replay regions', () => {
  const n = 4096;
  const x = inputs(n);
  const expected = new Uint32Array(8 * n);
  for (let i = 0; i < n; i++) {
    reference(BigInt(x[3 * i] as number), BigInt(x[3 * i + 1] as number), BigInt(x[3 * i + 2] as number)).forEach((v, k) => { expected[8 * i + k] = Number(v); });
  }
  const contexts: [string, (device: GPUDevice) => Promise<Context>][] = [
    ['the device\'s own facts', (device) => createContext({ device })],
    ['add/mul checked, failing regions replayed', async (device) => new Context(device, runtimeCompiler.compileModule, { nativeFloat: NO_NATIVE_FLOAT, replayRegions: 'on' })],
    ['every region replayed', async (device) => new Context(device, runtimeCompiler.compileModule, { nativeFloat: NO_NATIVE_FLOAT, replayRegions: 'always' })],
    ['every region replayed, fma claimed fused', async (device) => new Context(device, runtimeCompiler.compileModule, { fusedFma: true, nativeFloat: NO_NATIVE_FLOAT, replayRegions: 'always' })],
    // the regions' native arithmetic flushing as NVIDIA's driver does: the tests, and the second
    // chance that accepts exact zeros, must catch every result the flush made wrong
    ['native arithmetic flushing subnormals', async (device) => new Context(device, runtimeCompiler.compileModule, { nativeFloat: NO_NATIVE_FLOAT, replayRegions: 'flushing' })],
    ['native arithmetic flushing subnormals, fma fused', async (device) => new Context(device, runtimeCompiler.compileModule, { fusedFma: true, nativeFloat: NO_NATIVE_FLOAT, replayRegions: 'flushing' })],
  ];
  for (const [name, make] of contexts) {
    it(`matches the ISA's rounding: ${name}`, async () => {
      const ctx = await make(await getDefaultDevice());
      try {
        const got = await runTriples(ctx, PTX, 'chain', x, 8);
        const bad: string[] = [];
        for (let i = 0; i < got.length && bad.length < 5; i++) {
          if (got[i] !== expected[i]) {
            const t = Math.floor(i / 8);
            bad.push(`row ${t} out ${i % 8}: in ${[x[3 * t], x[3 * t + 1], x[3 * t + 2]].map((v) => (v as number).toString(16))} got ${(got[i] as number).toString(16)} want ${(expected[i] as number).toString(16)}`);
          }
        }
        expect(bad).toEqual([]);
      } finally {
        ctx.destroy();
      }
    }, 120_000);
  }

  it('gives a softmax\'s exp region a second chance, deciding constant operands at compile time', () => {
    // nvcc's expf(x - max) for an H100: the region holds a sub of two computed values (so it gets
    // the second chance) and fmas with constant factors, whose zero tests must not be WGSL
    // constant expressions that shift set bits out (Chromium's Tint rejects those)
    const ptx = readFileSync(new URL('../kernels/softmax_rows.ptx', import.meta.url), 'utf8');
    const wgsl = compile(ptx, { entry: 'softmax_rows', fusedFma: true, nativeFloat: H100_FLOAT }).kernels[0]?.wgsl ?? '';
    expect(wgsl).toMatch(/let zs_\d+ = /);
    expect(wgsl).not.toMatch(/bitcast<u32>\([-+0-9.e]+f\) << /);
  });

  it('gives an H100 one exact fallback per region, and none inline', () => {
    const body = (replayRegions: 'on' | 'off'): string => {
      const wgsl = compile(PTX, { fusedFma: true, nativeFloat: H100_FLOAT, replayRegions }).kernels[0]?.wgsl ?? '';
      return wgsl.slice(wgsl.indexOf('@compute'));
    };
    const on = body('on');
    // setp ends the first region (a bool is not replayed: seven checked operations, replayed in a
    // straight line behind one test); the mul and add.rn after it are too few for a region and
    // keep their inline checks
    expect(on.match(/if \(!ok_/g)?.length).toBe(1);
    expect(on.match(/f32_fma_exact\(/g)?.length).toBe(7);
    expect(on.match(/f32r_add_rn|f32r_mul_rn|f32_fma_checked/g)).toEqual(['f32r_mul_rn', 'f32r_add_rn']);
    expect(on).not.toMatch(/switch/);
    // cvt.rzi replayed by its own text, on the replayed fma's result
    expect(on).toMatch(/let rv_\d+ = .*f32_rint\(bitcast<u32>\(bitcast<f32>\(rv_\d+\)\)/);
    // more than 32 checked operations (n-body's unrolled interactions): the replay is a loop
    // over a program, one exact fma in the code
    const nbody = readFileSync(new URL('../../bench/float-exactness/kernels.ptx', import.meta.url), 'utf8');
    const big = compile(nbody, { entry: 'nbody', fusedFma: true, nativeFloat: H100_FLOAT }).kernels[0]?.wgsl ?? '';
    expect(big).toMatch(/switch rw_\d+\.x/);
    expect(big).toMatch(/let rv_\d+ = /);
    const off = body('off');
    expect(off.match(/f32r_add_rn|f32r_mul_rn|f32_fma_checked/g)?.length).toBe(9);
  });
});
