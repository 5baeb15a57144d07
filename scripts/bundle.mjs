#!/usr/bin/env node
// Bundles tests/hosts/browser-entry.ts (public API + shared e2e cases + every tests/kernels/*.ptx
// as text) into one ESM file for the hosts that cannot load the NodeNext-style sources directly:
//   dist/browser/tests.js  (served to Chromium)     dist/deno/tests.js  (imported by Deno)
// Usage: node scripts/bundle.mjs [browser|deno|all]     (default: all)
// As a module: `await bundle('browser')` returns the output path.
import { build } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
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

export async function bundle(target = 'browser') {
  const outfile = join(root, 'dist', target, 'tests.js');
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'tests/hosts/browser-entry.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    // Node-only: the runtime imports it dynamically, and only where navigator.gpu is missing.
    external: ['webgpu', 'node:*'],
    loader: { '.ptx': 'text', '.wgsl': 'text' },
    plugins: [ptxKernelsPlugin],
    logLevel: 'warning',
    logOverride: { 'unsupported-dynamic-import': 'silent' },
  });
  if (result.errors.length > 0) throw new Error(`esbuild failed for ${target}`);
  return outfile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const which = process.argv[2] ?? 'all';
  const targets = which === 'all' ? ['browser', 'deno'] : [which];
  for (const t of targets) {
    const t0 = Date.now();
    const out = await bundle(t);
    console.log(`bundled ${out} in ${Date.now() - t0} ms`);
  }
}
