// Transpile throughput (issue 13 goal: at least 3 MB/s of real nvcc PTX on the 2-core dev machine):
// every .ptx of the repository (our own kernels: tests/, bench/; ~2 MB) through compile(), all
// entries, default options (no device facts: the exact helpers everywhere, as a first compile
// without a probe), after one warm-up pass; MB/s per pass, and the files that take longest per byte.
//   npm run build && node bench/transpile.mjs [passes=3] [--profile-top=10] [--skip=<path substring>]...
//   DIST=<folder with another build's dist/> node bench/transpile.mjs ...   (A/B: alternate the two)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
// DIST: the folder whose dist/ to measure (another build, for alternating A/B runs); default this checkout
const { compile } = await import(process.env.DIST ? `${process.env.DIST}/dist/src/index.js` : '../dist/src/index.js');

const passes = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 3);
const top = Number(process.argv.find((a) => a.startsWith('--profile-top='))?.slice(14) ?? 10);
const root = new URL('..', import.meta.url).pathname;
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) { if (name !== 'node_modules') walk(path); } else if (name.endsWith('.ptx')) files.push(path);
  }
};
walk(join(root, 'tests'));
walk(join(root, 'bench'));
const skip = process.argv.filter((a) => a.startsWith('--skip=')).map((a) => a.slice(7));
const sources = files.filter((f) => !skip.some((k) => f.includes(k))).map((f) => ({ file: f.slice(root.length), text: readFileSync(f, 'utf8') }));
const bytes = sources.reduce((n, s) => n + Buffer.byteLength(s.text), 0);

const perFile = new Map();
// CPU time of the thread that compiles (Linux): wall time here also counts V8's background
// compiler and GC threads and whatever else shares the 2 cores
const mainCpuMs = () => { try { return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6; } catch { return NaN; } };
const cpuRates = [];
let failed = 0;
function pass(record) {
  const t0 = performance.now();
  const c0 = mainCpuMs();
  for (const s of sources) {
    const t = performance.now();
    try { compile(s.text, { fileName: s.file }); } catch { if (record) failed++; }
    if (record) perFile.set(s.file, (perFile.get(s.file) ?? 0) + performance.now() - t);
  }
  if (record) cpuRates.push(+(bytes / 1e3 / (mainCpuMs() - c0)).toFixed(2));
  return performance.now() - t0;
}
pass(false);
const rates = [];
for (let p = 0; p < passes; p++) rates.push(bytes / 1e6 / (pass(true) / 1e3));
console.log(JSON.stringify({ files: sources.length, MB: +(bytes / 1e6).toFixed(2), failedPerPass: failed / passes, load: +loadavg()[0].toFixed(2), MBps: rates.map((r) => +r.toFixed(2)), compilingThreadMBps: cpuRates }));
const slowest = [...perFile].map(([file, ms]) => ({ file, ms: ms / passes, kb: Buffer.byteLength(sources.find((s) => s.file === file).text) / 1e3 }))
  .sort((a, b) => b.ms - a.ms).slice(0, top);
for (const s of slowest) console.log(`${s.ms.toFixed(1).padStart(8)} ms ${s.kb.toFixed(1).padStart(7)} KB ${(s.kb / s.ms).toFixed(2).padStart(6)} MB/s  ${s.file}`);
