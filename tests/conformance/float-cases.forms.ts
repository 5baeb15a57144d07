/**
 * The f32/f16/bf16 arithmetic, comparison and conversion conformance forms, grouped into batches
 * (one kernel, one dispatch each), with their references (ref/float.ts). Used by
 * float-*.gpu.test.ts and, through NATIVE_BATCHES, by scripts/gen-conformance.mjs.
 */
import { form, rng, type Form, type FormCase, type NativeBatch } from './harness.js';
import * as R from './ref/float.js';
import { BF16, F16, F32, type Format, type IntMode, type Mode } from './ref/float.js';

export interface FloatForm {
  readonly form: Form;
  readonly inputs: () => bigint[][];
  readonly ref: (x: readonly bigint[]) => bigint[];
}

export interface FloatBatch { readonly name: string; readonly keep: number; readonly forms: readonly FloatForm[] }

const MODES: readonly Mode[] = ['rn', 'rz', 'rm', 'rp'];
const IMODES: readonly IntMode[] = ['rni', 'rzi', 'rmi', 'rpi'];

/** Edge values of a format: zeros, ones, extremes, subnormals, infinities, NaNs, powers of two, neighbours. */
export function floatEdges(f: Format): bigint[] {
  const w = 1 + f.ebits + f.frac;
  const sign = 1n << BigInt(w - 1);
  const one = BigInt((1 << (f.ebits - 1)) - 1) << BigInt(f.frac);
  const inf = ((1n << BigInt(f.ebits)) - 1n) << BigInt(f.frac);
  const minN = 1n << BigInt(f.frac);
  const vals = [0n, 1n, 2n, 3n, minN - 1n, minN >> 1n, minN, minN + 1n, one, one + 1n, one - 1n, one + (one >> 1n) /* 2^k-ish */,
    inf - 1n, inf - 2n, inf, inf + 1n, inf | (minN >> 1n), inf | (minN - 1n), one + minN, one - minN, (one >> 1n) + minN * 3n];
  for (let e = 1n; e < (1n << BigInt(f.ebits)) - 1n; e += BigInt(Math.max(1, (1 << f.ebits) >> 4))) vals.push(e << BigInt(f.frac));
  return [...new Set([...vals, ...vals.map((v) => v | sign)])];
}

/** Random bit patterns: uniform, biased toward moderate exponents, and near-cancelling pairs. */
function randomFloats(f: Format, n: number, seed: number): bigint[] {
  const r = rng(seed);
  const w = 1 + f.ebits + f.frac;
  const out: bigint[] = [];
  const bias = (1 << (f.ebits - 1)) - 1;
  for (let i = 0; i < n; i++) {
    const v = r();
    const k = Number(v & 3n);
    if (k === 0) out.push(BigInt.asUintN(w, v >> 8n));
    else {
      // exponent within +-12 of 1.0, or tiny (subnormal range) for k == 3
      const e = k === 3 ? Number((v >> 8n) % 4n) : bias - 12 + Number((v >> 8n) % 25n);
      const frac = (v >> 16n) & ((1n << BigInt(f.frac)) - 1n);
      out.push(((v >> 63n) << BigInt(w - 1)) | (BigInt(e) << BigInt(f.frac)) | frac);
    }
  }
  return out;
}

/** Edge cross product, then random pairs, then pairs whose second operand is near the first (cancellation, ties). */
export function floatPairs(f: Format, n: number, seed: number): [bigint[], bigint[]] {
  const e = floatEdges(f);
  const ea: bigint[] = [];
  const eb: bigint[] = [];
  for (const a of e) for (const b of e) { ea.push(a); eb.push(b); }
  const ra = randomFloats(f, n, seed);
  const rb = randomFloats(f, n, seed + 1);
  const r = rng(seed + 2);
  const w = 1 + f.ebits + f.frac;
  const as: bigint[] = [];
  const bs: bigint[] = [];
  ra.forEach((a, i) => {
    as.push(a);
    const k = Number(r() & 3n);
    // neighbours of a, -a, a scaled by 2^(+-frac) (alignment/rounding boundaries), or unrelated
    const near = BigInt.asUintN(w, a + (r() & 7n) - 3n);
    const shifted = BigInt.asUintN(w, a + (BigInt(f.frac + 1 + Number(r() % 3n)) << BigInt(f.frac)) * (r() & 1n ? 1n : -1n));
    bs.push(k === 0 ? near : k === 1 ? near ^ (1n << BigInt(w - 1)) : k === 2 ? shifted : (rb[i] as bigint));
  });
  return interleave([ea, eb], [as, bs]);
}

