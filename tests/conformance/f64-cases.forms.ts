/**
 * The `.f64` conformance forms, grouped into batches (one kernel, one dispatch each), with
 * their JS references (ref/f64.ts). Used by f64-*.gpu.test.ts and, through NATIVE_BATCHES, by
 * scripts/gen-conformance.mjs for the native recording.
 */
import { form, rng, type Form, type FormCase, type NativeBatch } from './harness.js';
import * as R from './ref/f64.js';

export interface F64Form {
  readonly form: Form;
  readonly inputs: () => bigint[][];
  readonly ref: (x: readonly bigint[]) => bigint[];
  /** Approximate instructions: the largest accepted distance in units of 2^-bits relative error. */
  readonly approxBits?: number;
}

export interface F64Batch {
  readonly name: string;
  readonly keep: number;
  readonly forms: readonly F64Form[];
}

const SIGN = 1n << 63n;
const bits = (x: number): bigint => R.fromNumber(x);

/** Zeros, subnormals, normal extremes, infinities, NaNs with payloads, integers and ties. */
export const F64_EDGES: readonly bigint[] = (() => {
  const pos = [
    0n, 1n, 2n, 3n, 0x000fffffffffffffn, 0x0008000000000000n, 0x0010000000000000n, 0x0010000000000001n,
    0x0018000000000000n, 0x001fffffffffffffn, 0x3ff0000000000000n, 0x3ff0000000000001n, 0x3fefffffffffffffn,
    bits(2), bits(0.5), bits(1.5), bits(2.5), bits(3), bits(1 / 3), bits(0.1), bits(2 ** 52 + 1), bits(2 ** 53),
    bits(2 ** 31), bits(2 ** 31 - 0.5), bits(2 ** 32), bits(2 ** 32 - 1), bits(2 ** 63), bits(2 ** 64), bits(2 ** 64 - 2048),
    bits(1e300), bits(1e-300), 0x7fe0000000000000n, 0x7fefffffffffffffn, 0x7ff0000000000000n,
    0x7ff8000000000000n, 0x7ff0000000000001n, 0x7ff4000000abcdefn,
  ];
  return [...pos, ...pos.map((x) => x ^ SIGN)];
})();

/** Random doubles of several shapes: any bits, exponents near 1 / the subnormal edge / overflow, short significands. */
export function f64Randoms(n: number, seed: number): bigint[] {
  const r = rng(seed);
  const out: bigint[] = [];
  for (let i = 0; i < n; i++) {
    const v = r();
    const frac = r() & ((1n << 52n) - 1n);
    const s = (v >> 63n) << 63n;
    const pick = Number(v & 7n);
    const e = Number((v >> 8n) & 0xffffn);
    switch (pick) {
      case 0: case 1: out.push(r()); break;
      case 2: case 3: out.push(s | (BigInt(1023 - 60 + (e % 120)) << 52n) | frac); break;
      case 4: out.push(s | (BigInt(e % 64) << 52n) | frac); break;
      case 5: out.push(s | (BigInt(2046 - (e % 64)) << 52n) | frac); break;
      default: out.push(s | (BigInt(1023 - 30 + (e % 60)) << 52n) | (frac & (((1n << 52n) - 1n) ^ ((1n << BigInt(40 + (e % 12))) - 1n)))); break;
    }
  }
  return out;
}

/** A second operand near the first (same binade, a few ulps or a few binades away), for cancellation. */
function near(a: bigint, v: bigint): bigint {
  const k = Number(v & 3n);
  if (k === 0) return BigInt.asUintN(64, a + ((v >> 8n) & 7n) - 3n);
  if (k === 1) return BigInt.asUintN(64, (a ^ SIGN) + ((v >> 8n) & 15n) - 7n);
  if (k === 2) return BigInt.asUintN(64, (a & ~(0x7ffn << 52n)) | ((((a >> 52n) & 0x7ffn) + ((v >> 8n) & 127n) - 64n) & 0x7ffn) << 52n);
  return v;
}

