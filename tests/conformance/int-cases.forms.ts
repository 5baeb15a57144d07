/**
 * The integer and logic conformance forms, grouped into batches (one kernel, one dispatch each),
 * with their JS references (ref/int.ts). Used by int-*.gpu.test.ts and, through NATIVE_BATCHES,
 * by scripts/gen-conformance.mjs for the native recording.
 */
import { all16, exhaustive16x, fewEdges, form, pairs, randoms, rng, triples, edges, widthOf, type Form, type FormCase, type NativeBatch } from './harness.js';
import * as R from './ref/int.js';

export interface IntForm {
  readonly form: Form;
  readonly inputs: () => bigint[][];
  readonly ref: (x: readonly bigint[]) => bigint[];
}

export interface IntBatch {
  readonly name: string;
  readonly keep: number;
  readonly forms: readonly IntForm[];
}

const reg = (bits: number): string => `b${bits}`;
const SIGNS = [false, true] as const;
const ty = (signed: boolean, bits: number): string => `${signed ? 's' : 'u'}${bits}`;

/** A 2-input, 1-output form of one width. */
function bin(inst: string, bits: number, ref: (a: bigint, b: bigint) => bigint, gen: () => bigint[][] = () => pairs(bits, bits === 64 ? 3000 : 2000, bits + inst.length), bitsB = bits): IntForm {
  return { form: form(`${inst} %d0, %a0, %a1;`, [reg(bits), reg(bitsB)], [reg(bits)]), inputs: gen, ref: ([a, b]) => [ref(a as bigint, b as bigint)] };
}

function un(inst: string, bits: number, outBits: number, ref: (a: bigint) => bigint): IntForm {
  return {
    form: form(`${inst} %d0, %a0;`, [reg(bits)], [reg(outBits)]),
    inputs: () => [[...edges(bits), ...randoms(bits, 3000, bits * 3 + inst.length)]],
    ref: ([a]) => [ref(a as bigint)],
  };
}

function tri(inst: string, bits: readonly [number, number, number], outBits: number, ref: (a: bigint, b: bigint, c: bigint) => bigint, seed: number): IntForm {
  return {
    form: form(`${inst} %d0, %a0, %a1, %a2;`, bits.map(reg), [reg(outBits)]),
    inputs: () => triples(bits, 3000, seed),
    ref: ([a, b, c]) => [ref(a as bigint, b as bigint, c as bigint)],
  };
}

const sm90 = (f: IntForm): IntForm => ({ ...f, form: { ...f.form, sm: 90 } });

/** Operand b (and c) small bit positions/lengths 0..70 plus the odd large value. */
function positions(n: number, seed: number): bigint[] {
  return randoms(32, n, seed).map((v, i) => (i % 8 === 7 ? v : v % 71n));
}

// ------------------------------------------------------------------ 16 and 32 bits, binary

