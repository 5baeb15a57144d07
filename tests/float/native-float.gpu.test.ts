// The native f32 path (lowering/wgsl/native-float.ts): the device probe's verdicts, and the
// default-rounded arithmetic a CUDA compiler emits (add.f32, mul.f32, the .ftz forms of
// --use_fast_math, the .sat forms of __saturatef) against the ISA reference on this device,
// whichever path the probe chose. The probe's reading is tested on outputs that break each fact.
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/index.js';
import { floatProbe, MINMAX_AT, ptxMinMax, readFloatProbe } from '../../lowering/wgsl/native-float.js';
import { releaseDefaultDevice, getDefaultDevice } from '../../runtime/device.js';
import { probeNativeFloat } from '../../runtime/probe-float.js';
import { nativeFloatProbe } from '../../src/runtime-compiler.js';
import { floatPairs } from '../conformance/float-cases.forms.js';
import { form, runForms, type FormCase } from '../conformance/harness.js';
import * as R from '../conformance/ref/float.js';
import { F32 } from '../conformance/ref/float.js';

afterAll(() => releaseDefaultDevice());

/** Where the exact .ftz results of add, sub, mul, fma sit in a vector's words (native-float.ts). */
const FTZ_AT = 20;

/** Probe output where every native result equals the exact one (then damaged per test). */
function agreeing(): { probe: ReturnType<typeof floatProbe>; out: Uint32Array; words: number } {
  const probe = floatProbe();
  const out = new Uint32Array(probe.bytes / 4);
  const count = probe.input.length / 2;
  const words = (out.length - probe.input.length) / count;
  for (let i = 0; i < count; i++) {
    const at = probe.input.length + i * words;
    for (let k = 0; k < words; k += 2) out[at + k] = out[at + k + 1] = 0x3f800000 + k;
    for (let k = 0; k < 4; k++) out[at + FTZ_AT + k] = out[at + 2 * k] as number; // .ftz results
    const [a, b] = [probe.input[2 * i] as number, probe.input[2 * i + 1] as number];
    out[at + MINMAX_AT] = ptxMinMax(a, b, true);
    out[at + MINMAX_AT + 1] = ptxMinMax(a, b, false);
  }
  return { probe, out, words };
}

describe('reading the float probe', () => {
  it('grants every fact when the native results agree', () => {
    const { probe, out } = agreeing();
    expect(readFloatProbe(probe, out)).toEqual({ addMul: true, ftz: true, ftzFma: true, canonicalNaN: true, approx: ['rsqrt', 'ex2', 'lg2', 'sin', 'cos', 'tanh'], approxFtz: ['rsqrt', 'ex2', 'lg2', 'sin', 'cos', 'tanh'], minMax: 'exact' });
  });
  it('refuses native add/mul when one result differs (a flushed subnormal)', () => {
    const { probe, out, words } = agreeing();
    const at = probe.input.length + 7 * words + 2; // vector 7, sub
    out[at + 1] = 0x00000001; out[at] = 0;
    expect(readFloatProbe(probe, out).addMul).toBe(false);
  });
  it('refuses native .ftz arithmetic when a device keeps a subnormal that .ftz flushes', () => {
    const { probe, out, words } = agreeing();
    const at = probe.input.length + 5 * words;
    out[at + FTZ_AT + 2] = 0; // vector 5: exact mul.ftz flushed, native kept 0x3f800004
    const facts = readFloatProbe(probe, out);
    expect(facts.ftz).toBe(false);
    expect(facts.ftzFma).toBe(true);
    expect(facts.addMul).toBe(true);
    out[at + FTZ_AT + 3] = 0x00800000; // and an fma.ftz result that differs: only ftzFma goes
    expect(readFloatProbe(probe, out).ftzFma).toBe(false);
  });
  it('refuses canonical NaNs when a NaN result keeps its payload', () => {
    const { probe, out, words } = agreeing();
    const at = probe.input.length + 3 * words + 6; // vector 3, fma
    out[at + 1] = 0x7fffffff; out[at] = 0x7fc12345;
    const facts = readFloatProbe(probe, out);
    expect(facts.canonicalNaN).toBe(false);
    expect(facts.addMul).toBe(true);
  });
  it('checks min/max results that are zero, subnormal or NaN, and refuses a wrong ordinary one', () => {
    const { probe, out, words } = agreeing();
    const vector = (a: number, b: number): number => {
      for (let i = 0; i < probe.input.length / 2; i++) if (probe.input[2 * i] === a && probe.input[2 * i + 1] === b) return probe.input.length + i * words + MINMAX_AT;
      throw new Error(`no probe vector ${a}, ${b}`);
    };
    // signed zeros unordered (max(-0, +0) = -0): only a zero result differs
    out[vector(0x80000000, 0)] = 0x80000000;
    expect(readFloatProbe(probe, out).minMax).toBe('checked');
    // a flushed subnormal: max(2^-149, -1) = +0 instead of 2^-149
    out[vector(1, 0xbf800000)] = 0;
    expect(readFloatProbe(probe, out).minMax).toBe('checked');
    // two NaNs giving one of them rather than the canonical NaN
    out[vector(0x7fc00000, 0xffc00000)] = 0x7fc00000;
    expect(readFloatProbe(probe, out).minMax).toBe('checked');
    // max(NaN, 1) = NaN is caught by the check too; min(1, 2) = 2 is wrong and cannot be
    out[vector(0x7fc00000, 0x3f800000)] = 0x7fc00000;
    expect(readFloatProbe(probe, out).minMax).toBe('checked');
    out[vector(0x3f800000, 0x40000000) + 1] = 0x40000000;
    expect(readFloatProbe(probe, out).minMax).toBe('none');
  });
  it('refuses one approx function whose bits differ, and keeps the others', () => {
    const { probe, out, words } = agreeing();
    const at = probe.input.length + 11 * words + 8; // vector 11, rsqrt
    out[at] = (out[at] as number) ^ 1;
    expect(readFloatProbe(probe, out).approx).toEqual(['ex2', 'lg2', 'sin', 'cos', 'tanh']);
    expect(readFloatProbe(probe, out).approxFtz).toHaveLength(6);
    const ftzAt = probe.input.length + 11 * words + FTZ_AT + 4;
    out[ftzAt] = (out[ftzAt] as number) ^ 1; // and rsqrt of the flushed operand
    expect(readFloatProbe(probe, out).approxFtz).toEqual(['ex2', 'lg2', 'sin', 'cos', 'tanh']);
  });
});

