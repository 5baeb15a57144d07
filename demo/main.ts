/**
 * The ptx-wgsl playground: PTX in an editor, the WGSL the compiler makes of it beside it with
 * each line linked to its PTX line (CompiledKernel.lineMap), and a Run button that launches the
 * kernel on this browser's WebGPU with generated inputs or files; and a Conformance tab
 * (conformance.ts). Uses the package's public API (and the CLI's .npy reader).
 */
import { compile, createContext, fromHalfBits, PtxError, requestKernelDevice, SourceFile, toHalfBits, type CompiledKernel, type Context, type DeviceBuffer, type LaunchArg, type ParamLayout } from '../src/index.js';
import { EXAMPLES, type ArgSpec, type BufferArg, type Dtype, type Example, type Generator } from './examples.js';
import { argFileElements, DTYPE_BYTES, readArgFile, type ArgFile, type HostElements } from './arg-file.js';
import { matrixPath } from './matrix-path.js';
import { initConformanceTab } from './conformance.js';
import { heatMap, histogram } from './plots.js';

const LINE = 18; // px, the editor's line height (style.css --line)
const PAD = 4; // px, the editor's top padding

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const exampleSel = $<HTMLSelectElement>('example');
const entrySel = $<HTMLSelectElement>('entry');
const deviceEl = $('device');
const cudaPane = $('cuda-pane');
const cudaEl = $('cuda');
const ptxEl = $<HTMLTextAreaElement>('ptx');
const gutterEl = $('ptx-gutter');
const hlLayer = $('ptx-highlight');
const errorEl = $('error');
const wgslEl = $('wgsl');
const wgslInfo = $('wgsl-info');
const gridEl = $<HTMLInputElement>('grid');
const blockEl = $<HTMLInputElement>('block');
const runBtn = $<HTMLButtonElement>('run');
const statusEl = $('status');
const argsBody = $('args').querySelector('tbody') as HTMLTableSectionElement;
const pathEl = $('path');
const outputsEl = $('outputs');

/** What a run saw, for people reading the console and for the end-to-end test. */
interface RunRecord {
  readonly example: string;
  readonly entry: string;
  readonly grid: number[];
  readonly block: number[];
  readonly args: ({ name: string; kind: 'scalar'; value: number } | { name: string; kind: 'buffer'; dtype: Dtype; file: string | null; before: number[]; after: number[] })[];
  readonly msPerLaunch: number;
  readonly warpPath: string;
  /** The path of its wmma/mma products, null when it has none. */
  readonly matrixPath: string | null;
  readonly fma: string;
}

const state: {
  example: Example | undefined;
  kernel: CompiledKernel | undefined;
  entries: string[];
  ctx: Context | undefined;
  gpuError: string | undefined;
  pinnedPtx: number | null;
  errorLines: number[];
  lastRun: RunRecord | undefined;
} = { example: undefined, kernel: undefined, entries: [], ctx: undefined, gpuError: undefined, pinnedPtx: null, errorLines: [], lastRun: undefined };

function setState(s: 'ready' | 'compiling' | 'running' | 'done' | 'error'): void {
  document.body.dataset['state'] = s;
}

// ---------------------------------------------------------------------------------- device

let contextPromise: Promise<Context | undefined> | undefined;

function context(): Promise<Context | undefined> {
  contextPromise ??= (async () => {
    if (!('gpu' in navigator) || !navigator.gpu) { state.gpuError = 'this browser has no WebGPU (navigator.gpu is missing)'; return undefined; }
    try {
      const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
      if (!adapter) { state.gpuError = 'no WebGPU adapter is available'; return undefined; }
      const device = await requestKernelDevice(adapter);
      const ctx = await createContext({ device });
      const info = adapter.info;
      const name = [info.vendor, info.architecture, info.device, info.description].filter((s) => s).join(' ') || 'unknown adapter';
      const sg = ctx.subgroups ? `subgroups of ${ctx.subgroups.size}${ctx.subgroups.pinned ? ' (pinned)' : ''}` : 'no usable subgroups';
      deviceEl.textContent = `WebGPU: ${name} · ${sg} · fma ${ctx.fusedFma ? 'fused' : 'exact (emulated)'}`;
      state.ctx = ctx;
      return ctx;
    } catch (e) {
      state.gpuError = `WebGPU device: ${e instanceof Error ? e.message : String(e)}`;
      return undefined;
    } finally {
      if (state.gpuError) deviceEl.textContent = state.gpuError;
    }
  })();
  return contextPromise;
}