/**
 * Cases in a shuffled order with seeded random ones interleaved, so that the first few thousand
 * (what the native recording keeps) sample every kind.
 */
function interleave<T>(edgeCases: T[], randomCases: T[], seed: number): T[] {
  const r = rng(seed + 1234);
  for (let i = edgeCases.length - 1; i > 0; i--) {
    const j = Number(r() % BigInt(i + 1));
    [edgeCases[i], edgeCases[j]] = [edgeCases[j] as T, edgeCases[i] as T];
  }
  const out: T[] = [];
  for (let i = 0; i < Math.max(edgeCases.length, randomCases.length); i++) {
    if (i < edgeCases.length) out.push(edgeCases[i] as T);
    if (i < randomCases.length) out.push(randomCases[i] as T);
  }
  return out;
}

const columns = <T extends bigint[]>(rows: T[], k: number): bigint[][] => Array.from({ length: k }, (_, j) => rows.map((row) => row[j] as bigint));

/** Every pair of F64_EDGES, and `n` random pairs whose second operand is often near the first. */
export function f64Pairs(n: number, seed: number): [bigint[], bigint[]] {
  const edgeCases: [bigint, bigint][] = [];
  for (const a of F64_EDGES) for (const b of F64_EDGES) edgeCases.push([a, b]);
  const r = rng(seed + 17);
  const randomCases = f64Randoms(n, seed).map((a): [bigint, bigint] => [a, near(a, f64Randoms(1, Number(r() & 0xffffffn))[0] as bigint)]);
  return columns(interleave(edgeCases, randomCases, seed), 2) as [bigint[], bigint[]];
}

/** 2500 triples of F64_EDGES and `n` random ones, a quarter of which nearly cancel the product. */
export function f64Triples(n: number, seed: number): [bigint[], bigint[], bigint[]] {
  const e = F64_EDGES;
  const r = rng(seed + 5);
  const pick = (): bigint => e[Number(r() % BigInt(e.length))] as bigint;
  const edgeCases = Array.from({ length: 2500 }, (): [bigint, bigint, bigint] => [pick(), pick(), pick()]);
  const as = f64Randoms(n, seed); const bs = f64Randoms(n, seed + 1); const cs = f64Randoms(n, seed + 2);
  const randomCases = as.map((a, i): [bigint, bigint, bigint] => {
    const b = bs[i] as bigint;
    const v = r();
    const c = (v & 3n) === 0n ? near(R.fromNumber(-(R.toNumber(a) * R.toNumber(b))), v >> 2n) : cs[i] as bigint;
    return [a, b, c];
  });
  return columns(interleave(edgeCases, randomCases, seed), 3) as [bigint[], bigint[], bigint[]];
}

export function f64Singles(n: number, seed: number): bigint[] {
  return [...F64_EDGES, ...f64Randoms(n, seed)];
}

const F32_EDGES = [0x7fc00000n, 0x7f800001n, 0xffc01234n, 0x7fbfffffn, 1n, 0x807fffffn, 0x00400000n, 0x00800000n, 0x80000000n];

/**
 * The ftz approximations read only the upper word (a NaN there gives 0x7fffffff00000000) and
 * flush subnormal inputs and results to sign-preserving zero.
 */
const ftz = (f: (a: bigint) => bigint) => (a: bigint): bigint => {
  const flush = (x: bigint): bigint => (((x >> 52n) & 0x7ffn) === 0n ? x & SIGN : x);
  const hi = a & ~0xffffffffn;
  return R.isNaN64(hi) ? 0x7fffffff00000000n : flush(f(flush(hi)));
};

const TESTP = ['finite', 'infinite', 'number', 'notanumber', 'normal', 'subnormal'] as const;
const MODES: readonly R.Mode[] = ['rn', 'rz', 'rm', 'rp'];
const INT_MODES: readonly R.IntMode[] = ['rni', 'rzi', 'rmi', 'rpi'];

