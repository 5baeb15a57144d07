// Writes every conformance batch that is recorded natively (tests/conformance/*.forms.ts,
// `NATIVE_BATCHES`) as <name>.ptx + <name>.in.bin + <name>.json into the given directory, for
// tests/conformance/record_native.py to run on an NVIDIA GPU. Usage:
//   node scripts/gen-conformance.mjs <out-dir> [name-prefix]
import { build } from 'esbuild';
import { mkdirSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const outDir = resolve(process.argv[2] ?? 'scratch/conformance-native');
const prefix = process.argv[3] ?? '';
const root = resolve(new URL('..', import.meta.url).pathname);
const formsFiles = readdirSync(join(root, 'tests/conformance')).filter((f) => f.endsWith('.forms.ts'));
const entry = `export { emitBatch } from './tests/conformance/harness.ts';\n` + formsFiles.map((f, i) => `export { NATIVE_BATCHES as b${i} } from './tests/conformance/${f}';`).join('\n');
const bundle = join(root, 'scratch', `.gen-conformance-${process.pid}.mjs`);
await build({
  stdin: { contents: entry, resolveDir: root, loader: 'ts' },
  bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: bundle, logLevel: 'error',
});
try {
  const { emitBatch, ...suites } = await import(pathToFileURL(bundle).href);
  mkdirSync(outDir, { recursive: true });
  for (const batches of Object.values(suites)) {
    for (const b of batches) {
      if (!b.name.startsWith(prefix)) continue;
      const e = emitBatch(b);
      writeFileSync(join(outDir, `${b.name}.ptx`), e.ptx);
      writeFileSync(join(outDir, `${b.name}.in.bin`), e.inputBytes);
      writeFileSync(join(outDir, `${b.name}.json`), JSON.stringify(e.manifest));
      console.log(`${b.name}: ${e.manifest.forms.length} forms, ${e.manifest.threads} threads, ${e.inputBytes.length} input bytes`);
    }
  }
} finally {
  rmSync(bundle, { force: true });
}
