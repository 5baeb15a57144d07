/**
 * JS references for the PTX video instructions: 9.7.18.1 "Scalar Video Instructions" (vadd vsub
 * vabsdiff vmin vmax, vshl vshr, vmad, vset) and 9.7.18.2 "SIMD Video Instructions" (vop2, vset2,
 * vop4, vset4). Every value is a bigint of unbounded precision.
 *
 * The SIMD forms follow the PTX ISA 9.0 pseudo-code and agree with an NVIDIA H100 (sm_90) on every
 * recorded case. The scalar forms do not: their references follow the outputs recorded on the H100
 * (tests/conformance/native/video-scalar.*, 1024 cases per form) wherever those differ from the
 * pseudo-code, and each such rule is marked "H100:" below with an example (inputs as 32-bit words).
 * The pseudo-code's own rules are kept where the recording agrees with them.
 */

export type Sign = 'u' | 's';
/** Scalar operand part selectors (`.b0`..`.b3`, `.h0`, `.h1`); undefined: the whole word. */
export type PartSel = 'b0' | 'b1' | 'b2' | 'b3' | 'h0' | 'h1';
export type Op2 = 'add' | 'min' | 'max';
export type Cmp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';

const M32 = 0xffffffffn;
const low32 = (x: bigint): bigint => BigInt.asUintN(32, x);
const ext32 = (x: bigint, sign: Sign): bigint => (sign === 's' ? BigInt.asIntN(32, x) : BigInt.asUintN(32, x));
const clamp = (x: bigint, lo: bigint, hi: bigint): bigint => (x < lo ? lo : x > hi ? hi : x);
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);
const abs = (a: bigint): bigint => (a < 0n ? -a : a);
/** The largest value of a `bits`-wide field of the given sign. */
const top = (bits: bigint, sign: Sign): bigint => (sign === 's' ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n);

/**
 * partSelectSignExtend(x, type, sel): the selected byte or half-word (or the whole word without a
 * selector), sign-extended for `.s32` and zero-extended for `.u32`.
 */
export function partSelect(x: bigint, sign: Sign, sel?: PartSel): bigint {
  if (!sel) return ext32(x, sign);
  const bits = sel[0] === 'b' ? 8 : 16;
  const v = BigInt.asUintN(bits, x >> BigInt(bits * Number(sel[1])));
  return sign === 's' ? BigInt.asIntN(bits, v) : v;
}

const selBits = (sel: PartSel): bigint => (sel[0] === 'b' ? 8n : 16n);

/**
 * optMerge(dsel, tmp, c): the byte or half-word of tmp put at the selected position of c.
 * H100: `.h1` does not move tmp's low half-word up: it keeps tmp's own bits 31..16 and c's bits
 * 15..0 (`vadd.u32.s32.u32 d.h1, a.b1, b, c` with a.b1 = -128, b = 0x20: tmp = 0xffffffa0, d.h1 =
 * 0xffff, where the ISA text puts 0xffa0). `.b1`..`.b3` and `.h0` place tmp's low part as written.
 */
function optMerge(dsel: PartSel, tmp: bigint, c: bigint): bigint {
  if (dsel === 'h1') return (low32(tmp) & 0xffff0000n) | (low32(c) & 0xffffn);
  const bits = selBits(dsel);
  const at = bits * BigInt(Number(dsel[1]));
  const field = ((1n << bits) - 1n) << at;
  return ((BigInt.asUintN(Number(bits), tmp) << at) | (low32(c) & ~field)) & M32;
}

/**
 * optSecondaryOp `.min`/`.max`: tmp against c, c extended by `sign` (dtype's; vset: atype's).
 * `key` is the value tmp is compared as. H100: with a `.u32` sign the comparison is unsigned on
 * the two's-complement patterns, so a negative key is above every c; with `.s32` it is signed.
 */
function secondaryMinMax(op2: 'min' | 'max', tmp: bigint, key: bigint, c: bigint, sign: Sign): bigint {
  const cc = ext32(c, sign);
  const above = sign === 'u' && key < 0n ? true : key > cc;
  const pickTmp = op2 === 'max' ? above : !above;
  return pickTmp ? tmp : cc;
}

// ------------------------------------------------------------------ scalar

