/**
 * The video-instruction conformance forms (PTX ISA 9.7.18: scalar vadd vsub vabsdiff vmin vmax
 * vshl vshr vmad vset, SIMD vop2/vop4 and vset2/vset4), grouped into batches with their JS
 * references (ref/video.ts). Every opcode is generated: vadd2 vsub2 vavrg2 vabsdiff2 vmin2
 * vmax2 vset2 vadd4 vsub4 vavrg4 vabsdiff4 vmin4 vmax4 vset4 each run with every type
 * combination, lane selector family, .mask, .sat and .add. Selectors are part of the instruction text, so one form runs several
 * variants of an instruction side by side (outputs %d0..%dN over the same inputs).
 * Used by video.gpu.test.ts, video-native.test.ts and, through NATIVE_BATCHES,
 * scripts/gen-conformance.mjs for the native recording.
 */
import { form, rng, type Form, type FormCase, type NativeBatch } from './harness.js';
import * as R from './ref/video.js';

export interface VideoForm {
  readonly form: Form;
  readonly inputs: () => bigint[][];
  readonly ref: (x: readonly bigint[]) => bigint[];
}

export interface VideoBatch {
  readonly name: string;
  readonly keep: number;
  readonly forms: readonly VideoForm[];
}

type Sign = R.Sign;
const SIGNS: readonly Sign[] = ['u', 's'];
const TYPES3: readonly (readonly [Sign, Sign, Sign])[] = SIGNS.flatMap((d) => SIGNS.flatMap((a) => SIGNS.map((b) => [d, a, b] as const)));
const TYPES2: readonly (readonly [Sign, Sign])[] = SIGNS.flatMap((a) => SIGNS.map((b) => [a, b] as const));
const PARTS: readonly R.PartSel[] = ['b0', 'b1', 'b2', 'b3', 'h0', 'h1'];
const ty = (s: Sign): string => `${s}32`;
const sel = (s: string | undefined): string => (s ? `.${s}` : '');

/** One instruction of a form: its text for output register `d` and its reference. */
interface Variant { readonly text: (d: string) => string; readonly ref: (a: bigint, b: bigint, c: bigint) => bigint }

/** A form running `variants` on the same (a, b[, c]) inputs, output k from variant k. */
function multi(variants: readonly Variant[], withC: boolean, inputs: () => bigint[][]): VideoForm {
  const body = variants.map((v, k) => v.text(`%d${k}`)).join('\n');
  const ins = withC ? ['b32', 'b32', 'b32'] : ['b32', 'b32'];
  return {
    form: form(body, ins, variants.map(() => 'b32')),
    inputs,
    ref: ([a, b, c]) => variants.map((v) => v.ref(a as bigint, b as bigint, c ?? 0n)),
  };
}

// ------------------------------------------------------------------ inputs

const low32 = (x: bigint): bigint => BigInt.asUintN(32, x);

/**
 * Edge words: 0, 1, 0x7f, 0x80, 0xff in each byte; 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff in
 * each half-word; the 32-bit extremes and lane patterns; and the complements of all of them (the
 * edge part inside a word of ones).
 */
export function videoEdges(): bigint[] {
  const out = new Set<bigint>();
  for (const e of [0n, 1n, 0x7fn, 0x80n, 0xffn]) for (let k = 0n; k < 4n; k++) out.add(e << (8n * k));
  for (const e of [1n, 0x7fn, 0x80n, 0xffn, 0x7fffn, 0x8000n, 0xffffn]) for (let k = 0n; k < 2n; k++) out.add(e << (16n * k));
  for (const e of [0x7fffffffn, 0x80000000n, 0xffffffffn, 0x80808080n, 0x7f7f7f7fn, 0xff00ff00n, 0x7fff8000n, 0x80007fffn, 0x01ff7f80n, 0x0000001fn, 0x20n, 0x21n, 0x3fn]) out.add(e);
  for (const v of [...out]) out.add(low32(~v));
  return [...out].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
}

/** Random words biased to edge bytes/half-words (each byte an edge byte half the time). */
function videoRandoms(n: number, seed: number): bigint[] {
  const r = rng(seed);
  const bytes = [0n, 1n, 0x7fn, 0x80n, 0xffn, 0x7en, 0x81n, 0xfen];
  return Array.from({ length: n }, () => {
    const v = r();
    if ((v & 3n) === 0n) return low32(v >> 16n);
    let w = 0n;
    for (let k = 0n; k < 4n; k++) {
      const x = r();
      w |= ((x & 1n) === 0n ? (bytes[Number((x >> 1n) % 8n)] as bigint) : (x >> 8n) & 0xffn) << (8n * k);
    }
    return w;
  });
}

