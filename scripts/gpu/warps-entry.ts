// The warp kernels and the block reductions on the GPU machine's WebGPU (Dawn on NVIDIA, 32-lane
// subgroups) for each warp path, against the JS references and, where recorded, native CUDA. Bundled by
// scripts/gpu/bundle-gpu.mjs next to tests/warps so the harness finds the kernels; the GPU machine
// has node but no vitest.   node tests/warps/.gpu-warps.mjs [auto,emulated,subgroups,pinned]
// `pinned`: the auto path in a context that pins 32-lane subgroups with @subgroup_size(32)
// (subgroupSizeControl 'always'): blocks whose x size is a multiple of 32 must take the pinned
// subgroups path, the others the emulated one.
import { create, globals } from 'webgpu';
import { WARP_CASES, expected, outputWords } from '../../tests/warps/cases.js';
import { nativeCases, runBlockReduce, runWarpKernel } from '../../tests/warps/harness.js';
import { BLOCK_REDUCE_CASES, mismatch } from '../../tests/warps/block-reduce-cases.js';

Object.assign(globalThis, globals);
Object.defineProperty(globalThis, 'navigator', { value: { gpu: create([]), userAgent: 'node' }, configurable: true });

const paths = (process.argv[2] ?? 'auto,emulated,subgroups,pinned').split(',') as ('auto' | 'emulated' | 'subgroups' | 'pinned')[];
const native = nativeCases();
let failed = 0; let passed = 0;
for (const warpPath of paths) {
  for (const c of WARP_CASES) {
    if (warpPath === 'subgroups' && c.kernel === 'warp_syncwarp') continue;
    const name = `${warpPath}/${c.kernel}`;
    try {
      const pinned = warpPath === 'pinned';
      const run = await runWarpKernel(c.ptx, c.kernel, c.grid, c.block, outputWords(c), pinned ? 'auto' : warpPath, pinned ? { subgroupSizeControl: 'always' } : {});
      const want = expected(c);
      const rec = native.find((n) => n.kernel === c.kernel);
      const bad: string[] = [];
      if (pinned) {
        const sub = c.block % 32 === 0 && c.kernel !== 'warp_syncwarp';
        if (run.path !== (sub ? 'subgroups' : 'emulated') || run.pinned !== (sub ? 32 : undefined)) bad.push(`took path ${run.path} (pinned ${run.pinned})`);
      }
      run.outputs.forEach((o, k) => {
        const w = want[k] as Uint32Array;
        const i = o.findIndex((v, j) => v !== w[j]);
        if (i >= 0) bad.push(`output ${k}[${i}] = ${o[i]}, JS reference ${w[i]}`);
        const r = rec?.outputs[k];
        const j = r ? o.findIndex((v, x) => v !== r[x]) : -1;
        if (r && j >= 0) bad.push(`output ${k}[${j}] = ${o[j]}, native ${r[j]}`);
      });
      if (bad.length) { failed++; console.log(`FAIL ${name} (path ${run.path}): ${bad.join('; ')}`); }
      else { passed++; console.log(`PASS ${name} (path ${run.path}${run.pinned ? ` @subgroup_size(${run.pinned})` : ''}${rec ? ', = native' : ''})`); }
    } catch (e) {
      failed++; console.log(`FAIL ${name}: ${String((e as Error).message ?? e).split('\n')[0]}`);
    }
  }
}
// The block reductions (tests/warps/block-reduce-cases.ts) on the same paths.
for (const warpPath of paths) {
  for (const c of BLOCK_REDUCE_CASES) {
    const name = `${warpPath}/${c.name}`;
    try {
      const pinned = warpPath === 'pinned';
      const run = await runBlockReduce(c, pinned ? 'auto' : warpPath, pinned ? { subgroupSizeControl: 'always' } : {});
      const want = c.reference(run.args);
      const bad = run.outputs.map((o, k) => mismatch(o, want[k] as Float32Array | Int32Array, c.tolerance?.[k])).flatMap((m, k) => (m ? [`output ${k}${m}`] : []));
      if (bad.length) { failed++; console.log(`FAIL ${name} (path ${run.path}): ${bad.join('; ')}`); }
      else { passed++; console.log(`PASS ${name} (path ${run.path})`); }
    } catch (e) {
      failed++; console.log(`FAIL ${name}: ${String((e as Error).message ?? e).split('\n')[0]}`);
    }
  }
}
console.log(`warps: ${passed}/${passed + failed} passed`);
process.exit(failed ? 1 : 0);
