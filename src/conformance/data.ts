/**
 * The conformance data the package ships (dist/conformance/, written by
 * scripts/build-conformance.mjs), loaded on any host: the caller says how to read a file by name
 * (node-data.ts reads them from disk, a browser fetches them), and gunzipping is
 * DecompressionStream's, which Node, Deno and browsers all have.
 */
import { parseBatch, type AnyBatch, type KernelBatch } from './batch.js';

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
  batch(name: string): Promise<AnyBatch>;
}

/** The data behind `read`: its index now, each batch when asked for. */
export async function loadConformance(read: ReadConformanceFile): Promise<ConformanceData> {
  const index = JSON.parse(new TextDecoder().decode(await read('index.json'))) as ConformanceIndex;
  return {
    index,
    async batch(name) {
      if (!index.batches.includes(name)) throw new Error(`no conformance batch '${name}' (batches: ${index.batches.join(', ')})`);
      const file = async (suffix: string): Promise<Uint8Array> => gunzip(await read(`${name}${suffix}`));
      const json = JSON.parse(new TextDecoder().decode(await file('.json.gz'))) as KernelBatch | Parameters<typeof parseBatch>[0];
      // A kernel batch is one JSON file; a form batch has its slots in two binary ones.
      if ('kind' in json) return json;
      const [inputs, native] = await Promise.all([file('.in.bin.gz'), file('.out.bin.gz')]);
      return parseBatch(json, inputs, native);
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