/**
 * Scalar operands: every pair of edge words (shuffled, so a recording of the first cases samples
 * them all), then seeded randoms; c cycles through edge words with randoms.
 */
function scalarInputs(seed: number, withC: boolean): () => bigint[][] {
  return () => {
    const e = videoEdges();
    const r = rng(seed);
    const pairs: [bigint, bigint][] = [];
    for (const a of e) for (const b of e) pairs.push([a, b]);
    for (let i = pairs.length - 1; i > 0; i--) {
      const j = Number(r() % BigInt(i + 1));
      [pairs[i], pairs[j]] = [pairs[j] as [bigint, bigint], pairs[i] as [bigint, bigint]];
    }
    const ra = videoRandoms(1500, seed + 1);
    const rb = videoRandoms(1500, seed + 2);
    const as = [...pairs.map((p) => p[0]), ...ra];
    const bs = [...pairs.map((p) => p[1]), ...rb];
    if (!withC) return [as, bs];
    const rc = videoRandoms(as.length, seed + 3);
    const cs = as.map((_, i) => (i % 3 === 2 ? (rc[i] as bigint) : (e[(i * 7 + (i >> 5)) % e.length] as bigint)));
    return [as, bs, cs];
  };
}

/** Edge lane values: half-words for 2-lane forms, bytes for 4-lane forms. */
const LANE_EDGES: Readonly<Record<2 | 4, readonly bigint[]>> = {
  2: [0n, 1n, 2n, 0x7fn, 0x80n, 0xffn, 0x100n, 0x7ffen, 0x7fffn, 0x8000n, 0x8001n, 0xfffen, 0xffffn],
  4: [0n, 1n, 2n, 0x3fn, 0x40n, 0x7en, 0x7fn, 0x80n, 0x81n, 0xc0n, 0xfen, 0xffn],
};

/**
 * SIMD operands: a's lane k is E[(i + 5k) % n] and b's lane k is E[(j + 3k) % n] for every (i, j),
 * so each lane pairing the selectors make meets every pair of edge lanes; then randoms.
 */
function simdInputs(lanes: 2 | 4, seed: number): () => bigint[][] {
  return () => {
    const E = LANE_EDGES[lanes];
    const n = E.length;
    const bits = BigInt(32 / lanes);
    const word = (f: (k: number) => bigint): bigint => {
      let w = 0n;
      for (let k = 0; k < lanes; k++) w |= f(k) << (bits * BigInt(k));
      return w;
    };
    const r = rng(seed);
    const as: bigint[] = [];
    const bs: bigint[] = [];
    const cs: bigint[] = [];
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        as.push(word((k) => E[(i + 5 * k) % n] as bigint));
        bs.push(word((k) => E[(j + 3 * k) % n] as bigint));
        cs.push(word(() => E[Number(r() % BigInt(n))] as bigint));
      }
    }
    as.push(...videoRandoms(1500, seed + 1));
    bs.push(...videoRandoms(1500, seed + 2));
    cs.push(...videoRandoms(1500, seed + 3));
    return [as, bs, cs];
  };
}

// ------------------------------------------------------------------ scalar forms

const SCALAR_OPS = ['vadd', 'vsub', 'vabsdiff', 'vmin', 'vmax'] as const;

function scalarVariant(v: R.ScalarSpec, withC: boolean): Variant {
  const mode = v.mode ? `.${v.mode}` : '';
  const text = (d: string): string =>
    `${v.op}.${ty(v.dtype)}.${ty(v.atype)}.${ty(v.btype)}${v.sat ? '.sat' : ''}${mode}${v.op2 ? `.${v.op2}` : ''} ${d}${sel(v.dsel)}, %a0${sel(v.asel)}, %a1${sel(v.bsel)}${withC ? ', %a2' : ''};`;
  return { text, ref: (a, b, c) => R.scalar(v, a, b, c) };
}

