/**
 * A/B parser benchmark: the current src/ptx against another checkout's (PTX_SRC=<dir with
 * ptx/index.ts>, e.g. `git archive HEAD src | tar -x -C /tmp/before`), parsing the same
 * text alternately, so load changes on a shared machine hit both sides alike.
 *
 * Run: PTX_SRC=/tmp/before/src node --expose-gc --single-threaded bench/parse-ab.mjs [MB ...] [--runs N] [--one-function]
 * Reports per size and side: best and median MB/s by CPU time (user + system; with
 * --single-threaded, GC runs on the parsing thread) and by wall clock.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { bigPtx, loadParser, root } from './parse-input.mjs';

if (!process.env.PTX_SRC) throw new Error('set PTX_SRC to the other checkout\'s src directory');
const sides = [
  ['before', await loadParser(join(process.env.PTX_SRC, 'ptx/index.ts'), 'a.mjs')],
  ['after', await loadParser(new URL('src/ptx/index.ts', root).pathname, 'b.mjs')],
];
const oneFunction = process.argv.includes('--one-function');

const args = process.argv.slice(2);
const ri = args.indexOf('--runs');
const runs = ri >= 0 ? Number(args[ri + 1]) : 7;
const sizes = args.filter((a, i) => !a.startsWith('--') && !(ri >= 0 && i === ri + 1)).map(Number).filter((n) => n > 0);
const gc = globalThis.gc ?? (() => {});
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (xs) => `${Math.max(...xs).toFixed(2)} best / ${med(xs).toFixed(2)} median`;
console.log(`node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, ${runs} runs each`);
for (const mb of sizes.length ? sizes : [1, 4, 8]) {
  const text = bigPtx(mb * 1e6, oneFunction);
  const n = text.length / 1e6;
  const cpu = { before: [], after: [] };
  const wall = { before: [], after: [] };
  for (const [, parse] of sides) parse(text, 'warm.ptx');
  for (let r = 0; r < runs; r++) {
    for (const [name, parse] of r % 2 ? [...sides].reverse() : sides) {
      gc();
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      parse(text, 'big.ptx');
      const c = process.cpuUsage(c0);
      wall[name].push(n / ((performance.now() - t0) / 1000));
      cpu[name].push(n / ((c.user + c.system) / 1e6));
    }
  }
  for (const [name] of sides) console.log(`${n.toFixed(1)} MB ${name.padEnd(6)}: CPU ${fmt(cpu[name])} MB/s; wall ${fmt(wall[name])} MB/s`);
}
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
