// Runs the shared e2e cases (the Deno/Chromium bundle) under Node on Dawn's default adapter: on the
// GPU machine this is the NVIDIA Vulkan driver (subgroups of 32).
//   node scripts/bundle.mjs deno && node scripts/gpu/e2e-node.mjs [--filter=STR] [--json=FILE]
import { create, globals } from 'webgpu';
import { writeFileSync } from 'node:fs';

Object.assign(globalThis, globals);
const flags = (process.env.DAWN_FLAGS ?? '').split(' ').filter(Boolean);
const gpu = create(flags);
Object.defineProperty(globalThis, 'navigator', { value: { gpu, userAgent: 'node' }, configurable: true });
const flag = (n) => process.argv.find((a) => a.startsWith(`--${n}=`))?.slice(n.length + 3);
const mod = await import(new URL('../../dist/deno/tests.js', import.meta.url).href);
const t0 = Date.now();
const { info, results } = await mod.runAll({ ...(flag('filter') ? { filter: flag('filter') } : {}), log: (l) => console.log(l) });
const failed = results.filter((r) => !r.ok);
if (flag('json')) writeFileSync(flag('json'), JSON.stringify({ host: 'node-gpu', info, results }, null, 2));
console.log(`node e2e: ${results.length - failed.length}/${results.length} passed in ${Date.now() - t0} ms${failed.length ? `; FAILED: ${failed.map((r) => r.name).join(', ')}` : ''}`);
process.exit(failed.length || results.length === 0 ? 1 : 0);