function scalarForms(): VideoForm[] {
  const out: VideoForm[] = [];
  let seed = 100;
  const add = (vs: R.ScalarSpec[], withC: boolean): void => {
    out.push(multi(vs.map((v) => scalarVariant(v, withC)), withC, scalarInputs(seed++, withC)));
  };
  SCALAR_OPS.forEach((op, oi) => {
    // every dtype/atype/btype, whole words, with and without .sat
    for (const [d, a, b] of TYPES3) add([false, true].map((sat) => ({ op, dtype: d, atype: a, btype: b, sat })), false);
    // every part selector on a and on b (paired with another part, or the whole word)
    const t = (k: number): readonly [Sign, Sign, Sign] => TYPES3[(oi * 3 + k) % 8] as readonly [Sign, Sign, Sign];
    const [d0, a0, b0] = t(0);
    const [d1, a1, b1] = t(1);
    const [d2, a2, b2] = t(5);
    add(PARTS.map((p, i) => ({ op, dtype: d0, atype: a0, btype: b0, sat: false, asel: p, bsel: PARTS[(i + 1) % 6] })), false);
    add(PARTS.map((p, i) => ({ op, dtype: d1, atype: a1, btype: b1, sat: true, asel: p, bsel: i % 2 ? undefined : PARTS[(i + 3) % 6] })), false);
    add(PARTS.map((p, i) => ({ op, dtype: d2, atype: a2, btype: b2, sat: i % 2 === 0, asel: i % 3 ? PARTS[5 - i] : undefined, bsel: p })), false);
    // secondary operations, by dtype sign (and mixed source signs)
    for (const d of SIGNS) {
      const [ , a, b] = t(d === 's' ? 2 : 3);
      add((['add', 'min', 'max'] as const).flatMap((op2) => [false, true].map((sat) => ({ op, dtype: d, atype: a, btype: b, sat, op2 }))), true);
    }
    // merge into every byte and half-word of c, with and without .sat, by dtype sign
    for (const d of SIGNS) {
      for (const sat of [false, true]) {
        const [, a, b] = t(sat ? 4 : 6);
        add(PARTS.map((p, i) => ({ op, dtype: d, atype: a, btype: b, sat, dsel: p, asel: i % 2 ? PARTS[(i + 2) % 6] : undefined })), true);
      }
    }
  });
  // ptxas accepts a fourth operand without a secondary operation or merge: c is unused.
  add([{ op: 'vadd', dtype: 'u', atype: 'u', btype: 'u', sat: false }, { op: 'vsub', dtype: 's', atype: 's', btype: 'u', sat: true }], true);
  // Immediate sources. `-7` as vmad's c is read as the literal word 0xfffffff9, not as a negated
  // c (which would make the final sign signed): the .shr7 .sat result tells the two apart.
  out.push(multi([
    { text: (d) => `vadd.s32.u32.s32.sat.add ${d}, %a0, -3, 7;`, ref: (a) => R.scalar({ op: 'vadd', dtype: 's', atype: 'u', btype: 's', sat: true, op2: 'add' }, a, 0xfffffffdn, 7n) },
    { text: (d) => `vmad.s32.s32.s32.shr7 ${d}, %a0.h1, 300, -5;`, ref: (a) => R.vmad({ dtype: 's', atype: 's', btype: 's', sat: false, po: false, scale: 'shr7', asel: 'h1', negA: false, negB: false, negC: false }, a, 300n, 0xfffffffbn) },
    { text: (d) => `vshr.s32.s32.u32.wrap ${d}, %a0, 33;`, ref: (a) => R.scalar({ op: 'vshr', dtype: 's', atype: 's', btype: 'u', sat: false, mode: 'wrap' }, a, 33n, 0n) },
    { text: (d) => `vmad.u32.u32.u32.sat.shr7 ${d}, %a0, %a1, -7;`, ref: (a, b) => R.vmad({ dtype: 'u', atype: 'u', btype: 'u', sat: true, po: false, scale: 'shr7', negA: false, negB: false, negC: false }, a, b, 0xfffffff9n) },
    { text: (d) => `vset.u32.u32.lt.add ${d}, %a0, 3, -1;`, ref: (a) => R.vset({ cmp: 'lt', atype: 'u', btype: 'u', op2: 'add' }, a, 3n, 0xffffffffn) },
  ], false, scalarInputs(seed++, false)));
  // vshl / vshr: every dtype/atype, .clamp and .wrap
  for (const op of ['vshl', 'vshr'] as const) {
    for (const [d, a] of TYPES2) {
      for (const mode of ['clamp', 'wrap'] as const) {
        add([false, true].map((sat) => ({ op, dtype: d, atype: a, btype: 'u' as Sign, sat, mode })), false);
      }
    }
    add(PARTS.map((p, i) => ({ op, dtype: SIGNS[i % 2] as Sign, atype: SIGNS[(i >> 1) % 2] as Sign, btype: 'u' as Sign, sat: i % 3 === 0, mode: i % 2 ? 'wrap' as const : 'clamp' as const, asel: p, bsel: PARTS[(i + 2) % 6] })), false);
    add((['add', 'min', 'max'] as const).flatMap((op2) => SIGNS.map((d) => ({ op, dtype: d, atype: d, btype: 'u' as Sign, sat: op2 === 'add', mode: 'clamp' as const, op2 }))), true);
    add(PARTS.map((p, i) => ({ op, dtype: SIGNS[i % 2] as Sign, atype: 's' as Sign, btype: 'u' as Sign, sat: i >= 3, mode: 'wrap' as const, dsel: p })), true);
  }
  out.push(...vsetForms(seed), ...vmadForms(seed + 50));
  return out;
}

