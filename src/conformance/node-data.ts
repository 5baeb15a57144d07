/**
 * The conformance data shipped in the package (dist/conformance/), read from disk: the CLI's
 * loader on Node and Deno (both have node:fs; Deno's own WebGPU runs the kernels).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { loadConformance, type ConformanceData } from './data.js';

/** dist/conformance/, next to this module's dist/src/conformance/. */
export const CONFORMANCE_DIR = new URL('../../conformance/', import.meta.url);

/** The data in `dir`, or undefined when it was not built (`npm run build` writes it). */
export async function readConformance(dir: URL = CONFORMANCE_DIR): Promise<ConformanceData | undefined> {
  if (!existsSync(new URL('index.json', dir))) return undefined;
  return loadConformance(async (name) => new Uint8Array(await readFile(new URL(name, dir))));
}
