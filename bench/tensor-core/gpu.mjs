// GPU check of the tensor-core path (issue 14): WGSL experiments, correctness, TFLOP/s.
// Run on the GPU machine from a folder holding dist/{src,lowering,runtime,shaders} (as src/, lowering/, ...),
// this file, native.py and tests/matrix/kernels/wmma_gemm_plain.ptx: `node gpu.mjs` (`wgsl-only`: step 1 only).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
const here = import.meta.dirname;
const { compile, createContext } = await import(join(here, 'src/index.js'));
const w = await import('webgpu');
Object.assign(globalThis, w.globals);
const gpu = w.create(['enable-dawn-features=allow_unsafe_apis,vulkan_enable_f16_on_nvidia']);
const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
const feats = ['subgroups', 'shader-f16', 'timestamp-query', 'chromium-experimental-subgroup-matrix'].filter((f) => adapter.features.has(f));
const limits = {}; for (const n of ['maxStorageBufferBindingSize', 'maxBufferSize', 'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupsPerDimension']) limits[n] = adapter.limits[n];
const device = await adapter.requestDevice({ requiredFeatures: feats, requiredLimits: limits });
const configs = [...(adapter.info.subgroupMatrixConfigs ?? [])].map((c) => ({ componentType: c.componentType, resultComponentType: c.resultComponentType, M: c.M, N: c.N, K: c.K }));
console.log('adapter', adapter.info.vendor, adapter.info.architecture, adapter.info.description, 'features', feats.join(','));
console.log('configs', configs.map((c) => `${c.componentType}->${c.resultComponentType} ${c.M}x${c.N}x${c.K}`).join('; '));
const ptx = readFileSync(join(here, 'wmma_gemm_plain.ptx'), 'utf8');

// 1. What Tint accepts
const base = compile(ptx, { entry: 'gemm_plain16', subgroupSize: 32, subgroupMatrixConfigs: configs }).kernels[0];
console.log('layout.matrix', JSON.stringify(base.layout.matrix));
const withoutDisable = base.wgsl.replace('enable chromium_disable_uniformity_analysis;\n', '');
const diagsInstead = withoutDisable.replace('enable chromium_experimental_subgroup_matrix;\n', 'enable chromium_experimental_subgroup_matrix;\ndiagnostic(off, chromium_experimental.subgroup_matrix_uniformity);\ndiagnostic(off, subgroup_uniformity);\n');
const variants = { 'as emitted (uniformity analysis disabled)': base.wgsl, 'analysis on, both uniformity diagnostics off': diagsInstead, 'analysis on, no directive': withoutDisable };
console.log(base.wgsl.split('\n').filter((l) => l.includes('subgroupMatrix')).join('\n'));
for (const [name, code] of Object.entries(variants)) {
  device.pushErrorScope('validation');
  const m = device.createShaderModule({ code });
  const info = await m.getCompilationInfo();
  let pipe = 'not tried';
  if (!info.messages.some((x) => x.type === 'error')) {
    device.pushErrorScope('validation');
    device.createComputePipeline({ layout: 'auto', compute: { module: m, entryPoint: base.entryPoint, constants: { ptx_ntid_x: 128 } } });
    const e = await device.popErrorScope(); pipe = e ? `error: ${e.message.slice(0, 300)}` : 'ok';
  }
  await device.popErrorScope();
  console.log(`[wgsl] ${name}: ${info.messages.map((x) => `${x.type}: ${x.message.split('\n')[0].slice(0, 200)}`).join(' | ') || 'no messages'}; pipeline ${pipe}`);
}
if (process.argv[2] === 'wgsl-only') process.exit(0);

