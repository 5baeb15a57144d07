/**
 * A kernel argument read from a file the user picks: a NumPy .npy file (the CLI's reader,
 * src/cli/npy.ts, which is plain data code) or raw little-endian elements, as
 * `ptx-wgsl run --arg f32:file=...` reads them.
 */
import { dtypeFits, isNpy, parseNpy } from '../src/cli/npy.js';
import type { Dtype } from './examples.js';

export interface ArgFile {
  readonly name: string;
  readonly bytes: Uint8Array;
  /** What the file says of itself, for the page: `<f4 (48, 500)` or `raw, 4000 bytes`. */
  readonly about: string;
  /** A .npy file's dtype and shape (2D shapes get a heat map). */
  readonly npy?: { readonly descr: string; readonly shape: readonly number[] };
}

/** The PTX element type the page's dtypes stand for. */
const PTX_TYPE: Readonly<Record<Dtype, string>> = { f16: 'f16', f32: 'f32', i32: 's32', u32: 'u32' };

/** Bytes per element. */
export const DTYPE_BYTES: Readonly<Record<Dtype, number>> = { f16: 2, f32: 4, i32: 4, u32: 4 };

/** A buffer argument on the host: f16 elements as their bits (JavaScript has no half type everywhere yet). */
export type HostElements = Float32Array | Int32Array | Uint32Array | Uint16Array;

export async function readArgFile(file: File): Promise<ArgFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!isNpy(bytes)) return { name: file.name, bytes, about: `raw, ${bytes.byteLength} bytes` };
  const npy = parseNpy(bytes);
  const about = `${npy.descr} (${npy.shape.join(', ')}${npy.shape.length === 1 ? ',' : ''})`;
  return { name: file.name, bytes: npy.data, about, npy: { descr: npy.descr, shape: npy.shape } };
}

/** The file's elements as `dtype`; an error saying why when they are not such elements. */
export function argFileElements(f: ArgFile, dtype: Dtype): HostElements {
  const descr = f.npy?.descr;
  const size = DTYPE_BYTES[dtype];
  if (descr !== undefined && !dtypeFits(descr, PTX_TYPE[dtype])) throw new Error(`${f.name} holds ${descr} elements, not ${dtype}`);
  if (f.bytes.byteLength % size !== 0) throw new Error(`${f.name} has ${f.bytes.byteLength} bytes, not a whole number of ${dtype} elements (${size} bytes each)`);
  if (f.bytes.byteLength === 0) throw new Error(`${f.name} holds no elements`);
  const copy = f.bytes.slice().buffer; // aligned, and the page's own
  return dtype === 'f32' ? new Float32Array(copy) : dtype === 'i32' ? new Int32Array(copy) : dtype === 'u32' ? new Uint32Array(copy) : new Uint16Array(copy);
}