const bin = (inst: string, ref: (a: bigint, b: bigint) => bigint, seed: number): F64Form => ({
  form: form(`${inst} %d0, %a0, %a1;`, ['f64', 'f64'], ['f64']),
  inputs: () => f64Pairs(3000, seed),
  ref: ([a, b]) => [ref(a as bigint, b as bigint)],
});

function un(inst: string, outT: string, ref: (a: bigint) => bigint, seed: number, inT = 'f64', approxBits?: number): F64Form {
  const gen = inT === 'f64' ? () => [f64Singles(3000, seed)]
    : inT === 'f32' ? () => [[...F32_EDGES, ...F64_EDGES.map((x) => (R.isNaN64(x) ? 0x7fffffffn : R.toF32(x, 'rz', false, false))), ...f64Randoms(2000, seed).map((x) => x & 0xffffffffn)]]
    : () => [[0n, 1n, 2n, 0x7fffffffn, 0x80000000n, 0xffffffffn, (1n << 53n) + 1n, (1n << 63n) - 1n, 1n << 63n, (1n << 64n) - 1n, ...f64Randoms(2000, seed)]];
  return { form: form(`${inst} %d0, %a0;`, [inT], [outT]), inputs: gen, ref: ([a]) => [ref(a as bigint)], ...(approxBits ? { approxBits } : {}) };
}