export type ScalarOp = 'vadd' | 'vsub' | 'vabsdiff' | 'vmin' | 'vmax' | 'vshl' | 'vshr';

export interface ScalarSpec {
  readonly op: ScalarOp;
  readonly dtype: Sign;
  readonly atype: Sign;
  /** vshl/vshr: always `u` (the shift amount is unsigned). */
  readonly btype: Sign;
  readonly sat: boolean;
  readonly asel?: PartSel | undefined;
  readonly bsel?: PartSel | undefined;
  readonly dsel?: PartSel | undefined;
  readonly op2?: Op2 | undefined;
  /** vshl/vshr only. */
  readonly mode?: 'clamp' | 'wrap' | undefined;
}

/**
 * `.sat` of vadd vsub vabsdiff vmin vmax on the exact intermediate (the ISA: clamp to dtype's range,
 * the byte or half-word range when merged). H100 differs:
 *  - whole word, `.u32` dtype: only a negative result is clamped (to 0); one at or above 2^32 keeps
 *    its low 32 bits (`vadd.u32.u32.u32.sat` 0xfffffffe + 0xff000000 = 0xfefffffe, not 0xffffffff);
 *  - merged (`d.b0`..`d.h1`): the comparison is unsigned, so a negative result saturates to the
 *    top of the range, not the bottom (`vsub.s32.s32.s32.sat d.b0`: -64 - 127 gives 0x7f, and even
 *    `vmin.s32.u32.s32.sat d.b0` of -2 gives 0x7f; with `.u32` dtype `vmin.u32.u32.s32.sat d.b0`
 *    of 0x1000000 and -0x101 gives 0xff);
 *  - whole word, `.s32` dtype: the ISA's clamp to the s32 range.
 */
function saturateArith(tmp: bigint, sign: Sign, dsel?: PartSel): bigint {
  if (dsel) {
    const hi = top(selBits(dsel), sign);
    return tmp < 0n || tmp > hi ? hi : tmp;
  }
  if (sign === 'u') return tmp < 0n ? 0n : tmp;
  return clamp(tmp, -(1n << 31n), (1n << 31n) - 1n);
}

/**
 * `.sat` of vshl/vshr. H100: the shifted value is taken as .s34 (its low 34 bits, two's
 * complement), then clamped to dtype's 32-bit range, also when the result is merged into a byte or
 * half-word (the merge then keeps the low part of the clamped word). So a shift that overflows 34
 * bits can wrap to any value: `vshl.u32.u32.u32.sat.clamp` 1 << 32 gives 0xffffffff, 0x3f << 32
 * gives 0 (0x3f00000000 is negative as .s34), 0xffffffc0 << 31 gives 0; `vshr.u32.s32.u32.sat.wrap
 * d.h0` of 0x7fff8000 >> 0 merges 0x8000 (the ISA would clamp to 0xffff).
 */
function saturateShift(tmp: bigint, sign: Sign): bigint {
  const t = BigInt.asIntN(34, tmp);
  return sign === 's' ? clamp(t, -(1n << 31n), (1n << 31n) - 1n) : clamp(t, 0n, M32);
}

/**
 * vadd vsub vabsdiff vmin vmax (9.7.18.1.1) and vshl vshr (9.7.18.1.2):
 *   ta = partSelectSignExtend(a, atype, asel); tb = partSelectSignExtend(b, btype, bsel);
 *   tmp = op(ta, tb) exactly; `.sat` as saturateArith/saturateShift above;
 *   then `.add`: tmp + c (c of dtype's sign), `.min`/`.max` against c, or the merge into c;
 *   d = the low 32 bits.
 * vshl/vshr: tb = partSelectSignExtend(b, .u32, bsel); `.clamp` limits tb to 32, `.wrap` takes
 * tb & 0x1f; the shift of ta is exact (sign-filling for vshr).
 * `.min`/`.max` (H100): tmp is compared as its exact value for vabsdiff, vmin, vmax and vshr,
 * and for vshl as a signed 64-bit value (so `vabsdiff.u32.u32.s32.min` of 0xffffff7f and
 * -0x1000001, 0x1_00ffff80, is above c = 0x452b44db, and a vshl.clamp of 0x7f0000 by 32 is above
 * c = 0x80 though its low word is 0; but `vshl.s32.u32.u32.clamp.min` of 0x80000000 by 32,
 * 2^63, is negative as 64 bits: below c = 0x9201684f, so the minimum is its low word, 0),
 * but for vadd and vsub as its low 32 bits sign-extended (`vadd.u32.s32.s32.min` 1 + 0x7fffffff =
 * 0x80000000 counts as negative, so above c = 0xb9937837 under `.u32`; 0x807e7f7f from
 * `vadd.s32.s32.u32` counts as negative under `.s32`). The recording has vadd/vsub `.min`/`.max`
 * only with a signed source; the same sign extension is taken for `.u32` + `.u32` sources.
 * A fourth operand without `.op2` or `d.dsel` (ptxas accepts it) is ignored.
 */
