/**
 * JS references for PTX integer and logic instructions, written from the ISA text (section
 * "Integer Arithmetic Instructions", "Extended-Precision Integer Arithmetic", "Logic and Shift",
 * prmt). Values are unsigned bit patterns (bigint); `bits` is the operation width. Where the ISA
 * leaves a result unspecified (x / 0), the reference encodes what NVIDIA hardware produced in the
 * native recordings (tests/conformance/native/int-*), and says so.
 */
export const u = (x: bigint, bits: number): bigint => BigInt.asUintN(bits, x);
export const s = (x: bigint, bits: number): bigint => BigInt.asIntN(bits, x);
const smin = (bits: number): bigint => -(1n << BigInt(bits - 1));
const smax = (bits: number): bigint => (1n << BigInt(bits - 1)) - 1n;
export const sat = (x: bigint, bits: number): bigint => u(x < smin(bits) ? smin(bits) : x > smax(bits) ? smax(bits) : x, bits);
const val = (x: bigint, bits: number, signed: boolean): bigint => (signed ? s(x, bits) : u(x, bits));
const bit = (x: bigint, i: number): bigint => (x >> BigInt(i)) & 1n;

export function mul(mode: 'lo' | 'hi' | 'wide', x: bigint, y: bigint, bits: number, signed: boolean): bigint {
  const t = val(x, bits, signed) * val(y, bits, signed);
  if (mode === 'wide') return u(t, 2 * bits);
  return mode === 'hi' ? u(t >> BigInt(bits), bits) : u(t, bits);
}

export function mul24(hi: boolean, x: bigint, y: bigint, signed: boolean): bigint {
  const t = val(x, 24, signed) * val(y, 24, signed);
  return hi ? u(t >> 16n, 32) : u(t, 32);
}

/**
 * Integer division. The ISA leaves x / 0 machine-specific; an H100 gives all ones for both x / 0
 * and x % 0, signed or unsigned, at every width (native recordings int-arith16/32/64).
 * INT_MIN / -1 wraps to INT_MIN with remainder 0.
 */
export function div(x: bigint, y: bigint, bits: number, signed: boolean): bigint {
  const a = val(x, bits, signed);
  const b = val(y, bits, signed);
  if (b === 0n) return u(-1n, bits);
  return u(a / b, bits); // BigInt division truncates toward zero, as PTX does
}

export function rem(x: bigint, y: bigint, bits: number, signed: boolean): bigint {
  const a = val(x, bits, signed);
  const b = val(y, bits, signed);
  if (b === 0n) return u(-1n, bits);
  return u(a % b, bits); // the remainder takes the dividend's sign
}

export const minmax = (max: boolean, x: bigint, y: bigint, bits: number, signed: boolean, relu = false): bigint => {
  const a = val(x, bits, signed);
  const b = val(y, bits, signed);
  let r = max ? (a > b ? a : b) : a < b ? a : b;
  if (relu && r < 0n) r = 0n;
  return u(r, bits);
};

export const sad = (x: bigint, y: bigint, z: bigint, bits: number, signed: boolean): bigint => {
  const a = val(x, bits, signed);
  const b = val(y, bits, signed);
  return u(z + (a < b ? b - a : a - b), bits);
};

export const popc = (x: bigint): bigint => BigInt([...x.toString(2)].filter((c) => c === '1').length);
export const clz = (x: bigint, bits: number): bigint => (x === 0n ? BigInt(bits) : BigInt(bits - x.toString(2).length));

export function bfind(x: bigint, bits: number, signed: boolean, shiftamt: boolean): bigint {
  let a = u(x, bits);
  if (signed && bit(a, bits - 1)) a = u(~a, bits);
  if (a === 0n) return 0xffffffffn;
  const d = BigInt(a.toString(2).length - 1);
  return shiftamt ? BigInt(bits - 1) - d : d;
}

export function brev(x: bigint, bits: number): bigint {
  let r = 0n;
  for (let i = 0; i < bits; i++) r |= bit(x, i) << BigInt(bits - 1 - i);
  return r;
}

/**
 * bfe. The ISA restricts position and length to 0..255 (`& 0xff`); an H100 does so for .32 but
 * takes the full 32-bit values for .64 (native int-arith64): a position past bit 63 or a length
 * past the top selects nothing more.
 */