export const F64_BATCHES: readonly F64Batch[] = [
  {
    name: 'f64-arith', keep: 3000,
    forms: [
      ...MODES.map((m, k) => bin(`add.${m}.f64`, (a, b) => R.add(a, b, m), 10 + k)),
      ...MODES.map((m, k) => bin(`sub.${m}.f64`, (a, b) => R.sub(a, b, m), 20 + k)),
      ...MODES.map((m, k) => bin(`mul.${m}.f64`, (a, b) => R.mul(a, b, m), 30 + k)),
      bin('add.f64', (a, b) => R.add(a, b, 'rn'), 35),
      bin('mul.f64', (a, b) => R.mul(a, b, 'rn'), 36),
      {
        form: form('mad.rn.f64 %d0, %a0, %a1, %a2;', ['f64', 'f64', 'f64'], ['f64']),
        inputs: () => f64Triples(500, 37),
        ref: ([a, b, c]) => [R.fma(a as bigint, b as bigint, c as bigint, 'rn')],
      },
      ...MODES.map((m, k): F64Form => ({
        form: form(`fma.${m}.f64 %d0, %a0, %a1, %a2;`, ['f64', 'f64', 'f64'], ['f64']),
        inputs: () => f64Triples(3000, 40 + k),
        ref: ([a, b, c]) => [R.fma(a as bigint, b as bigint, c as bigint, m)],
      })),
    ],
  },
  {
    name: 'f64-divsqrt', keep: 3000,
    forms: [
      ...MODES.map((m, k) => bin(`div.${m}.f64`, (a, b) => R.div(a, b, m), 50 + k)),
      ...MODES.map((m, k) => un(`sqrt.${m}.f64`, 'f64', (a) => R.sqrt(a, m), 60 + k)),
      ...MODES.map((m, k) => un(`rcp.${m}.f64`, 'f64', (a) => R.div(0x3ff0000000000000n, a, m), 70 + k)),
    ],
  },
  {
    name: 'f64-misc', keep: 3000,
    forms: [
      bin('min.f64', (a, b) => R.minmax(a, b, false), 80),
      bin('max.f64', (a, b) => R.minmax(a, b, true), 81),
      un('neg.f64', 'f64', R.neg, 82),
      un('abs.f64', 'f64', R.abs, 83),
      {
        form: form(R.COMPARES.map((c, k) => `setp.${c}.f64 %d${k}, %a0, %a1;`).join(' '), ['f64', 'f64'], R.COMPARES.map(() => 'pred')),
        inputs: () => f64Pairs(2000, 84),
        ref: ([a, b]) => R.COMPARES.map((c) => (R.setp(c, a as bigint, b as bigint) ? 1n : 0n)),
      },
      {
        form: form('mov.b64 {%t0, %t1}, %a0; setp.lt.u32 %q0, %t0, %t1; selp.f64 %d0, %a0, %a1, %q0; mov.f64 %d1, %a1; mov.b64 %d2, {%t1, %t0};', ['f64', 'f64'], ['f64', 'f64', 'f64']),
        inputs: () => f64Pairs(100, 85),
        ref: ([a, b]) => [((a as bigint) & 0xffffffffn) < ((a as bigint) >> 32n) ? a as bigint : b as bigint, b as bigint, (((a as bigint) & 0xffffffffn) << 32n) | ((a as bigint) >> 32n)],
      },
      {
        form: form(TESTP.map((m, k) => `testp.${m}.f64 %d${k}, %a0;`).join(' '), ['f64'], TESTP.map(() => 'pred')),
        inputs: () => [f64Singles(1000, 89)],
        ref: ([a]) => TESTP.map((m) => (R.testp(m, a as bigint) ? 1n : 0n)),
      },
      bin('copysign.f64', R.copysign, 90),
      {
        form: form('add.rn.f64 %d0, %a0, 0d3FF8000000000000; mul.rz.f64 %d1, %a0, 0dFFF0000000000000; mov.f64 %d2, 0d000FFFFFFFFFFFFF;', ['f64'], ['f64', 'f64', 'f64']),
        inputs: () => [f64Singles(300, 92)],
        ref: ([a]) => [R.add(a as bigint, 0x3ff8000000000000n, 'rn'), R.mul(a as bigint, 0xfff0000000000000n, 'rz'), 0x000fffffffffffffn],
      },
      {
        form: form('set.ltu.u32.f64 %d0, %a0, %a1; set.ge.f32.f64 %d1, %a0, %a1; setp.eq.f64 %q1, %a0, %a0; set.eq.and.u32.f64 %d2, %a0, %a1, %q1;', ['f64', 'f64'], ['b32', 'f32', 'b32']),
        inputs: () => f64Pairs(500, 91),
        ref: ([a, b]) => [R.setp('ltu', a as bigint, b as bigint) ? 0xffffffffn : 0n, R.setp('ge', a as bigint, b as bigint) ? 0x3f800000n : 0n, R.setp('eq', a as bigint, b as bigint) ? 0xffffffffn : 0n],
      },
      un('rcp.approx.ftz.f64', 'f64', ftz((a) => R.div(0x3ff0000000000000n, a, 'rn')), 86, 'f64', 19),
      un('rsqrt.approx.f64', 'f64', (a) => R.div(0x3ff0000000000000n, R.sqrt(a, 'rn'), 'rn'), 87, 'f64', 40),
      un('rsqrt.approx.ftz.f64', 'f64', ftz((a) => R.div(0x3ff0000000000000n, R.sqrt(a, 'rn'), 'rn')), 88, 'f64', 19),
    ],
  },
  {
    name: 'f64-cvt', keep: 2100,
    forms: [
      ...MODES.map((m, k) => un(`cvt.${m}.f32.f64`, 'f32', (a) => R.toF32(a, m, false, false), 90 + k)),
      un('cvt.rn.ftz.f32.f64', 'f32', (a) => R.toF32(a, 'rn', true, false), 94),
      un('cvt.rn.sat.f32.f64', 'f32', (a) => R.toF32(a, 'rn', false, true), 95),
      un('cvt.f64.f32', 'f64', (a) => R.fromF32(a, false), 96, 'f32'),
      un('cvt.ftz.f64.f32', 'f64', (a) => R.fromF32(a, true), 97, 'f32'),
      un('cvt.rn.f64.s32', 'f64', (a) => R.fromInt(a, true, 32, 'rn'), 98, 'b32'),
      un('cvt.rn.f64.u32', 'f64', (a) => R.fromInt(a, false, 32, 'rn'), 99, 'b32'),
      ...MODES.map((m, k) => un(`cvt.${m}.f64.s64`, 'f64', (a) => R.fromInt(a, true, 64, m), 100 + k, 'b64')),
      ...MODES.map((m, k) => un(`cvt.${m}.f64.u64`, 'f64', (a) => R.fromInt(a, false, 64, m), 104 + k, 'b64')),
      ...INT_MODES.flatMap((m, k) => [
        un(`cvt.${m}.s32.f64`, 'b32', (a) => R.toInt(a, m, true, 32), 110 + k),
        un(`cvt.${m}.u32.f64`, 'b32', (a) => R.toInt(a, m, false, 32), 114 + k),
        un(`cvt.${m}.s64.f64`, 'b64', (a) => R.toInt(a, m, true, 64), 118 + k),
        un(`cvt.${m}.u64.f64`, 'b64', (a) => R.toInt(a, m, false, 64), 122 + k),
        un(`cvt.${m}.f64.f64`, 'f64', (a) => R.rint(a, m), 126 + k),
      ]),
      un('cvt.rn.f64.s16', 'f64', (a) => R.fromInt(a, true, 16, 'rn'), 132, 'b16'),
      un('cvt.rn.f64.u16', 'f64', (a) => R.fromInt(a, false, 16, 'rn'), 133, 'b16'),
      un('cvt.rzi.s16.f64', 'b16', (a) => R.toInt(a, 'rzi', true, 16), 130),
      un('cvt.rzi.u16.f64', 'b16', (a) => R.toInt(a, 'rzi', false, 16), 131),
    ],
  },
];