export function scalar(v: ScalarSpec, a: bigint, b: bigint, c: bigint): bigint {
  const ta = partSelect(a, v.atype, v.asel);
  let tb = partSelect(b, v.btype, v.bsel);
  const shift = v.op === 'vshl' || v.op === 'vshr';
  let tmp: bigint;
  switch (v.op) {
    case 'vadd': tmp = ta + tb; break;
    case 'vsub': tmp = ta - tb; break;
    case 'vabsdiff': tmp = abs(ta - tb); break;
    case 'vmin': tmp = min(ta, tb); break;
    case 'vmax': tmp = max(ta, tb); break;
    case 'vshl':
    case 'vshr':
      if (v.mode === 'clamp' && tb > 32n) tb = 32n;
      if (v.mode === 'wrap') tb &= 0x1fn;
      tmp = v.op === 'vshl' ? ta << tb : ta >> tb; // `>>` on bigint is the sign-filling shift of ta
      break;
  }
  if (v.sat) tmp = shift ? saturateShift(tmp, v.dtype) : saturateArith(tmp, v.dtype, v.dsel);
  if (v.dsel) return optMerge(v.dsel, tmp, c);
  switch (v.op2) {
    case 'add': return low32(tmp + ext32(c, v.dtype));
    case 'min':
    case 'max': {
      // A saturated shift is compared as its low word sign-extended, like vadd/vsub: under `.u32`
      // `vshr.u32.u32.u32.sat.clamp.min` of 0x80007fff by 0 is above c = 0x81811f93 (gives c).
      const key = v.op === 'vadd' || v.op === 'vsub' || (shift && v.sat) ? BigInt.asIntN(32, tmp) : BigInt.asIntN(64, tmp);
      return low32(secondaryMinMax(v.op2, tmp, key, c, v.dtype));
    }
    default: return low32(tmp);
  }
}

export interface VsetSpec {
  readonly cmp: Cmp;
  readonly atype: Sign;
  readonly btype: Sign;
  readonly asel?: PartSel | undefined;
  readonly bsel?: PartSel | undefined;
  readonly dsel?: PartSel | undefined;
  readonly op2?: Op2 | undefined;
}

export function compare(cmp: Cmp, a: bigint, b: bigint): boolean {
  switch (cmp) {
    case 'eq': return a === b;
    case 'ne': return a !== b;
    case 'lt': return a < b;
    case 'le': return a <= b;
    case 'gt': return a > b;
    case 'ge': return a >= b;
  }
}

/**
 * vset (9.7.18.1.4): tmp = compare(ta, tb, cmp) ? 1 : 0 on the exact extended values;
 * then `.add` (tmp + c), `.min`/`.max` against c, or the merge into c (with the `.h1` rule of
 * optMerge). The ISA text makes c unsigned ("the intermediate result of the comparison is always
 * unsigned, and therefore destination d and operand c are also unsigned"). H100: for `.min`/`.max`
 * c takes atype's sign (the first type): `vset.s32.s32.le.min` of a true comparison and c =
 * 0x80000000 gives 0x80000000, `vset.u32.s32.lt.min` gives 1.
 */
export function vset(v: VsetSpec, a: bigint, b: bigint, c: bigint): bigint {
  const tmp = compare(v.cmp, partSelect(a, v.atype, v.asel), partSelect(b, v.btype, v.bsel)) ? 1n : 0n;
  if (v.dsel) return optMerge(v.dsel, tmp, c);
  switch (v.op2) {
    case 'add': return low32(tmp + c);
    case 'min':
    case 'max': return low32(secondaryMinMax(v.op2, tmp, tmp, c, v.atype));
    default: return tmp;
  }
}

