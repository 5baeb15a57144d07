// Writes the conformance data `ptx-wgsl conformance` runs (src/conformance/batch.ts says what a
// batch is) into dist/conformance/: for every batch of tests/conformance/*.forms.ts that has a
// native recording in tests/conformance/native/, its kernel and inputs cut to the first CASES
// cases per form, and the recorded outputs cut to match; and the warp kernels of tests/warps/
// with their recording (tests/warps/native/warp_native.json) as one kernel batch. Run by
// `npm run build`.
//   <name>.json.gz  {manifest, ptx}        <name>.in.bin.gz, <name>.out.bin.gz   (u64 slots, LE)
//   warp-collectives.json.gz  {kind: 'kernels', name, sources, poison, cases}
//   index.json      {cases, batches: [names], skipped: [{name, why}]}
// Usage: node scripts/build-conformance.mjs [out-dir] [cases per form]
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

const root = resolve(new URL('..', import.meta.url).pathname);
const outDir = resolve(process.argv[2] ?? join(root, 'dist/conformance'));
const CASES = Number(process.argv[3] ?? 256);
const WARP_BATCH = 'warp-collectives';
const conf = join(root, 'tests/conformance');
const formsFiles = readdirSync(conf).filter((f) => f.endsWith('.forms.ts') && readFileSync(join(conf, f), 'utf8').includes('export const NATIVE_BATCHES'));
const entry = [
  `export { emitBatch } from './tests/conformance/harness.ts';`,
  `export { formSlots } from './src/conformance/batch.ts';`,
  ...formsFiles.map((f, i) => `export { NATIVE_BATCHES as b${i} } from './tests/conformance/${f}';`),
].join('\n');
const bundle = join(root, 'dist', `.build-conformance-${process.pid}.mjs`);
mkdirSync(join(root, 'dist'), { recursive: true });
await build({ stdin: { contents: entry, resolveDir: root, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: bundle, logLevel: 'error' });

try {
  const { emitBatch, formSlots, ...suites } = await import(pathToFileURL(bundle).href);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const written = [];
  const skipped = [];
  let bytes = 0;
  for (const batch of Object.values(suites).flat()) {
    const why = writeBatch(batch);
    if (why) skipped.push({ name: batch.name, why });
    else written.push(batch.name);
  }
  const warpWhy = writeWarpBatch();
  if (warpWhy) skipped.push({ name: WARP_BATCH, why: warpWhy });
  else written.push(WARP_BATCH);
  writeFileSync(join(outDir, 'index.json'), JSON.stringify({ cases: CASES, batches: written, skipped }));
  console.log(`conformance data: ${written.length} batches, ${(bytes / 1024).toFixed(0)} KiB in ${outDir}${skipped.length ? `; skipped ${skipped.map((s) => s.name).join(', ')}` : ''}`);

  /** The warp kernels as recorded on the GPU (tests/warps/record_native.py poisons outputs with 0xdeadbeef). */
  function writeWarpBatch() {
    const recording = join(root, 'tests/warps/native/warp_native.json');
    if (!existsSync(recording)) return 'no native recording';
    const { cases } = JSON.parse(readFileSync(recording, 'utf8'));
    const sources = {};
    for (const c of cases) sources[c.ptx] ??= readFileSync(join(root, 'tests/kernels', `${c.ptx}.ptx`), 'utf8');
    const batch = {
      kind: 'kernels', name: WARP_BATCH, sources, poison: 0xdeadbeef,
      cases: cases.map((c) => ({ source: c.ptx, entry: c.kernel, grid: c.grid, block: c.block, input: c.input, native: c.outputs })),
    };
    const data = gzipSync(JSON.stringify(batch), { level: 9 });
    writeFileSync(join(outDir, `${WARP_BATCH}.json.gz`), data);
    bytes += data.length;
    return undefined;
  }

  /** Writes one batch; returns why not when its recording is missing or stale. */
  function writeBatch(batch) {
    const nativeDir = join(conf, 'native');
    const metaPath = join(nativeDir, `${batch.name}.json`);
    if (!existsSync(metaPath)) return 'no native recording';
    const recorded = JSON.parse(readFileSync(metaPath, 'utf8'));
    const cases = batch.cases();
    const stale = recorded.forms.length !== cases.length || cases.some((c, f) => recorded.forms[f].body !== c.form.body || recorded.forms[f].count !== (c.inputs[0]?.length ?? 0));
    if (stale) return 'the recording is older than the forms (re-record)';
    const keep = Math.min(recorded.keep, CASES);
    const { ptx, manifest, inputBytes } = emitBatch({ name: batch.name, keep, cases: () => cases });
    const raw = gunzipSync(readFileSync(join(nativeDir, `${batch.name}.bin.gz`)));
    const words = new BigUint64Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
    const native = new BigUint64Array(Math.max(manifest.outSlots, 1));
    const from = formSlots(recorded.forms, recorded.keep);
    const to = formSlots(manifest.forms, keep);
    manifest.forms.forEach((form, f) => {
      const n = to[f].cases * form.outs.length;
      native.set(words.subarray(from[f].outOff, from[f].outOff + n), to[f].outOff);
    });
    const files = [
      [`${batch.name}.json.gz`, gzipSync(JSON.stringify({ manifest, ptx }), { level: 9 })],
      [`${batch.name}.in.bin.gz`, gzipSync(inputBytes, { level: 9 })],
      [`${batch.name}.out.bin.gz`, gzipSync(new Uint8Array(native.buffer), { level: 9 })],
    ];
    for (const [name, data] of files) {
      writeFileSync(join(outDir, name), data);
      bytes += data.length;
    }
    return undefined;
  }
} finally {
  rmSync(bundle, { force: true });
}
