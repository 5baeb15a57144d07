/**
 * cvt.pack, fp8 (e4m3x2/e5m2x2) and tf32 conversions, cvt between f64 and f16/bf16, lane-wise
 * setp/set on f16x2/bf16x2 (exact, against ref/float.ts), and ex2/tanh.approx on halves (within
 * bounds). The forms an H100 (sm_90) runs are recorded natively; sm_100a forms are JS-reference only.
 */
import { form, pairs, randoms, rng, type Form, type FormCase, type NativeBatch } from './harness.js';
import * as R from './ref/float.js';
import { BF16, F16, F32, F64 } from './ref/float.js';

export interface ExactForm { readonly form: Form; readonly inputs: bigint[][]; readonly want: (ins: bigint[]) => bigint[] }

const lo16 = (v: bigint): bigint => v & 0xffffn;
const hi16 = (v: bigint): bigint => (v >> 16n) & 0xffffn;

/** f32 inputs around the fp8 grid: every code's value, midpoints and their f32 neighbours, specials, randoms. */
function f8Inputs(seed: number): bigint[] {
  const out = new Set<bigint>([0n, 0x80000000n, 0x7f800000n, 0xff800000n, 0x7fc00000n, 0xffffffffn, 0x7f800001n, 1n, 0x80000001n, 0x7f7fffffn, 0xff7fffffn]);
  for (const e4m3 of [true, false]) {
    for (let c = 0; c < 0x7f; c++) {
      const v = R.f8Value(e4m3, c);
      const w = R.f8Value(e4m3, c + 1);
      if (!Number.isFinite(v)) continue;
      const mid = Number.isFinite(w) ? (v + w) / 2 : v * 1.0625;
      for (const x of [v, mid]) {
        const b = R.f32Bits(Math.fround(x));
        for (const d of [-1n, 0n, 1n]) for (const s of [0n, 0x80000000n]) out.add(((b + d) & 0x7fffffffn) | s);
      }
    }
  }
  const r = rng(seed);
  const list = [...out];
  for (let i = 0; i < 1500; i++) {
    const v = r();
    const e = 100n + ((v >> 40n) % 50n); // 2^-27 .. 2^22
    list.push(((v >> 63n) << 31n) | (e << 23n) | (v & 0x7fffffn));
  }
  return list;
}

/** f64 inputs around the f16/bf16 grids: half values, midpoints and f64 neighbours, specials, randoms. */
function f64HalfInputs(seed: number): bigint[] {
  const r = rng(seed);
  const out: bigint[] = [0n, 0x8000000000000000n, 0x7ff0000000000000n, 0xfff0000000000000n, 0x7ff8000000000000n, 0xfff4000000000001n,
    1n, 0x800fffffffffffffn, 0x7fefffffffffffffn, 0x3ff0000000000000n, 0x40effe0000000000n, 0x40effe0000000001n, 0x40efff0000000000n, 0x40f0000000000000n];
  const f64Bits = (x: number): bigint => { const d = new DataView(new ArrayBuffer(8)); d.setFloat64(0, x); return d.getBigUint64(0); };
  for (let i = 0; i < 1200; i++) {
    const f = i & 1 ? BF16 : F16;
    const h = r() & 0x7fffn;
    const v = R.valueOf(f, h);
    const w = R.valueOf(f, h + 1n);
    if (!Number.isFinite(v) || !Number.isFinite(w)) continue;
    const s = r() & 1n ? 0x8000000000000000n : 0n;
    const mid = f64Bits((v + w) / 2);
    for (const b of [f64Bits(v), mid, mid - 1n, mid + 1n]) out.push(b | s);
  }
  for (let i = 0; i < 500; i++) out.push(r());
  return out;
}

const CMPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu', 'num', 'nan'] as const;