function arith(bits: 16 | 32 | 64): IntForm[] {
  const out: IntForm[] = [];
  const gen = bits === 16 ? () => exhaustive16x(4, 3) : undefined;
  for (const sg of SIGNS) {
    const t = ty(sg, bits);
    out.push(
      bin(`add.${t}`, bits, (a, b) => R.u(a + b, bits), gen),
      bin(`sub.${t}`, bits, (a, b) => R.u(a - b, bits), gen),
      bin(`mul.lo.${t}`, bits, (a, b) => R.mul('lo', a, b, bits, sg), gen),
      bin(`mul.hi.${t}`, bits, (a, b) => R.mul('hi', a, b, bits, sg), gen),
      bin(`div.${t}`, bits, (a, b) => R.div(a, b, bits, sg), gen),
      bin(`rem.${t}`, bits, (a, b) => R.rem(a, b, bits, sg), gen),
      bin(`min.${t}`, bits, (a, b) => R.minmax(false, a, b, bits, sg), gen),
      bin(`max.${t}`, bits, (a, b) => R.minmax(true, a, b, bits, sg), gen),
    );
    if (bits !== 64) {
      out.push({
        form: form(`mul.wide.${t} %d0, %a0, %a1;`, [reg(bits), reg(bits)], [reg(2 * bits)]),
        inputs: gen ?? (() => pairs(bits, 2000, 77)),
        ref: ([a, b]) => [R.mul('wide', a as bigint, b as bigint, bits, sg)],
      });
    }
    out.push(
      tri(`sad.${t}`, [bits, bits, bits], bits, (a, b, c) => R.sad(a, b, c, bits, sg), bits + 11),
      tri(`mad.lo.${t}`, [bits, bits, bits], bits, (a, b, c) => R.u(R.mul('lo', a, b, bits, sg) + c, bits), bits + 12),
      tri(`mad.hi.${t}`, [bits, bits, bits], bits, (a, b, c) => R.u(R.mul('hi', a, b, bits, sg) + c, bits), bits + 13),
    );
    if (bits !== 64) {
      out.push(tri(`mad.wide.${t}`, [bits, bits, 2 * bits], 2 * bits, (a, b, c) => R.u(R.mul('wide', a, b, bits, sg) + c, 2 * bits), bits + 14));
    }
  }
  for (const op of ['and', 'or', 'xor'] as const) {
    const f = { and: (a: bigint, b: bigint) => a & b, or: (a: bigint, b: bigint) => a | b, xor: (a: bigint, b: bigint) => a ^ b }[op];
    out.push(bin(`${op}.b${bits}`, bits, f, gen));
  }
  const shiftGen = (): bigint[][] => { const [a, b] = pairs(bits, 2000, 5, 32); return [a, b.map((x, i) => (i % 3 === 0 ? x : x % 80n))]; };
  out.push(
    bin(`shl.b${bits}`, bits, (a, b) => R.shl(a, b, bits), shiftGen, 32),
    bin(`shr.b${bits}`, bits, (a, b) => R.shr(a, b, bits, false), shiftGen, 32),
    bin(`shr.u${bits}`, bits, (a, b) => R.shr(a, b, bits, false), shiftGen, 32),
    bin(`shr.s${bits}`, bits, (a, b) => R.shr(a, b, bits, true), shiftGen, 32),
    un(`abs.s${bits}`, bits, bits, (a) => R.u(R.s(a, bits) < 0n ? -R.s(a, bits) : a, bits)),
    un(`neg.s${bits}`, bits, bits, (a) => R.u(-a, bits)),
    un(`not.b${bits}`, bits, bits, (a) => R.u(~a, bits)),
    un(`cnot.b${bits}`, bits, bits, (a) => (a === 0n ? 1n : 0n)),
  );
  if (bits !== 16) {
    out.push(
      un(`popc.b${bits}`, bits, 32, R.popc),
      un(`clz.b${bits}`, bits, 32, (a) => R.clz(a, bits)),
      un(`brev.b${bits}`, bits, bits, (a) => R.brev(a, bits)),
    );
    for (const sg of SIGNS) {
      out.push(un(`bfind.${ty(sg, bits)}`, bits, 32, (a) => R.bfind(a, bits, sg, false)));
      out.push(un(`bfind.shiftamt.${ty(sg, bits)}`, bits, 32, (a) => R.bfind(a, bits, sg, true)));
      out.push({
        form: form(`bfe.${ty(sg, bits)} %d0, %a0, %a1, %a2;`, [reg(bits), 'b32', 'b32'], [reg(bits)]),
        inputs: () => [randoms(bits, 6000, 40 + bits), positions(6000, 41), positions(6000, 42)],
        ref: ([a, b, c]) => [R.bfe(a as bigint, b as bigint, c as bigint, bits, sg)],
      });
    }
    out.push({
      form: form(`bfi.b${bits} %d0, %a0, %a1, %a2, %a3;`, [reg(bits), reg(bits), 'b32', 'b32'], [reg(bits)]),
      inputs: () => [randoms(bits, 6000, 50 + bits), randoms(bits, 6000, 51), positions(6000, 52), positions(6000, 53)],
      ref: ([a, b, c, d]) => [R.bfi(a as bigint, b as bigint, c as bigint, d as bigint, bits)],
    });
  }
  if (bits === 32) {
    out.push(
      bin('add.sat.s32', 32, (a, b) => R.sat(R.s(a, 32) + R.s(b, 32), 32)),
      bin('sub.sat.s32', 32, (a, b) => R.sat(R.s(a, 32) - R.s(b, 32), 32)),
      sm90(bin('min.relu.s32', 32, (a, b) => R.minmax(false, a, b, 32, true, true))),
      sm90(bin('max.relu.s32', 32, (a, b) => R.minmax(true, a, b, 32, true, true))),
      tri('mad.hi.sat.s32', [32, 32, 32], 32, (a, b, c) => R.sat(R.s(R.mul('hi', a, b, 32, true), 32) + R.s(c, 32), 32), 61),
    );
    for (const sg of SIGNS) {
      const t = ty(sg, 32);
      const g24 = (): bigint[][] => pairs(32, 2000, 24);
      out.push(
        bin(`mul24.lo.${t}`, 32, (a, b) => R.mul24(false, a, b, sg), g24),
        bin(`mul24.hi.${t}`, 32, (a, b) => R.mul24(true, a, b, sg), g24),
        tri(`mad24.lo.${t}`, [32, 32, 32], 32, (a, b, c) => R.u(R.mul24(false, a, b, sg) + c, 32), 62),
        tri(`mad24.hi.${t}`, [32, 32, 32], 32, (a, b, c) => R.u(R.mul24(true, a, b, sg) + c, 32), 63),
      );
    }
    out.push(tri('mad24.hi.sat.s32', [32, 32, 32], 32, (a, b, c) => R.sat(R.s(R.mul24(true, a, b, true), 32) + R.s(c, 32), 32), 64));
  }
  return out;
}