export interface VmadSpec {
  readonly dtype: Sign;
  readonly atype: Sign;
  readonly btype: Sign;
  readonly sat: boolean;
  readonly po: boolean;
  readonly scale?: 'shr7' | 'shr15' | undefined;
  readonly asel?: PartSel | undefined;
  readonly bsel?: PartSel | undefined;
  readonly negA: boolean;
  readonly negB: boolean;
  readonly negC: boolean;
}

/**
 * vmad (9.7.18.1.3), the ISA pseudo-code:
 *   signedFinal = isSigned(atype) || isSigned(btype) || (a.negate ^ b.negate) || c.negate;
 *   tmp[127:0] = ta * tb; lsb = 0;
 *   if (.po) lsb = 1; else if (a.negate ^ b.negate) { tmp = ~tmp; lsb = 1 } else if (c.negate) { c = ~c; lsb = 1 }
 *   c128 = signedFinal ? sext32(c) : zext(c); tmp = tmp + c128 + lsb;
 *   .shr7/.shr15: result = (tmp >> 7|15) & 0xffffffffffffffff;
 *   .sat: CLAMP(result, S32 or U32 range by signedFinal).
 * H100 differs in how the operands are read and how the scale shifts:
 *  - a whole-word operand is read as .s32 whatever its type, and so is the word selected into ta
 *    or tb (a `.u32` byte or half-word stays non-negative; a `.s32` one is sign-extended):
 *    `vmad.u32.u32.u32.shr7` of 0x20 * 0xff000000 + 0 gives 0xffc00000 (-2^29 >> 7), not 0x3fc00000;
 *  - c is sign-extended whatever signedFinal (`vmad.u32.u32.u32.shr7` of 0x7fff * 0x80 +
 *    0xfc69990c gives 0xfff95331);
 *  - with a scale and an unsigned final (signedFinal false), the shift is a logical shift of the
 *    64-bit two's complement value, so a negative sum saturates high: `vmad.u32.u32.u32.sat.shr7`
 *    of 0x20 * 0xff000000 + 0 gives 0xffffffff; without a scale `.sat` clamps the exact value
 *    (0x100 * 0xffffffe0 + 0 gives 0).
 * signedFinal still picks the clamp range and the shift; dtype plays no part. Everything here fits
 * 64 bits (|ta * tb| <= 2^62).
 */
export function vmad(v: VmadSpec, a: bigint, b: bigint, c: bigint): bigint {
  const ta = BigInt.asIntN(32, partSelect(a, v.atype, v.asel));
  const tb = BigInt.asIntN(32, partSelect(b, v.btype, v.bsel));
  const negP = v.negA !== v.negB;
  const signedFinal = v.atype === 's' || v.btype === 's' || negP || v.negC;
  let tmp = ta * tb;
  let cw = low32(c);
  let lsb = 0n;
  if (v.po) lsb = 1n;
  else if (negP) { tmp = -tmp - 1n; lsb = 1n; } // ~tmp in two's complement
  else if (v.negC) { cw = low32(~cw); lsb = 1n; }
  tmp = tmp + BigInt.asIntN(32, cw) + lsb;
  const k = v.scale === 'shr7' ? 7n : v.scale === 'shr15' ? 15n : 0n;
  let result = tmp;
  if (k) result = signedFinal ? tmp >> k : BigInt.asUintN(64, tmp) >> k;
  if (v.sat) result = signedFinal ? clamp(result, -(1n << 31n), (1n << 31n) - 1n) : clamp(result, 0n, M32);
  return low32(result);
}

// ------------------------------------------------------------------ SIMD

export type SimdOp = 'vadd' | 'vsub' | 'vavrg' | 'vabsdiff' | 'vmin' | 'vmax' | 'vset';

export interface SimdSpec {
  readonly op: SimdOp;
  /** 2: half-word lanes (vop2), 4: byte lanes (vop4). */
  readonly lanes: 2 | 4;
  readonly dtype: Sign;
  readonly atype: Sign;
  readonly btype: Sign;
  readonly sat: boolean;
  readonly add: boolean;
  /** vset2/vset4 only. */
  readonly cmp?: Cmp | undefined;
  /** Lane selectors as written (`h32`, `b7654`); defaults `h10`/`b3210` for a, `h32`/`b7654` for b. */
  readonly asel?: string | undefined;
  readonly bsel?: string | undefined;
  /** Destination mask as written (`h0`, `b20`, ...); default all lanes. */
  readonly mask?: string | undefined;
}

