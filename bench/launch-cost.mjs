// CPU time per `launch()` once the JIT is warm: 6 x 500 launches of a 4-block copy (too small
// for the GPU to matter), timed around the launch calls only, with a synchronize between the
// groups; printed per group of 3000 launches, then the cost of `prepare` (argument checks,
// aliasing, parameter packing) alone.   npm run build && node bench/launch-cost.mjs
import { readFileSync } from 'node:fs';
import { createContext, releaseDefaultDevice } from '../dist/src/index.js';

const ptx = readFileSync(new URL('./kernels/bandwidth.ptx', import.meta.url), 'utf8');
const ctx = await createContext();
const fn = ctx.loadModule(ptx).getFunction('copy_f32x4');
const N = 4096;
const args = [ctx.malloc(N * 4), ctx.malloc(N * 4), N / 4];
for (let r = 0; r < 4; r++) {
  let cpu = 0;
  for (let k = 0; k < 6; k++) {
    const t0 = performance.now();
    for (let i = 0; i < 500; i++) fn.launch({ grid: 4, block: 256 }, args);
    cpu += performance.now() - t0;
    await ctx.synchronize();
  }
  console.log(JSON.stringify({ round: r, cpuUsPerLaunch: (1000 * cpu) / 3000 }));
}
const t0 = performance.now();
for (let i = 0; i < 3000; i++) fn.prepare({ grid: 4, block: 256 }, args);
console.log(JSON.stringify({ prepareUs: (1000 * (performance.now() - t0)) / 3000 }));
await releaseDefaultDevice();
process.exit(0);