/** Two case lists merged alternately (so a recording of the first cases has edges and randoms). */
function interleave<L extends bigint[][]>(x: L, y: L): L {
  const out = x.map(() => [] as bigint[]) as L;
  const n = Math.max(x[0]?.length ?? 0, y[0]?.length ?? 0);
  for (let i = 0; i < n; i++) {
    for (const src of [x, y]) if (i < (src[0]?.length ?? 0)) src.forEach((col, k) => out[k]?.push(col[i] as bigint));
  }
  return out;
}

function floatTriples(f: Format, n: number, seed: number): [bigint[], bigint[], bigint[]] {
  const e = floatEdges(f).filter((_, i) => i % 2 === 0);
  const edge: [bigint[], bigint[], bigint[]] = [[], [], []];
  for (const a of e) for (const b of e) for (const c of e.slice(0, 12)) { edge[0].push(a); edge[1].push(b); edge[2].push(c); }
  const [as, bs] = floatPairs(f, n, seed);
  const cs = randomFloats(f, as.length, seed + 3);
  // c near -(a*b) half the time: cancellation
  const c2 = cs.map((c, i) => (i % 2 ? c : R.mul(f, as[i] as bigint, bs[i] as bigint, 'rn') ^ (1n << BigInt(f.ebits + f.frac)) ^ (c & 3n)));
  return interleave(edge, [as, bs, c2]);
}

const reg = (f: Format): string => (f === F32 ? 'f32' : 'b16');
const tname = (f: Format): string => (f === F32 ? 'f32' : f === F16 ? 'f16' : 'bf16');

function bin(inst: string, f: Format, ref: (a: bigint, b: bigint) => bigint, n = 3000, seed = inst.length): FloatForm {
  return { form: form(`${inst} %d0, %a0, %a1;`, [reg(f), reg(f)], [reg(f)]), inputs: () => floatPairs(f, n, seed), ref: ([a, b]) => [ref(a as bigint, b as bigint)] };
}

function un(inst: string, f: Format, ref: (a: bigint) => bigint, outReg = reg(f), n = 4000): FloatForm {
  return { form: form(`${inst} %d0, %a0;`, [reg(f)], [outReg]), inputs: () => [[...floatEdges(f), ...randomFloats(f, n, inst.length * 7)]], ref: ([a]) => [ref(a as bigint)] };
}