/**
 * extractAndSignExt_2/_4(a, b, sel, type): lane i (lane 0 in the low bits) is the element whose
 * index is the selector's digit for that lane, the last digit being lane 0, counted over the eight
 * bytes (four half-words) of the pair {b, a} (a in the low word); sign- or zero-extended by type.
 */
export function simdLanes(a: bigint, b: bigint, sel: string, lanes: 2 | 4, sign: Sign): bigint[] {
  const bits = lanes === 2 ? 16 : 8;
  const pair = (low32(b) << 32n) | low32(a);
  const digits = sel.slice(1);
  return Array.from({ length: lanes }, (_, i) => {
    const idx = Number(digits[digits.length - 1 - i]);
    const v = BigInt.asUintN(bits, pair >> BigInt(idx * bits));
    return sign === 's' ? BigInt.asIntN(bits, v) : v;
  });
}

/** extractMaskBits(mask): which lanes the mask names. */
export function maskLanes(mask: string | undefined, lanes: 2 | 4): boolean[] {
  const on = new Set((mask ?? (lanes === 2 ? 'h10' : 'b3210')).slice(1).split('').map(Number));
  return Array.from({ length: lanes }, (_, i) => on.has(i));
}

/**
 * vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2 vset2 (9.7.18.2.1-2) and the 4-lane forms (9.7.18.2.3-4):
 *   Va = extractAndSignExt(a, b, asel, atype); Vb = extractAndSignExt(a, b, bsel, btype); Vc = lanes of c;
 *   t[i] = op(Va[i], Vb[i]) (vavrg: (Va+Vb+1)>>1 when Va+Vb >= 0, else (Va+Vb)>>1; vset: compare ? 1 : 0);
 *   .sat: t[i] clamped to the s16/u16 (s8/u8) range by dtype;
 *   .add: d = c + sum of t[i] over the mask's lanes (t[i] as the signed value, 32-bit wrap);
 *   else: d = the mask's lanes of t (truncated to the lane) and c's other lanes.
 * AMBIGUOUS: the vset2/vset4 description says the unmasked lanes come from operand b, the
 * semantics say Vc (operand c); the semantics are followed.
 */
export function simd(v: SimdSpec, a: bigint, b: bigint, c: bigint): bigint {
  const n = v.lanes;
  const bits = n === 2 ? 16 : 8;
  const va = simdLanes(a, b, v.asel ?? (n === 2 ? 'h10' : 'b3210'), n, v.atype);
  const vb = simdLanes(a, b, v.bsel ?? (n === 2 ? 'h32' : 'b7654'), n, v.btype);
  const mask = maskLanes(v.mask, n);
  const w = BigInt(bits);
  const t = va.map((x, i) => {
    const y = vb[i] as bigint;
    let r: bigint;
    switch (v.op) {
      case 'vadd': r = x + y; break;
      case 'vsub': r = x - y; break;
      case 'vavrg': r = x + y >= 0n ? (x + y + 1n) >> 1n : (x + y) >> 1n; break;
      case 'vabsdiff': r = abs(x - y); break;
      case 'vmin': r = min(x, y); break;
      case 'vmax': r = max(x, y); break;
      case 'vset': r = compare(v.cmp ?? 'eq', x, y) ? 1n : 0n; break;
    }
    if (v.sat) r = v.dtype === 's' ? clamp(r, -(1n << (w - 1n)), (1n << (w - 1n)) - 1n) : clamp(r, 0n, (1n << w) - 1n);
    return r;
  });
  if (v.add) return low32(t.reduce((acc, r, i) => acc + (mask[i] ? r : 0n), low32(c)));
  let d = 0n;
  for (let i = 0; i < n; i++) {
    const lane = mask[i] ? BigInt.asUintN(bits, t[i] as bigint) : BigInt.asUintN(bits, low32(c) >> BigInt(i * bits));
    d |= lane << BigInt(i * bits);
  }
  return d;
}
