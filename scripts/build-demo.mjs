#!/usr/bin/env node
// Builds the playground (demo/) into dist/demo/: demo/main.ts with the package's public API
// bundled for browsers by esbuild (main.js), index.html and style.css copied beside it, and the
// conformance data (dist/conformance/, written first when missing) in conformance/ for the
// Conformance tab. The folder is self-contained: any static server (scripts/serve-demo.mjs)
// serves it offline.
// Usage: node scripts/build-demo.mjs      As a module: `await buildDemo()` returns the folder.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const demoDir = join(root, 'dist', 'demo');

export async function buildDemo({ minify = true } = {}) {
  mkdirSync(demoDir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'demo', 'main.ts')],
    outfile: join(demoDir, 'main.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify,
    sourcemap: true,
    // Node-only: the runtime imports Dawn's bindings dynamically, and only where navigator.gpu is missing.
    external: ['webgpu', 'node:*'],
    loader: { '.ptx': 'text', '.cu': 'text', '.wgsl': 'text' },
    logLevel: 'warning',
    logOverride: { 'unsupported-dynamic-import': 'silent' },
  });
  if (result.errors.length > 0) throw new Error('esbuild failed for the demo');
  for (const f of ['index.html', 'style.css']) copyFileSync(join(root, 'demo', f), join(demoDir, f));
  const data = join(root, 'dist', 'conformance');
  if (!existsSync(join(data, 'index.json'))) execFileSync(process.execPath, [join(root, 'scripts', 'build-conformance.mjs')], { cwd: root, stdio: 'inherit' });
  rmSync(join(demoDir, 'conformance'), { recursive: true, force: true });
  cpSync(data, join(demoDir, 'conformance'), { recursive: true });
  return demoDir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const t0 = Date.now();
  const dir = await buildDemo();
  console.log(`built ${dir} (main.js ${Math.round(statSync(join(dir, 'main.js')).size / 1024)} KiB) in ${Date.now() - t0} ms`);
}
