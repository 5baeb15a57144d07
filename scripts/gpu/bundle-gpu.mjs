// Bundles what the GPU machine runs (it has node and the production node_modules, no vitest, no
// TypeScript): the e2e cases and the corpus (scripts/bundle.mjs deno) and the warp runner next to
// tests/warps.
import { build } from 'esbuild';
import { bundle, bundleCorpus } from '../bundle.mjs';
await bundle('deno');
await bundleCorpus('deno');
await build({
  entryPoints: ['scripts/gpu/warps-entry.ts'], outfile: 'tests/warps/.gpu-warps.mjs', bundle: true, format: 'esm',
  platform: 'node', target: 'node20', external: ['webgpu'], logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
console.log('bundled dist/deno/tests.js, dist/deno/corpus.js and tests/warps/.gpu-warps.mjs');
