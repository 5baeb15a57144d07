// The realistic cases that spin-wait across warps (tests/e2e/cases-realcode.ts, spinCases), on
// the default adapter. Both hang today (lavapipe and the H100: tests/e2e/cases-realcode.ts says why).
//   npm run build && node scripts/gpu/realcode-spin.mjs   (there: source .gpu/remote.sh first)
import { readFileSync } from 'node:fs';
import { create, globals } from 'webgpu';
Object.assign(globalThis, globals);
Object.defineProperty(globalThis, 'navigator', { value: { gpu: create([]) }, configurable: true });
const { runPtx } = await import('../../dist/src/index.js');
const { build } = await import('esbuild');
const out = await build({ entryPoints: ['tests/e2e/cases-realcode.ts'], bundle: true, write: false, format: 'esm', platform: 'node' });
const mod = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
let failed = 0;
for (const c of mod.spinCases) {
  const args = c.makeArgs();
  const t0 = performance.now();
  await runPtx(readFileSync(`tests/kernels/${c.ptxFile}`, 'utf8'), args, { grid: c.grid, block: c.block, entry: c.entry });
  const msg = c.check(args);
  if (msg) failed++;
  console.log(`${c.name}: ${msg ?? 'ok'} (${(performance.now() - t0).toFixed(0)} ms)`);
}
process.exit(failed ? 1 : 0);
