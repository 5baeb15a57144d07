// fma.rn.f32 is exact on every device: on devices whose WGSL fma() is not fused (lavapipe,
// SwiftShader) the integer emulation in shaders/fma32.wgsl runs; this checks it against an
// exact BigInt reference on edge values (cancellation, ties, subnormal and overflowing results).
import { afterAll, describe, expect, it } from 'vitest';
import { createContext, runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { NATIVE_BATCHES } from '../conformance/float-approx.forms.js';
import { form, loadNative, runForms, triples } from '../conformance/harness.js';
import * as R from '../conformance/ref/float.js';
import { F32 } from '../conformance/ref/float.js';

afterAll(() => releaseDefaultDevice());

const FMA_PTX = `
.version 9.0
.target sm_80
.address_size 64
.visible .entry fma_k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd, .param .u32 n)
{
  .reg .pred %p<2>; .reg .b32 %r<6>; .reg .f32 %f<5>; .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [pb]; ld.param.u64 %rd3, [pc]; ld.param.u64 %rd4, [pd];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd5, %rd1; cvta.to.global.u64 %rd6, %rd2;
  cvta.to.global.u64 %rd7, %rd3; cvta.to.global.u64 %rd8, %rd4;
  mul.wide.u32 %rd9, %r5, 4;
  add.s64 %rd10, %rd5, %rd9; ld.global.f32 %f1, [%rd10];
  add.s64 %rd10, %rd6, %rd9; ld.global.f32 %f2, [%rd10];
  add.s64 %rd10, %rd7, %rd9; ld.global.f32 %f3, [%rd10];
  fma.rn.f32 %f4, %f1, %f2, %f3;
  add.s64 %rd11, %rd8, %rd9; st.global.f32 [%rd11], %f4;
DONE:
  ret;
}
`;

/** Exact fma of three f32 bit patterns, rounded to nearest-even (NaN results as 0x7fffffff). */
export function fmaRef(ua: number, ub: number, uc: number): number {
  const f32 = (u: number) => new Float32Array(new Uint32Array([u]).buffer)[0]!;
  const bits = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;
  const isSpecial = (u: number) => (u & 0x7f800000) === 0x7f800000;
  if (isSpecial(ua) || isSpecial(ub) || isSpecial(uc)) {
    const r = f32(ua) * f32(ub) + f32(uc); // infinities and NaNs: the double result is exact here
    return Number.isNaN(r) ? 0x7fffffff : bits(r);
  }
  const dec = (u: number): [bigint, number] => {
    const e = (u >>> 23) & 0xff; const m = BigInt(u & 0x7fffff);
    const mag = e === 0 ? m : m | 0x800000n;
    return [u >>> 31 ? -mag : mag, e === 0 ? -149 : e - 150];
  };
  const [ma, ea] = dec(ua); const [mb, eb] = dec(ub); const [mc, ec] = dec(uc);
  const ep = ea + eb; const emin = Math.min(ep, ec);
  const n = ((ma * mb) << BigInt(ep - emin)) + (mc << BigInt(ec - emin));
  if (n === 0n) {
    const productZero = ma === 0n || mb === 0n;
    const cZero = mc === 0n;
    const sp = ((ua ^ ub) >>> 31) & 1; const sc = uc >>> 31;
    return productZero && cZero && sp === 1 && sc === 1 ? 0x80000000 : 0;
  }
  const sign = n < 0n ? 0x80000000 : 0;
  const mag = n < 0n ? -n : n;
  const len = mag.toString(2).length;
  let target = Math.max(emin + len - 1 - 23, -149);
  const shift = target - emin;
  let q: bigint;
  if (shift <= 0) q = mag << BigInt(-shift);
  else {
    q = mag >> BigInt(shift);
    const rem = mag - (q << BigInt(shift)); const half = 1n << BigInt(shift - 1);
    if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
  }
  if (q === 1n << 24n) { q >>= 1n; target += 1; }
  if (target + 23 > 127) return (sign | 0x7f800000) >>> 0;
  const out = q >= 1n << 23n ? ((target + 150) << 23) + Number(q - (1n << 23n)) : Number(q);
  return (sign | out) >>> 0;
}

function inputs(): [Uint32Array, Uint32Array, Uint32Array] {
  const a: number[] = []; const b: number[] = []; const c: number[] = [];
  const edges = [0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x00800000, 0x00800001, 0x3f800000, 0xbf800000,
    0x3f800001, 0x3f7fffff, 0x4b800000, 0x33800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
    0x7fc00000, 0x1f800000, 0x5f800000, 0x3fffffff, 0x0c000000];
  for (const x of edges) for (const y of edges) for (const z of edges) { a.push(x); b.push(y); c.push(z); }
  let s = 0x12345678;
  const rnd = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
  for (let i = 0; i < 20000; i++) {
    const x = rnd(); const y = rnd();
    // c near -(a*b): exercises cancellation; c near a tie: exercises rounding.
    const prod = new Float32Array(new Uint32Array([x]).buffer)[0]! * new Float32Array(new Uint32Array([y]).buffer)[0]!;
    const pbits = new Uint32Array(new Float32Array([prod]).buffer)[0]!;
    const mode = i % 4;
    const z = mode === 0 ? rnd() : mode === 1 ? (pbits ^ 0x80000000) + (rnd() % 5) - 2 : mode === 2 ? (pbits - ((rnd() % 30) << 23)) >>> 0 : rnd() & 0x80ffffff;
    a.push(x); b.push(mode === 3 ? (y & 0x807fffff) | 0x00800000 : y); c.push(z >>> 0);
  }
  return [new Uint32Array(a), new Uint32Array(b), new Uint32Array(c)];
}

describe('fma.rn.f32', () => {
  it('is exact against a BigInt reference (device path)', async () => {
    const [a, b, c] = inputs();
    const d = new Uint32Array(a.length).fill(0xdeadbeef);
    await runPtx(FMA_PTX, [a, b, c, d, a.length], { grid: Math.ceil(a.length / 256), block: 256 });
    const bad: string[] = [];
    for (let i = 0; i < a.length; i++) {
      const want = fmaRef(a[i]!, b[i]!, c[i]!);
      const got = (d[i]! & 0x7f800000) === 0x7f800000 && (d[i]! & 0x7fffff) !== 0 ? 0x7fffffff : d[i]!;
      if (got !== want && bad.length < 10) bad.push(`fma(${a[i]!.toString(16)}, ${b[i]!.toString(16)}, ${c[i]!.toString(16)}) = ${got.toString(16)}, want ${want.toString(16)}`);
    }
    expect(bad).toEqual([]);
  });

  it('is exact with the integer emulation forced', async () => {
    const ctx = await createContext({ fma: 'emulated' });
    const [a, b, c] = inputs();
    const n = a.length;
    const fn = ctx.loadModule(FMA_PTX).getFunction('fma_k');
    const bufs = [a, b, c].map((x) => { const m = ctx.malloc(n * 4); ctx.memcpyHtoD(m, x); return m; });
    const out = ctx.malloc(n * 4);
    ctx.memcpyHtoD(out, new Uint32Array(n).fill(0xdeadbeef));
    fn.launch({ grid: Math.ceil(n / 256), block: 256 }, [...bufs, out, n]);
    const d = new Uint32Array(n);
    await ctx.memcpyDtoH(d, out);
    let bad = 0;
    for (let i = 0; i < a.length; i++) {
      const got = (d[i]! & 0x7f800000) === 0x7f800000 && (d[i]! & 0x7fffff) !== 0 ? 0x7fffffff : d[i]!;
      if (got !== fmaRef(a[i]!, b[i]!, c[i]!)) bad++;
    }
    expect(bad).toBe(0);
  });

  it('matches the H100 recording and the reference on the recorded inputs', async () => {
    const cases = NATIVE_BATCHES.find((b) => b.name === 'float-fma-rn')!.cases();
    const native = loadNative('float-fma-rn', cases);
    expect(native).not.toBeNull();
    const ours = await runForms(cases);
    const [a, b, c] = cases[0]!.inputs as bigint[][];
    const bad: string[] = [];
    native![0]![0]!.forEach((hw, i) => {
      const ref = R.fma(F32, a![i]!, b![i]!, c![i]!, 'rn');
      const got = ours[0]![0]![i]!;
      if ((hw !== ref || got !== hw) && bad.length < 10) bad.push(`#${i}: hw ${hw.toString(16)} ref ${ref.toString(16)} ours ${got.toString(16)}`);
    });
    expect(bad).toEqual([]);
  });

  it('.ftz flushes subnormal inputs and results tiny before rounding (reference)', async () => {
    const [a, b, c] = triples([32, 32, 32], 3000, 77);
    const cases = [{ form: form('fma.rn.ftz.f32 %d0, %a0, %a1, %a2;', ['f32', 'f32', 'f32'], ['f32']), inputs: [a, b, c] }];
    const ours = await runForms(cases);
    const bad: string[] = [];
    ours[0]![0]!.forEach((got, i) => {
      const [x, y, z] = [R.ftz(F32, a![i]!), R.ftz(F32, b![i]!), R.ftz(F32, c![i]!)];
      const want = R.ftzTiny(F32, R.fma(F32, x, y, z, 'rn'), R.fma(F32, x, y, z, 'rz'));
      if (got !== want && bad.length < 10) bad.push(`fma.ftz(${a![i]!.toString(16)}, ${b![i]!.toString(16)}, ${c![i]!.toString(16)}) = ${got.toString(16)}, want ${want.toString(16)}`);
    });
    expect(bad).toEqual([]);
  });
});