const CMPS: readonly R.Cmp[] = ['eq', 'ne', 'lt', 'le', 'gt', 'ge'];

function vsetVariant(v: R.VsetSpec, withC: boolean): Variant {
  const text = (d: string): string =>
    `vset.${ty(v.atype)}.${ty(v.btype)}.${v.cmp}${v.op2 ? `.${v.op2}` : ''} ${d}${sel(v.dsel)}, %a0${sel(v.asel)}, %a1${sel(v.bsel)}${withC ? ', %a2' : ''};`;
  return { text, ref: (a, b, c) => R.vset(v, a, b, c) };
}

function vsetForms(seed0: number): VideoForm[] {
  let seed = seed0;
  const out: VideoForm[] = [];
  const add = (vs: R.VsetSpec[], withC: boolean): void => { out.push(multi(vs.map((v) => vsetVariant(v, withC)), withC, scalarInputs(seed++, withC))); };
  for (const [a, b] of TYPES2) add(CMPS.map((cmp) => ({ cmp, atype: a, btype: b })), false);
  add(PARTS.map((p, i) => ({ cmp: CMPS[i] as R.Cmp, atype: SIGNS[i % 2] as Sign, btype: SIGNS[(i >> 1) % 2] as Sign, asel: p, bsel: PARTS[(i + 1) % 6] })), false);
  add(PARTS.map((p, i) => ({ cmp: CMPS[(i + 2) % 6] as R.Cmp, atype: SIGNS[(i >> 1) % 2] as Sign, btype: SIGNS[i % 2] as Sign, asel: i % 2 ? undefined : PARTS[(i + 3) % 6], bsel: p })), false);
  add((['add', 'min', 'max'] as const).flatMap((op2, k) => SIGNS.map((s, j) => ({ cmp: CMPS[2 * k + j] as R.Cmp, atype: s, btype: SIGNS[k % 2] as Sign, op2 }))), true);
  add(PARTS.map((p, i) => ({ cmp: CMPS[i] as R.Cmp, atype: SIGNS[i % 2] as Sign, btype: 's' as Sign, dsel: p })), true);
  return out;
}

function vmadVariant(v: R.VmadSpec): Variant {
  const neg = (n: boolean): string => (n ? '-' : '');
  const text = (d: string): string =>
    `vmad.${ty(v.dtype)}.${ty(v.atype)}.${ty(v.btype)}${v.po ? '.po' : ''}${v.sat ? '.sat' : ''}${v.scale ? `.${v.scale}` : ''} ${d}, ${neg(v.negA)}%a0${sel(v.asel)}, ${neg(v.negB)}%a1${sel(v.bsel)}, ${neg(v.negC)}%a2;`;
  return { text, ref: (a, b, c) => R.vmad(v, a, b, c) };
}