// ---------------------------------------------------------------------------------- compile

function fileName(): string {
  return `${state.example?.id ?? 'input'}.ptx`;
}

/** Compiles the editor's PTX as the context would run it (or for a generic device without one). */
function compileNow(): void {
  const ptx = ptxEl.value;
  state.errorLines = [];
  try {
    let kernel: CompiledKernel;
    let entries: string[];
    const ctx = state.ctx;
    if (ctx) {
      const mod = ctx.loadModule(ptx, { fileName: fileName() });
      entries = [...mod.entries];
      const entry = entries.includes(entrySel.value) ? entrySel.value : entries[0];
      if (entry === undefined) throw new Error('the module has no .entry kernel');
      kernel = mod.kernel(entry, []);
    } else {
      const all = compile(ptx, { fileName: fileName() }).kernels;
      entries = all.map((k) => k.layout.entry);
      const k = all.find((x) => x.layout.entry === entrySel.value) ?? all[0];
      if (!k) throw new Error('the module has no .entry kernel');
      kernel = k;
    }
    if (entries.join() !== state.entries.join()) {
      state.entries = entries;
      entrySel.replaceChildren(...entries.map((e) => new Option(e, e)));
    }
    entrySel.value = kernel.layout.entry;
    const paramsChanged = !state.kernel || paramSignature(state.kernel.layout.params) !== paramSignature(kernel.layout.params);
    state.kernel = kernel;
    errorEl.hidden = true;
    renderWgsl(kernel);
    if (paramsChanged) renderArgs(kernel.layout.params, currentPreset(kernel.layout.params));
    runBtn.disabled = false;
    setState('ready');
  } catch (e) {
    showError(e, ptx);
    runBtn.disabled = true;
    setState('error');
  }
  renderHighlights();
}

function showError(e: unknown, ptx: string): void {
  errorEl.hidden = false;
  if (e instanceof PtxError) {
    errorEl.textContent = e.message;
    const src = new SourceFile(fileName(), ptx);
    state.errorLines = e.diagnostics.flatMap((d) => (d.span ? [src.position(d.span.start).line] : []));
    const first = state.errorLines[0];
    if (first !== undefined) scrollPtxTo(first);
  } else {
    errorEl.textContent = e instanceof Error ? e.message : String(e);
  }
}

function paramSignature(params: readonly ParamLayout[]): string {
  return params.map((p) => `${p.type}${p.isPointer ? '*' : ''}`).join(',');
}

function currentPreset(params: readonly ParamLayout[]): readonly ArgSpec[] {
  const ex = state.example;
  if (ex && ex.ptx === ptxEl.value && ex.args.length === params.length) return ex.args;
  return params.map((p) => (p.isPointer
    ? { kind: 'buffer', dtype: 'f32', length: 1024, gen: 'linear', value: 1 }
    : { kind: 'scalar', value: p.type.includes('f') ? 1 : 1024 }));
}

// ---------------------------------------------------------------------------------- views

function renderGutter(): void {
  const n = ptxEl.value.split('\n').length;
  if (gutterEl.childElementCount !== n) {
    const frag = document.createDocumentFragment();
    for (let i = 1; i <= n; i++) {
      const d = document.createElement('div');
      d.textContent = String(i);
      d.dataset['line'] = String(i);
      frag.append(d);
    }
    gutterEl.replaceChildren(frag);
  }
  gutterEl.scrollTop = ptxEl.scrollTop;
}