// ------------------------------------------------------------------ 32-bit bit manipulation

function bits32(): IntForm[] {
  const out: IntForm[] = [];
  for (const sa of SIGNS) {
    for (const sb of SIGNS) {
      out.push(tri(`dp4a.${ty(sa, 32)}.${ty(sb, 32)}`, [32, 32, 32], 32, (a, b, c) => R.dp4a(a, b, c, sa, sb), 70 + Number(sa) * 2 + Number(sb)));
      for (const hi of [false, true]) {
        out.push(tri(`dp2a.${hi ? 'hi' : 'lo'}.${ty(sa, 32)}.${ty(sb, 32)}`, [32, 32, 32], 32, (a, b, c) => R.dp2a(hi, a, b, c, sa, sb), 80 + Number(sa) * 4 + Number(sb) * 2 + Number(hi)));
      }
    }
  }
  for (const left of [true, false]) {
    for (const clamp of [true, false]) {
      out.push({
        form: form(`shf.${left ? 'l' : 'r'}.${clamp ? 'clamp' : 'wrap'}.b32 %d0, %a0, %a1, %a2;`, ['b32', 'b32', 'b32'], ['b32']),
        inputs: () => [randoms(32, 4000, 90), randoms(32, 4000, 91), positions(4000, 92)],
        ref: ([a, b, c]) => [R.shf(left, clamp, a as bigint, b as bigint, c as bigint)],
      });
    }
  }
  for (const mode of ['default', 'f4e', 'b4e', 'rc8', 'ecl', 'ecr', 'rc16'] as const) {
    out.push({
      form: form(`prmt.b32${mode === 'default' ? '' : `.${mode}`} %d0, %a0, %a1, %a2;`, ['b32', 'b32', 'b32'], ['b32']),
      inputs: () => [randoms(32, 4000, 100), randoms(32, 4000, 101), randoms(32, 4000, 102)],
      ref: ([a, b, c]) => [R.prmt(a as bigint, b as bigint, c as bigint, mode)],
    });
  }
  out.push({
    form: form('fns.b32 %d0, %a0, %a1, %a2;', ['b32', 'b32', 'b32'], ['b32']),
    inputs: () => [randoms(32, 6000, 110), randoms(32, 6000, 111).map((v) => v % 32n), randoms(32, 6000, 112).map((v) => R.u(R.s(v, 32) % 40n, 32))],
    ref: ([a, b, c]) => [R.fns(a as bigint, b as bigint, c as bigint)],
  });
  out.push({
    // base outside 0..31 and any offset: what the hardware does there is not in the ISA text
    form: form('fns.b32 %d0, %a0, %a1, %a2; // any base', ['b32', 'b32', 'b32'], ['b32']),
    inputs: () => [randoms(32, 2000, 113), randoms(32, 2000, 114).map((v, i) => (i % 2 ? v : R.u(v % 80n - 20n, 32))), randoms(32, 2000, 115)],
    ref: ([a, b, c]) => [R.fns(a as bigint, b as bigint, c as bigint)],
  });
  for (const clamp of [true, false]) {
    for (const sg of SIGNS) {
      out.push({
        form: form(`szext.${clamp ? 'clamp' : 'wrap'}.${ty(sg, 32)} %d0, %a0, %a1;`, ['b32', 'b32'], ['b32']),
        inputs: () => [randoms(32, 4000, 120), positions(4000, 121)],
        ref: ([a, b]) => [R.szext(a as bigint, b as bigint, clamp, sg)],
      });
    }
    out.push({
      form: form(`bmsk.${clamp ? 'clamp' : 'wrap'}.b32 %d0, %a0, %a1;`, ['b32', 'b32'], ['b32']),
      inputs: () => [positions(4000, 130), positions(4000, 131)],
      ref: ([a, b]) => [R.bmsk(a as bigint, b as bigint, clamp)],
    });
  }
  return out;
}