/** add/sub/mul/div in each rounding mode, .ftz and .sat, min/max, fma. */
function f32Arith(): FloatForm[] {
  const out: FloatForm[] = [];
  const ops = { add: R.add, sub: R.sub, mul: R.mul, div: R.div } as const;
  for (const [op, fn] of Object.entries(ops)) {
    for (const m of MODES) out.push(bin(`${op}.${m}.f32`, F32, (a, b) => fn(F32, a, b, m)));
    out.push(bin(`${op}.rz.ftz.f32`, F32, (a, b) => R.ftz(F32, fn(F32, R.ftz(F32, a), R.ftz(F32, b), 'rz'))));
    const flushOut = (a: bigint, b: bigint, m: Mode): bigint => (op === 'mul' ? R.ftzTiny(F32, fn(F32, a, b, m), fn(F32, a, b, 'rz')) : R.ftz(F32, fn(F32, a, b, m)));
    if (op !== 'div') out.push(bin(`${op}.rn.ftz.sat.f32`, F32, (a, b) => R.sat(F32, flushOut(R.ftz(F32, a), R.ftz(F32, b), 'rn'))));
  }
  out.push(bin('add.f32', F32, (a, b) => R.add(F32, a, b, 'rn')));
  out.push(bin('mul.sat.f32', F32, (a, b) => R.sat(F32, R.mul(F32, a, b, 'rn'))));
  for (const m of ['rz', 'rp'] as const) { // fma.rn is covered with the lead's fma32 tests
    out.push({ form: form(`fma.${m}.f32 %d0, %a0, %a1, %a2;`, ['f32', 'f32', 'f32'], ['f32']), inputs: () => floatTriples(F32, 2000, 11), ref: ([a, b, c]) => [R.fma(F32, a as bigint, b as bigint, c as bigint, m)] });
  }
  // separate mul and add must not be contracted into an fma
  out.push({ form: form('mul.rn.f32 %t0, %a0, %a1; add.rn.f32 %d0, %t0, %a2;', ['f32', 'f32', 'f32'], ['f32']), inputs: () => floatTriples(F32, 1000, 12), ref: ([a, b, c]) => [R.add(F32, R.mul(F32, a as bigint, b as bigint, 'rn'), c as bigint, 'rn')] });
  for (const op of ['min', 'max'] as const) {
    const isMax = op === 'max';
    out.push(bin(`${op}.f32`, F32, (a, b) => R.minmax(F32, a, b, isMax)));
    out.push(bin(`${op}.ftz.f32`, F32, (a, b) => R.minmax(F32, R.ftz(F32, a), R.ftz(F32, b), isMax)));
    out.push(bin(`${op}.NaN.f32`, F32, (a, b) => R.minmax(F32, a, b, isMax, true)));
  }
  return out;
}

function f32Unary(): FloatForm[] {
  const out: FloatForm[] = [];
  for (const m of MODES) {
    out.push(un(`sqrt.${m}.f32`, F32, (a) => R.sqrt(F32, a, m)));
    out.push(un(`rcp.${m}.f32`, F32, (a) => R.div(F32, 0x3f800000n, a, m)));
  }
  out.push(un('sqrt.rn.ftz.f32', F32, (a) => R.ftz(F32, R.sqrt(F32, R.ftz(F32, a), 'rn'))));
  out.push(un('rcp.rn.ftz.f32', F32, (a) => R.ftz(F32, R.div(F32, 0x3f800000n, R.ftz(F32, a), 'rn'))));
  out.push(un('abs.f32', F32, (a) => R.abs(F32, a)));
  out.push(un('neg.f32', F32, (a) => R.neg(F32, a)));
  out.push(un('abs.ftz.f32', F32, (a) => R.abs(F32, R.ftz(F32, a))));
  out.push(un('neg.ftz.f32', F32, (a) => R.neg(F32, R.ftz(F32, a))));
  for (const mode of ['finite', 'infinite', 'number', 'notanumber', 'normal', 'subnormal'] as const) {
    out.push(un(`testp.${mode}.f32`, F32, (a) => [testp(F32, mode, a) ? 1n : 0n][0] as bigint, 'pred'));
  }
  out.push(bin('copysign.f32', F32, (a, b) => (a & 0x80000000n) | (b & 0x7fffffffn)));
  return out;
}

function testp(f: Format, mode: string, v: bigint): boolean {
  const d = R.decode(f, v);
  switch (mode) {
    case 'finite': return d.kind === 'fin';
    case 'infinite': return d.kind === 'inf';
    case 'number': return d.kind !== 'nan';
    case 'notanumber': return d.kind === 'nan';
    case 'normal': return d.kind === 'fin' && !R.isSub(f, v); // zeros too (ISA special case; H100 agrees)
    default: return R.isSub(f, v);
  }
}

const CMPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu', 'num', 'nan'] as const;