function renderWgsl(kernel: CompiledKernel): void {
  const lines = kernel.wgsl.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const map = kernel.lineMap ?? [];
  const frag = document.createDocumentFragment();
  lines.forEach((text, i) => {
    const row = document.createElement('div');
    row.className = 'wl';
    row.dataset['i'] = String(i + 1);
    const ptxLine = map[i];
    if (ptxLine != null) { row.classList.add('src'); row.dataset['ptx'] = String(ptxLine); row.title = `PTX line ${ptxLine}`; }
    const n = document.createElement('span');
    n.className = 'n';
    n.textContent = String(i + 1);
    const t = document.createElement('span');
    t.className = 't';
    t.textContent = text;
    row.append(n, t);
    frag.append(row);
  });
  wgslEl.replaceChildren(frag);
  const mapped = map.filter((l) => l != null).length;
  wgslInfo.textContent = `${lines.length} lines, ${mapped} linked to PTX · entry ${kernel.entryPoint}`;
}

/** Highlights PTX line `line` and every WGSL line made from it (null: only the pinned one, if any). */
let hovered: number | null = null;

function renderHighlights(): void {
  const line = hovered ?? state.pinnedPtx;
  for (const el of gutterEl.querySelectorAll('.hl, .err')) el.classList.remove('hl', 'err');
  for (const el of wgslEl.querySelectorAll('.hl, .pinned')) el.classList.remove('hl', 'pinned');
  const bars: HTMLElement[] = [];
  const bar = (l: number, cls: string): void => {
    const d = document.createElement('div');
    d.className = cls;
    d.dataset['line'] = String(l);
    d.style.top = `${PAD + (l - 1) * LINE - ptxEl.scrollTop}px`;
    bars.push(d);
  };
  for (const l of state.errorLines) { gutterEl.children[l - 1]?.classList.add('err'); bar(l, 'err'); }
  if (line !== null) {
    gutterEl.children[line - 1]?.classList.add('hl');
    bar(line, 'hl');
    for (const row of wgslEl.querySelectorAll<HTMLElement>(`.wl[data-ptx="${line}"]`)) row.classList.add(line === state.pinnedPtx && hovered === null ? 'pinned' : 'hl');
  }
  hlLayer.replaceChildren(...bars);
}

function scrollPtxTo(line: number): void {
  const top = PAD + (line - 1) * LINE;
  if (top < ptxEl.scrollTop || top + LINE > ptxEl.scrollTop + ptxEl.clientHeight) ptxEl.scrollTop = Math.max(0, top - ptxEl.clientHeight / 3);
  gutterEl.scrollTop = ptxEl.scrollTop;
}

function scrollWgslTo(line: number): void {
  const row = wgslEl.querySelector<HTMLElement>(`.wl[data-ptx="${line}"]`);
  if (!row) return;
  const top = row.offsetTop - wgslEl.offsetTop;
  if (top < wgslEl.scrollTop || top + LINE > wgslEl.scrollTop + wgslEl.clientHeight) wgslEl.scrollTop = Math.max(0, top - wgslEl.clientHeight / 3);
}

function ptxLineAt(clientY: number): number {
  const r = ptxEl.getBoundingClientRect();
  return Math.max(1, Math.floor((clientY - r.top - PAD + ptxEl.scrollTop) / LINE) + 1);
}

