/**
 * The playground's Conformance tab: the instruction-level conformance runner
 * (ptx-wgsl/conformance, the one `npx ptx-wgsl conformance` runs) on this browser's WebGPU,
 * with the shipped data served beside the page (dist/demo/conformance/, copied by
 * scripts/build-demo.mjs). Shows a pass/fail matrix per instruction family and warp path, and
 * the first differing case of each failing form.
 */
import type { Context } from '../src/index.js';
import {
  deviceWarpPath, fetchConformanceFiles, loadConformance, passed, runConformance, suiteOf,
  type BatchResult, type ConformanceData, type FamilyResult, type PathResult, type WarpPathRequest,
} from '../src/conformance/index.js';

/** Every family runs on the device's own path and on the emulation (once, when that is the same kernel). */
const WARP_PATHS: readonly WarpPathRequest[] = ['auto', 'emulated'];
/** Checked when the tab opens: the quick suites (video kernels take minutes to compile on a CPU device). */
const DEFAULT_SUITES: readonly string[] = ['int', 'float', 'warp'];

type Status = 'loading' | 'idle' | 'running' | 'done' | 'error';

/** What the tab shows, for the end-to-end test. */
interface TabState {
  status: Status;
  message: string;
  families: readonly FamilyResult[];
}

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

export function initConformanceTab(context: () => Promise<Context | undefined>) {
  const familiesEl = $('conf-families');
  const runBtn = $<HTMLButtonElement>('conf-run');
  const progress = $<HTMLProgressElement>('conf-progress');
  const statusEl = $('conf-status');
  const matrix = $<HTMLTableElement>('conf-matrix');
  const failuresEl = $('conf-failures');
  const state: TabState = { status: 'loading', message: '', families: [] };
  const setStatus = (status: Status, message: string): void => {
    state.status = status;
    state.message = message;
    document.body.dataset['conformance'] = status;
    statusEl.textContent = message;
  };
  setStatus('loading', 'loading the conformance data...');
  initTabs();

  let data: ConformanceData | undefined;
  const ready = loadConformance(fetchConformanceFiles(new URL('conformance/', location.href))).then(
    (d) => {
      data = d;
      renderFamilies(familiesEl, d.index.batches);
      renderMatrix(matrix, d.index.batches, undefined);
      setStatus('idle', `${d.index.batches.length} families, the first ${d.index.cases} cases of each form`);
    },
    (e: unknown) => setStatus('error', `the conformance data did not load: ${e instanceof Error ? e.message : String(e)}`),
  );

  async function run(families?: readonly string[]): Promise<void> {
    await ready;
    if (!data || state.status === 'running') return;
    if (families) for (const box of familiesEl.querySelectorAll<HTMLInputElement>('input[data-family]')) box.checked = families.includes(box.dataset['family'] ?? '');
    const chosen = [...familiesEl.querySelectorAll<HTMLInputElement>('input[data-family]:checked')].map((b) => b.dataset['family'] ?? '');
    if (chosen.length === 0) { setStatus('idle', 'choose at least one family'); return; }
    runBtn.disabled = true;
    failuresEl.hidden = true;
    state.families = [];
    progress.value = 0;
    setStatus('running', 'starting the device...');
    const t0 = performance.now();
    try {
      const ctx = await context();
      if (!ctx) throw new Error('no WebGPU device (see the header)');
      renderMatrix(matrix, data.index.batches, deviceWarpPath(ctx));
      const results = await runConformance(data, ctx, {
        families: chosen,
        warpPaths: WARP_PATHS,
        onStep: (s) => {
          progress.value = s.done / s.total;
          setStatus('running', `${s.done}/${s.total} kernel runs · ${s.family} on warp path ${s.warpPath}`);
          const cell = matrix.querySelector<HTMLElement>(`tr[data-family="${s.family}"] td[data-path="${s.warpPath}"]`);
          if (cell) { cell.dataset['status'] = 'running'; cell.textContent = 'running...'; }
        },
        onFamily: (f) => { state.families = [...state.families, f]; showFamily(matrix, f); },
      });
      progress.value = 1;
      const ok = results.filter((f) => f.ok).length;
      setStatus('done', `${ok}/${results.length} families pass on every warp path (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
      showFailures(failuresEl, results);
    } catch (e) {
      setStatus('error', `the run stopped: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      runBtn.disabled = false;
    }
  }

  runBtn.addEventListener('click', () => void run());
  return { ready, state, run };
}

function initTabs(): void {
  const buttons = [...document.querySelectorAll<HTMLButtonElement>('nav#tabs button')];
  for (const b of buttons) {
    b.addEventListener('click', () => {
      for (const other of buttons) other.classList.toggle('active', other === b);
      document.body.dataset['tab'] = b.dataset['tab'] ?? '';
      for (const tab of document.querySelectorAll<HTMLElement>('.tab')) tab.hidden = tab.id !== `${b.dataset['tab']}-tab`;
    });
  }
}

function suitesOf(names: readonly string[]): Map<string, string[]> {
  const suites = new Map<string, string[]>();
  for (const n of names) suites.set(suiteOf(n), [...(suites.get(suiteOf(n)) ?? []), n]);
  return suites;
}

/** A fieldset of checkboxes per suite; the legend's box checks or clears the whole suite. */
function renderFamilies(el: HTMLElement, names: readonly string[]): void {
  el.replaceChildren(...[...suitesOf(names)].map(([suite, members]) => {
    const set = document.createElement('fieldset');
    const legend = document.createElement('legend');
    const all = checkbox(DEFAULT_SUITES.includes(suite), suite);
    all.dataset['suite'] = suite;
    legend.append(all.parentElement as HTMLElement);
    const boxes = members.map((m) => { const b = checkbox(DEFAULT_SUITES.includes(suite), m); b.dataset['family'] = m; return b; });
    all.addEventListener('change', () => { for (const b of boxes) b.checked = all.checked; });
    set.append(legend, ...boxes.map((b) => b.parentElement as HTMLElement));
    return set;
  }));
}

function checkbox(checked: boolean, text: string): HTMLInputElement {
  const label = document.createElement('label');
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.checked = checked;
  label.append(box, ` ${text}`);
  return box;
}

/** The matrix's rows (a heading per suite) with empty cells; `device`: what `auto` gives on this device. */
function renderMatrix(table: HTMLTableElement, names: readonly string[], device: 'subgroups' | 'emulated' | undefined): void {
  const head = document.createElement('tr');
  const th = (text: string): HTMLTableCellElement => { const c = document.createElement('th'); c.textContent = text; return c; };
  head.append(th('family'), th('forms'), th('cases'), ...WARP_PATHS.map((p) => {
    const c = th(p === 'auto' ? `warp path auto${device ? ` (here: ${device})` : ''}` : `warp path ${p}`);
    c.dataset['path'] = p;
    return c;
  }));
  table.tHead?.replaceChildren(head);
  const rows: HTMLTableRowElement[] = [];
  for (const [suite, members] of suitesOf(names)) {
    const s = document.createElement('tr');
    s.className = 'suite';
    const c = th(suite);
    c.colSpan = 3 + WARP_PATHS.length;
    s.append(c);
    rows.push(s);
    for (const m of members) {
      const r = document.createElement('tr');
      r.dataset['family'] = m;
      r.append(cell(m), cell('', 'num forms'), cell('', 'num cases'), ...WARP_PATHS.map((p) => { const d = cell('—'); d.dataset['path'] = p; d.dataset['status'] = 'not-run'; return d; }));
      rows.push(r);
    }
  }
  table.tBodies[0]?.replaceChildren(...rows);
}

function cell(text: string, className = ''): HTMLTableCellElement {
  const c = document.createElement('td');
  c.textContent = text;
  if (className) c.className = className;
  return c;
}

function showFamily(table: HTMLTableElement, f: FamilyResult): void {
  const row = table.querySelector<HTMLTableRowElement>(`tr[data-family="${f.name}"]`);
  if (!row) return;
  const first = f.paths[0]?.result;
  (row.querySelector('.forms') as HTMLElement).textContent = first ? String(first.forms) : '';
  (row.querySelector('.cases') as HTMLElement).textContent = first ? String(first.cases) : '';
  for (const p of f.paths) {
    const c = row.querySelector<HTMLElement>(`td[data-path="${p.warpPath}"]`);
    if (!c) continue;
    c.dataset['status'] = p.same ? 'same' : statusOf(p.result);
    c.textContent = p.same ? `same: ${verdict(p.result)}` : verdict(p.result);
    c.title = pathNote(p, f.paths[0]);
  }
}

function statusOf(r: BatchResult): 'pass' | 'fail' | 'error' {
  return r.error ? 'error' : passed(r) ? 'pass' : 'fail';
}

function verdict(r: BatchResult): string {
  const s = statusOf(r);
  return s === 'pass' ? 'pass' : s === 'error' ? 'error' : `FAIL ${r.failedCases}/${r.cases}`;
}

function pathNote(p: PathResult, first: PathResult | undefined): string {
  if (p.same) return p.result.warpPath === 'none' ? `no warp instructions: the same kernel as on warp path ${first?.warpPath}` : `warp path ${first?.warpPath} took ${p.result.warpPath} too: the same kernel`;
  return p.result.warpPath === 'none' ? 'the kernel has no warp instructions' : `its warp instructions took the ${p.result.warpPath} path`;
}

function showFailures(el: HTMLElement, results: readonly FamilyResult[]): void {
  const lines: string[] = [];
  for (const f of results) {
    for (const p of f.paths) {
      if (p.same) continue;
      const where = `${f.name} (warp path ${p.warpPath})`;
      if (p.result.error) lines.push(`${where}: did not run: ${p.result.error.message}`);
      for (const x of p.result.failures) {
        const how = x.approximate ? 'is outside the approximation bound' : 'differs';
        lines.push(`${where}: ${x.form} ${how} in ${x.failed}/${x.cases} cases; first: case ${x.first.index} (${x.first.inputs.join(', ')}) -> ${x.first.got.join(', ')}, NVIDIA ${x.first.native.join(', ')}`);
      }
    }
  }
  el.textContent = lines.join('\n');
  el.hidden = lines.length === 0;
}