// ------------------------------------------------------------------ carry chains

function carry(): IntForm[] {
  const g4 = (seed: number) => (): bigint[][] => {
    const [a, b] = pairs(32, 3000, seed);
    const [c, d] = pairs(32, 3000, seed + 1);
    return [a, b, c.slice(0, a.length), d.slice(0, a.length)];
  };
  const cin = (x: bigint): bigint => (x !== 0n ? 1n : 0n);
  return [
    {
      // 64-bit add from 32-bit words, with the final carry
      form: form('add.cc.u32 %d0, %a0, %a2; addc.cc.u32 %d1, %a1, %a3; addc.u32 %d2, 0, 0;', ['b32', 'b32', 'b32', 'b32'], ['b32', 'b32', 'b32']),
      inputs: g4(200),
      ref: ([a, b, c, d]) => { const [lo, c1] = R.addc(a as bigint, c as bigint, 0n); const [hi, c2] = R.addc(b as bigint, d as bigint, c1); return [lo, hi, c2]; },
    },
    {
      form: form('sub.cc.u32 %d0, %a0, %a2; subc.cc.u32 %d1, %a1, %a3; subc.u32 %d2, 0, 0;', ['b32', 'b32', 'b32', 'b32'], ['b32', 'b32', 'b32']),
      inputs: g4(210),
      ref: ([a, b, c, d]) => { const [lo, b1] = R.subc(a as bigint, c as bigint, 0n); const [hi, b2] = R.subc(b as bigint, d as bigint, b1); return [lo, hi, R.subc(0n, 0n, b2)[0]]; },
    },
    {
      // carry in from a value: add.cc of x and all-ones carries iff x != 0
      form: form('add.cc.s32 %t0, %a2, -1; addc.cc.s32 %d0, %a0, %a1; addc.u32 %d1, 0, 0;', ['b32', 'b32', 'b32'], ['b32', 'b32']),
      inputs: () => { const [a, b] = pairs(32, 2000, 220); return [a, b, randoms(32, a.length, 221).map((v) => v & 1n)]; },
      ref: ([a, b, c]) => { const [d, co] = R.addc(a as bigint, b as bigint, cin(c as bigint)); return [d, co]; },
    },
    {
      // borrow in from a value: 0 - x borrows iff x != 0
      form: form('sub.cc.u32 %t0, 0, %a2; subc.cc.u32 %d0, %a0, %a1; subc.u32 %d1, 0, 0;', ['b32', 'b32', 'b32'], ['b32', 'b32']),
      inputs: () => { const [a, b] = pairs(32, 2000, 230); return [a, b, randoms(32, a.length, 231).map((v) => v & 1n)]; },
      ref: ([a, b, c]) => { const [d, bo] = R.subc(a as bigint, b as bigint, cin(c as bigint)); return [d, R.subc(0n, 0n, bo)[0]]; },
    },
    ...(['lo', 'hi'] as const).map((mode) => ({
      form: form(`add.cc.u32 %t0, %a3, -1; madc.${mode}.cc.u32 %d0, %a0, %a1, %a2; addc.u32 %d1, 0, 0; mad.${mode}.cc.u32 %d2, %a0, %a1, %a2; addc.u32 %d3, 0, 0;`, ['b32', 'b32', 'b32', 'b32'], ['b32', 'b32', 'b32', 'b32']),
      inputs: () => { const [a, b, c] = triples([32, 32, 32], 3000, 240); return [a, b, c, randoms(32, a.length, 241).map((v) => v & 1n)]; },
      ref: ([a, b, c, d]: readonly bigint[]): bigint[] => {
        const p = R.mul(mode, a as bigint, b as bigint, 32, false);
        const [x, cx] = R.addc(p, c as bigint, cin(d as bigint));
        const [y, cy] = R.addc(p, c as bigint, 0n);
        return [x, cx, y, cy];
      },
    })),
    {
      // the ISA's 64x64 -> 128-bit multiply: [d3,d2,d1,d0] = [a1,a0] * [a3,a2]
      form: form(`mul.lo.u32 %d0, %a0, %a2; mul.hi.u32 %d1, %a0, %a2; mad.lo.cc.u32 %d1, %a1, %a2, %d1; madc.hi.u32 %d2, %a1, %a2, 0;
        mad.lo.cc.u32 %d1, %a0, %a3, %d1; madc.hi.cc.u32 %d2, %a0, %a3, %d2; addc.u32 %d3, 0, 0;
        mad.lo.cc.u32 %d2, %a1, %a3, %d2; madc.hi.u32 %d3, %a1, %a3, %d3;`, ['b32', 'b32', 'b32', 'b32'], ['b32', 'b32', 'b32', 'b32']),
      inputs: g4(250),
      ref: ([a, b, c, d]) => {
        const p = (((b as bigint) << 32n) | (a as bigint)) * (((d as bigint) << 32n) | (c as bigint));
        return [0, 1, 2, 3].map((k) => R.u(p >> BigInt(32 * k), 32));
      },
    },
  ];
}