wgslEl.addEventListener('mouseover', (ev) => {
  const row = (ev.target as HTMLElement).closest<HTMLElement>('.wl');
  const l = row?.dataset['ptx'];
  hovered = l ? Number(l) : null;
  if (hovered !== null) scrollPtxTo(hovered);
  renderHighlights();
});
wgslEl.addEventListener('mouseleave', () => { hovered = null; renderHighlights(); });
wgslEl.addEventListener('click', (ev) => {
  const l = (ev.target as HTMLElement).closest<HTMLElement>('.wl')?.dataset['ptx'];
  state.pinnedPtx = l ? Number(l) : null;
  if (state.pinnedPtx !== null) scrollPtxTo(state.pinnedPtx);
  renderHighlights();
});
ptxEl.addEventListener('mousemove', (ev) => {
  const l = ptxLineAt(ev.clientY);
  if (l === hovered) return;
  hovered = l;
  scrollWgslTo(l);
  renderHighlights();
});
ptxEl.addEventListener('mouseleave', () => { hovered = null; renderHighlights(); });
const pinCaret = (): void => {
  state.pinnedPtx = ptxEl.value.slice(0, ptxEl.selectionStart).split('\n').length;
  scrollWgslTo(state.pinnedPtx);
  renderHighlights();
};
ptxEl.addEventListener('click', pinCaret);
ptxEl.addEventListener('keyup', (ev) => { if (ev.key.startsWith('Arrow') || ev.key.startsWith('Page')) pinCaret(); });
ptxEl.addEventListener('scroll', () => { gutterEl.scrollTop = ptxEl.scrollTop; renderHighlights(); });
let compileTimer: ReturnType<typeof setTimeout> | undefined;
ptxEl.addEventListener('input', () => {
  renderGutter();
  if (state.example && ptxEl.value !== state.example.ptx) exampleSel.value = 'custom';
  clearTimeout(compileTimer);
  setState('compiling');
  compileTimer = setTimeout(compileNow, 250);
});
ptxEl.addEventListener('keydown', (ev) => {
  if (ev.key !== 'Tab') return;
  ev.preventDefault();
  ptxEl.setRangeText('\t', ptxEl.selectionStart, ptxEl.selectionEnd, 'end');
  ptxEl.dispatchEvent(new Event('input'));
});

// ---------------------------------------------------------------------------------- arguments

function renderArgs(params: readonly ParamLayout[], specs: readonly ArgSpec[]): void {
  argsBody.replaceChildren(...params.map((p, i) => {
    const spec = specs[i] ?? { kind: 'scalar', value: 0 };
    const tr = document.createElement('tr');
    tr.dataset['kind'] = spec.kind;
    const cell = (...nodes: (Node | string)[]): HTMLTableCellElement => { const td = document.createElement('td'); td.append(...nodes); return td; };
    const input = (cls: string, value: string): HTMLInputElement => { const el = document.createElement('input'); el.className = cls; el.value = value; return el; };
    const select = (cls: string, options: readonly string[], value: string): HTMLSelectElement => {
      const el = document.createElement('select');
      el.className = cls;
      el.append(...options.map((o) => new Option(o, o)));
      el.value = value;
      return el;
    };
    if (spec.kind === 'buffer') {
      const file = document.createElement('input');
      file.type = 'file';
      file.className = 'file';
      file.accept = '.npy,.bin,.raw,application/octet-stream';
      const note = document.createElement('span');
      note.className = 'file-note muted';
      tr.append(cell(String(i)), cell(p.name), cell('pointer'), cell(select('dtype', ['f16', 'f32', 'i32', 'u32'], spec.dtype)), cell(input('length', String(spec.length))),
        cell(select('gen', ['linear', 'fill', 'random', 'file'], spec.gen)), cell(input('value', String(spec.value)), file, note));
      if (spec.shape) tr.dataset['shape'] = spec.shape.join('x');
      file.addEventListener('change', () => void pickFile(tr, file.files?.[0]));
      tr.querySelector('.gen')?.addEventListener('change', () => showGenerator(tr));
      showGenerator(tr);
    } else {
      tr.append(cell(String(i)), cell(p.name), cell('scalar'), cell(p.type.replace(/^\./, '')), cell(''), cell(''), cell(input('value', String(spec.value))));
    }
    return tr;
  }));
}

/** Files picked for buffer arguments, by their row. */
const argFiles = new WeakMap<HTMLTableRowElement, ArgFile>();

/** The file generator shows a file input instead of a value, and the file sets the length. */
function showGenerator(tr: HTMLTableRowElement): void {
  const fromFile = (tr.querySelector('.gen') as HTMLSelectElement).value === 'file';
  (tr.querySelector('.value') as HTMLElement).hidden = fromFile;
  (tr.querySelector('.file') as HTMLElement).hidden = !fromFile;
  (tr.querySelector('.file-note') as HTMLElement).hidden = !fromFile;
  (tr.querySelector('.length') as HTMLInputElement).disabled = fromFile && argFiles.has(tr);
}