function vmadForms(seed0: number): VideoForm[] {
  let seed = seed0;
  const out: VideoForm[] = [];
  const add = (vs: R.VmadSpec[]): void => { out.push(multi(vs.map(vmadVariant), true, scalarInputs(seed++, true))); };
  const negs = [[false, false, false], [true, false, false], [false, true, false], [false, false, true], [true, true, false]] as const;
  for (const [d, a, b] of TYPES3) {
    for (const scale of [undefined, 'shr7', 'shr15'] as const) {
      const vs: R.VmadSpec[] = [];
      for (const [negA, negB, negC] of negs) for (const sat of [false, true]) vs.push({ dtype: d, atype: a, btype: b, sat, po: false, scale, negA, negB, negC });
      for (const sat of [false, true]) vs.push({ dtype: d, atype: a, btype: b, sat, po: true, scale, negA: false, negB: false, negC: false });
      add(vs);
    }
  }
  add(PARTS.map((p, i) => ({ dtype: 's' as Sign, atype: SIGNS[i % 2] as Sign, btype: SIGNS[(i >> 1) % 2] as Sign, sat: i % 2 === 0, po: i === 5, scale: i === 2 ? 'shr15' as const : undefined, asel: p, bsel: PARTS[(i + 3) % 6], negA: i === 1, negB: false, negC: i === 3 })));
  add(PARTS.map((p, i) => ({ dtype: 'u' as Sign, atype: SIGNS[(i >> 1) % 2] as Sign, btype: SIGNS[i % 2] as Sign, sat: i % 2 === 1, po: i === 0, scale: i === 4 ? 'shr7' as const : undefined, asel: i % 3 ? PARTS[(i + 1) % 6] : undefined, bsel: p, negA: false, negB: i === 2, negC: i === 4 })));
  return out;
}

// ------------------------------------------------------------------ SIMD forms

const SIMD_OPS = ['vadd', 'vsub', 'vavrg', 'vabsdiff', 'vmin', 'vmax'] as const;

/** Lane selectors: the defaults, cross-register picks and repeats. */
const LANE_SELS: Readonly<Record<2 | 4, readonly (readonly [string, string])[]>> = {
  2: [['h10', 'h32'], ['h32', 'h10'], ['h01', 'h23'], ['h00', 'h33'], ['h31', 'h20'], ['h13', 'h02']],
  4: [['b3210', 'b7654'], ['b7654', 'b3210'], ['b0123', 'b4567'], ['b0000', 'b7777'], ['b7531', 'b6420'], ['b1357', 'b2064']],
};

/** Every mask of the lanes (`h0 h1 h10`; `b0` .. `b3210`). */
function allMasks(lanes: 2 | 4): string[] {
  const out: string[] = [];
  for (let m = 1; m < 1 << lanes; m++) {
    const digits = [...Array(lanes).keys()].reverse().filter((i) => (m >> i) & 1);
    out.push(`${lanes === 2 ? 'h' : 'b'}${digits.join('')}`);
  }
  return out;
}

function simdVariant(v: R.SimdSpec): Variant {
  const name = `${v.op}${v.lanes}`;
  const types = v.op === 'vset' ? `${ty(v.atype)}.${ty(v.btype)}.${v.cmp}` : `${ty(v.dtype)}.${ty(v.atype)}.${ty(v.btype)}`;
  const text = (d: string): string =>
    `${name}.${types}${v.sat ? '.sat' : ''}${v.add ? '.add' : ''} ${d}${sel(v.mask)}, %a0${sel(v.asel)}, %a1${sel(v.bsel)}, %a2;`;
  return { text, ref: (a, b, c) => R.simd(v, a, b, c) };
}

function simdForms(): VideoForm[] {
  const out: VideoForm[] = [];
  let seed = 500;
  for (const lanes of [2, 4] as const) {
    const add = (vs: R.SimdSpec[]): void => { out.push(multi(vs.map(simdVariant), true, simdInputs(lanes, seed++))); };
    const base = { lanes, sat: false, add: false };
    SIMD_OPS.forEach((op, oi) => {
      for (const [d, a, b] of TYPES3) add([false, true].map((sat) => ({ ...base, op, dtype: d, atype: a, btype: b, sat })));
      add(LANE_SELS[lanes].map(([asel, bsel], i) => {
        const [d, a, b] = TYPES3[(oi + 3 * i) % 8] as readonly [Sign, Sign, Sign];
        return { ...base, op, dtype: d, atype: a, btype: b, sat: i % 2 === 1, asel, bsel };
      }));
      const [d, a, b] = TYPES3[(oi * 5 + 1) % 8] as readonly [Sign, Sign, Sign];
      add(allMasks(lanes).map((mask, i) => ({ ...base, op, dtype: SIGNS[i % 2] as Sign, atype: a, btype: b, sat: i % 3 === 0, mask })));
      add(allMasks(lanes).map((mask, i) => ({ ...base, op, dtype: d, atype: SIGNS[i % 2] as Sign, btype: SIGNS[(i >> 1) % 2] as Sign, add: true, mask, asel: i % 4 === 3 ? (LANE_SELS[lanes][4] as readonly [string, string])[0] : undefined })));
    });
    for (const [a, b] of TYPES2) add(CMPS.map((cmp) => ({ ...base, op: 'vset', dtype: 'u', atype: a, btype: b, cmp })));
    add(LANE_SELS[lanes].map(([asel, bsel], i) => ({ ...base, op: 'vset', dtype: 'u', atype: SIGNS[i % 2] as Sign, btype: SIGNS[(i >> 1) % 2] as Sign, cmp: CMPS[i] as R.Cmp, asel, bsel })));
    add(allMasks(lanes).map((mask, i) => ({ ...base, op: 'vset', dtype: 'u', atype: SIGNS[i % 2] as Sign, btype: 's', cmp: CMPS[i % 6] as R.Cmp, mask })));
    add(allMasks(lanes).map((mask, i) => ({ ...base, op: 'vset', dtype: 'u', atype: 's', btype: SIGNS[i % 2] as Sign, cmp: CMPS[(i + 3) % 6] as R.Cmp, add: true, mask })));
  }
  return out;
}