function compares(f: Format): FloatForm[] {
  const out: FloatForm[] = [];
  const t = tname(f);
  for (const c of CMPS) {
    out.push({ form: form(`setp.${c}.${t} %d0, %a0, %a1;`, [reg(f), reg(f)], ['pred']), inputs: () => floatPairs(f, 500, c.length), ref: ([a, b]) => [R.setp(f, c, a as bigint, b as bigint) ? 1n : 0n] });
  }
  if (f === F32) {
    out.push({ form: form('setp.lt.ftz.f32 %d0, %a0, %a1;', ['f32', 'f32'], ['pred']), inputs: () => floatPairs(f, 500, 3), ref: ([a, b]) => [R.setp(f, 'lt', R.ftz(f, a as bigint), R.ftz(f, b as bigint)) ? 1n : 0n] });
    for (const op of ['and', 'or', 'xor'] as const) {
      const comb = (x: boolean, y: boolean): boolean => (op === 'and' ? x && y : op === 'or' ? x || y : x !== y);
      out.push({
        form: form(`setp.gtu.${op}.f32 %d0|%d1, %a0, %a1, %a2;`, ['f32', 'f32', 'pred'], ['pred', 'pred']),
        inputs: () => { const [a, b] = floatPairs(f, 300, 5); return [a, b, a.map((_, i) => BigInt(i & 1))]; },
        ref: ([a, b, c]) => { const p = R.setp(f, 'gtu', a as bigint, b as bigint); return [comb(p, c === 1n) ? 1n : 0n, comb(!p, c === 1n) ? 1n : 0n]; },
      });
    }
    out.push({ form: form('set.le.u32.f32 %d0, %a0, %a1;', ['f32', 'f32'], ['b32']), inputs: () => floatPairs(f, 300, 6), ref: ([a, b]) => [R.setp(f, 'le', a as bigint, b as bigint) ? 0xffffffffn : 0n] });
    out.push({ form: form('set.nan.f32.f32 %d0, %a0, %a1;', ['f32', 'f32'], ['f32']), inputs: () => floatPairs(f, 300, 7), ref: ([a, b]) => [R.setp(f, 'nan', a as bigint, b as bigint) ? 0x3f800000n : 0n] });
    out.push({ form: form('slct.f32.f32 %d0, %a0, %a1, %a2;', ['f32', 'f32', 'f32'], ['f32']), inputs: () => floatTriples(F32, 300, 8), ref: ([a, b, c]) => [R.setp(F32, 'ge', c as bigint, 0n) ? (a as bigint) : (b as bigint)] });
    out.push({ form: form('slct.ftz.b32.f32 %d0, %a0, %a1, %a2;', ['b32', 'b32', 'f32'], ['b32']), inputs: () => floatTriples(F32, 300, 10), ref: ([a, b, c]) => [R.setp(F32, 'ge', R.ftz(F32, c as bigint), 0n) ? (a as bigint) : (b as bigint)] });
    out.push({ form: form('slct.s32.s32 %d0, %a0, %a1, %a2;', ['b32', 'b32', 'b32'], ['b32']), inputs: () => floatTriples(F32, 300, 9), ref: ([a, b, c]) => [BigInt.asIntN(32, c as bigint) >= 0n ? (a as bigint) : (b as bigint)] });
  }
  return out;
}

const INT_TYPES = [['s8', 8, true], ['u8', 8, false], ['s16', 16, true], ['u16', 16, false], ['s32', 32, true], ['u32', 32, false], ['s64', 64, true], ['u64', 64, false]] as const;
const intReg = (bits: number): string => (bits === 64 ? 'b64' : bits === 32 ? 'b32' : 'b16');
/** A narrow cvt result in its register: sign- or zero-extended to the register width. */
const extendTo = (v: bigint, bits: number, signed: boolean): bigint => (bits >= 16 ? v : BigInt.asUintN(16, signed ? BigInt.asIntN(bits, v) : v));

/** Integer inputs of a width: edges, values near float rounding boundaries, randoms. */
function intInputs(bits: number, n: number, seed: number): bigint[] {
  const r = rng(seed);
  const out: bigint[] = [];
  const m = (1n << BigInt(bits)) - 1n;
  for (let k = 0; k < bits; k++) { const p = 1n << BigInt(k); out.push(p, p - 1n, p + 1n, -p & m, (-p - 1n) & m); }
  for (let k = 24; k < bits; k++) for (let d = -3n; d <= 3n; d++) out.push(((1n << BigInt(k)) + (d << BigInt(k - 24))) & m);
  for (let i = 0; i < n; i++) { const v = r(); out.push(BigInt.asUintN(bits, v >> (v & 1n ? 0n : (v >> 58n)))); }
  return out.map((v) => v & m);
}

