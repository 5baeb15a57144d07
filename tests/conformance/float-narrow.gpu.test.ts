// The sm_100a narrow-float cvt forms (fp4 e2m1x2, fp6 e2m3x2/e3m2x2, ue8m0x2) on WebGPU, bit-exact
// against NVIDIA's host reference (CUDA 13 headers, recorded by native/narrow_ref.cpp). Inputs:
// every f16/bf16 pattern for the packed-half sources, every code for the widening forms, and f32
// edges (every representable value and rounding midpoint with neighbours, specials) plus randoms.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { mismatches, rng, runForms, type FormCase } from './harness.js';
import { headerRef, narrowForms } from './float-narrow.forms.js';

afterAll(() => releaseDefaultDevice());

const forms = narrowForms();
const cases: FormCase[] = forms.map((f) => ({ form: f.form, inputs: f.inputs }));
const want = (f: number, ins: bigint[]): readonly bigint[] => forms[f]?.want(ins) ?? [];

describe('cvt to and from fp4/fp6/ue8m0 (sm_100a)', () => {
  it('the header reference agrees with hand-checked values', () => {
    // (f32 bits, lane results per form body): a -> high lane, b -> low lane
    const probe = (body: string, ins: bigint[]): bigint => {
      const k = forms.findIndex((f) => f.form.body.includes(body));
      expect(k, body).toBeGreaterThanOrEqual(0);
      return forms[k]?.want(ins)[0] as bigint;
    };
    const f = (x: number): bigint => BigInt(new Uint32Array(new Float32Array([x]).buffer)[0] as number);
    // e2m1: 6.0 is MAX_NORM 0x7; 0.75 ties to even (1.0, code 2); 0.25 ties to +0; NaN +MAX_NORM; -inf -MAX_NORM
    expect(probe('satfinite.e2m1x2.f32', [f(6), f(0.75)])).toBe(0x72n);
    expect(probe('satfinite.e2m1x2.f32', [f(0.25), f(-0.25)])).toBe(0x08n);
    expect(probe('satfinite.e2m1x2.f32', [0x7fc00000n, f(-Infinity)])).toBe(0x7fn);
    expect(probe('satfinite.relu.e2m1x2.f32', [0xffc00000n, f(-3)])).toBe(0x70n);
    // e2m3 MAX_NORM 7.5 (0x1f), e3m2 MAX_NORM 28 (0x1f); 1.0 is 0x08 and 0x0c
    expect(probe('satfinite.e2m3x2.f32', [f(15), f(1)])).toBe(0x1f08n);
    expect(probe('satfinite.e3m2x2.f32', [f(-56), f(1)])).toBe(0x3f0cn);
    // ue8m0: 3.0 has exponent 128 (rz) and rounds up to 4 = 129 (rp); sign ignored; inf 0xff, .satfinite 0xfe
    expect(probe('cvt.rz.ue8m0x2.f32', [f(3), f(-3)])).toBe(0x8080n);
    expect(probe('cvt.rp.ue8m0x2.f32', [f(3), f(Infinity)])).toBe(0x81ffn);
    expect(probe('cvt.rp.satfinite.ue8m0x2.f32', [f(Infinity), 0x7fc00000n])).toBe(0xfeffn);
    // widening: e2m1 0x7 = 6.0 (f16 0x4600), 0xf = -6.0; ue8m0 127 = 1.0 (bf16 0x3f80), 0xff NaN
    expect(probe('cvt.rn.f16x2.e2m1x2', [0x7fn])).toBe(0x4600c600n);
    expect(probe('cvt.rn.bf16x2.ue8m0x2', [0x7fffn])).toBe(0x3f807fffn);
  });

  it(`every form matches the header reference on WebGPU (${forms.length} forms)`, async () => {
    expect(mismatches(cases, await runForms(cases), want)).toEqual([]);
  }, 600_000);
});

/**
 * nvcc's PTX for the header intrinsics (float-narrow.header-*.cu): element i converts the f32 pair
 * (x = xs[i], y = ys[i]) and the word w[i], whose low 16 bits run through every fp6 code pair
 * (i < 4096) and every fp4 byte (4096 <= i < 4352).
 */