const f32Testp = (mode: string, x: bigint): boolean => {
  const e = (x >> 23n) & 0xffn; const f = x & 0x7fffffn;
  switch (mode) {
    case 'finite': return e !== 0xffn;
    case 'infinite': return e === 0xffn && f === 0n;
    case 'number': return !(e === 0xffn && f !== 0n);
    case 'notanumber': return e === 0xffn && f !== 0n;
    case 'normal': return e !== 0xffn && !(e === 0n && f !== 0n);
    default: return e === 0n && f !== 0n;
  }
};

/**
 * .sat conversions to f64, and the f32 forms of testp/copysign, which share the builder's
 * bit-level lowering (recorded on the H100 like the batches above).
 */
export const F64_EXTRA_BATCHES: readonly F64Batch[] = [
  {
    name: 'f64-extra', keep: 3000,
    forms: [
      un('cvt.sat.f64.f64', 'f64', R.sat, 140),
      un('cvt.rn.sat.f64.s32', 'f64', (a) => R.sat(R.fromInt(a, true, 32, 'rn')), 141, 'b32'),
      un('cvt.rni.sat.f64.f64', 'f64', (a) => R.sat(R.rint(a, 'rni')), 142),
      {
        form: form(TESTP.map((m, k) => `testp.${m}.f32 %d${k}, %a0;`).join(' '), ['f32'], TESTP.map(() => 'pred')),
        inputs: () => [[...F32_EDGES, 0n, 0x80000000n, 0x7f800000n, 0xff800000n, 0x7f7fffffn, ...f64Randoms(1000, 143).map((x) => x & 0xffffffffn)]],
        ref: ([a]) => TESTP.map((m) => (f32Testp(m, a as bigint) ? 1n : 0n)),
      },
      {
        form: form('copysign.f32 %d0, %a0, %a1;', ['f32', 'f32'], ['f32']),
        inputs: () => f64Pairs(300, 144).map((col) => col.map((x) => x & 0xffffffffn)),
        ref: ([a, b]) => [((b as bigint) & 0x7fffffffn) | ((a as bigint) & 0x80000000n)],
      },
    ],
  },
];

export const caseList = (b: F64Batch): FormCase[] => b.forms.map((f) => ({ form: f.form, inputs: f.inputs() }));

export const NATIVE_BATCHES: NativeBatch[] = [...F64_BATCHES, ...F64_EXTRA_BATCHES].map((b) => ({ name: b.name, keep: b.keep, cases: () => caseList(b) }));
