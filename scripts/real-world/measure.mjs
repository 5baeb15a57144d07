#!/usr/bin/env node
// How much public CUDA code the compiler handles (docs/REAL-WORLD.md).
//
//   node scripts/real-world/measure.mjs PTX_DIR [--json FILE] [--limit-s 20]
//
// PTX_DIR holds one folder per project (as scripts/real-world/build-ptx.sh writes them). For
// every .ptx file and every `.entry` in it: (a) does `compile(src, { entry })` succeed (with the
// options of a device that has subgroups of 8, as lavapipe does); failures are classified by the
// first diagnostic's code and, for L001/L002, the instruction or feature the message names;
// (b) does the WGSL of each compiled kernel pass Dawn's shader-module validation
// (`getCompilationInfo()`), failures classified by the first error message. A kernel whose
// compile takes longer than --limit-s seconds is abandoned and counted as 'slow'.
// Every result is appended to a journal (--journal FILE, default PTX_DIR/.measure-journal.jsonl)
// as it comes: a run that dies (a native crash in Dawn or in a terminated worker) is run again and
// goes on where it stopped, counting the kernel it died on as 'crash'. Delete the journal to start
// afresh.
// Needs `npm run build` first (it imports dist/src/index.js).
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const COMPILE_OPTIONS = { subgroupOps: true, subgroupSize: 8 };

const args = process.argv.slice(2);
const ptxDir = args.find((a, i) => !a.startsWith('--') && !(i > 0 && args[i - 1].startsWith('--')));
const jsonOut = flag('--json');
const limitMs = Number(flag('--limit-s') ?? 20) * 1000;
// --report-only: no compiling; the tables from the journal, kernels not in it counted as not measured
// (percentages are of the kernels measured).
const reportOnly = args.includes('--report-only');
const journal = flag('--journal') ?? (ptxDir ? join(ptxDir, '.measure-journal.jsonl') : undefined);
if (!ptxDir) {
  console.error('usage: node scripts/real-world/measure.mjs PTX_DIR [--json FILE] [--limit-s 20]');
  process.exit(2);
}

// The measuring runs in a child process, started again (resuming from the journal) when it dies.
if (ptxDir && !args.includes('--child') && !args.includes('--report-only')) {
  const journalPath = flag('--journal') ?? join(ptxDir, '.measure-journal.jsonl');
  const size = () => (existsSync(journalPath) ? statSync(journalPath).size : 0);
  for (let attempt = 1; attempt <= 50; attempt++) {
    const before = size();
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...args, '--child'], { stdio: 'inherit' });
    if (r.status === 0) process.exit(0);
    if (size() === before) break; // no progress: not a crash on one kernel
    console.error(`measure: the measuring process died (${r.signal ?? `exit ${r.status}`}); resuming from the journal`);
  }
  process.exit(1);
}

function flag(name) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.ptx')) out.push(p);
  }
  return out;
}

/** Entry names as written, found textually so that a file that does not parse still counts its kernels. */
function entriesOf(src) {
  const names = [];
  const re = /\.entry\s+([A-Za-z_$%][\w$%]*)/g;
  for (let m; (m = re.exec(src)); ) names.push(m[1]);
  return names;
}