describe('the CUDA 13 header intrinsics compiled by nvcc for sm_100a', () => {
  const ref = headerRef();
  const xs = ref.f32In;
  const ys = [...xs].reverse();
  const n = xs.length;
  const r = rng(20260522);
  const w = Array.from({ length: n }, (_, i) => {
    const lo = i < 4096 ? (i & 63) | ((i >> 6) << 8) : i < 4352 ? (i - 4096) | (Number(r() & 0xffn) << 8) : Number(r() & 0xffffn);
    return (BigInt(lo) | ((r() & 0xffffn) << 16n)) & 0xffffffffn;
  });
  const x = new Uint32Array(2 * n);
  xs.forEach((v, i) => { x[2 * i] = Number(v); x[2 * i + 1] = Number(ys[i]); });
  const wArr = Uint32Array.from(w, Number);
  const ptx = (name: string): string => readFileSync(new URL(`./float-narrow.${name}.ptx`, import.meta.url), 'utf8');
  const run = async (name: string, entry: string, words: number): Promise<bigint[][]> => {
    const out = new Uint32Array(words * n).fill(0xdeadbeef);
    await runPtx(ptx(name), [x, wArr, out, n], { entry, grid: Math.ceil(n / 128), block: 128, fileName: `float-narrow.${name}.ptx` });
    return Array.from({ length: n }, (_, i) => [...out.subarray(words * i, words * (i + 1))].map(BigInt));
  };
  const pair = (hi: bigint, lo: bigint, bits: bigint): bigint => (hi << bits) | lo;
  const diff = (got: bigint[][], want: (i: number) => bigint[]): string[] => {
    const bad: string[] = [];
    got.forEach((g, i) => want(i).forEach((v, k) => {
      if (g[k] !== v && bad.length < 12) bad.push(`element ${i} word ${k} (x 0x${xs[i]?.toString(16)}, y 0x${ys[i]?.toString(16)}, w 0x${w[i]?.toString(16)}): 0x${g[k]?.toString(16)}, want 0x${v.toString(16)}`);
    }));
    return bad;
  };

  it('fp6 and ue8m0 (narrow_fp6_e8m0) match the headers\' host code', async () => {
    const got = await run('header-fp6', 'narrow_fp6_e8m0', 8);
    const half2 = (fmt: string, c: bigint): bigint => pair(ref.widen(fmt, (c >> 8n) & 0x3fn), ref.widen(fmt, c & 0x3fn), 16n);
    const e8f = (t: string, i: number): bigint => pair(ref.f32(t, ys[i] as bigint), ref.f32(t, xs[i] as bigint), 8n);
    const e8b = (t: string, v: bigint): bigint => pair(ref.half('bf16', t, v >> 16n), ref.half('bf16', t, v & 0xffffn), 8n);
    expect(diff(got, (i) => {
      const v = w[i] as bigint;
      return [
        pair(ref.f32('e2m3', ys[i] as bigint), ref.f32('e2m3', xs[i] as bigint), 8n), pair(ref.f32('e3m2', ys[i] as bigint), ref.f32('e3m2', xs[i] as bigint), 8n),
        half2('e2m3_f16', v), half2('e3m2_f16', v), e8f('ue8m0_rz', i), e8f('ue8m0_rp_satfinite', i),
        e8b('ue8m0_rz_satfinite', v) | (e8b('ue8m0_rp', v) << 16n), pair(ref.widen('ue8m0_bf16', (v >> 8n) & 0xffn), ref.widen('ue8m0_bf16', v & 0xffn), 16n),
      ];
    })).toEqual([]);
  }, 120_000);

  // nvcc names the .b8 temporaries of the fp4 intrinsics without `%` (`{ .reg .b8 __$temp1; ...
  // mov.b16 %rs1, {__$temp1, 0}; }`).
  it('fp4 (narrow_fp4) matches the headers\' host code', async () => {
    const got = await run('header-fp4', 'narrow_fp4', 2);
    expect(diff(got, (i) => {
      const c = (w[i] as bigint) & 0xffn;
      return [pair(ref.f32('e2m1', ys[i] as bigint), ref.f32('e2m1', xs[i] as bigint), 4n), pair(ref.widen('e2m1_f16', c >> 4n), ref.widen('e2m1_f16', c & 0xfn), 16n)];
    })).toEqual([]);
  }, 120_000);
});