async function pickFile(tr: HTMLTableRowElement, file: File | undefined): Promise<void> {
  const note = tr.querySelector('.file-note') as HTMLElement;
  argFiles.delete(tr);
  note.classList.remove('bad');
  if (file) {
    try {
      const f = await readArgFile(file);
      argFiles.set(tr, f);
      const dtype = (tr.querySelector('.dtype') as HTMLSelectElement).value as Dtype;
      (tr.querySelector('.length') as HTMLInputElement).value = String(Math.floor(f.bytes.byteLength / DTYPE_BYTES[dtype]));
      note.textContent = `${f.name}: ${f.about}`;
    } catch (e) {
      note.textContent = `${file.name}: ${e instanceof Error ? e.message : String(e)}`;
      note.classList.add('bad');
    }
  } else note.textContent = '';
  showGenerator(tr);
}

function readArgs(): ArgSpec[] {
  return [...argsBody.rows].map((tr) => {
    const value = Number((tr.querySelector('.value') as HTMLInputElement).value);
    if (tr.dataset['kind'] !== 'buffer') return { kind: 'scalar', value };
    const gen = (tr.querySelector('.gen') as HTMLSelectElement).value as Generator;
    const file = gen === 'file' ? argFiles.get(tr) : undefined;
    const npyShape = file?.npy?.shape;
    const shape = (npyShape?.length === 2 ? npyShape : file ? undefined : tr.dataset['shape']?.split('x').map(Number)) as [number, number] | undefined;
    const b: BufferArg = {
      kind: 'buffer',
      dtype: (tr.querySelector('.dtype') as HTMLSelectElement).value as Dtype,
      length: Math.max(1, Math.floor(Number((tr.querySelector('.length') as HTMLInputElement).value) || 1)),
      gen,
      value,
      ...(shape ? { shape } : {}),
      ...(file ? { file } : {}),
    };
    return b;
  });
}

/**
 * A deterministic generator (xorshift32 seeded by the argument's index), or the file's elements;
 * f16 elements as their bits, the value rounded to the nearest half.
 */
function generate(spec: BufferArg, index: number): HostElements {
  if (spec.gen === 'file') {
    if (!spec.file) throw new Error(`argument ${index}: choose a .npy or raw file`);
    return argFileElements(spec.file, spec.dtype);
  }
  const half = spec.dtype === 'f16';
  const out = spec.dtype === 'f32' ? new Float32Array(spec.length) : spec.dtype === 'i32' ? new Int32Array(spec.length) : spec.dtype === 'u32' ? new Uint32Array(spec.length) : new Uint16Array(spec.length);
  const int = spec.dtype === 'i32' || spec.dtype === 'u32';
  let s = (0x9e3779b9 ^ (index + 1) * 0x85ebca6b) >>> 0 || 1;
  for (let i = 0; i < out.length; i++) {
    let v: number;
    if (spec.gen === 'linear') v = i * spec.value;
    else if (spec.gen === 'fill') v = spec.value;
    else {
      s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
      v = (s / 2 ** 32) * spec.value;
      if (int) v = Math.floor(v);
    }
    out[i] = half ? toHalfBits(v) : v;
  }
  return out;
}

/** The numbers a host buffer holds (f16 bits decoded). */
function valuesOf(h: HostElements, dtype: Dtype): ArrayLike<number> {
  return dtype === 'f16' ? Float32Array.from(h, fromHalfBits) : h;
}

function parseDim(text: string): number[] {
  const d = text.split(/[,x\s]+/).filter((s) => s).map((s) => Number(s));
  if (d.length === 0 || d.length > 3 || d.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`bad dimensions "${text}": give x, x,y or x,y,z (positive integers)`);
  return d;
}

// ---------------------------------------------------------------------------------- run