export function bfe(x: bigint, b: bigint, c: bigint, bits: number, signed: boolean): bigint {
  const msb = bits - 1;
  const limit = bits === 64 ? 0xffffffffn : 0xffn;
  const pos = Number(b & limit);
  const len = Number(c & limit);
  const sbit = !signed || len === 0 ? 0n : bit(x, Math.min(pos + len - 1, msb));
  let d = 0n;
  for (let i = 0; i <= msb; i++) d |= (i < len && pos + i <= msb ? bit(x, pos + i) : sbit) << BigInt(i);
  return d;
}

/** bfi; as for bfe, .64 takes the full 32-bit position and length on an H100. */
export function bfi(a: bigint, b: bigint, c: bigint, d: bigint, bits: number): bigint {
  const limit = bits === 64 ? 0xffffffffn : 0xffn;
  const pos = Number(c & limit);
  const len = Number(d & limit);
  let f = u(b, bits);
  for (let i = 0; i < len && pos + i <= bits - 1; i++) {
    f = (f & ~(1n << BigInt(pos + i))) | (bit(a, i) << BigInt(pos + i));
  }
  return f;
}

/** fns.b32: the position of the |offset|-th set bit of `mask` from `base` (PTX ISA 6.0 semantics). */
export function fns(mask: bigint, base: bigint, offset: bigint): bigint {
  const off = Number(s(offset, 32));
  const b = Number(s(base, 32));
  if (off === 0) return b >= 0 && b < 32 && bit(mask, b) ? BigInt(b) : 0xffffffffn;
  let count = Math.abs(off) - 1;
  const inc = off > 0 ? 1 : -1;
  for (let pos = b; pos >= 0 && pos < 32; pos += inc) {
    if (bit(mask, pos)) {
      if (count === 0) return BigInt(pos);
      count--;
    }
  }
  return 0xffffffffn;
}

export function szext(x: bigint, b: bigint, clamp: boolean, signed: boolean): bigint {
  const b1 = Number(b & 0x1fn);
  const tooLarge = clamp && u(b, 32) >= 32n;
  const mask = tooLarge ? 0n : u(0xffffffffn << BigInt(b1), 32);
  const signBit = b1 === 0 || tooLarge || !signed ? 0n : bit(x, (b1 - 1) & 31);
  return u((x & ~mask) | (signBit ? mask : 0n), 32);
}

export function bmsk(a: bigint, b: bigint, clamp: boolean): bigint {
  const a1 = Number(a & 0x1fn);
  const b1 = Number(b & 0x1fn);
  let mask0 = u(0xffffffffn << BigInt(a1), 32);
  const sum = a1 + b1;
  let mask1 = sum >= 32 ? 0n : u(0xffffffffn << BigInt(sum), 32);
  let overflow = sum >= 32;
  if (clamp) {
    if (u(a, 32) >= 32n) { overflow = true; mask0 = 0n; }
    if (u(b, 32) >= 32n) overflow = true;
  }
  if (overflow) mask1 = 0n;
  else if (b1 === 0) mask1 = 0xffffffffn;
  return mask0 & u(~mask1, 32);
}

export function dp4a(a: bigint, b: bigint, c: bigint, sa: boolean, sb: boolean): bigint {
  let acc = c;
  for (let i = 0; i < 4; i++) acc += val(a >> BigInt(8 * i), 8, sa) * val(b >> BigInt(8 * i), 8, sb);
  return u(acc, 32);
}

export function dp2a(hi: boolean, a: bigint, b: bigint, c: bigint, sa: boolean, sb: boolean): bigint {
  const k = hi ? 2 : 0;
  let acc = c;
  for (let i = 0; i < 2; i++) acc += val(a >> BigInt(16 * i), 16, sa) * val(b >> BigInt(8 * (k + i)), 8, sb);
  return u(acc, 32);
}

export function lop3(a: bigint, b: bigint, c: bigint, lut: number, bits = 32): bigint {
  let d = 0n;
  for (let i = 0; i < bits; i++) {
    const idx = (Number(bit(a, i)) << 2) | (Number(bit(b, i)) << 1) | Number(bit(c, i));
    d |= BigInt((lut >> idx) & 1) << BigInt(i);
  }
  return d;
}

/** shf.l/.r: the funnel of b:a shifted by clamp(c, 32) or c & 31. */
export function shf(left: boolean, clamp: boolean, a: bigint, b: bigint, c: bigint): bigint {
  const n = clamp ? (u(c, 32) > 32n ? 32n : u(c, 32)) : c & 31n;
  const x = (u(b, 32) << 32n) | u(a, 32);
  return left ? u((x << n) >> 32n, 32) : u(x >> n, 32);
}

