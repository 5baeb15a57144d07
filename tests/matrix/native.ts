// Native CUDA recordings of the matrix kernels: the runs (kernel, launch, inputs) go to
// native/mma-cases.json (written by native/export-cases.test.ts), record_mma_native.py runs them on
// an NVIDIA GPU with cupy and writes native/mma_native.json, which the tests compare against when
// it is there. Words travel as base64 of little-endian u32 arrays.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scalar } from './harness.js';

export const NATIVE_DIR = join(import.meta.dirname, 'native');
export const CASES_FILE = join(NATIVE_DIR, 'mma-cases.json');
export const RECORDING_FILE = join(NATIVE_DIR, 'mma_native.json');

/**
 * One launch: kernel arguments are the inputs, then the (poisoned) outputs, then u32 scalars, then
 * `scratch` zeroed 16-byte buffers (the global-scratch pointers Triton 3.x appends to every kernel).
 */
export interface NativeRun {
  /** The .ptx file's name without extension, in tests/matrix/kernels or in tests/matrix/`dir`. */
  readonly ptx: string;
  readonly dir?: string;
  readonly kernel: string;
  readonly grid: number | readonly [number, number];
  readonly block: number;
  readonly inputs: readonly Uint32Array[];
  readonly outputWords: readonly number[];
  readonly scalars: readonly Scalar[];
  /** Dynamic shared memory of the launch (`.extern .shared`), 0 when absent. */
  readonly sharedBytes?: number;
  readonly scratch?: number;
}

/** Bytes of each trailing scratch buffer: Triton's kernels here use no global scratch, but take the pointers. */
export const SCRATCH_BYTES = 16;

export const toBase64 = (w: Uint32Array): string => Buffer.from(w.buffer, w.byteOffset, w.byteLength).toString('base64');
export function fromBase64(s: string): Uint32Array {
  const b = Buffer.from(s, 'base64');
  return new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

/** A scalar argument as the 32-bit word the recorder passes (an f32 as its bits). */
const scalarBits = (s: Scalar): number => ('u32' in s ? s.u32 : new Uint32Array(new Float32Array([s.f32]).buffer)[0] as number);

/** The JSON record_mma_native.py reads. */
export function exportRuns(runs: readonly NativeRun[]): string {
  const json = runs.map((r) => ({
    ptx: r.ptx, kernel: r.kernel, grid: r.grid, block: r.block,
    inputs: r.inputs.map(toBase64), outputWords: r.outputWords, scalars: r.scalars.map(scalarBits),
    ...(r.dir ? { dir: r.dir } : {}), ...(r.sharedBytes ? { sharedBytes: r.sharedBytes } : {}), ...(r.scratch ? { scratch: r.scratch } : {}),
  }));
  return `${JSON.stringify({ runs: json }, null, 1)}\n`;
}

interface Recording { readonly device: string; readonly outputs: Record<string, readonly string[]>; readonly errors?: Record<string, string> }

let cached: Recording | null | undefined;
function recording(): Recording | null {
  if (cached === undefined) cached = existsSync(RECORDING_FILE) ? (JSON.parse(readFileSync(RECORDING_FILE, 'utf8')) as Recording) : null;
  return cached;
}

/** The native outputs of `kernel`, or undefined where nothing was recorded. */
export function nativeOutputs(kernel: string): Uint32Array[] | undefined {
  return recording()?.outputs[kernel]?.map(fromBase64);
}

export const hasRecording = (): boolean => recording() !== null;
export const recordedDevice = (): string => recording()?.device ?? '';
