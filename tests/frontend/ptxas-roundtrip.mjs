#!/usr/bin/env node
/**
 * Round trip through NVIDIA's assembler: every corpus file is parsed, printed with our
 * printer, and the printed PTX is assembled with `ptxas -arch=<its .target>`. The original
 * file is assembled too, so a file ptxas itself refuses (e.g. `.address_size 32`, which
 * ptxas 13 no longer compiles) is reported as such instead of as a printer bug. Targets
 * older than this ptxas supports are assembled for its oldest target (PTX is forward
 * compatible). Writes a table to stdout; exits 1 if any printed file fails where the
 * original passes.
 *
 * Run: node tests/frontend/ptxas-roundtrip.mjs [log file]   (needs ptxas on PATH)
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('../../', import.meta.url);
const tmp = mkdtempSync(join(tmpdir(), 'ptxas-rt-'));
await build({
  entryPoints: [new URL('src/ptx/index.ts', root).pathname], bundle: true, format: 'esm', platform: 'node',
  outfile: join(tmp, 'ptx.mjs'), logLevel: 'error',
});
const { parsePtx, printPtx } = await import(pathToFileURL(join(tmp, 'ptx.mjs')).href);

const corpus = new URL('tests/frontend/corpus/', root);
const files = [
  ...readdirSync(corpus).filter((f) => f.endsWith('.ptx')),
  ...readdirSync(new URL('arch/', corpus)).filter((f) => f.endsWith('.ptx')).map((f) => `arch/${f}`),
].sort();

const version = execFileSync('ptxas', ['--version'], { encoding: 'utf8' }).trim().split('\n').pop();
const OLDEST = 75;
function ptxas(path, target) {
  const n = Number(/sm_(\d+)/.exec(target)?.[1] ?? OLDEST);
  const arch = n < OLDEST ? `sm_${OLDEST}` : target;
  try {
    execFileSync('ptxas', [`-arch=${arch}`, path, '-o', '/dev/null'], { stdio: 'pipe' });
    return { ok: true, arch };
  } catch (e) {
    const msg = String(e.stderr ?? e.message).split('\n').filter((l) => /error|fatal/.test(l))[0] ?? 'failed';
    return { ok: false, arch, msg: msg.trim() };
  }
}

const lines = [`# ptxas round trip, ${new Date().toISOString().slice(0, 10)}, ${version}`, '', '| file | target | original | printed |', '| --- | --- | --- | --- |'];
let bad = 0;
for (const f of files) {
  const text = readFileSync(new URL(f, corpus), 'utf8');
  const ast = parsePtx(text, f);
  const target = ast.target[0] ?? 'sm_80';
  const orig = join(tmp, f.replace('/', '_'));
  const printed = `${orig}.printed.ptx`;
  writeFileSync(orig, text);
  writeFileSync(printed, printPtx(ast));
  const a = ptxas(orig, target);
  const b = ptxas(printed, target);
  if (a.ok && !b.ok) bad++;
  const show = (r) => (r.ok ? `ok (${r.arch})` : `rejected: ${r.msg}`);
  lines.push(`| ${f} | ${target} | ${show(a)} | ${show(b)} |`);
}
lines.push('', bad ? `${bad} printed file(s) rejected where the original assembles` : 'every printed file assembles wherever its original does');
const out = lines.join('\n') + '\n';
process.stdout.write(out);
if (process.argv[2]) writeFileSync(process.argv[2], out);
process.exit(bad ? 1 : 0);