// 2. correctness and 3. speed through the runtime
// Dawn's GPUDevice.adapterInfo may lack the configs: give the runtime the adapter's
try { Object.defineProperty(device, 'adapterInfo', { value: adapter.info, configurable: true }); } catch (e) { console.log('adapterInfo patch failed', String(e)); }
console.log('device.adapterInfo configs', [...(device.adapterInfo?.subgroupMatrixConfigs ?? [])].length);
const c = await createContext({ device });
const f16 = (x) => { const f = new Float32Array([x]); const u = new Uint32Array(f.buffer)[0]; const e = ((u >> 23) & 0xff) - 127 + 15; return (u >> 16 & 0x8000) | (e << 10) | ((u >> 13) & 0x3ff); };
const h2n = (h) => { const e = (h >> 10) & 31, m = h & 1023; const v = e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15); return h & 0x8000 ? -v : v; };
function inputs(m, n, k, seed) {
  let s = seed; const rnd = () => { s = (s * 1103515245 + 12345) >>> 0; return s / 2 ** 32; };
  const A = new Uint16Array(m * k).map(() => f16((rnd() - 0.5) * 2)), B = new Uint16Array(n * k).map(() => f16((rnd() - 0.5) * 2));
  return { A, B };
}
async function run(entry, path, m, n, k, A, B, reps) {
  const mod = c.loadModule(ptx, { fileName: 'wmma_gemm_plain.ptx', matrixPath: path });
  const fn = mod.getFunction(entry);
  const a = c.malloc(A.byteLength), b = c.malloc(B.byteLength), d = c.malloc(4 * m * n);
  c.memcpyHtoD(a, new Uint32Array(A.buffer)); c.memcpyHtoD(b, new Uint32Array(B.buffer)); c.memcpyHtoD(d, new Uint32Array(m * n).fill(0xdeadbeef));
  const tile = entry === 'gemm_warp32' ? 32 : 16;
  const config = { grid: [n / tile, m / (4 * tile)], block: 128 };
  const args = [a, b, d, m, n, k];
  const compiled = await fn.prepareAsync(config, args);
  fn.launch(config, args); await c.synchronize();
  let seconds;
  if (reps > 0) { const t0 = performance.now(); for (let i = 0; i < reps; i++) fn.launch(config, args); await c.synchronize(); seconds = (performance.now() - t0) / 1000 / reps; }
  const out = new Float32Array(m * n); await c.memcpyDtoH(out, d);
  c.free(a); c.free(b); c.free(d);
  return { out, seconds, matrix: compiled.layout.matrix };
}
function check(out, A, B, m, n, k, label, sample) {
  let worst = 0, bad = 0, exact = 0;
  const idx = sample ? Array.from({ length: 4096 }, (_, i) => (i * 2654435761) % (m * n)) : Array.from({ length: m * n }, (_, i) => i);
  for (const at of idx) {
    const i = Math.floor(at / n), j = at % n; let sum = 0, mag = 0;
    for (let q = 0; q < k; q++) { const p = h2n(A[i * k + q]) * h2n(B[j * k + q]); sum += p; mag += Math.abs(p); }
    const err = Math.abs(out[at] - sum), bound = (k + 2) * 2 ** -24 * mag;
    if (!(err <= bound)) bad++; if (out[at] === Math.fround(sum)) exact++;
    worst = Math.max(worst, err / (bound || 1));
  }
  console.log(`[check] ${label}: ${idx.length - bad}/${idx.length} within (k+2)*2^-24*sum|a*b|, worst err/bound ${worst.toFixed(4)}, ${exact} equal to the rounded exact sum`);
}
for (const entry of ['gemm_plain16', 'gemm_warp32']) {
  const [m, n, k] = [256, 256, 512];
  const { A, B } = inputs(m, n, k, 7);
  for (const path of ['auto']) {
    const r = await run(entry, path, m, n, k, A, B, 0);
    check(r.out, A, B, m, n, k, `${entry} ${path} -> ${r.matrix?.path} [${r.matrix?.reason}] (${m}x${n}x${k})`, false);
  }
}
const S = 4096;
const { A, B } = inputs(S, S, S, 11);
for (const [entry, path, reps] of [['gemm_plain16', 'auto', 20], ['gemm_warp32', 'auto', 20]]) {
  const r = await run(entry, path, S, S, S, A, B, reps);
  check(r.out, A, B, S, S, S, `${entry} ${r.matrix?.path} 4096^3 (sampled)`, true);
  console.log(`[perf] ${entry} ${r.matrix?.path}: ${(r.seconds * 1e3).toFixed(3)} ms, ${(2 * S ** 3 / r.seconds / 1e12).toFixed(2)} TFLOP/s`);
}
c.destroy(); device.destroy();
process.exit(0);