function conversions(): FloatForm[] {
  const out: FloatForm[] = [];
  const fin = [...floatEdges(F32), ...randomFloats(F32, 1500, 77)];
  // values around integers and halves, and beyond each integer range
  const r = rng(78);
  for (let i = 0; i < 800; i++) {
    const e = 126 + Number(r() % 66n);
    fin.push(((r() & 1n) << 31n) | (BigInt(e) << 23n) | (r() & 0x7fffffn));
  }
  for (const [t, bits, signed] of INT_TYPES) {
    for (const m of IMODES) {
      out.push({ form: form(`cvt.${m}.${t}.f32 %d0, %a0;`, ['f32'], [intReg(bits)]), inputs: () => [fin], ref: ([a]) => [extendTo(R.toInt(F32, a as bigint, m, bits, signed), bits, signed)] });
    }
    if (bits < 64) out.push({ form: form(`cvt.rzi.ftz.${t}.f32 %d0, %a0;`, ['f32'], [intReg(bits)]), inputs: () => [fin], ref: ([a]) => [extendTo(R.toInt(F32, R.ftz(F32, a as bigint), 'rzi', bits, signed), bits, signed)] });
    for (const m of MODES) {
      if (bits === 8) continue; // cvt.f32.{s8,u8} reads a 16-bit register; the 16-bit forms cover it
      const ins = intInputs(bits, 1000, bits * 13 + (signed ? 1 : 0));
      out.push({ form: form(`cvt.${m}.f32.${t} %d0, %a0;`, [intReg(bits)], ['f32']), inputs: () => [ins], ref: ([a]) => [R.fromInt(F32, signed ? BigInt.asIntN(bits, a as bigint) : (a as bigint), m)] });
    }
  }
  for (const m of IMODES) {
    out.push({ form: form(`cvt.${m}.f32.f32 %d0, %a0;`, ['f32'], ['f32']), inputs: () => [fin], ref: ([a]) => [R.roundIntegral(F32, a as bigint, m)] });
  }
  out.push({ form: form('cvt.rni.ftz.sat.f32.f32 %d0, %a0;', ['f32'], ['f32']), inputs: () => [fin], ref: ([a]) => [R.sat(F32, R.roundIntegral(F32, R.ftz(F32, a as bigint), 'rni'))] });
  out.push({ form: form('cvt.ftz.f32.f32 %d0, %a0;', ['f32'], ['f32']), inputs: () => [fin], ref: ([a]) => [R.isNan(F32, a as bigint) ? F32.nan : R.ftz(F32, a as bigint)] });
  for (const h of [F16, BF16]) {
    for (const m of MODES) {
      out.push({ form: form(`cvt.${m}.${tname(h)}.f32 %d0, %a0;`, ['f32'], ['b16'], h === BF16 ? { sm: 90, version: '7.8' } : {}), inputs: () => [fin], ref: ([a]) => [R.convert(F32, h, a as bigint, m)] });
    }
    const all = Array.from({ length: 65536 }, (_, i) => BigInt(i));
    out.push({ form: form(`cvt.f32.${tname(h)} %d0, %a0;`, ['b16'], ['f32'], h === BF16 ? { sm: 90, version: '7.8' } : {}), inputs: () => [all], ref: ([a]) => [R.convert(h, F32, a as bigint, 'rn')] });
  }
  for (const m of IMODES) {
    out.push({ form: form(`cvt.${m}.s32.f16 %d0, %a0;`, ['b16'], ['b32']), inputs: () => [Array.from({ length: 65536 }, (_, i) => BigInt(i)).filter((_, i) => i % 3 === 0)], ref: ([a]) => [R.toInt(F16, a as bigint, m, 32, true)] });
  }
  for (const m of MODES) {
    const ins = intInputs(32, 1000, 5);
    out.push({ form: form(`cvt.${m}.f16.s32 %d0, %a0;`, ['b32'], ['b16']), inputs: () => [ins], ref: ([a]) => [R.fromInt(F16, BigInt.asIntN(32, a as bigint), m)] });
  }
  return out;
}

