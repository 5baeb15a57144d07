// What the parser benchmarks (bench/parse.mjs, bench/parse-ab.mjs) share: loading a src/ptx
// parser through esbuild, and N MB of real nvcc PTX built from the frontend corpus.
import { build } from 'esbuild';
import { readFileSync, readdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const root = new URL('../', import.meta.url);
const corpus = new URL('tests/frontend/corpus/', root);
const dir = mkdtempSync(join(tmpdir(), 'ptx-bench-'));

/** `parsePtx` of the src/ptx whose index.ts is `entry` (a path), bundled without a build step. */
export async function loadParser(entry, name = 'ptx.mjs') {
  const out = join(dir, name);
  // nodePaths: a checkout outside the repository still finds this repository's typescript-parsec.
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile: out, logLevel: 'error', nodePaths: [new URL('node_modules', root).pathname] });
  return (await import(pathToFileURL(out).href)).parsePtx;
}

const bodies = () => readdirSync(corpus)
  .filter((f) => f.endsWith('.ptx'))
  .sort()
  .map((f) => readFileSync(new URL(f, corpus), 'utf8'))
  .map((t) => t.replace(/^\.(version|target|address_size).*$/gm, ''))
  .map((t) => t.split('\t.section')[0] ?? '');

/**
 * About `bytes` bytes of PTX: the corpus's bodies (debug sections dropped) repeated; or, with
 * `oneFunction`, one kernel whose body is reduce.ptx's first kernel's statements repeated, the
 * shape of large unrolled kernels (the parser must not keep a function's tokens alive while it
 * parses the body).
 */
export function bigPtx(bytes, oneFunction = false) {
  if (oneFunction) {
    const t = readFileSync(new URL('reduce.ptx', corpus), 'utf8');
    const open = t.indexOf('{', t.indexOf('.entry'));
    const close = t.indexOf('\n}', open);
    const lines = t.slice(open + 1, close).split('\n');
    let s = t.slice(0, open + 1) + lines.filter((l) => /^\s*\.reg/.test(l)).join('\n');
    const insts = lines.filter((l) => !/^\s*\.reg/.test(l)).join('\n');
    while (s.length < bytes) s += insts;
    return `${s}\n}\n`;
  }
  const all = bodies().join('\n');
  let s = '.version 9.0\n.target sm_90a\n.address_size 64\n';
  while (s.length < bytes) s += all;
  return s;
}