describe('default-rounded f32 arithmetic on this device', () => {
  it('reports what the device computes natively', async () => {
    const facts = await probeNativeFloat(await getDefaultDevice(), nativeFloatProbe);
    console.log(`native f32 on this device: ${JSON.stringify(facts)}`);
    expect(typeof facts?.addMul).toBe('boolean');
  });

  const bin = (inst: string, ref: (a: bigint, b: bigint) => bigint, seed: number): FormCase & { ref: typeof ref } => {
    const [as, bs] = floatPairs(F32, 3000, seed);
    return { form: form(`${inst} %d0, %a0, %a1;`, ['f32', 'f32'], ['f32']), inputs: [as, bs], ref };
  };
  const ftzIn = (f: (a: bigint, b: bigint) => bigint) => (a: bigint, b: bigint): bigint => f(R.ftz(F32, a), R.ftz(F32, b));
  const cases = [
    bin('add.f32', (a, b) => R.add(F32, a, b, 'rn'), 101),
    bin('sub.f32', (a, b) => R.sub(F32, a, b, 'rn'), 102),
    bin('mul.f32', (a, b) => R.mul(F32, a, b, 'rn'), 103),
    bin('add.ftz.f32', ftzIn((a, b) => R.ftz(F32, R.add(F32, a, b, 'rn'))), 104),
    bin('sub.ftz.f32', ftzIn((a, b) => R.ftz(F32, R.sub(F32, a, b, 'rn'))), 105),
    bin('mul.ftz.f32', ftzIn((a, b) => R.ftzTiny(F32, R.mul(F32, a, b, 'rn'), R.mul(F32, a, b, 'rz'))), 106),
    bin('add.sat.f32', (a, b) => R.sat(F32, R.add(F32, a, b, 'rn')), 107),
    bin('mul.ftz.sat.f32', ftzIn((a, b) => R.sat(F32, R.ftzTiny(F32, R.mul(F32, a, b, 'rn'), R.mul(F32, a, b, 'rz')))), 108),
    // min/max take WGSL's min()/max() where the probe allows (checked on this device: lavapipe
    // leaves the order of signed zeros open)
    bin('max.f32', (a, b) => R.minmax(F32, a, b, true), 109),
    bin('min.f32', (a, b) => R.minmax(F32, a, b, false), 110),
    bin('max.ftz.f32', ftzIn((a, b) => R.minmax(F32, a, b, true)), 111),
    bin('min.ftz.f32', ftzIn((a, b) => R.minmax(F32, a, b, false)), 112),
  ];

  it('add/sub/mul/min/max.f32 with .ftz and .sat match the ISA reference bit for bit', async () => {
    const outs = await runForms(cases);
    const bad: string[] = [];
    cases.forEach((c, f) => {
      const [as, bs] = c.inputs as [bigint[], bigint[]];
      as.forEach((a, i) => {
        const want = c.ref(a, bs[i] as bigint);
        const got = outs[f]?.[0]?.[i];
        if (got !== want && bad.length < 10) bad.push(`${c.form.body} a=0x${a.toString(16)} b=0x${(bs[i] as bigint).toString(16)}: got 0x${got?.toString(16)}, want 0x${want.toString(16)}`);
      });
    });
    expect(bad).toEqual([]);
  });
});

