/**
 * NumPy's `.npy` format (version 1.0 to 3.0), for `ptx-wgsl run` inputs and outputs: a magic
 * string, a Python-literal header ({'descr': '<f4', 'fortran_order': False, 'shape': (n,)}) and
 * the raw little-endian elements. Arrays of any shape are read in C order; Fortran-ordered
 * arrays of more than one dimension and big-endian data are refused rather than reordered.
 */

/** The little-endian dtype of each PTX element type (f16 as its bits). */
const DTYPES: Readonly<Record<string, string>> = {
  u8: '|u1', b8: '|u1', s8: '|i1',
  u16: '<u2', b16: '<u2', s16: '<i2', f16: '<f2',
  u32: '<u4', b32: '<u4', s32: '<i4', f32: '<f4',
  u64: '<u8', b64: '<u8', s64: '<i8', f64: '<f8',
};

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

export class NpyError extends Error {
  override readonly name = 'NpyError';
}

export interface NpyArray {
  /** NumPy's type string, e.g. `<f4`. */
  readonly descr: string;
  readonly shape: readonly number[];
  /** The elements' bytes, C order. */
  readonly data: Uint8Array;
}

/** The dtype `.npy` files use for a PTX element type. */
export function dtypeOf(type: string): string {
  const d = DTYPES[type];
  if (!d) throw new NpyError(`no .npy dtype for element type '${type}'`);
  return d;
}

/**
 * Whether a file of dtype `descr` can fill a buffer of PTX type `type`: same size and kind
 * (float, or integer of either signedness, since integer bits are bits); bool as u8.
 */
export function dtypeFits(descr: string, type: string): boolean {
  const want = dtypeOf(type);
  const norm = (d: string): string => (d === '|b1' ? '|u1' : d.replace(/^=/, '<'));
  const got = norm(descr);
  if (got === want) return true;
  const kind = (d: string): string => (d[1] === 'f' ? 'f' : 'i');
  return got.length === want.length && got[0] === want[0] && got[2] === want[2] && kind(got) === kind(want) && 'iu'.includes(got[1] ?? '');
}

export function isNpy(bytes: Uint8Array): boolean {
  return MAGIC.every((b, i) => bytes[i] === b);
}

export function parseNpy(bytes: Uint8Array): NpyArray {
  if (!isNpy(bytes)) throw new NpyError('not a .npy file (no \\x93NUMPY magic)');
  const major = bytes[6] ?? 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [lenBytes, headerLength] = major === 1 ? [2, view.getUint16(8, true)] : [4, view.getUint32(8, true)];
  if (major < 1 || major > 3) throw new NpyError(`unsupported .npy version ${major}`);
  const start = 8 + lenBytes;
  const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(start, start + headerLength));
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined) throw new NpyError(`malformed .npy header: ${header.trim()}`);
  const shape = shapeText.split(',').map((s) => s.trim()).filter((s) => s !== '').map(Number);
  if (shape.some((d) => !Number.isSafeInteger(d) || d < 0)) throw new NpyError(`malformed .npy shape (${shapeText})`);
  if (descr.startsWith('>') && !descr.endsWith('1')) throw new NpyError(`big-endian .npy data (${descr}) is not supported`);
  if (fortran === 'True' && shape.filter((d) => d > 1).length > 1) throw new NpyError('Fortran-ordered .npy arrays are not supported');
  const size = Number(/\d+$/.exec(descr)?.[0] ?? NaN);
  const count = shape.reduce((a, b) => a * b, 1);
  const data = bytes.subarray(start + headerLength);
  if (!Number.isSafeInteger(size) || data.byteLength < count * size) {
    throw new NpyError(`.npy data holds ${data.byteLength} bytes, the header says ${count} elements of ${descr}`);
  }
  return { descr, shape, data: data.subarray(0, count * size) };
}

/** A version 1.0 `.npy` file holding `data` as a 1-D array of PTX type `type`. */
export function formatNpy(type: string, data: Uint8Array, count: number): Uint8Array {
  const dict = `{'descr': '${dtypeOf(type)}', 'fortran_order': False, 'shape': (${count},), }`;
  // NumPy pads the header with spaces so that the data starts at a multiple of 64 bytes.
  const unpadded = 10 + dict.length + 1;
  const header = dict + ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const out = new Uint8Array(10 + header.length + data.byteLength);
  out.set(MAGIC, 0);
  out[6] = 1;
  out[7] = 0;
  new DataView(out.buffer).setUint16(8, header.length, true);
  out.set(new TextEncoder().encode(header), 10);
  out.set(data, 10 + header.length);
  return out;
}
