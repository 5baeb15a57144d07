// Runs the corpus (dist/deno/corpus.js) under Node on Dawn's default adapter: on the GPU machine the
// NVIDIA Vulkan driver (subgroups of 32, so warp kernels take the native subgroup path), compared
// with the native recordings that tests/corpus/record_native.py wrote, and prints a pass/fail table.
//   node scripts/bundle.mjs deno                      # here (or scripts/gpu/bundle-gpu.mjs)
//   python3 tests/corpus/record_native.py --out DIR   # there, then:
//   node scripts/gpu/corpus-node.mjs [--native=DIR] [--filter=A,B] [--warp=auto|subgroups|emulated]
//                                    [--expect=ref] [--json=FILE]
// --native defaults to tests/corpus/native. Exit status 0 only when every run passed.
import { create, globals } from 'webgpu';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

Object.assign(globalThis, globals);
const flags = (process.env.DAWN_FLAGS ?? '').split(' ').filter(Boolean);
const gpu = create(flags);
Object.defineProperty(globalThis, 'navigator', { value: { gpu, userAgent: 'node' }, configurable: true });
const flag = (n) => process.argv.find((a) => a.startsWith(`--${n}=`))?.slice(n.length + 3);

const nativeDir = flag('native') ?? new URL('../../tests/corpus/native', import.meta.url).pathname;
const manifestPath = join(nativeDir, 'manifest.json');
const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : undefined;
if (manifest) console.log(`recordings: ${nativeDir} (${manifest.gpu}, driver ${manifest.driver}, ${manifest.recorded})`);
else console.log(`no recordings in ${nativeDir}`);

const mod = await import(new URL('../../dist/deno/corpus.js', import.meta.url).href);
const t0 = Date.now();
const { corpus } = await mod.runAll({
  ...(flag('filter') ? { filter: flag('filter') } : {}),
  ...(flag('warp') ? { warpPath: flag('warp') } : {}),
  ...(flag('expect') ? { expect: flag('expect') } : {}),
  slow: true,
  ...(manifest ? { manifest } : {}),
  loadNative: async (name) => {
    const p = join(nativeDir, name);
    return existsSync(p) ? new Uint8Array(readFileSync(p)) : undefined;
  },
  // every run gets a line, so a run that hangs the device is the one after the last line
  log: (l) => console.log(l),
});
if (flag('json')) writeFileSync(flag('json'), JSON.stringify({ host: 'node-gpu', manifest: manifest && { ...manifest, runs: undefined }, results: corpus }, null, 2));
const bad = corpus.filter((r) => r.status === 'fail' || r.status === 'error');
console.log(`node corpus: ${corpus.length - bad.length}/${corpus.length} passed in ${Date.now() - t0} ms`);
process.exit(bad.length || corpus.length === 0 ? 1 : 0);
