// Our side of the f16 GEMM benchmarks of bench/tensor-core: one kernel through ptx-wgsl at S^3, f16 in, f32 out, on the
// staged tensor-core path (auto) or `portable`, timed and checked on sampled elements against exact sums.
//   mma:    our mma.sync GEMM fed by ldmatrix and double-buffered cp.async (tests/matrix/kernels/realistic_tc.cu,
//           gemm_f16_mma_pipelined: 64x64 tiles, 4 warps); native CUDA on the same PTX: mma/native.py.
//   triton: the Triton 128x128x32 matmul (triton/matmul_128x128x32.ptx, from triton/matmul.py); native: triton/native.py.
// On the GPU machine from the project root after `npm run build`:
// `node bench/tensor-core/gemm-ours.mjs <mma|triton> [size] [auto|portable] [--edit=JSON] [--dump=FILE]`.
// --edit=[[regex, replacement], ...]: run the WGSL with these edits (experiments that find what the time goes to);
// --dump=FILE: write the WGSL that ran.
import { readFileSync, writeFileSync } from 'node:fs';

/**
 * The kernels, each with its launch for size S, its arguments after (A, B, C, M, N, K) and the log lines' prefix. The
 * lines differ a little between kernels (WGSL size, "ours") because docs/BENCHMARKS.md quotes each as it was printed.
 */
const KERNELS = {
  mma: {
    ptx: '../../tests/matrix/kernels/realistic_tc.ptx', entry: 'gemm_f16_mma_pipelined', tile: 64,
    scratchPointers: 0, log: '[gemm]', resultLabel: 'ours ', wgslSize: false,
  },
  triton: {
    ptx: './triton/matmul_128x128x32.ptx', entry: 'mm', tile: 128, sharedBytes: 32768,
    scratchPointers: 2, // the two global-scratch pointers Triton 3.x appends
    log: '[mm]', resultLabel: '', wgslSize: true,
  },
};
const name = process.argv[2], k = Object.hasOwn(KERNELS, name ?? '') ? KERNELS[name] : undefined;
if (!k) { console.error(`usage: node bench/tensor-core/gemm-ours.mjs <${Object.keys(KERNELS).join('|')}> [size] [auto|portable]`); process.exit(2); }

process.env.PTX_WGSL_DAWN_FLAGS ??= 'enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia';
const { runtimeCompiler } = await import('../../dist/src/runtime-compiler.js');
const { createContextWith } = await import('../../dist/runtime/context.js');
const flags = process.argv.filter((a) => a.startsWith('--'));
const [S0, path0] = process.argv.slice(3).filter((a) => !a.startsWith('--'));
const S = Number(S0 ?? 4096), path = path0 ?? 'auto';
const edits = JSON.parse(flags.find((a) => a.startsWith('--edit='))?.slice(7) ?? '[]');
const dump = flags.find((a) => a.startsWith('--dump='))?.slice(7);
const edited = (wgsl) => {
  const w = edits.reduce((x, [re, to]) => x.replace(new RegExp(re, 'g'), to), wgsl);
  if (dump) writeFileSync(dump, w);
  return w;
};
const compiler = {
  ...runtimeCompiler,
  compileModule: (src, o) => {
    const m = runtimeCompiler.compileModule(src, o);
    return { ...m, variables: () => m.variables(), kernels: (opts) => m.kernels(opts).map((x) => ({ ...x, wgsl: edited(x.wgsl) })) };
  },
};
const ptx = readFileSync(new URL(k.ptx, import.meta.url), 'utf8');
const c = await createContextWith(compiler, {});
// inputs: multiples of 1/64 in [-1/2, 1/2], as native.py's: every f32 sum exact in any order
let s = 9; const rnd = () => { s = (s * 1103515245 + 12345) >>> 0; return s / 2 ** 32; };
const f16 = (x) => { const f = new Float32Array([x]); const u = new Uint32Array(f.buffer)[0]; const e = ((u >> 23) & 0xff) - 127 + 15; return x === 0 ? 0 : (u >> 16 & 0x8000) | (e << 10) | ((u >> 13) & 0x3ff); };
const h2n = (h) => { const e = (h >> 10) & 31, m = h & 1023; const v = e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15); return h & 0x8000 ? -v : v; };
const A = new Uint16Array(S * S).map(() => f16(Math.round((rnd() - 0.5) * 64) / 64)), B = new Uint16Array(S * S).map(() => f16(Math.round((rnd() - 0.5) * 64) / 64));
const pa = c.malloc(A.byteLength), pb = c.malloc(B.byteLength), pc = c.malloc(4 * S * S);
const scratch = k.scratchPointers ? c.malloc(16) : undefined;
c.memcpyHtoD(pa, A); c.memcpyHtoD(pb, B); c.memcpyHtoD(pc, new Uint32Array(S * S).fill(0xdeadbeef));
const fn = c.loadModule(ptx, { fileName: k.ptx.split('/').pop(), matrixPath: path }).getFunction(k.entry);
const config = { grid: [S / k.tile, S / k.tile], block: 128, ...(k.sharedBytes ? { sharedBytes: k.sharedBytes } : {}) };
const args = [pa, pb, pc, S, S, S, ...Array(k.scratchPointers).fill(scratch)];
const t0 = performance.now();
const compiled = await fn.prepareAsync(config, args);
console.log(`${k.log} path ${compiled.layout.matrix?.path} (${compiled.layout.matrix?.reason}), prepare ${(performance.now() - t0).toFixed(0)} ms${k.wgslSize ? `, WGSL ${compiled.wgsl?.length ?? '?'} chars` : ''}`);
fn.launch(config, args); await c.synchronize();
// Launched back to back for a second first: an idle H200 ran the same kernel in 7.7 ms or 12.5 ms per
// launch depending on how long it had been busy (clocks ramping up), within one device call.
for (const end = performance.now() + 1000; performance.now() < end;) { for (let i = 0; i < 4; i++) fn.launch(config, args); await c.synchronize(); }
const reps = S >= 4096 ? 10 : 3; const runs = [];
for (let r = 0; r < 5; r++) { const t = performance.now(); for (let i = 0; i < reps; i++) fn.launch(config, args); await c.synchronize(); runs.push((performance.now() - t) / reps); }
runs.sort((x, y) => x - y);
const out = new Float32Array(S * S); await c.memcpyDtoH(out, pc);
let bad = 0;
for (let n = 0; n < 512; n++) { const at = (n * 2654435761) % (S * S); const i = Math.floor(at / S), j = at % S; let sum = 0; for (let q = 0; q < S; q++) sum += h2n(A[i * S + q]) * h2n(B[q * S + j]); if (out[at] !== sum) bad++; }
console.log(`${k.log} ${k.resultLabel}${path} ${S}^3: ${runs[2].toFixed(3)} ms per launch (launch x${reps} + sync, median of 5), ${(2 * S ** 3 / runs[2] / 1e9).toFixed(2)} TFLOP/s; ${512 - bad}/512 sampled elements exact`);
c.destroy(); process.exit(0);
