/**
 * The conformance data shipped in the package (dist/conformance/, written by
 * scripts/build-conformance.mjs), read from disk on Node: the CLI's loader.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseBatch, type ConformanceBatch } from './batch.js';

export interface ConformanceIndex {
  /** Cases kept per form. */
  readonly cases: number;
  readonly batches: readonly string[];
  /** Batches without a usable recording, and why. */
  readonly skipped: readonly { readonly name: string; readonly why: string }[];
}

/** dist/conformance/, next to this module's dist/src/conformance/. */
const DATA = new URL('../../conformance/', import.meta.url);

/** The index, or undefined when the data was not built (`npm run build` writes it). */
export function readIndex(dir: URL = DATA): ConformanceIndex | undefined {
  const path = new URL('index.json', dir);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ConformanceIndex) : undefined;
}

export function readBatch(name: string, dir: URL = DATA): ConformanceBatch {
  const read = (suffix: string): Uint8Array => gunzipSync(readFileSync(new URL(`${name}${suffix}`, dir)));
  return parseBatch(new TextDecoder().decode(read('.json.gz')), read('.in.bin.gz'), read('.out.bin.gz'));
}