describe('tininess of .ftz results', () => {
  // Recorded natively with CUDA on an H100 (2026-11-25, scratch probe of fma.rn.ftz.f32 over the
  // float probe's 2082 operand pairs: CUDA and Dawn/Vulkan agreed on all of them): the exact
  // 2^-126 - 2^-252 rounds to 2^-126 at 24 bits, so it is not tiny and is not flushed.
  it('fma.rn.ftz.f32 keeps a result that reaches the least normal at full precision', async () => {
    const corner = [0x00800000n, 0x80800000n, 0x00800000n];
    const negated = [0x80800000n, 0x80800000n, 0x80800000n];
    const outs = await runForms([{ form: form('fma.rn.ftz.f32 %d0, %a0, %a1, %a2;', ['f32', 'f32', 'f32'], ['f32']), inputs: corner.map((c, k) => [c, negated[k] as bigint]) }]);
    expect(outs[0]?.[0]).toEqual([0x00800000n, 0x80800000n]);
  });
});

describe("createContext({ float: 'ftz' })", () => {
  // out[i] = a[i] * b[i] + a[i] as nvcc emits it without --use_fast_math (mul.f32, add.f32)
  const PTX = `.version 8.0
.target sm_80
.address_size 64
.visible .entry muladd(.param .u64 pa, .param .u64 pb, .param .u64 pout)
{
  .reg .b32 %r<2>; .reg .f32 %f<5>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb]; ld.param.u64 %rd3, [pout];
  mov.u32 %r1, %tid.x; mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd1, %rd4; ld.global.f32 %f1, [%rd5];
  add.s64 %rd6, %rd2, %rd4; ld.global.f32 %f2, [%rd6];
  mul.f32 %f3, %f1, %f2; add.f32 %f4, %f3, %f1;
  add.s64 %rd7, %rd3, %rd4; st.global.f32 [%rd7], %f4;
  ret;
}`;
  const bits = (xs: number[]): Float32Array => new Float32Array(new Uint32Array(xs).buffer);
  const run = async (float: 'probe' | 'ftz'): Promise<number[]> => {
    const ctx = await createContext({ float });
    try {
      const fn = ctx.loadModule(PTX).getFunction('muladd');
      const a = bits([0x00000001, 0x3f800000, 0x00400000, 0x80000003]);
      const b = bits([0x3f800000, 0x00000002, 0x3f800000, 0x40000000]);
      const [da, db, dout] = [ctx.malloc(16), ctx.malloc(16), ctx.malloc(16)];
      ctx.memcpyHtoD(da, a); ctx.memcpyHtoD(db, b); ctx.memcpyHtoD(dout, bits([0xcdcdcdcd, 0xcdcdcdcd, 0xcdcdcdcd, 0xcdcdcdcd]));
      fn.launch({ grid: 1, block: 4 }, [da, db, dout]);
      const out = new Uint32Array(4);
      await ctx.memcpyDtoH(out, dout);
      return [...out];
    } finally {
      ctx.destroy();
    }
  };
  it('keeps subnormals by default and flushes them, as -ftz=true PTX would, on request', async () => {
    // a*b + a: 2^-149 * 1 + 2^-149 = 2^-148; 1 * 2^-148 + 1 = 1; 2^-127 * 1 + 2^-127 = 2^-126;
    // -3 * 2^-149 * 2 - 3 * 2^-149 = -9 * 2^-149
    expect(await run('probe')).toEqual([0x00000002, 0x3f800000, 0x00800000, 0x80000009]);
    // flushed: subnormal operands are zeros, so 0 * 1 + 0 = 0; 1 * 0 + 1 = 1; 0 + 0; -0 * 0 + -0 = -0
    expect(await run('ftz')).toEqual([0x00000000, 0x3f800000, 0x00000000, 0x80000000]);
  });
});