export function shl(a: bigint, n: bigint, bits: number): bigint {
  return u(n >= BigInt(bits) ? 0n : a << n, bits);
}

export function shr(a: bigint, n: bigint, bits: number, signed: boolean): bigint {
  const amount = n >= BigInt(bits) ? BigInt(bits) : n;
  return u(val(a, bits, signed) >> amount, bits);
}

export type PrmtMode = 'default' | 'f4e' | 'b4e' | 'rc8' | 'ecl' | 'ecr' | 'rc16';

/** prmt.b32: picks bytes of b:a (8 bytes, a is 0-3) by selector c; default mode may replicate sign bits. */
export function prmt(a: bigint, b: bigint, c: bigint, mode: PrmtMode): bigint {
  const bytes = [0, 1, 2, 3].map((i) => Number((u(a, 32) >> BigInt(8 * i)) & 0xffn))
    .concat([0, 1, 2, 3].map((i) => Number((u(b, 32) >> BigInt(8 * i)) & 0xffn)));
  const pick = (sel: number): number => bytes[sel & 7] as number;
  let out: number[];
  if (mode === 'default') {
    out = [0, 1, 2, 3].map((i) => {
      const sel = Number((c >> BigInt(4 * i)) & 0xfn);
      const byte = pick(sel);
      return sel & 8 ? ((byte & 0x80) ? 0xff : 0) : byte;
    });
  } else {
    const sel = Number(c & 3n);
    const table: Record<Exclude<PrmtMode, 'default'>, number[][]> = {
      f4e: [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
      b4e: [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
      rc8: [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
      ecl: [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
      ecr: [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
      rc16: [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
    };
    out = (table[mode][sel] as number[]).map(pick);
  }
  return BigInt(((out[0] as number) | ((out[1] as number) << 8) | ((out[2] as number) << 16) | ((out[3] as number) << 24)) >>> 0);
}

/** A carry-chain step: the 32-bit sum a + b + cin and its carry out. */
export function addc(a: bigint, b: bigint, cin: bigint): [bigint, bigint] {
  const t = u(a, 32) + u(b, 32) + cin;
  return [u(t, 32), t >> 32n];
}

/** a - (b + bin) and its borrow out. */
export function subc(a: bigint, b: bigint, bin: bigint): [bigint, bigint] {
  const t = u(a, 32) - u(b, 32) - bin;
  return [u(t, 32), t < 0n ? 1n : 0n];
}

/**
 * Packed 16-bit lanes (`.s16x2`/`.u16x2`, PTX ISA 8.0 min/max/add): `op` on each half-word of
 * the 32-bit operands independently, lane 0 in bits 0..15. min/max compare the lanes as signed
 * (`.s16x2`) or unsigned (`.u16x2`) 16-bit values; `.relu` clamps each lane's result at 0; add
 * wraps within the lane (no carry into the other half).
 */
export function lanes16(op: 'min' | 'max' | 'add', x: bigint, y: bigint, signed: boolean, relu = false): bigint {
  let r = 0n;
  for (const sh of [0n, 16n]) {
    const a = u(x >> sh, 16);
    const b = u(y >> sh, 16);
    const lane = op === 'add' ? u(a + b, 16) : minmax(op === 'max', a, b, 16, signed, relu);
    r |= lane << sh;
  }
  return r;
}

/**
 * Integer-to-integer cvt into an 8-bit type (ISA cvt, "Operand Size Exceeding Instruction-Type
 * Size"): the source is the low bits of its register read as the source type; without `.sat` the
 * result is its low 8 bits, with `.sat` it is clamped to the destination range first; the 8-bit
 * result is then sign-extended (`.s8`) or zero-extended (`.u8`) to the destination register width.
 */
export function cvt8(x: bigint, srcBits: number, srcSigned: boolean, dstSigned: boolean, sat: boolean, regBits: number): bigint {
  const v = val(x, srcBits, srcSigned);
  const lo = dstSigned ? -128n : 0n;
  const hi = dstSigned ? 127n : 255n;
  const r = sat ? (v < lo ? lo : v > hi ? hi : v) : v;
  return u(dstSigned ? s(r, 8) : u(r, 8), regBits);
}