async function run(): Promise<void> {
  runBtn.disabled = true;
  setState('running');
  statusEl.textContent = 'running...';
  outputsEl.replaceChildren();
  const buffers: DeviceBuffer[] = [];
  const ctx = await context();
  try {
    if (!ctx) throw new Error(state.gpuError ?? 'no WebGPU device');
    compileNow();
    const kernel = state.kernel;
    if (!kernel || !errorEl.hidden) throw new Error('fix the PTX first');
    const entry = kernel.layout.entry;
    const grid = parseDim(gridEl.value);
    const block = parseDim(blockEl.value);
    const specs = readArgs();
    const host = specs.map((s, i) => (s.kind === 'buffer' ? generate(s, i) : undefined));
    const fn = ctx.loadModule(ptxEl.value, { fileName: fileName() }).getFunction(entry);
    const args: LaunchArg[] = specs.map((s, i) => {
      const h = host[i];
      if (s.kind === 'scalar' || !h) return s.value;
      const b = ctx.malloc(h.byteLength);
      buffers.push(b);
      ctx.memcpyHtoD(b, h);
      return b;
    });
    const config = { grid: grid as [number, number?, number?], block: block as [number, number?, number?] };
    await fn.prepareAsync(config, args);
    const used = fn.launch(config, args);
    await ctx.synchronize();
    const after = await Promise.all(specs.map(async (s, i) => {
      const h = host[i];
      const a = args[i];
      if (s.kind === 'scalar' || !h) return undefined;
      const copy = h.slice();
      await ctx.memcpyDtoH(copy, a as DeviceBuffer);
      return copy;
    }));
    // Time: launches back to back, enough of them to cover ~250 ms.
    let t0 = performance.now();
    fn.launch(config, args);
    await ctx.synchronize();
    const once = performance.now() - t0;
    const reps = Math.max(2, Math.min(100, Math.floor(250 / Math.max(once, 0.25))));
    t0 = performance.now();
    for (let r = 0; r < reps; r++) fn.launch(config, args);
    await ctx.synchronize();
    const ms = (performance.now() - t0) / reps;
    if (used.wgsl !== kernel.wgsl) { state.kernel = used; renderWgsl(used); renderHighlights(); }
    const warp = used.layout.warp;
    const matrix = matrixPath(ptxEl.value, used);
    const fma = ctx.fusedFma ? 'fused (WGSL fma() is fused on this device)' : 'exact (emulated: WGSL fma() is not fused here)';
    pathEl.replaceChildren();
    pathEl.innerHTML = `<div>warp path: <b class="warp">${warp.path}</b> <span class="muted">(${escapeHtml(warp.reason)})</span></div>` +
      (matrix ? `<div>matrix path: <b class="matrix">${escapeHtml(matrix.path)}</b> <span class="muted">${matrix.reason ? `(${escapeHtml(matrix.reason)})` : ''}</span></div>` : '') +
      `<div>fma.rn.f32: <b class="fma">${ctx.fusedFma ? 'fused' : 'exact'}</b> <span class="muted">${escapeHtml(fma.replace(/^\w+ /, ''))}</span></div>` +
      `<div>features: ${used.layout.features.length ? used.layout.features.join(', ') : 'none'} · shared memory ${used.layout.staticSharedBytes} B · params ${used.layout.paramBytes} B</div>`;
    statusEl.innerHTML = `<b id="time">${formatMs(ms)}</b> per launch <span class="muted">(mean of ${reps} launches; grid ${grid.join('x')}, block ${block.join('x')})</span>`;
    const params = kernel.layout.params;
    const shown = (a: readonly (HostElements | undefined)[]): (ArrayLike<number> | undefined)[] => a.map((h, i) => {
      const s = specs[i];
      return h && s?.kind === 'buffer' ? valuesOf(h, s.dtype) : undefined;
    });
    const [before, afterValues] = [shown(host), shown(after)];
    renderOutputs(specs, before, afterValues, params);
    state.lastRun = {
      example: state.example?.id ?? 'custom', entry, grid, block, msPerLaunch: ms, warpPath: warp.path, matrixPath: matrix?.path ?? null, fma: ctx.fusedFma ? 'fused' : 'exact',
      args: specs.map((s, i) => {
        const name = params[i]?.name ?? `arg${i}`;
        const h = before[i];
        const a = afterValues[i];
        return s.kind === 'buffer' && h && a ? { name, kind: 'buffer' as const, dtype: s.dtype, file: s.file?.name ?? null, before: Array.from(h), after: Array.from(a) } : { name, kind: 'scalar' as const, value: s.kind === 'scalar' ? s.value : 0 };
      }),
    };
    setState('done');
  } catch (e) {
    statusEl.textContent = 'failed';
    showError(e, ptxEl.value);
    renderHighlights();
    setState('error');
  } finally {
    for (const b of buffers) try { ctx?.free(b); } catch { /* already gone with the device */ }
    runBtn.disabled = false;
  }
}