// ------------------------------------------------------------------ lop3

function lop3(): IntForm[] {
  const out: IntForm[] = [];
  // One form computing every LUT (an instruction per LUT, 256 outputs): inputs start with the
  // canonical 0xf0/0xcc/0xaa bytes, whose result is the LUT itself in every byte.
  const luts = Array.from({ length: 256 }, (_, k) => k);
  out.push({
    form: form(luts.map((k) => `lop3.b32 %d${k}, %a0, %a1, %a2, ${k};`).join(' '), ['b32', 'b32', 'b32'], luts.map(() => 'b32')),
    inputs: () => [[0xf0f0f0f0n, ...randoms(32, 31, 300)], [0xccccccccn, ...randoms(32, 31, 301)], [0xaaaaaaaan, ...randoms(32, 31, 302)]],
    ref: ([a, b, c]) => luts.map((lut) => R.lop3(a as bigint, b as bigint, c as bigint, lut)),
  });
  for (const op of ['and', 'or'] as const) {
    out.push({
      form: form(`lop3.${op}.b32 %d0|%q0, %a0, %a1, %a2, 0x96, %a3; selp.u32 %d1, 1, 0, %q0;`, ['b32', 'b32', 'b32', 'pred'], ['b32', 'b32'], { version: '8.2', sm: 80 }),
      inputs: () => { const xs = [randoms(32, 400, 310), randoms(32, 400, 311), randoms(32, 400, 312).map((v, i) => (i % 4 === 0 ? v : 0n)), randoms(32, 400, 313).map((v) => v & 1n)]; return xs; },
      ref: ([a, b, c, p]) => {
        const d = R.lop3(a as bigint, b as bigint, c as bigint, 0x96);
        const x = d !== 0n;
        const q = p !== 0n;
        return [d, BigInt(op === 'and' ? x && q : x || q)];
      },
    });
  }
  return out;
}