/**
 * Scalar combinations the video-scalar recording leaves open, where ref/video.ts extends the rules
 * recorded on the H100 by inference: `.min`/`.max` of every op for every source-type pair (the
 * recording has vadd/vsub ones only with a signed source), vshl/vshr `.min`/`.max` with mixed
 * dtype/atype signs and with `.sat`, `.min`/`.max` of two byte/half-word parts, and vset
 * `.min`/`.max` for every type pair. A later recording settles them.
 */
function scalarExtraForms(): VideoForm[] {
  const out: VideoForm[] = [];
  let seed = 700;
  const add = (vs: R.ScalarSpec[]): void => { out.push(multi(vs.map((v) => scalarVariant(v, true)), true, scalarInputs(seed++, true))); };
  for (const op of SCALAR_OPS) {
    for (const d of SIGNS) {
      for (const sat of [false, true]) {
        add(TYPES2.flatMap(([a, b]) => (['min', 'max'] as const).map((op2) => ({ op, dtype: d, atype: a, btype: b, sat, op2 }))));
      }
    }
  }
  // both sources parts (the 32-bit path), as in `vabsdiff.s32.s32.s32.min d, a.h0, b.h1, c`
  add(SCALAR_OPS.flatMap((op, i) => [
    { op, dtype: 'u' as Sign, atype: SIGNS[i % 2] as Sign, btype: 's' as Sign, sat: i % 2 === 1, op2: 'min' as const, asel: PARTS[i] as R.PartSel, bsel: PARTS[(i + 3) % 6] as R.PartSel },
    { op, dtype: 's' as Sign, atype: 's' as Sign, btype: SIGNS[i % 2] as Sign, sat: i % 2 === 0, op2: 'max' as const, asel: PARTS[(i + 1) % 6] as R.PartSel, bsel: PARTS[(i + 4) % 6] as R.PartSel },
  ]));
  for (const op of ['vshl', 'vshr'] as const) {
    for (const sat of [false, true]) {
      add(TYPES2.flatMap(([d, a], i) => (['min', 'max'] as const).map((op2) => ({ op, dtype: d, atype: a, btype: 'u' as Sign, sat, op2, mode: i % 2 ? 'wrap' as const : 'clamp' as const }))));
    }
  }
  out.push(multi(TYPES2.flatMap(([a, b], i) => (['min', 'max'] as const).map((op2, k) => vsetVariant({ cmp: CMPS[(2 * i + k) % 6] as R.Cmp, atype: a, btype: b, op2 }, true))), true, scalarInputs(seed++, true)));
  return out;
}

export const VIDEO_BATCHES: readonly VideoBatch[] = [
  { name: 'video-scalar', keep: 1024, forms: scalarForms() },
  { name: 'video-simd', keep: 1024, forms: simdForms() },
  { name: 'video-scalar-extra', keep: 1024, forms: scalarExtraForms() },
];

export function casesOf(b: VideoBatch): FormCase[] {
  return b.forms.map((f) => ({ form: f.form, inputs: f.inputs() }));
}

export const NATIVE_BATCHES: readonly NativeBatch[] = VIDEO_BATCHES.map((b) => ({ name: b.name, keep: b.keep, cases: () => casesOf(b) }));
