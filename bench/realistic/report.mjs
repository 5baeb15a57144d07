// The table of bench/realistic: native.json (native.py) and ours*.json (ours.mjs, one file per pass) of one run, as
// markdown on stdout; --write-docs replaces the section between the markers in docs/BENCHMARKS.md.
//   node bench/realistic/report.mjs <dir> [--write-docs]
import { readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';

const dir = process.argv[2] ?? '/tmp/bench-native';
const native = JSON.parse(readFileSync(`${dir}/native.json`, 'utf8'));
const read = (f) => JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'));
// The passes of run.sh (ours.p1.json, ...), or the single ours.json of an older run.
const passes = (kind) => {
  const files = readdirSync(dir).filter((f) => new RegExp(`^ours${kind}\\.p\\d+\\.json$`).test(f)).sort();
  if (files.length) return files.map(read);
  return existsSync(`${dir}/ours${kind}.json`) ? [read(`ours${kind}.json`)] : [];
};
// the mean of the middle two for an even count: with two passes the upper one alone made every
// ratio the worse pass's (the 2026-11-28 tables before this fix)
const median = (xs) => {
  const v = xs.filter((x) => x !== undefined).sort((a, b) => a - b);
  if (!v.length) return undefined;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};
/** One row per kernel: the first pass's fields, times as medians across passes, and every pass's @10 time. */
function merge(runs) {
  const first = runs[0] ?? [];
  return first.map((o) => {
    const all = runs.map((r) => r.find((x) => x.name === o.name)).filter(Boolean);
    const e2e = {};
    for (const k of [1, 10, 100]) e2e[k] = median(all.map((x) => x.e2e_ms?.[k]));
    return { ...o, e2e_ms: e2e, shader_ms: median(all.map((x) => x.shader_ms)), each10: all.map((x) => x.e2e_ms?.[10] ?? x.e2e_ms?.[1]).filter(Boolean) };
  });
}
const oursRuns = passes('');
const ours = merge(oursRuns);
const ftz = merge(passes('-ftz'));
const specs = JSON.parse(readFileSync(new URL('./specs.json', import.meta.url), 'utf8')).kernels;
const f = (x, d = 3) => (x === undefined ? '-' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(d));
const rows = [];
// the lowest and highest ratio across passes, where there were several
const spread = (o, n) => (o.each10.length > 1 && n.wall_ms ? ` (${(Math.min(...o.each10) / n.wall_ms).toFixed(2)}-${(Math.max(...o.each10) / n.wall_ms).toFixed(2)})` : '');
const ratios = [];
for (const o of ours) {
  const n = native.kernels[o.name] ?? {};
  const spec = specs[o.index];
  const e10 = o.e2e_ms?.[10] ?? o.e2e_ms?.[1];
  const ratio = e10 && n.wall_ms ? e10 / n.wall_ms : undefined;
  if (ratio) ratios.push(ratio);
  const rate = (ms) => (!ms ? '-' : spec.bytes ? `${(spec.bytes / ms / 1e6).toFixed(0)} GB/s` : spec.flops ? `${(spec.flops / ms / 1e9).toFixed(1)} TFLOP/s` : '-');
  const z = ftz.find((r) => r.name === o.name);
  const zr = z?.e2e_ms?.[10] ?? z?.e2e_ms?.[1];
  rows.push(`| ${o.name} | ${o.error ? `error: ${o.error}` : o.match === 'yes' ? 'yes' : `**no**: ${o.match}`} | ${f(n.gpu_ms)} / ${f(n.wall_ms)} | ${f(o.e2e_ms?.[1])} / ${f(o.e2e_ms?.[10])} / ${f(o.e2e_ms?.[100])} | ${f(o.shader_ms)} | **${ratio ? ratio.toFixed(2) : '-'}**${spread(o, n)} | ${zr && n.wall_ms ? (zr / n.wall_ms).toFixed(2) : '-'} | ${rate(n.gpu_ms)} / ${rate(o.shader_ms)} | ${f(o.transpile_ms, 1)} / ${f(o.pipeline_ms, 1)} / ${f(o.first_launch_ms, 0)} / ${f(n.jit_ms, 1)} | ${o.path ?? '-'} |`);
}
const geo = ratios.length ? Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length) : NaN;
const md = [
  `Native: ${native.gpu}, CUDA driver ${native.driver}, cupy on the same PTX. Ours: Dawn (npm \`webgpu\` 0.6.2) on NVIDIA's Vulkan driver, default context (float probe on).`,
  `Our side: ${oursRuns.length} pass${oursRuns.length === 1 ? '' : 'es'}, each a fresh process; our times are medians across passes, the ratio's range across passes in brackets. Both sides launch each kernel for 300 ms before timing it (the GPU's clocks ramp up under load and fall while it idles).`,
  'Times in ms per launch. Native: GPU time (events) / host wall time of back-to-back launches ended by a synchronisation. Ours end to end: a 4-byte read-back every 1 / 10 / 100 launches (slow kernels: fewer launches). Ratio: ours with a read-back every 10 launches / native wall time (lower is better). ftz: the same with `createContext({ float: \'ftz\' })`. Compile: our transpile / pipeline creation / first launch of a fresh module (one execution included; NVIDIA\'s Vulkan driver keeps its own shader cache across processes, so after a machine\'s first run this omits the driver\'s compile) / the CUDA driver\'s JIT of the PTX (cache off).',
  '',
  '| kernel | outputs match CUDA | native GPU / wall | ours e2e @1 / @10 / @100 | ours shader | ratio | ratio, ftz mode | native / ours shader rate | compile: transpile / pipeline / first launch / CUDA JIT | warp path |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...rows,
  '',
  `Geometric mean of the ratios: **${geo.toFixed(2)}**.`,
].join('\n');
console.log(md);
if (process.argv.includes('--write-docs')) {
  const path = new URL('../../docs/BENCHMARKS.md', import.meta.url);
  const doc = readFileSync(path, 'utf8');
  const begin = '<!-- bench/realistic:begin -->', end = '<!-- bench/realistic:end -->';
  const date = new Date().toISOString().slice(0, 10);
  const section = `${begin}\n### ${date}: \`PASSES=${oursRuns.length} bash bench/realistic/run.sh\` on the GPU machine\n\n${md}\n${end}`;
  writeFileSync(path, doc.includes(begin) ? doc.replace(new RegExp(`${begin}[\\s\\S]*${end}`), section) : `${doc}\n## Realistic kernels against native CUDA (issue 13)\n\n${section}\n`);
}