/** Forms without a native recording (added after it): WebGPU against the reference only. */
function extra(): IntForm[] {
  const [a, b] = pairs(32, 1000, 400);
  const c = randoms(32, a.length, 401);
  const p = randoms(32, a.length, 402).map((v) => v & 1n);
  const bools = (seed: number): bigint[] => randoms(32, 64, seed).map((v) => v & 1n);
  const preds = ['and', 'or', 'xor'].map((op): IntForm => ({
    form: form(`${op}.pred %d0, %a0, %a1;`, ['pred', 'pred'], ['pred']),
    inputs: () => [bools(410), bools(411)],
    ref: ([x, y]) => [op === 'and' ? (x as bigint) & (y as bigint) : op === 'or' ? (x as bigint) | (y as bigint) : (x as bigint) ^ (y as bigint)],
  }));
  return [
    ...preds,
    { form: form('not.pred %d0, %a0;', ['pred'], ['pred']), inputs: () => [bools(412)], ref: ([x]) => [1n - (x as bigint)] },
    {
      // a predicated add.cc: the carry flag is a register that flows through the guard's branch
      form: form('setp.ne.u32 %q0, %a3, 0; add.cc.u32 %d0, %a0, %a1; @%q0 add.cc.u32 %t0, %a2, -1; addc.u32 %d1, 0, 0;', ['b32', 'b32', 'b32', 'b32'], ['b32', 'b32']),
      inputs: () => [a, b, c.map((v, i) => (i % 3 === 0 ? 0n : v)), p],
      ref: ([x, y, z, q]) => {
        const [d, c1] = R.addc(x as bigint, y as bigint, 0n);
        return [d, q !== 0n ? (z !== 0n ? 1n : 0n) : c1];
      },
    },
  ];
}

// ------------------------------------------------------------------ packed 16-bit lanes

/**
 * Operand pairs for packed 16-bit lanes: every fewEdges(16) cross in lane 0 (and, transposed, in
 * lane 1) first, so a short recording has them; then every edges(16) cross, each lane with its
 * own; then every 16-bit value in each lane against random partners; then `n` random pairs.
 */
function lanePairs(n: number, seed: number): [bigint[], bigint[]] {
  const as: bigint[] = [];
  const bs: bigint[] = [];
  const push = (a0: bigint, b0: bigint, a1: bigint, b1: bigint): void => { as.push(a0 | (a1 << 16n)); bs.push(b0 | (b1 << 16n)); };
  const fe = fewEdges(16);
  fe.forEach((x) => fe.forEach((y) => push(x, y, y, x)));
  const e = edges(16);
  e.forEach((x, i) => e.forEach((y, j) => push(x, y, e[(i + 7 * j + 1) % e.length] as bigint, e[(3 * i + j + 5) % e.length] as bigint)));
  const r = randoms(32, 65536, seed + 1);
  all16().forEach((v, k) => push(v, (r[k] as bigint) & 0xffffn, v ^ 0x8001n, (r[k] as bigint) >> 16n));
  as.push(...randoms(32, n, seed + 2));
  bs.push(...randoms(32, n, seed + 3));
  return [as, bs];
}

/** A third operand for lanePairs: edge lanes first (their index pattern differs from a's and b's), then randoms. */
function laneThirds(count: number, seed: number): bigint[] {
  const e = edges(16);
  const r = rng(seed);
  return Array.from({ length: count }, (_, i) => (i < 8192 ? (e[(i * 13 + 3) % e.length] as bigint) | ((e[(i * 29 + 11) % e.length] as bigint) << 16n) : BigInt.asUintN(32, r())));
}