function halfArith(): FloatForm[] {
  const out: FloatForm[] = [];
  for (const h of [F16, BF16]) {
    const t = tname(h);
    const target = h === BF16 ? { sm: 90, version: '7.8' } : {};
    const ops = { add: R.add, sub: R.sub, mul: R.mul } as const;
    for (const [op, fn] of Object.entries(ops)) {
      out.push({ ...bin(`${op}.rn.${t}`, h, (a, b) => fn(h, a, b, 'rn'), 3000), form: form(`${op}.rn.${t} %d0, %a0, %a1;`, ['b16', 'b16'], ['b16'], target) });
      const tiny = (x: bigint, y: bigint): bigint => (op === 'mul' ? R.ftzTiny(h, fn(h, x, y, 'rn'), fn(h, x, y, 'rz')) : R.ftz(h, fn(h, x, y, 'rn')));
      if (h === F16) out.push(bin(`${op}.rn.ftz.${t}`, h, (a, b) => tiny(R.ftz(h, a), R.ftz(h, b)), 1500));
    }
    out.push({ form: form(`fma.rn.${t} %d0, %a0, %a1, %a2;`, ['b16', 'b16', 'b16'], ['b16'], target), inputs: () => floatTriples(h, 2000, 21), ref: ([a, b, c]) => [R.fma(h, a as bigint, b as bigint, c as bigint, 'rn')] });
    out.push({ ...bin(`min.${t}`, h, (a, b) => R.minmax(h, a, b, false)), form: form(`min.${t} %d0, %a0, %a1;`, ['b16', 'b16'], ['b16'], target) });
    out.push({ ...bin(`max.${t}`, h, (a, b) => R.minmax(h, a, b, true)), form: form(`max.${t} %d0, %a0, %a1;`, ['b16', 'b16'], ['b16'], target) });
    out.push({ ...un(`neg.${t}`, h, (a) => R.neg(h, a)), form: form(`neg.${t} %d0, %a0;`, ['b16'], ['b16'], target) });
    out.push({ ...un(`abs.${t}`, h, (a) => R.abs(h, a)), form: form(`abs.${t} %d0, %a0;`, ['b16'], ['b16'], target) });
  }
  out.push(...compares(F16));
  return out;
}

const hi16 = (v: bigint): bigint => (v >> 16n) & 0xffffn;
const lo16 = (v: bigint): bigint => v & 0xffffn;
const pack = (hi: bigint, lo: bigint): bigint => (hi << 16n) | lo;
/** The largest finite value of a 16-bit format, with v's sign. */
const maxNorm = (h: Format, v: bigint): bigint => (v & 0x8000n) | (((1n << BigInt(h.ebits)) - 1n) << BigInt(h.frac)) - 1n;

/** cvt to a half format with .relu (negative to +0, NaN canonical) and .satfinite (inf to MAX_NORM). */
function toHalf(h: Format, a: bigint, m: Mode, relu: boolean, satfinite: boolean): bigint {
  let r = R.convert(F32, h, a, m);
  if (R.isNan(h, r)) return h.nan;
  if (satfinite && (r & 0x7fffn) === (((1n << BigInt(h.ebits)) - 1n) << BigInt(h.frac))) r = maxNorm(h, r);
  if (relu && r & 0x8000n) r = 0n;
  return r;
}