/** Pairs of packed halves: every edge value of the format in each lane against edges and randoms. */
function packedPairs(f: R.Format, seed: number): [bigint[], bigint[]] {
  const e = [0n, 0x8000n, 1n, 0x8001n, 0x3c00n, 0xbc00n, 0x3f80n, 0xbf80n, 0x7bffn, 0x7c00n, 0xfc00n, 0x7f80n, 0xff80n, 0x7e00n, 0x7fc0n, 0x7fffn, 0x7c01n, 0x3c01n, 0x3bffn];
  const [ra, rb] = pairs(16, 600, seed);
  const as: bigint[] = [];
  const bs: bigint[] = [];
  e.forEach((x, i) => e.forEach((y, j) => { as.push(x | (e[(i + j) % e.length] as bigint) << 16n); bs.push(y | (e[(i * 3 + j) % e.length] as bigint) << 16n); }));
  ra.forEach((x, i) => { as.push(x | ((rb[i] as bigint) ^ 0x5a5an) << 16n); bs.push((rb[i] as bigint) | x << 16n); });
  void f;
  return [as, bs];
}

export function exactForms(): ExactForm[] {
  const out: ExactForm[] = [];
  // cvt.pack
  const [pa, pb] = pairs(32, 1500, 71);
  const pc = randoms(32, pa.length, 72);
  for (const ct of ['u16', 's16', 'u8', 's8', 'u4', 's4', 'u2', 's2']) {
    const size = Number(ct.slice(1));
    const wide = size === 16;
    out.push({
      form: form(wide ? `cvt.pack.sat.${ct}.s32 %d0, %a0, %a1;` : `cvt.pack.sat.${ct}.s32.b32 %d0, %a0, %a1, %a2;`, wide ? ['b32', 'b32'] : ['b32', 'b32', 'b32'], ['b32'], { sm: 90, version: '8.0' }),
      inputs: wide ? [pa, pb] : [pa, pb, pc],
      want: ([a, b, c]) => [R.cvtPack(size, ct[0] === 's', true, a as bigint, b as bigint, c ?? 0n)],
    });
  }
  // fp8 from f32 pairs (a into the high byte)
  const x8 = f8Inputs(81);
  const y8 = [...x8].reverse();
  for (const t of ['e4m3x2', 'e5m2x2']) {
    for (const relu of [false, true]) {
      const e4m3 = t === 'e4m3x2';
      out.push({
        form: form(`cvt.rn.satfinite${relu ? '.relu' : ''}.${t}.f32 %d0, %a0, %a1;`, ['f32', 'f32'], ['b16'], { sm: 89, version: '8.1' }),
        inputs: [x8, y8],
        want: ([a, b]) => [(R.f8FromValue(R.valueOf(F32, a as bigint), e4m3, relu) << 8n) | R.f8FromValue(R.valueOf(F32, b as bigint), e4m3, relu)],
      });
    }
  }
  // fp8 from f16x2 (every f16 in each lane) and back to f16x2 (every code in each lane)
  const all = Array.from({ length: 65536 }, (_, i) => BigInt(i));
  const h2 = all.map((v) => v | (BigInt.asUintN(16, v * 40503n + 12345n) << 16n));
  const c2 = all.slice(0, 4096).map((v) => (v & 0xffn) | (BigInt.asUintN(8, (v & 0xffn) * 37n + 11n + (v >> 8n)) << 8n));
  for (const t of ['e4m3x2', 'e5m2x2']) {
    const e4m3 = t === 'e4m3x2';
    for (const relu of [false, true]) {
      out.push({
        form: form(`cvt.rn.satfinite${relu ? '.relu' : ''}.${t}.f16x2 %d0, %a0;`, ['b32'], ['b16'], { sm: 89, version: '8.1' }),
        inputs: [relu ? h2.slice(0, 8192) : h2],
        want: ([a]) => [(R.f8FromValue(R.valueOf(F16, hi16(a as bigint)), e4m3, relu) << 8n) | R.f8FromValue(R.valueOf(F16, lo16(a as bigint)), e4m3, relu)],
      });
      out.push({
        form: form(`cvt.rn${relu ? '.relu' : ''}.f16x2.${t} %d0, %a0;`, ['b16'], ['b32'], { sm: 89, version: '8.1' }),
        inputs: [c2],
        want: ([a]) => [R.f8ToF16(Number((a as bigint) & 0xffn), e4m3, relu) | (R.f8ToF16(Number((a as bigint) >> 8n), e4m3, relu) << 16n)],
      });
    }
  }
  // tf32
  const [t32] = pairs(32, 3000, 91);
  const tIn = [...t32, ...x8, 0x7f7ff000n, 0x7f7fefffn, 0xff7ff000n, 0x7f7fe000n, 0x00001000n, 0x00003000n, 0x00001001n];
  for (const [body, rm, sf, relu] of [['cvt.rna.tf32.f32', 'rna', false, false], ['cvt.rna.satfinite.tf32.f32', 'rna', true, false], ['cvt.rn.tf32.f32', 'rn', false, false], ['cvt.rz.tf32.f32', 'rz', false, false], ['cvt.rn.relu.tf32.f32', 'rn', false, true]] as const) {
    out.push({ form: form(`${body} %d0, %a0;`, ['f32'], ['b32'], { sm: 80, version: '8.6' }), inputs: [tIn], want: ([a]) => [R.tf32FromF32(a as bigint, rm, sf, relu)] });
  }
  // f64 <-> f16/bf16
  const d = f64HalfInputs(101);
  for (const [name, f] of [['f16', F16], ['bf16', BF16]] as const) {
    for (const rm of ['rn', 'rz', 'rm', 'rp'] as const) {
      out.push({ form: form(`cvt.${rm}.${name}.f64 %d0, %a0;`, ['f64'], ['b16']), inputs: [d], want: ([a]) => [R.f64ToHalf(f, a as bigint, rm)] });
    }
    out.push({ form: form(`cvt.f64.${name} %d0, %a0;`, ['b16'], ['f64']), inputs: [all], want: ([a]) => [R.halfToF64(f, a as bigint)] });
  }
  // setp/set lane-wise
  for (const [name, f] of [['f16x2', F16], ['bf16x2', BF16]] as const) {
    const [a, b] = packedPairs(f, name === 'f16x2' ? 111 : 112);
    const c = a.map((_, i) => BigInt((i >> 2) & 1));
    for (const cmp of CMPS) {
      out.push({ form: form(`setp.${cmp}.${name} %d0|%d1, %a0, %a1;`, ['b32', 'b32'], ['pred', 'pred']), inputs: [a, b], want: ([x, y]) => [R.setp(f, cmp, lo16(x as bigint), lo16(y as bigint)) ? 1n : 0n, R.setp(f, cmp, hi16(x as bigint), hi16(y as bigint)) ? 1n : 0n] });
    }
    out.push({
      form: form(`setp.lt.xor.${name} %d0|%d1, %a0, %a1, %a2;`, ['b32', 'b32', 'pred'], ['pred', 'pred']), inputs: [a, b, c],
      want: ([x, y, p]) => [R.setp(f, 'lt', lo16(x as bigint), lo16(y as bigint)) !== (p === 1n) ? 1n : 0n, R.setp(f, 'lt', hi16(x as bigint), hi16(y as bigint)) !== (p === 1n) ? 1n : 0n],
    });
    for (const [cmp, dt, bool] of [['ltu', name, ''], ['ge', 'u32', ''], ['ne', 's32', 'and'], ['nan', name, 'or']] as const) {
      const one = dt === 'f16x2' ? 0x3c00n : dt === 'bf16x2' ? 0x3f80n : 0xffffn;
      out.push({
        form: form(`set.${cmp}${bool ? `.${bool}` : ''}.${dt}.${name} %d0, %a0, %a1${bool ? ', %a2' : ''};`, bool ? ['b32', 'b32', 'pred'] : ['b32', 'b32'], ['b32']),
        inputs: bool ? [a, b, c] : [a, b],
        want: ([x, y, p]) => {
          const lane = (sh: bigint): bigint => {
            let t = R.setp(f, cmp, (x as bigint >> sh) & 0xffffn, (y as bigint >> sh) & 0xffffn);
            if (bool === 'and') t = t && p === 1n;
            if (bool === 'or') t = t || p === 1n;
            return t ? one : 0n;
          };
          return [lane(0n) | (lane(16n) << 16n)];
        },
      });
    }
  }
  return out;
}