function formatMs(ms: number): string {
  return ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function formatValue(v: number, dtype: Dtype): string {
  if (dtype === 'i32' || dtype === 'u32') return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e7) return String(v);
  return Math.abs(v) >= 1e5 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(4) : v.toFixed(5);
}

function renderOutputs(specs: readonly ArgSpec[], before: readonly (ArrayLike<number> | undefined)[], after: readonly (ArrayLike<number> | undefined)[], params: readonly ParamLayout[]): void {
  const blocks = specs.flatMap((s, i) => {
    const b = before[i];
    const a = after[i];
    if (s.kind !== 'buffer' || !a || !b) return [];
    let changed = 0;
    for (let j = 0; j < a.length; j++) if (!Object.is(a[j], b[j])) changed++;
    const div = document.createElement('div');
    div.className = `out${changed ? ' written' : ''}`;
    div.dataset['arg'] = String(i);
    const head = document.createElement('div');
    head.innerHTML = `<span class="name"><b>${escapeHtml(params[i]?.name ?? `arg${i}`)}</b></span> ${s.dtype}[${a.length}]` +
      ` <span class="muted">${changed ? `${changed} elements written` : 'input (unchanged)'}</span>`;
    const vals = document.createElement('div');
    vals.className = 'vals';
    const n = Math.min(16, a.length);
    vals.textContent = Array.from({ length: n }, (_, j) => formatValue(a[j] as number, s.dtype)).join(', ') + (a.length > n ? ', ...' : '');
    div.append(head, vals);
    const format = (v: number): string => formatValue(v, 'f32');
    if (changed && s.shape) div.append(heatMap(a, s.shape[0], s.shape[1], format));
    else if (changed) div.append(histogram(a, format));
    return [div];
  });
  outputsEl.replaceChildren(...blocks);
}

// ---------------------------------------------------------------------------------- examples

function selectExample(id: string): void {
  const ex = EXAMPLES.find((e) => e.id === id);
  if (!ex) return;
  state.example = ex;
  exampleSel.value = id;
  cudaPane.hidden = false;
  cudaEl.textContent = ex.cuda;
  ptxEl.value = ex.ptx;
  ptxEl.scrollTop = 0;
  wgslEl.scrollTop = 0;
  gridEl.value = ex.grid;
  blockEl.value = ex.block;
  state.pinnedPtx = null;
  hovered = null;
  state.kernel = undefined;
  outputsEl.replaceChildren();
  pathEl.replaceChildren();
  statusEl.textContent = '';
  renderGutter();
  compileNow();
}

exampleSel.append(...EXAMPLES.map((e) => new Option(e.title, e.id)), new Option('(your PTX)', 'custom'));
exampleSel.addEventListener('change', () => { if (exampleSel.value !== 'custom') selectExample(exampleSel.value); });
entrySel.addEventListener('change', () => { state.kernel = undefined; compileNow(); });
runBtn.addEventListener('click', () => void run());

const ready = (async () => {
  selectExample(new URLSearchParams(location.search).get('example') ?? EXAMPLES[0]!.id);
  await context();
  compileNow(); // again, for this device (warp path, fma)
})();

const conformance = initConformanceTab(context);

Object.assign(window, { __demo: { ready, state, run, selectExample, examples: EXAMPLES.map((e) => e.id), conformance } });