/** A failure's class: the diagnostic code and, where it names one, the instruction or feature. */
function classifyCompile(diag) {
  if (!diag) return 'no diagnostic';
  const msg = diag.message ?? '';
  if (diag.code === 'internal') return `internal: ${msg.replace(/\(please report.*$/, '').slice(0, 90)}`;
  const named = /instruction `([^`]+)`/.exec(msg) ?? /^`([^`]+)`/.exec(msg);
  if ((diag.code === 'L001' || diag.code === 'L002') && named) return `${diag.code} ${normaliseInstruction(named[1])}`;
  if (diag.code === 'L002') {
    if (/\.tex` variables|textures/.test(msg)) return 'L002 .tex variables (textures)';
    if (/no body in this module/.test(msg)) return 'L002 call of an external device function';
    if (/special register/.test(msg)) return `L002 ${msg.replace(/ is not supported.*/, '')}`;
    if (/^cvt/.test(msg)) return `L002 ${msg.split(':')[0]}`;
  }
  return `${diag.code} ${msg.replace(/`[^`]*`/g, '`…`').replace(/\d+/g, 'N').slice(0, 80)}`;
}

/** `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32` -> `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`, but
 * instruction families with many shapes collapse to their opcode and first qualifier. */
function normaliseInstruction(name) {
  const parts = name.split('.');
  const family = ['mma', 'mbarrier', 'cp.async', 'wmma', 'ldmatrix', 'stmatrix', 'cp', 'tex', 'tld4', 'suld', 'sust', 'suq', 'txq', 'cvt', 'red', 'atom', 'ld', 'st', 'shfl', 'vote'];
  if (family.includes(parts[0])) return parts.slice(0, 2).join('.');
  return name;
}

function classifyWgsl(message) {
  return message
    .replace(/'[^']*'/g, "'…'")
    .replace(/\d+/g, 'N')
    .split('\n')[0]
    .slice(0, 100);
}

/**
 * The file with every other `.entry` cut out: its header, module-scope variables and device
 * functions stay. `compile(src, { entry })` parses the whole text for each entry, which for
 * files of hundreds of kernels (several MB of PTX) costs seconds per kernel; the kernel compiled
 * is the same. Falls back to the whole text when the braces do not balance.
 */
function sliceEntries(src) {
  const spans = [];
  const re = /^[ \t]*(?:\.visible[ \t]+|\.weak[ \t]+)?\.entry[ \t]+([A-Za-z_$%][\w$%]*)/gm;
  for (let m; (m = re.exec(src)); ) {
    let i = src.indexOf('{', m.index);
    if (i < 0) return undefined;
    let depth = 0;
    for (; i < src.length; i++) {
      const c = src[i];
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) break;
    }
    if (depth !== 0) return undefined;
    spans.push({ name: m[1], start: m.index, end: i + 1 });
    re.lastIndex = i + 1;
  }
  const out = new Map();
  for (const own of spans) {
    let text = '';
    let at = 0;
    for (const s of spans) {
      text += src.slice(at, s.start);
      if (s === own) text += src.slice(s.start, s.end);
      at = s.end;
    }
    out.set(own.name, text + src.slice(at));
  }
  return out;
}

// --- compile worker ---------------------------------------------------------------------------
// Each file's entries compile in a worker thread so that one slow kernel can be abandoned.
const WORKER_SRC = `
import { parentPort, workerData } from 'node:worker_threads';
const { compile } = await import(workerData.index);
parentPort.on('message', ({ src, fileName, entry, options }) => {
  const t0 = performance.now();
  try {
    const { kernels } = compile(src, { ...options, fileName, entry });
    parentPort.postMessage({ ok: true, ms: performance.now() - t0, wgsl: kernels.map((k) => k.wgsl) });
  } catch (e) {
    const d = e && e.diagnostics ? e.diagnostics[0] : { code: 'internal', message: String(e && e.message || e) };
    parentPort.postMessage({ ok: false, ms: performance.now() - t0, diag: { code: d.code, message: d.message } });
  }
});
`;
const indexUrl = new URL('../../dist/src/index.js', import.meta.url).href;
let worker;
function newWorker() {
  worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(WORKER_SRC)}`), { workerData: { index: indexUrl } });
  worker.unref();
}
function compileInWorker(src, fileName, entry) {
  if (!worker) newWorker();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      worker.removeAllListeners('message');
      worker.removeAllListeners('error');
      void worker.terminate();
      worker = undefined;
      resolve({ slow: true });
    }, limitMs);
    worker.once('message', (m) => {
      clearTimeout(timer);
      worker.removeAllListeners('error');
      resolve(m);
    });
    worker.once('error', (e) => {
      clearTimeout(timer);
      worker.removeAllListeners('message');
      worker = undefined;
      resolve({ ok: false, diag: { code: 'internal', message: String(e?.message ?? e) } });
    });
    worker.postMessage({ src, fileName, entry, options: COMPILE_OPTIONS });
  });
}

// --- Dawn -------------------------------------------------------------------------------------
const { create, globals } = await import('webgpu');
Object.assign(globalThis, globals);
const gpu = create([]);
const adapter = await gpu.requestAdapter();
if (!adapter) throw new Error('no WebGPU adapter (Dawn found no Vulkan device)');
const requiredFeatures = ['subgroups', 'shader-f16'].filter((f) => adapter.features.has(f));
const device = await adapter.requestDevice({ requiredFeatures });
device.addEventListener?.('uncapturederror', () => {});
const adapterInfo = adapter.info ?? {};

async function validate(code) {
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  await device.popErrorScope();
  const errors = info.messages.filter((m) => m.type === 'error');
  return errors;
}

// --- run --------------------------------------------------------------------------------------
const done = new Map();
const started = new Map();
if (existsSync(journal)) {
  for (const line of readFileSync(journal, 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line);
    const key = `${r.file}\0${r.entry}`;
    if (r.phase) started.set(key, r.phase);
    else done.set(key, r);
  }
}
function record(k) {
  appendFileSync(journal, JSON.stringify(k) + '\n');
}
const files = walk(ptxDir);
const projects = new Map();
const kernels = [];
const t0 = Date.now();
for (const [i, file] of files.entries()) {
  const rel = relative(ptxDir, file);
  const project = rel.includes(sep) ? rel.split(sep)[0] : 'root';
  const p = projects.get(project) ?? { files: 0, kernels: 0, compiled: 0, validated: 0, slow: 0, unmeasured: 0 };
  projects.set(project, p);
  p.files++;
  const src = readFileSync(file, 'utf8');
  const sliced = entriesOf(src).length > 1 ? sliceEntries(src) : undefined;
  for (const entry of entriesOf(src)) {
    p.kernels++;
    const key = `${rel}\0${entry}`;
    let k = done.get(key);
    if (!k && started.has(key) && !reportOnly) {
      k = { project, file: rel, entry, status: 'crash', reason: `crash: the measuring process died during ${started.get(key)}` };
      record(k);
    }
    if (!k && reportOnly) k = { project, file: rel, entry, status: 'unmeasured' };
    if (k) {
      if (k.status === 'unmeasured') p.unmeasured++;
      else if (k.status === 'compile-failed' || k.status === 'crash') {
        // counted below
      } else if (k.status === 'slow') p.slow++;
      else {
        p.compiled++;
        if (k.status === 'validated') p.validated++;
      }
      kernels.push(k);
      continue;
    }
    record({ file: rel, entry, phase: 'compile' });
    const r = await compileInWorker(sliced?.get(entry) ?? src, rel, entry);
    k = { project, file: rel, entry, ms: r.ms === undefined ? undefined : Math.round(r.ms) };
    if (r.slow) {
      p.slow++;
      k.status = 'slow';
      k.reason = `slow: compile took over ${limitMs / 1000} s`;
    } else if (!r.ok) {
      k.status = 'compile-failed';
      k.reason = classifyCompile(r.diag);
      k.message = r.diag?.message?.slice(0, 300);
    } else {
      p.compiled++;
      record({ file: rel, entry, phase: 'validation' });
      let firstError;
      for (const code of r.wgsl) {
        const errors = await validate(code);
        if (errors.length > 0) {
          firstError = errors[0].message;
          break;
        }
      }
      if (firstError === undefined) {
        p.validated++;
        k.status = 'validated';
      } else {
        k.status = 'invalid-wgsl';
        k.reason = `WGSL: ${classifyWgsl(firstError)}`;
        k.message = firstError.slice(0, 300);
      }
    }
    record(k);
    kernels.push(k);
  }
  if (process.stderr.isTTY || (i + 1) % 25 === 0) process.stderr.write(`\r${i + 1}/${files.length} files, ${kernels.length} kernels, ${Math.round((Date.now() - t0) / 1000)} s`);
}
process.stderr.write('\n');

// --- report -----------------------------------------------------------------------------------
const pct = (a, b) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);
const total = { files: 0, kernels: 0, compiled: 0, validated: 0, slow: 0, unmeasured: 0 };
const rows = [];
for (const [name, p] of [...projects].sort()) {
  for (const k of Object.keys(total)) total[k] += p[k];
  const m = p.kernels - p.unmeasured;
  rows.push([name, p.files, p.kernels, p.unmeasured, p.compiled, pct(p.compiled, m), p.validated, pct(p.validated, m), p.slow]);
}
const tm = total.kernels - total.unmeasured;
rows.push(['**total**', total.files, total.kernels, total.unmeasured, total.compiled, pct(total.compiled, tm), total.validated, pct(total.validated, tm), total.slow]);
console.log(`adapter: ${adapterInfo.vendor ?? '?'} ${adapterInfo.description ?? adapterInfo.device ?? ''}; features: ${requiredFeatures.join(', ') || 'none'}; options: ${JSON.stringify(COMPILE_OPTIONS)}`);
console.log('');
console.log('| project | .ptx files | kernels | not measured | compiled | compiled % | validated | validated % | slow |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);

const reasons = new Map();
for (const k of kernels) if (k.reason) reasons.set(k.reason, (reasons.get(k.reason) ?? 0) + 1);
const top = [...reasons].sort((a, b) => b[1] - a[1]);
console.log('');
console.log('| # | failure (first diagnostic) | kernels |');
console.log('| ---: | --- | ---: |');
top.slice(0, 15).forEach(([r, n], i) => console.log(`| ${i + 1} | ${r.replace(/\|/g, '\\|')} | ${n} |`));
if (top.length > 15) console.log(`\n(${top.length - 15} more reasons, ${top.slice(15).reduce((s, [, n]) => s + n, 0)} kernels)`);

if (jsonOut) {
  writeFileSync(jsonOut, JSON.stringify({
    date: new Date().toISOString(), adapter: adapterInfo, features: requiredFeatures, options: COMPILE_OPTIONS,
    limitSeconds: limitMs / 1000, projects: Object.fromEntries(projects), total, reasons: Object.fromEntries(top), kernels,
  }, null, 1));
}
device.destroy();
process.exit(0);