/**
 * Forms without a recording, checked against the JS reference only: the sm_100a tf32 forms (an
 * H100 cannot run them) and sm_90 variants added after the recording (.ftz compares, rz.relu tf32).
 */
export function sm100Forms(): ExactForm[] {
  const [t32] = pairs(32, 3000, 93);
  const extra: ExactForm[] = [];
  for (const [name, f] of [['f16x2', F16], ['bf16x2', BF16]] as const) {
    const [a, b] = packedPairs(f, 131);
    const z = (v: bigint, sh: bigint): bigint => R.ftz(f, (v >> sh) & 0xffffn);
    extra.push({
      form: form(`setp.leu.ftz.${name} %d0|%d1, %a0, %a1;`, ['b32', 'b32'], ['pred', 'pred']), inputs: [a, b],
      want: ([x, y]) => [0n, 16n].map((sh) => (R.setp(f, 'leu', z(x as bigint, sh), z(y as bigint, sh)) ? 1n : 0n)),
    });
  }
  extra.push({ form: form('cvt.rz.relu.tf32.f32 %d0, %a0;', ['f32'], ['b32']), inputs: [t32], want: ([a]) => [R.tf32FromF32(a as bigint, 'rz', false, true)] });
  return [...extra, ...([['cvt.rn.satfinite.tf32.f32', 'rn', true, false], ['cvt.rz.satfinite.relu.tf32.f32', 'rz', true, true], ['cvt.rn.satfinite.relu.tf32.f32', 'rn', true, true]] as const).map(([body, rm, sf, relu]): ExactForm => ({
    form: form(`${body} %d0, %a0;`, ['f32'], ['b32'], { sm: 100, version: '8.6' }), inputs: [t32], want: ([a]: bigint[]) => [R.tf32FromF32(a as bigint, rm, sf, relu)],
  }))];
}

