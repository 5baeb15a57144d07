#!/usr/bin/env node
// Bundles tests/hosts/browser-entry.ts (public API + shared e2e cases + every tests/kernels/*.ptx
// as text) into one ESM file for the hosts that cannot load the NodeNext-style sources directly:
//   dist/browser/tests.js  (served to Chromium)     dist/deno/tests.js  (imported by Deno)
// and the corpus (tests/corpus/host-entry.ts with tests/corpus/kernels/*.ptx and the native
// recordings) into dist/browser/corpus.js and dist/deno/corpus.js.
// Usage: node scripts/bundle.mjs [browser|deno|all]     (default: all)
// As a module: `await bundle('browser')` / `await bundleCorpus('deno')` return the output path.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const kernelsDir = join(root, 'tests', 'kernels');

/** `import kernels from 'virtual:ptx-kernels'`: { 'saxpy.ptx': '<text>', ... }. */
const ptxKernelsPlugin = {
  name: 'ptx-kernels',
  setup(b) {
    b.onResolve({ filter: /^virtual:ptx-kernels$/ }, () => ({ path: 'ptx-kernels', namespace: 'ptx-kernels' }));
    b.onLoad({ filter: /.*/, namespace: 'ptx-kernels' }, () => {
      const files = readdirSync(kernelsDir).filter((f) => f.endsWith('.ptx')).sort();
      const map = Object.fromEntries(files.map((f) => [f, readFileSync(join(kernelsDir, f), 'utf8')]));
      return { contents: `export default ${JSON.stringify(map)};`, loader: 'js', watchFiles: files.map((f) => join(kernelsDir, f)) };
    });
  },
};

const corpusDir = join(root, 'tests', 'corpus');

/** `virtual:corpus-kernels` (file -> PTX) and `virtual:corpus-native` ({manifest, files: base64}). */
const corpusPlugin = {
  name: 'corpus',
  setup(b) {
    b.onResolve({ filter: /^virtual:corpus-(kernels|native)$/ }, (a) => ({ path: a.path.slice(8), namespace: 'corpus' }));
    b.onLoad({ filter: /^corpus-kernels$/, namespace: 'corpus' }, () => {
      const dir = join(corpusDir, 'kernels');
      const files = readdirSync(dir).filter((f) => f.endsWith('.ptx')).sort();
      const map = Object.fromEntries(files.map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
      return { contents: `export default ${JSON.stringify(map)};`, loader: 'js', watchFiles: files.map((f) => join(dir, f)) };
    });
    b.onLoad({ filter: /^corpus-native$/, namespace: 'corpus' }, () => {
      const dir = join(corpusDir, 'native');
      const manifestPath = join(dir, 'manifest.json');
      const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : null;
      const names = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.bin.gz')).sort() : [];
      const files = Object.fromEntries(names.map((f) => [f, readFileSync(join(dir, f)).toString('base64')]));
      return { contents: `export default ${JSON.stringify({ manifest, files })};`, loader: 'js' };
    });
  },
};

export async function bundle(target = 'browser') {
  return bundleEntry(target, 'tests/hosts/browser-entry.ts', 'tests.js');
}

export async function bundleCorpus(target = 'browser') {
  return bundleEntry(target, 'tests/corpus/host-entry.ts', 'corpus.js');
}

async function bundleEntry(target, entry, name) {
  const outfile = join(root, 'dist', target, name);
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    // Node-only: the runtime imports it dynamically, and only where navigator.gpu is missing.
    external: ['webgpu', 'node:*'],
    loader: { '.ptx': 'text', '.wgsl': 'text' },
    plugins: [ptxKernelsPlugin, corpusPlugin],
    logLevel: 'warning',
    logOverride: { 'unsupported-dynamic-import': 'silent' },
  });
  if (result.errors.length > 0) throw new Error(`esbuild failed for ${target} ${name}`);
  return outfile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const which = process.argv[2] ?? 'all';
  const targets = which === 'all' ? ['browser', 'deno'] : [which];
  for (const t of targets) {
    const t0 = Date.now();
    for (const out of [await bundle(t), await bundleCorpus(t)]) console.log(`bundled ${out} in ${Date.now() - t0} ms`);
  }
}
