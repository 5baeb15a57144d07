// Ours: bandwidth-bound kernels from bench/kernels/bandwidth.ptx through ptx-wgsl on the default
// WebGPU adapter. Prints one JSON line per kernel: { kernel, bytes, ms (median per launch), gbps }.
//   npm run build && node bench/gpu-bandwidth.mjs            (on the GPU machine: after remote.sh)
// The native side is bench/native-bandwidth.py on the same PTX; bench/README.md says how to compare.
import { readFileSync } from 'node:fs';
import { createContext, releaseDefaultDevice } from '../dist/src/index.js';

const ptx = readFileSync(new URL('./kernels/bandwidth.ptx', import.meta.url), 'utf8');
const N = Number(process.env.BENCH_N ?? 1 << 26); // 64 Mi elements = 256 MiB per buffer
const ITER = Number(process.env.BENCH_ITER ?? 30);
const BLOCK = 256;

const ctx = await createContext();
const mod = ctx.loadModule(ptx, { fileName: 'bandwidth.ptx' });
const x = ctx.malloc(N * 4); const y = ctx.malloc(N * 4);
ctx.memcpyHtoD(x, new Float32Array(N).fill(1));
ctx.memcpyHtoD(y, new Float32Array(N).fill(2));
const small = new Float32Array(4);

async function time(name, grid, args, bytes) {
  const fn = mod.getFunction(name);
  fn.launch({ grid, block: BLOCK }, args); // compile + warm up
  await ctx.memcpyDtoH(small, y);
  const per = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < ITER; i++) fn.launch({ grid, block: BLOCK }, args);
    await ctx.memcpyDtoH(small, y);
    per.push((performance.now() - t0) / ITER);
  }
  per.sort((a, b) => a - b);
  const ms = per[2];
  console.log(JSON.stringify({ side: 'ptx-wgsl', kernel: name, bytes, ms, gbps: bytes / ms / 1e6 }));
}

await time('copy_f32x4', Math.ceil(N / 4 / BLOCK), [x, y, N / 4], 2 * N * 4);
await time('copy_u32', Math.ceil(N / BLOCK), [x, y, N], 2 * N * 4);
await time('saxpy', Math.ceil(N / BLOCK), [N, 2.5, x, y], 3 * N * 4);
await releaseDefaultDevice();
process.exit(0);
