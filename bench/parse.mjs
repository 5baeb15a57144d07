/**
 * Parser throughput and memory benchmark (issue 3: >= 5 MB/s on one core, memory < 20x the
 * file size). Bundles src/ptx with esbuild (no build step needed), builds N MB of real nvcc
 * PTX from the frontend corpus (debug sections dropped, bodies repeated), then parses it
 * several times.
 *
 * Run: node --expose-gc bench/parse.mjs [MB ...] [--one-function]      (default: 1 4 8)
 * Reports per size: best and median MB/s by wall clock and by the process's CPU time (user +
 * system over all threads, so GC helper threads count; on a loaded machine this is the
 * fairer "one core" figure; `node --single-threaded` keeps GC on the main thread too), the heap retained by the AST (bytes per PTX byte,
 * measured after a full GC with the AST alive), and the peak heap growth during a parse.
 */
import { cpus } from 'node:os';
import { join } from 'node:path';
import { bigPtx, loadParser, root } from './parse-input.mjs';

// PTX_SRC=<dir>: benchmark another checkout's src/ptx (e.g. `git archive HEAD src`) for before/after.
const entry = process.env.PTX_SRC ? join(process.env.PTX_SRC, 'ptx/index.ts') : new URL('src/ptx/index.ts', root).pathname;
const parsePtx = await loadParser(entry);
const oneFunction = process.argv.includes('--one-function');

const gc = globalThis.gc ?? (() => {});
if (!globalThis.gc) console.log('(run with --expose-gc for memory figures)');
const sizes = process.argv.slice(2).filter((a) => !a.startsWith('--')).map(Number).filter((n) => n > 0);
console.log(`node ${process.version}, ${cpus()[0]?.model ?? '?'} x${cpus().length}`);
for (const mb of sizes.length ? sizes : [1, 4, 8]) {
  const text = bigPtx(mb * 1e6, oneFunction);
  const n = text.length;
  parsePtx(text, 'warm.ptx');
  const rates = [];
  const cpuRates = [];
  for (let i = 0; i < 5; i++) {
    gc();
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    parsePtx(text, 'big.ptx');
    const c = process.cpuUsage(c0);
    rates.push(n / 1e6 / ((performance.now() - t0) / 1000));
    cpuRates.push(n / 1e6 / ((c.user + c.system) / 1e6));
  }
  rates.sort((a, b) => a - b);
  cpuRates.sort((a, b) => a - b);
  gc();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const ast = parsePtx(text, 'big.ptx');
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  gc();
  const retained = process.memoryUsage().heapUsed - before;
  console.log(
    `${(n / 1e6).toFixed(1)} MB: wall best ${rates[4].toFixed(2)} / median ${rates[2].toFixed(2)} MB/s; ` +
      `CPU time (all threads) best ${cpuRates[4].toFixed(2)} / median ${cpuRates[2].toFixed(2)} MB/s; ` +
      `AST retained ${(retained / n).toFixed(1)} B/B; heap after parse ${((peak - before) / n).toFixed(1)} B/B` +
      ` (${ast.items.length} items)`,
  );
}
