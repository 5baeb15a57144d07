/**
 * Packing the uniform buffer at binding 0: the 16-byte launch header, then the PTX parameter
 * space exactly as `layout.params` lays it out (little-endian, at LAUNCH_HEADER_BYTES + offset).
 * Values are converted per the parameter's declared PTX type, and anything that would be
 * silently changed by the conversion (a fraction for an integer, an out-of-range value) is an
 * error rather than a surprise inside the kernel.
 */
import { LAUNCH_HEADER_BYTES, type KernelLayout, type ParamLayout } from '../lowering/layout.js';
import { argumentError } from './errors.js';
import { toBfloat16Bits, toHalfBits } from './half.js';
import { hostBytes, isHostBuffer, type HostBuffer } from './memory.js';

/** A parameter value once pointers are resolved to their 64-bit addresses. */
export type ParamValue = number | bigint | HostBuffer | readonly (number | bigint)[];

/** The header words: the grid (`%nctaid`) and the x width of the dispatch that linearises it. */
export interface LaunchHeader {
  readonly nctaid: readonly [number, number, number];
  readonly dispatchX: number;
}

/** Builds the whole uniform buffer for one launch. */
export function packUniforms(layout: KernelLayout, header: LaunchHeader, values: readonly ParamValue[]): Uint8Array {
  const bytes = new Uint8Array(layout.uniformBytes);
  const view = new DataView(bytes.buffer);
  const [x, y, z] = header.nctaid;
  [x, y, z, header.dispatchX].forEach((w, i) => view.setUint32(i * 4, w, true));
  layout.params.forEach((p, i) => writeParam(view, LAUNCH_HEADER_BYTES + p.offset, p, values[i] as ParamValue));
  return bytes;
}

function describe(p: ParamLayout): string {
  return `parameter '${p.name}' (.${p.type}${p.arrayLength !== undefined ? `[${p.arrayLength}]` : ''})`;
}

/** Writes one parameter at byte `at` of the uniform buffer. */
export function writeParam(view: DataView, at: number, p: ParamLayout, value: ParamValue): void {
  if (p.arrayLength !== undefined) return writeAggregate(view, at, p, value);
  if (typeof value !== 'number' && typeof value !== 'bigint') {
    throw argumentError(`${describe(p)} takes a number or bigint, got ${kindOf(value)}`);
  }
  writeScalar(view, at, p.type, value, () => describe(p));
}

/** `.b8 name[N]` and other arrays: N raw bytes, or one number per element. */
function writeAggregate(view: DataView, at: number, p: ParamLayout, value: ParamValue): void {
  if (isHostBuffer(value)) {
    const src = hostBytes(value);
    if (src.byteLength !== p.size) {
      throw argumentError(`${describe(p)} takes ${p.size} bytes, got a buffer of ${src.byteLength}`);
    }
    new Uint8Array(view.buffer, at, p.size).set(src);
    return;
  }
  const count = p.arrayLength ?? 0;
  if (!Array.isArray(value) || value.length !== count) {
    throw argumentError(`${describe(p)} takes ${p.size} bytes or an array of ${count} elements, got ${kindOf(value)}`);
  }
  const stride = p.size / count;
  value.forEach((v: number | bigint, i) => writeScalar(view, at + i * stride, p.type, v, () => `${describe(p)}[${i}]`));
}

/** Bit width and signedness of integer parameter types; `b` accepts both signed and unsigned values. */
const INT_TYPES: Readonly<Record<string, { bits: number; sign: 's' | 'u' | 'b' }>> = {
  u8: { bits: 8, sign: 'u' }, s8: { bits: 8, sign: 's' }, b8: { bits: 8, sign: 'b' },
  u16: { bits: 16, sign: 'u' }, s16: { bits: 16, sign: 's' }, b16: { bits: 16, sign: 'b' },
  u32: { bits: 32, sign: 'u' }, s32: { bits: 32, sign: 's' }, b32: { bits: 32, sign: 'b' },
  u64: { bits: 64, sign: 'u' }, s64: { bits: 64, sign: 's' }, b64: { bits: 64, sign: 'b' },
  b128: { bits: 128, sign: 'b' },
};

/** Writes one scalar of PTX type `type`; `what` names it in errors. */
export function writeScalar(view: DataView, at: number, type: string, value: number | bigint, what: () => string): void {
  const int = INT_TYPES[type];
  if (int) return writeInt(view, at, int.bits, toBigInt(value, what), intRange(int.bits, int.sign), what);
  if (typeof value !== 'number') throw argumentError(`${what()} is a float: pass a number, not a bigint`);
  switch (type) {
    case 'f32': return view.setFloat32(at, value, true);
    case 'f64': return view.setFloat64(at, value, true);
    case 'f16': return view.setUint16(at, toHalfBits(value), true);
    case 'bf16': return view.setUint16(at, toBfloat16Bits(value), true);
    default: throw argumentError(`${what()}: kernel parameters of type .${type} are not supported`);
  }
}

function toBigInt(value: number | bigint, what: () => string): bigint {
  if (typeof value === 'bigint') return value;
  if (!Number.isInteger(value)) throw argumentError(`${what()} is an integer, got ${value}`);
  return BigInt(value);
}

/**
 * Accepted values: `.u` and `.b` types take anything that fits as signed or as unsigned,
 * because nvcc declares C `int` and `long long` parameters as `.u32` and `.u64`.
 */
export function intRange(bits: number, sign: 's' | 'u' | 'b'): readonly [bigint, bigint] {
  const b = BigInt(bits);
  const min = -(1n << (b - 1n));
  const max = sign === 's' ? (1n << (b - 1n)) - 1n : (1n << b) - 1n;
  return [min, max];
}

function writeInt(view: DataView, at: number, bits: number, v: bigint, [min, max]: readonly [bigint, bigint], what: () => string): void {
  if (v < min || v > max) throw argumentError(`${what()}: ${v} is out of range [${min}, ${max}]`);
  let u = BigInt.asUintN(bits, v); // two's complement, little-endian byte by byte
  for (let i = 0; i < bits / 8; i++, u >>= 8n) view.setUint8(at + i, Number(u & 0xffn));
}

export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `a ${value.constructor.name} of ${value.byteLength} bytes`;
  if (typeof value === 'object') return `an object (${(value as object).constructor?.name ?? 'Object'})`;
  return `a ${typeof value} (${String(value)})`;
}