/** Packed conversions and packed/half arithmetic with .relu/.satfinite (cvt.pack family). */
function packed(): FloatForm[] {
  const out: FloatForm[] = [];
  const pairs32 = (): bigint[][] => floatPairs(F32, 1500, 41);
  for (const h of [F16, BF16]) {
    const t = tname(h);
    for (const [m, relu] of [['rn', false], ['rz', false], ['rn', true]] as const) {
      out.push({ form: form(`cvt.${m}${relu ? '.relu' : ''}.${t}x2.f32 %d0, %a0, %a1;`, ['f32', 'f32'], ['b32']), inputs: pairs32, ref: ([a, b]) => [pack(toHalf(h, a as bigint, m, relu, false), toHalf(h, b as bigint, m, relu, false))] });
    }
    out.push({ form: form(`cvt.rn.relu.${t}.f32 %d0, %a0;`, ['f32'], ['b16']), inputs: () => [pairs32()[0] as bigint[]], ref: ([a]) => [toHalf(h, a as bigint, 'rn', true, false)] });
    const half = (): bigint[][] => { const [a, b] = floatPairs(h, 1500, 43); const [c, d] = floatPairs(h, 1500, 44); return [a.map((x, i) => pack(x, c[i] as bigint)), b.map((x, i) => pack(x, d[i] as bigint))]; };
    const lanes = (f: (x: bigint, y: bigint) => bigint) => ([a, b]: readonly bigint[]): bigint[] => [pack(f(hi16(a as bigint), hi16(b as bigint)), f(lo16(a as bigint), lo16(b as bigint)))];
    const sm = h === BF16 ? { sm: 90, version: '7.8' } : {};
    out.push({ form: form(`add.rn.${t}x2 %d0, %a0, %a1;`, ['b32', 'b32'], ['b32'], sm), inputs: half, ref: lanes((x, y) => R.add(h, x, y, 'rn')) });
    out.push({ form: form(`mul.rn.${t}x2 %d0, %a0, %a1;`, ['b32', 'b32'], ['b32'], sm), inputs: half, ref: lanes((x, y) => R.mul(h, x, y, 'rn')) });
    out.push({ form: form(`min.${t}x2 %d0, %a0, %a1;`, ['b32', 'b32'], ['b32'], sm), inputs: half, ref: lanes((x, y) => R.minmax(h, x, y, false)) });
    out.push({ form: form(`max.NaN.${t}x2 %d0, %a0, %a1;`, ['b32', 'b32'], ['b32'], sm), inputs: half, ref: lanes((x, y) => R.minmax(h, x, y, true, true)) });
    out.push({ form: form(`neg.${t}x2 %d0, %a0;`, ['b32'], ['b32'], sm), inputs: () => [half()[0] as bigint[]], ref: ([a]) => [pack(R.neg(h, hi16(a as bigint)), R.neg(h, lo16(a as bigint)))] });
    out.push({ form: form(`fma.rn.relu.${t} %d0, %a0, %a1, %a2;`, ['b16', 'b16', 'b16'], ['b16']), inputs: () => floatTriples(h, 1500, 45), ref: ([a, b, c]) => { const r = R.fma(h, a as bigint, b as bigint, c as bigint, 'rn'); return [R.isNan(h, r) ? h.nan : r & 0x8000n ? 0n : r]; } });
  }
  out.push({ form: form('add.rn.sat.f16 %d0, %a0, %a1;', ['b16', 'b16'], ['b16']), inputs: () => floatPairs(F16, 1500, 46), ref: ([a, b]) => [R.sat(F16, R.add(F16, a as bigint, b as bigint, 'rn'))] });
  out.push({ form: form('min.NaN.f16 %d0, %a0, %a1;', ['b16', 'b16'], ['b16']), inputs: () => floatPairs(F16, 1500, 47), ref: ([a, b]) => [R.minmax(F16, a as bigint, b as bigint, false, true)] });
  return out;
}