function simd16(): IntForm[] {
  const v90 = { sm: 90, version: '8.0' };
  const [a, b] = lanePairs(3000, 500);
  const c = laneThirds(a.length, 501);
  const two = (body: string, ref: (x: bigint, y: bigint) => bigint): IntForm =>
    ({ form: form(`${body} %d0, %a0, %a1;`, ['b32', 'b32'], ['b32'], v90), inputs: () => [a, b], ref: ([x, y]) => [ref(x as bigint, y as bigint)] });
  const three = (body: string, ref: (x: bigint, y: bigint, z: bigint) => bigint): IntForm =>
    ({ form: form(body, ['b32', 'b32', 'b32'], ['b32'], v90), inputs: () => [a, b, c], ref: ([x, y, z]) => [ref(x as bigint, y as bigint, z as bigint)] });
  const L = R.lanes16;
  const out: IntForm[] = [];
  for (const op of ['min', 'max'] as const) {
    for (const sg of SIGNS) out.push(two(`${op}.${sg ? 's' : 'u'}16x2`, (x, y) => L(op, x, y, sg)));
    out.push(two(`${op}.relu.s16x2`, (x, y) => L(op, x, y, true, true)));
  }
  // the modifier order the CUDA headers' inline asm writes (__vimax_s16x2_relu, __vimax_s32_relu)
  out.push(two('min.s16x2.relu', (x, y) => L('min', x, y, true, true)));
  out.push(two('max.s32.relu', (x, y) => R.minmax(true, x, y, 32, true, true)));
  for (const sg of SIGNS) out.push(two(`add.${sg ? 's' : 'u'}16x2`, (x, y) => L('add', x, y, sg)));
  // nvcc 13's sm_90 sequences for the CUDA SIMD intrinsics (device_functions.hpp)
  out.push(
    three('min.s16x2 %t0, %a0, %a1; min.s16x2 %d0, %t0, %a2;', (x, y, z) => L('min', L('min', x, y, true), z, true)), // __vimin3_s16x2
    three('max.u16x2 %t0, %a0, %a1; max.u16x2 %d0, %t0, %a2;', (x, y, z) => L('max', L('max', x, y, false), z, false)), // __vimax3_u16x2
    three('max.s16x2.relu %t0, %a0, %a1; max.s16x2.relu %d0, %t0, %a2;', (x, y, z) => L('max', L('max', x, y, true, true), z, true, true)), // __vimax3_s16x2_relu
    three('min.s16x2.relu %t0, %a0, %a1; min.s16x2.relu %d0, %t0, %a2;', (x, y, z) => L('min', L('min', x, y, true, true), z, true, true)), // __vimin3_s16x2_relu
    three('add.s16x2 %t0, %a0, %a1; max.s16x2 %d0, %t0, %a2;', (x, y, z) => L('max', L('add', x, y, true), z, true)), // __viaddmax_s16x2
    three('add.u16x2 %t0, %a0, %a1; min.u16x2 %d0, %t0, %a2;', (x, y, z) => L('min', L('add', x, y, false), z, false)), // __viaddmin_u16x2
    three('add.s16x2 %t0, %a0, %a1; min.s16x2.relu %d0, %t0, %a2;', (x, y, z) => L('min', L('add', x, y, true), z, true, true)), // __viaddmin_s16x2_relu
  );
  for (const [op, sg] of [['max', true], ['min', false]] as const) {
    // __vibmax_s16x2 / __vibmin_u16x2: the result and, per lane, whether it equals a's lane
    const t = `${sg ? 's' : 'u'}16`;
    out.push({
      form: form(`${op}.${t}x2 %d0, %a0, %a1; mov.b32 {%h0, %h1}, %d0; mov.b32 {%h2, %h3}, %a0; setp.eq.${t} %q0, %h0, %h2; setp.eq.${t} %q1, %h1, %h3; selp.b32 %d1, 1, 0, %q1; selp.b32 %d2, 1, 0, %q0;`, ['b32', 'b32'], ['b32', 'b32', 'b32'], v90),
      inputs: () => [a, b],
      ref: ([x, y]) => {
        const d = L(op, x as bigint, y as bigint, sg);
        const same = (sh: bigint): bigint => (((d >> sh) & 0xffffn) === (((x as bigint) >> sh) & 0xffffn) ? 1n : 0n);
        return [d, same(16n), same(0n)];
      },
    });
  }
  return out;
}

// ------------------------------------------------------------------ cvt into 8 bits

