// Throughput of the integer-emulated binary64 helpers (shaders/f64.wgsl) on whatever WebGPU adapter
// is the default; on lavapipe (a CPU Vulkan, whose time tracks the instruction count) it is the
// proxy for their cost on a GPU. Kernels: daxpy of bench/realistic/kernels.ptx (one fma.rn.f64 per
// element), and smooth3 (two mul.rn.f64 and two add.rn.f64 per element) and horner8 (eight
// fma.rn.f64 per element, arithmetic-bound) of bench/f64-throughput.cu.
// Prints one JSON line per kernel: median and least wall ms per launch over ROUNDS rounds, and the
// median CPU ms per launch of this process (lavapipe's threads included), which a busy machine
// disturbs less than wall time, and the first launch's ms (shader compile included).
//   node bench/f64-throughput.mjs [--dist=<other tree>/dist]     (A/B: the same script, another build)
//   env: F64_N (elements, default 2^20), F64_ITER (launches per round, 10), F64_ROUNDS (7)
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const distArg = process.argv.find((a) => a.startsWith('--dist='))?.slice(7);
const dist = distArg ? pathToFileURL(`${distArg.replace(/\/$/, '')}/`).href : new URL('../dist/', import.meta.url).href;
const { createContext, releaseDefaultDevice } = await import(`${dist}src/index.js`);

const N = Number(process.env.F64_N ?? 1 << 20);
const ITER = Number(process.env.F64_ITER ?? 10);
const ROUNDS = Number(process.env.F64_ROUNDS ?? 7);
const BLOCK = 256;

// seeded normal doubles of mixed signs and magnitudes (the common case the fast paths are for)
function inputs(seed) {
  const a = new Float64Array(N);
  let s = seed >>> 0;
  for (let i = 0; i < N; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const t = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) >>> 0) / 2 ** 32;
    a[i] = (s & 1 ? -1 : 1) * (0.5 + t) * 2 ** ((s >>> 8) % 40 - 20);
  }
  return a;
}

const ctx = await createContext();
const x = inputs(1); const y = inputs(2);
const px = ctx.malloc(N * 8); const py = ctx.malloc(N * 8);
const probe = new Float64Array(1);

async function time(mod, name, args, check) {
  const fn = mod.getFunction(name);
  const shape = { grid: Math.ceil(N / BLOCK), block: BLOCK };
  ctx.memcpyHtoD(px, x); ctx.memcpyHtoD(py, y);
  const t0 = performance.now();
  fn.launch(shape, args); // compiles
  const out = new Float64Array(N);
  await ctx.memcpyDtoH(out, py);
  const first = performance.now() - t0;
  const bad = check(out);
  const per = []; const cpu = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = performance.now(); const c0 = process.cpuUsage();
    for (let i = 0; i < ITER; i++) fn.launch(shape, args);
    await ctx.memcpyDtoH(probe, py);
    const c = process.cpuUsage(c0);
    per.push((performance.now() - t0) / ITER); cpu.push((c.user + c.system) / 1000 / ITER);
  }
  const med = (xs) => +[...xs].sort((p, q) => p - q)[xs.length >> 1].toFixed(3);
  console.log(JSON.stringify({ kernel: name, n: N, ms: med(per), min_ms: +Math.min(...per).toFixed(3), cpu_ms: med(cpu), first_ms: Math.round(first), check: bad ?? 'ok' }));
}

const realistic = ctx.loadModule(readFileSync(new URL('./realistic/kernels.ptx', import.meta.url), 'utf8'), { fileName: 'kernels.ptx' });
const A = 2.5;
// fma is one rounding and JS has none, so daxpy is checked to be within an ulp of a * x + y
await time(realistic, 'daxpy', [N, A, px, py], (out) => {
  for (let i = 0; i < N; i++) {
    const w = A * x[i] + y[i];
    if (!(Math.abs(out[i] - w) <= Math.abs(w) * 2 ** -51)) return `daxpy[${i}] = ${out[i]}, a * x + y = ${w}`;
  }
  return null;
});
const own = ctx.loadModule(readFileSync(new URL('./f64-throughput.ptx', import.meta.url), 'utf8'), { fileName: 'f64-throughput.ptx' });
const C0 = 0.6; const C1 = 0.2;
// separately rounded mul and add are JS's own double arithmetic: checked bit for bit
await time(own, 'smooth3', [N, C0, C1, px, py], (out) => {
  for (let i = 0; i < N; i++) {
    const w = i === 0 || i === N - 1 ? x[i] : C0 * x[i] + C1 * (x[i - 1] + x[i + 1]);
    if (!Object.is(out[i], w)) return `smooth3[${i}] = ${out[i]}, want ${w}`;
  }
  return null;
});
// eight roundings, each within half an ulp of its step: checked against the unfused JS evaluation
// within 2^-48 of the sum of the terms' magnitudes
await time(own, 'horner8', [N, px, py], (out) => {
  const k = [1 / 40320, 1 / 5040, 1 / 720, 1 / 120, 1 / 24, 1 / 6, 0.5, 1, 1];
  for (let i = 0; i < N; i++) {
    const v = x[i];
    let p = k[0]; let m = k[0];
    for (let j = 1; j < k.length; j++) { p = p * v + k[j]; m = m * Math.abs(v) + k[j]; }
    if (!(Math.abs(out[i] - p) <= m * 2 ** -48)) return `horner8[${i}] = ${out[i]}, unfused ${p}`;
  }
  return null;
});
await releaseDefaultDevice();
process.exit(0);