function satfinite(): FloatForm[] {
  const out: FloatForm[] = [];
  const pairs32 = (): bigint[][] => floatPairs(F32, 1500, 51);
  for (const h of [F16, BF16]) {
    const t = tname(h);
    out.push({ form: form(`cvt.rn.satfinite.${t}x2.f32 %d0, %a0, %a1;`, ['f32', 'f32'], ['b32'], { version: '8.1' }), inputs: pairs32, ref: ([a, b]) => [pack(toHalf(h, a as bigint, 'rn', false, true), toHalf(h, b as bigint, 'rn', false, true))] });
    out.push({ form: form(`cvt.rz.satfinite.${t}.f32 %d0, %a0;`, ['f32'], ['b16'], { version: '8.1' }), inputs: () => [pairs32()[0] as bigint[]], ref: ([a]) => [toHalf(h, a as bigint, 'rz', false, true)] });
  }
  out.push({ form: form('max.xorsign.abs.f32 %d0, %a0, %a1;', ['f32', 'f32'], ['f32'], { sm: 86, version: '7.2' }), inputs: () => floatPairs(F32, 1500, 52), ref: ([a, b]) => {
    // a NaN operand yields the other magnitude, still with the xor of the signs (an H100 agrees)
    const r = R.minmax(F32, (a as bigint) & 0x7fffffffn, (b as bigint) & 0x7fffffffn, true);
    return [R.isNan(F32, r) ? r : r | (((a as bigint) ^ (b as bigint)) & 0x80000000n)];
  } });
  return out;
}


/** Integer-to-integer cvt (resize, sign/zero extension, .sat clamping); not recorded natively. */
function intConversions(): FloatForm[] {
  const forms: [string, number, boolean, number, boolean, boolean][] = [
    // dst type, dst bits, dst signed, src bits, src signed, sat
    ['s16', 16, true, 32, true, false], ['u32', 32, false, 16, false, false], ['s32', 32, true, 16, true, false],
    ['s64', 64, true, 32, true, false], ['u64', 64, false, 32, false, false], ['u32', 32, false, 64, true, false],
    ['s16', 16, true, 32, true, true], ['u16', 16, false, 32, true, true], ['u32', 32, false, 32, true, true],
    ['s32', 32, true, 32, false, true], ['s32', 32, true, 64, true, true], ['u32', 32, false, 64, true, true],
    ['u8', 8, false, 32, true, true], ['u16', 16, false, 64, false, true], ['s64', 64, true, 64, false, true],
  ];
  return forms.map(([dt, dbits, dsigned, sbits, ssigned, sat]) => {
    const st = `${ssigned ? 's' : 'u'}${sbits}`;
    const ins = intInputs(sbits, 1500, dbits * 7 + sbits);
    return {
      form: form(`cvt${sat ? '.sat' : ''}.${dt}.${st} %d0, %a0;`, [intReg(sbits)], [intReg(dbits)]),
      inputs: () => [ins],
      ref: ([a]) => {
        const v = ssigned ? BigInt.asIntN(sbits, a as bigint) : (a as bigint);
        const lo = dsigned ? -(1n << BigInt(dbits - 1)) : 0n;
        const hi = dsigned ? (1n << BigInt(dbits - 1)) - 1n : (1n << BigInt(dbits)) - 1n;
        const r = sat ? (v < lo ? lo : v > hi ? hi : v) : v;
        return [BigInt.asUintN(Math.max(dbits, 16), dbits < 16 ? BigInt.asUintN(dbits, r) : r)];
      },
    };
  });
}

export const FLOAT_BATCHES: readonly FloatBatch[] = [
  { name: 'float-f32-arith', keep: 2048, forms: f32Arith() },
  { name: 'float-f32-unary', keep: 2048, forms: [...f32Unary(), ...compares(F32)] },
  { name: 'float-cvt', keep: 2048, forms: conversions() },
  { name: 'float-half', keep: 2048, forms: halfArith() },
  { name: 'float-pack', keep: 2048, forms: packed() },
  { name: 'float-satfinite', keep: 2048, forms: satfinite() },
  { name: 'float-cvt-int', keep: 2048, forms: intConversions() },
];

const cache = new Map<FloatForm, bigint[][]>();
export function inputsOf(f: FloatForm): bigint[][] {
  let x = cache.get(f);
  if (!x) { x = f.inputs(); cache.set(f, x); }
  return x;
}

export const casesOf = (b: FloatBatch): FormCase[] => b.forms.map((f) => ({ form: f.form, inputs: inputsOf(f) }));

export const NATIVE_BATCHES: readonly NativeBatch[] = FLOAT_BATCHES.filter((b) => b.keep > 0).map((b) => ({ name: b.name, keep: b.keep, cases: () => casesOf(b) }));
