/**
 * `--arg` specs of `ptx-wgsl run`:
 *   f32=2.5              a scalar (u64=0x10 and other integer literals; 64-bit values as bigint)
 *   f32:n=1024:linear    a buffer of 1024 f32 holding 0, 1, 2, ...
 *   f32:n=1024:random:seed=1   uniform in [0, 1) for floats, any bit pattern for integers
 *   f32:n=1024:zero      zeros (also: fill=V for a constant)
 *   u8:file=data.bin     a buffer holding a file's bytes
 *   f32:file=x.npy       a buffer holding a .npy file's elements (its dtype must fit the type)
 */
import { fromHalfBits, toHalfBits } from '../../runtime/half.js';
import { dtypeFits, NpyError, parseNpy } from './npy.js';

type IntArray = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;
export type HostArray = IntArray | Float32Array | Float64Array | BigInt64Array | BigUint64Array;

export type CliArg =
  | { readonly kind: 'scalar'; readonly type: string; readonly value: number | bigint }
  | { readonly kind: 'buffer'; readonly type: string; readonly data: HostArray };

const ARRAYS: Readonly<Record<string, (n: number) => HostArray>> = {
  u8: (n) => new Uint8Array(n), b8: (n) => new Uint8Array(n), s8: (n) => new Int8Array(n),
  u16: (n) => new Uint16Array(n), b16: (n) => new Uint16Array(n), s16: (n) => new Int16Array(n),
  f16: (n) => new Uint16Array(n), // bit patterns, converted on fill and print
  u32: (n) => new Uint32Array(n), b32: (n) => new Uint32Array(n), s32: (n) => new Int32Array(n),
  u64: (n) => new BigUint64Array(n), b64: (n) => new BigUint64Array(n), s64: (n) => new BigInt64Array(n),
  f32: (n) => new Float32Array(n), f64: (n) => new Float64Array(n),
};

export class ArgSpecError extends Error {
  override readonly name = 'ArgSpecError';
}

/** Parses one spec; `readFile` supplies `file=` contents (injected for tests). */
export function parseArgSpec(spec: string, readFile: (path: string) => Uint8Array): CliArg {
  const eq = spec.indexOf('=');
  const colon = spec.indexOf(':');
  if (eq >= 0 && (colon < 0 || eq < colon)) return parseScalar(spec.slice(0, eq), spec.slice(eq + 1), spec);
  const [type = '', ...parts] = spec.split(':');
  const make = ARRAYS[type];
  if (!make) throw new ArgSpecError(`--arg ${spec}: unknown element type '${type}' (one of ${Object.keys(ARRAYS).join(' ')})`);
  const opts = new Map(parts.map((p) => [p.split('=')[0] ?? '', p.includes('=') ? p.slice(p.indexOf('=') + 1) : '']));
  const file = opts.get('file');
  if (file !== undefined) return { kind: 'buffer', type, data: fromFile(type, make, readFile(file), spec, file.endsWith('.npy')) };
  const n = Number(opts.get('n'));
  if (!Number.isSafeInteger(n) || n < 0) throw new ArgSpecError(`--arg ${spec}: a buffer needs n=COUNT or file=PATH`);
  const data = make(n);
  fill(type, data, opts, spec);
  return { kind: 'buffer', type, data };
}

function parseScalar(type: string, text: string, spec: string): CliArg {
  if (!(type in ARRAYS)) throw new ArgSpecError(`--arg ${spec}: unknown scalar type '${type}'`);
  if (type.startsWith('f')) {
    const value = Number(text);
    if (text.trim() === '' || Number.isNaN(value) && text !== 'nan') throw new ArgSpecError(`--arg ${spec}: '${text}' is not a number`);
    return { kind: 'scalar', type, value };
  }
  let value: bigint;
  try {
    value = text.startsWith('-') ? -BigInt(text.slice(1)) : BigInt(text);
  } catch {
    throw new ArgSpecError(`--arg ${spec}: '${text}' is not an integer`);
  }
  // 64-bit parameters take bigints; narrower ones numbers (the runtime range-checks both).
  return { kind: 'scalar', type, value: type.endsWith('64') ? value : Number(value) };
}

function fromFile(type: string, make: (n: number) => HostArray, file: Uint8Array, spec: string, npy: boolean): HostArray {
  const bytes = npy ? npyElements(type, file, spec) : file;
  const data = make(0);
  const size = data.BYTES_PER_ELEMENT;
  if (bytes.byteLength % size !== 0) throw new ArgSpecError(`--arg ${spec}: file size ${bytes.byteLength} is not a multiple of ${size} (${type})`);
  const out = make(bytes.byteLength / size);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

function npyElements(type: string, file: Uint8Array, spec: string): Uint8Array {
  try {
    const { descr, data } = parseNpy(file);
    if (!dtypeFits(descr, type)) throw new NpyError(`its dtype ${descr} does not fit ${type}`);
    return data;
  } catch (e) {
    if (e instanceof NpyError) throw new ArgSpecError(`--arg ${spec}: ${e.message}`);
    throw e;
  }
}

function fill(type: string, data: HostArray, opts: Map<string, string>, spec: string): void {
  const random = mulberry32(Number(opts.get('seed') ?? 1));
  const constant = opts.get('fill');
  const value = (i: number): number | bigint => {
    if (opts.has('linear')) return i;
    if (opts.has('random')) return randomValue(type, random);
    if (constant !== undefined) return type.endsWith('64') && !type.startsWith('f') ? BigInt(constant) : Number(constant);
    if (opts.has('zero') || opts.size === 1) return 0;
    throw new ArgSpecError(`--arg ${spec}: say how to fill the buffer (linear, random, zero or fill=V)`);
  };
  for (let i = 0; i < data.length; i++) {
    const v = value(i);
    if (data instanceof BigInt64Array || data instanceof BigUint64Array) data[i] = typeof v === 'bigint' ? v : BigInt(v);
    else data[i] = type === 'f16' ? toHalfBits(Number(v)) : Number(v);
  }
}

function randomValue(type: string, random: () => number): number | bigint {
  if (type.startsWith('f')) return random();
  const word = (): bigint => BigInt(Math.floor(random() * 2 ** 32));
  const bits = BigInt(Number(type.slice(1)));
  const raw = BigInt.asUintN(Number(bits), (word() << 32n) | word());
  const v = type.startsWith('s') ? BigInt.asIntN(Number(bits), raw) : raw;
  return bits === 64n ? v : Number(v);
}

/** A small seeded PRNG, so `random:seed=S` inputs are reproducible across runs and hosts. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The first `count` elements of a buffer argument, as text. */
export function formatElements(arg: Extract<CliArg, { kind: 'buffer' }>, count: number): string {
  const shown = [...arg.data.slice(0, count)].map((v: number | bigint) => String(arg.type === 'f16' ? fromHalfBits(Number(v)) : v));
  return shown.join(', ') + (arg.data.length > count ? ', ...' : '');
}