/** ex2/tanh.approx on f16/bf16 (scalar and x2): every input, checked within a relative bound. */
export interface HalfApprox { readonly form: Form; readonly inputs: bigint[][]; readonly f: R.Format; readonly fn: 'ex2' | 'tanh'; readonly packed: boolean }

export function halfApproxForms(): HalfApprox[] {
  const r = rng(121);
  const all = Array.from({ length: 65536 }, (_, i) => BigInt(i));
  for (let i = all.length - 1; i > 0; i--) { const j = Number(r() % BigInt(i + 1)); [all[i], all[j]] = [all[j] as bigint, all[i] as bigint]; }
  const packed = all.map((v, i) => v | ((all[(i + 7919) % all.length] as bigint) << 16n));
  const out: HalfApprox[] = [];
  for (const fn of ['ex2', 'tanh'] as const) {
    for (const [t, f] of [['f16', F16], ['bf16', BF16]] as const) {
      const ftz = fn === 'ex2' && t === 'bf16' ? '.ftz' : '';
      out.push({ form: form(`${fn}.approx${ftz}.${t} %d0, %a0;`, ['b16'], ['b16'], { sm: 90, version: '8.0' }), inputs: [all], f, fn, packed: false });
      out.push({ form: form(`${fn}.approx${ftz}.${t}x2 %d0, %a0;`, ['b32'], ['b32'], { sm: 90, version: '8.0' }), inputs: [packed.slice(0, 16384)], f, fn, packed: true });
    }
  }
  return out;
}

const asCases = (fs: readonly { form: Form; inputs: bigint[][] }[]): FormCase[] => fs.map((f) => ({ form: f.form, inputs: f.inputs }));

export const NATIVE_BATCHES: readonly NativeBatch[] = [
  { name: 'float-extra', keep: 65536, cases: () => asCases(exactForms()) },
  { name: 'float-extra-approx', keep: 65536, cases: () => asCases(halfApproxForms()) },
];
