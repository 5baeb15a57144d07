// The warp kernels on the GPU machine's WebGPU (Dawn on NVIDIA, 32-lane subgroups) for each warp
// path, against the JS reference and, where recorded, native CUDA. Bundled by
// scripts/gpu/bundle-gpu.mjs next to tests/warps so the harness finds the kernels; the GPU machine
// has node but no vitest.   node tests/warps/.gpu-warps.mjs [auto,emulated,subgroups]
import { create, globals } from 'webgpu';
import { WARP_CASES, expected, outputWords } from '../../tests/warps/cases.js';
import { nativeCases, runWarpKernel } from '../../tests/warps/harness.js';

Object.assign(globalThis, globals);
Object.defineProperty(globalThis, 'navigator', { value: { gpu: create([]), userAgent: 'node' }, configurable: true });

const paths = (process.argv[2] ?? 'auto,emulated,subgroups').split(',') as ('auto' | 'emulated' | 'subgroups')[];
const native = nativeCases();
let failed = 0; let passed = 0;
for (const warpPath of paths) {
  for (const c of WARP_CASES) {
    if (warpPath === 'subgroups' && c.kernel === 'warp_syncwarp') continue;
    const name = `${warpPath}/${c.kernel}`;
    try {
      const run = await runWarpKernel(c.ptx, c.kernel, c.grid, c.block, outputWords(c), warpPath);
      const want = expected(c);
      const rec = native.find((n) => n.kernel === c.kernel);
      const bad: string[] = [];
      run.outputs.forEach((o, k) => {
        const w = want[k] as Uint32Array;
        const i = o.findIndex((v, j) => v !== w[j]);
        if (i >= 0) bad.push(`output ${k}[${i}] = ${o[i]}, JS reference ${w[i]}`);
        const r = rec?.outputs[k];
        const j = r ? o.findIndex((v, x) => v !== r[x]) : -1;
        if (r && j >= 0) bad.push(`output ${k}[${j}] = ${o[j]}, native ${r[j]}`);
      });
      if (bad.length) { failed++; console.log(`FAIL ${name} (path ${run.path}): ${bad.join('; ')}`); }
      else { passed++; console.log(`PASS ${name} (path ${run.path}${rec ? ', = native' : ''})`); }
    } catch (e) {
      failed++; console.log(`FAIL ${name}: ${String((e as Error).message ?? e).split('\n')[0]}`);
    }
  }
}
console.log(`warps: ${passed}/${passed + failed} passed`);
process.exit(failed ? 1 : 0);