/** Source values: the 8-bit range boundaries and their wider neighbours first, then edges and randoms (all 16-bit values for 16-bit registers). */
function cvt8Inputs(regBits: number, seed: number): bigint[] {
  const m = (1n << BigInt(regBits)) - 1n;
  const near: bigint[] = [];
  for (let d = -260n; d <= 260n; d += 1n) near.push(d & m);
  for (const base of [0x7fn, 0x80n, 0xffn, 0x100n, 0x7fffn, 0x8000n, 0xffffn]) for (let d = -2n; d <= 2n; d += 1n) near.push((base + d) & m, (-(base + d)) & m);
  const rest = regBits === 16 ? all16() : [...edges(regBits), ...randoms(regBits, 3000, seed)];
  return [...new Set([...near, ...edges(regBits), ...rest])];
}

function cvt8(): IntForm[] {
  const out: IntForm[] = [];
  const regOf = (bits: number): number => Math.max(16, bits);
  const srcs = [8, 16, 32, 64].flatMap((bits) => SIGNS.map((sg) => [bits, sg] as const));
  for (const dsg of SIGNS) {
    const dt = ty(dsg, 8);
    for (const [sbits, ssg] of srcs) {
      const st = ty(ssg, sbits);
      for (const sat of [false, true]) {
        if (sat && st === dt) continue; // ptxas: .sat is illegal where it cannot saturate
        const body = `cvt${sat ? '.sat' : ''}.${dt}.${st} %d0, %a0;`;
        const srcReg = regOf(sbits);
        const ins = cvt8Inputs(srcReg, 600 + sbits + Number(ssg));
        // the destination in a .b16 register, and in a 32-bit integer register of the other
        // signedness (the instruction type, not the register's, decides sign or zero extension)
        for (const dreg of ['b16', dsg ? 'u32' : 's32']) {
          const dbits = widthOf(dreg);
          out.push({ form: form(dreg === 'b16' ? body : `${body} // into .${dreg}`, [reg(srcReg)], [dreg]), inputs: () => [ins], ref: ([x]) => [R.cvt8(x as bigint, sbits, ssg, dsg, sat, dbits)] });
        }
      }
    }
    // 8- and 16-bit sources held in a wider register (the low bits are converted), and a 64-bit destination
    for (const [sbits, ssg] of [[8, true], [8, false], [16, true]] as const) {
      const st = ty(ssg, sbits);
      const sat = st !== dt;
      const ins = cvt8Inputs(32, 650 + sbits);
      out.push({ form: form(`cvt${sat ? '.sat' : ''}.${dt}.${st} %d0, %a0; // from .b32`, ['b32'], ['b32']), inputs: () => [ins], ref: ([x]) => [R.cvt8(x as bigint, sbits, ssg, dsg, sat, 32)] });
    }
    const ins64 = cvt8Inputs(32, 660);
    out.push({ form: form(`cvt.sat.${dt}.s32 %d0, %a0; // into .b64`, ['b32'], ['b64']), inputs: () => [ins64], ref: ([x]) => [R.cvt8(x as bigint, 32, true, dsg, true, 64)] });
  }
  return out;
}

export const INT_BATCHES: readonly IntBatch[] = [
  { name: 'int-arith16', keep: 1024, forms: arith(16) },
  { name: 'int-arith32', keep: 1024, forms: arith(32) },
  { name: 'int-arith64', keep: 1024, forms: arith(64) },
  { name: 'int-bits32', keep: 1024, forms: bits32() },
  { name: 'int-carry', keep: 1024, forms: carry() },
  { name: 'int-lop3', keep: 32, forms: lop3() },
  { name: 'int-extra', keep: 0, forms: extra() },
  { name: 'int-simd16', keep: 1024, forms: simd16() },
  { name: 'int-cvt8', keep: 1024, forms: cvt8() },
];

const cache = new Map<IntForm, bigint[][]>();
export function inputsOf(f: IntForm): bigint[][] {
  let x = cache.get(f);
  if (!x) { x = f.inputs(); cache.set(f, x); }
  return x;
}

export const casesOf = (b: IntBatch): FormCase[] => b.forms.map((f) => ({ form: f.form, inputs: inputsOf(f) }));

export const NATIVE_BATCHES: readonly NativeBatch[] = INT_BATCHES.filter((b) => b.keep > 0).map((b) => ({ name: b.name, keep: b.keep, cases: () => casesOf(b) }));
