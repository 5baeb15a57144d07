/**
 * The native recordings (tests/corpus/native/, written by record_native.py on an NVIDIA GPU):
 * manifest.json describes the machine and every recorded run; <file>.bin.gz holds the run's
 * recorded buffers (the checked, not ignored ones, in table order), each byte-shuffled: byte j of
 * every little-endian element, for j = 0 .. size-1 (gzip packs floats better that way). Runs with
 * equal results share a file.
 * Host-agnostic: the caller supplies the file reader; gzip is decoded with DecompressionStream.
 */
import { byteSize, fromBytes, type NumArray } from './inputs.ts';
import { recordedBuffers, type CorpusRun } from './table.ts';

export interface RecordedBuffer {
  name: string;
  type: string;
  n: number;
  offset: number;
}

export interface NativeRun {
  file: string;
  buffers: RecordedBuffer[];
  /** SHA-256 (hex) of every generated buffer and symbol before the launches, by name. */
  inputs: Record<string, string>;
  ms?: number;
}

export interface NativeManifest {
  recorded: string;
  gpu: string;
  driver: string;
  runs: Record<string, NativeRun>;
  /** Runs that failed natively (load or launch), with the error. */
  failed?: Record<string, string>;
  [key: string]: unknown;
}

/** The recording's file name for a run id (record_native.py makes the same). */
export function recordingFile(id: string): string {
  return `${id.replace(/[^A-Za-z0-9_.@-]/g, '_')}.bin.gz`;
}

export async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Undoes record_native.py's byte shuffle of elements of `size` bytes. */
export function unshuffle(bytes: Uint8Array, size: number): Uint8Array {
  const n = bytes.length / size;
  const out = new Uint8Array(bytes.length);
  for (let j = 0; j < size; j++) for (let i = 0; i < n; i++) out[i * size + j] = bytes[j * n + i] as number;
  return out;
}

export type FileLoader = (name: string) => Promise<Uint8Array | undefined>;

/**
 * The recorded final contents of `run`'s checked buffers, or an error text saying why there are
 * none (no manifest, the run is not recorded, it failed natively, or the file does not match).
 */
export async function loadRecording(
  run: CorpusRun,
  manifest: NativeManifest | undefined,
  load: FileLoader,
): Promise<Map<string, NumArray> | string> {
  if (!manifest) return 'no native recordings (tests/corpus/native/manifest.json): run tests/corpus/record_native.py on an NVIDIA GPU';
  const failed = manifest.failed?.[run.id];
  if (failed !== undefined) return `the native run failed when recorded: ${failed}`;
  const rec = manifest.runs[run.id];
  if (!rec) return `${run.id} is not in the native recordings (recorded ${manifest.recorded}): record it again`;
  const gz = await load(rec.file);
  if (!gz) return `recording file ${rec.file} is missing`;
  const bytes = await gunzip(gz);
  const out = new Map<string, NumArray>();
  for (const b of recordedBuffers(run.c)) {
    const r = rec.buffers.find((x) => x.name === b.name);
    if (!r || r.type !== b.type || r.n !== b.n) return `recording of ${run.id} has no ${b.type}[${b.n}] ${b.name}: record it again`;
    const len = b.n * byteSize(b.type);
    if (r.offset + len > bytes.byteLength) return `recording ${rec.file} is truncated`;
    out.set(b.name, fromBytes(b.type, unshuffle(bytes.subarray(r.offset, r.offset + len), byteSize(b.type))));
  }
  return out;
}
