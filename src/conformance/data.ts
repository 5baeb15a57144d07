/**
 * The conformance data the package ships (dist/conformance/, written by
 * scripts/build-conformance.mjs), loaded on any host: the caller says how to read a file by name
 * (node-data.ts reads them from disk, a browser fetches them), and gunzipping is
 * DecompressionStream's, which Node, Deno and browsers all have.
 */
import { parseBatch, type ConformanceBatch } from './batch.js';

export interface ConformanceIndex {
  /** Cases kept per form. */
  readonly cases: number;
  readonly batches: readonly string[];
  /** Batches without a usable recording, and why. */
  readonly skipped: readonly { readonly name: string; readonly why: string }[];
}

/** Reads one of the data's files (`index.json`, `<batch>.json.gz`, ...) by name. */
export type ReadConformanceFile = (name: string) => Promise<Uint8Array>;

export interface ConformanceData {
  readonly index: ConformanceIndex;
  batch(name: string): Promise<ConformanceBatch>;
}

/** The data behind `read`: its index now, each batch when asked for. */
export async function loadConformance(read: ReadConformanceFile): Promise<ConformanceData> {
  const index = JSON.parse(new TextDecoder().decode(await read('index.json'))) as ConformanceIndex;
  return {
    index,
    async batch(name) {
      if (!index.batches.includes(name)) throw new Error(`no conformance batch '${name}' (batches: ${index.batches.join(', ')})`);
      const [json, inputs, native] = await Promise.all(['.json.gz', '.in.bin.gz', '.out.bin.gz'].map(async (suffix) => gunzip(await read(`${name}${suffix}`))));
      return parseBatch(new TextDecoder().decode(json), inputs as Uint8Array, native as Uint8Array);
    },
  };
}

/** Files fetched from `base` (a URL ending in `/`), as a page loads the data served beside it. */
export function fetchConformanceFiles(base: string | URL): ReadConformanceFile {
  return async (name) => {
    const url = new URL(name, base);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`fetching ${url.href}: ${response.status} ${response.statusText}`);
    return new Uint8Array(await response.arrayBuffer());
  };
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
