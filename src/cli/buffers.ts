/**
 * Buffer arguments after a run: written to `.npy` or raw files or stdout (`--out`), compared
 * with expected files (`--expect`), and shown as numbers (text and `--json`).
 */
import { fromHalfBits } from '../../runtime/half.js';
import { parseArgSpec } from './args.js';
import type { CliIo } from './io.js';
import type { BufferArg } from './launch-input.js';
import { formatNpy } from './npy.js';

function bytesOf(arg: BufferArg): Uint8Array {
  return new Uint8Array(arg.data.buffer, arg.data.byteOffset, arg.data.byteLength);
}

/** Writes `arg` to `path`: `.npy` (1-D, the element type's dtype), `-` (raw bytes on stdout), or raw bytes. */
export function writeBuffer(arg: BufferArg, path: string, io: CliIo): void {
  const bytes = bytesOf(arg);
  if (path === '-') io.outBytes(bytes);
  else io.writeFile(path, path.endsWith('.npy') ? formatNpy(arg.type, bytes, arg.data.length) : bytes);
}

/** The file at `path` read as a buffer of `arg`'s element type (npy dtype checked as for `--arg`). */
export function readExpected(arg: BufferArg, path: string, io: CliIo): BufferArg {
  return parseArgSpec(`${arg.type}:file=${path}`, (p) => io.readFile(p)) as BufferArg;
}

/** An element as a number (f16 bits decoded) or a bigint (64-bit integers). */
export function elementValue(arg: BufferArg, i: number): number | bigint {
  const v = arg.data[i] ?? 0;
  return arg.type === 'f16' ? fromHalfBits(Number(v)) : v;
}

/** The first `count` elements (all when count is undefined). */
export function elementValues(arg: BufferArg, count?: number): (number | bigint)[] {
  const n = Math.min(count ?? arg.data.length, arg.data.length);
  return Array.from({ length: n }, (_, i) => elementValue(arg, i));
}

export interface Tolerance {
  readonly atol: number;
  readonly rtol: number;
}

export interface Comparison {
  readonly mismatches: number;
  /** The first few differing elements. */
  readonly first: readonly { readonly index: number; readonly got: number | bigint; readonly expected: number | bigint }[];
  /** Set when the lengths differ. */
  readonly lengths?: { readonly got: number; readonly expected: number };
}

const SHOWN = 8;

/**
 * Element-wise comparison: integers exactly; floats within atol + rtol*|expected| (exactly
 * equal by default), NaN matching NaN, infinities matching only themselves.
 */
export function compareBuffers(got: BufferArg, expected: BufferArg, tol: Tolerance): Comparison {
  const float = got.type.startsWith('f');
  const first: { index: number; got: number | bigint; expected: number | bigint }[] = [];
  let mismatches = 0;
  const n = Math.min(got.data.length, expected.data.length);
  for (let i = 0; i < n; i++) {
    const a = elementValue(got, i);
    const b = elementValue(expected, i);
    if (float ? floatsMatch(Number(a), Number(b), tol) : a === b) continue;
    mismatches++;
    if (first.length < SHOWN) first.push({ index: i, got: a, expected: b });
  }
  if (got.data.length === expected.data.length) return { mismatches, first };
  return { mismatches: mismatches + Math.abs(got.data.length - expected.data.length), first, lengths: { got: got.data.length, expected: expected.data.length } };
}

function floatsMatch(a: number, b: number, { atol, rtol }: Tolerance): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (a === b) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= atol + rtol * Math.abs(b);
}
