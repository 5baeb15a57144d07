// The playground (demo/) end to end in Debian's Chromium with SwiftShader WebGPU (the launch
// flags of tests/hosts/chromium-runner.ts): builds dist/demo, serves it, loads the page, runs
// every example through its UI and checks the outputs shown against a JS reference computed
// here from the inputs the page generated, and the histogram of each 1D output (and, for the
// wmma GEMM, f16 inputs and the matrix path the page reports); checks the
// PTX <-> WGSL line link by hovering, arguments read from a .npy and a raw file, and the
// Conformance tab (two integer families against the NVIDIA recording shipped in dist/demo/).
// On failure it saves a screenshot to a temp dir (named in the error). With
// PTXW_UPDATE_SCREENSHOT=1 it rewrites docs/demo-sgemm.png.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../hosts/chromium-runner.js';
// @ts-expect-error: a plain ES module script without declarations
import { buildDemo } from '../../scripts/build-demo.mjs';
// @ts-expect-error: a plain ES module script without declarations
import { serveDemo } from '../../scripts/serve-demo.mjs';
import { fromHalfBits, toHalfBits } from '../../runtime/half.js';

interface BufferRecord { name: string; kind: 'buffer'; dtype: string; file: string | null; before: number[]; after: number[] }
interface ScalarRecord { name: string; kind: 'scalar'; value: number }
interface RunRecord { example: string; entry: string; grid: number[]; block: number[]; args: (BufferRecord | ScalarRecord)[]; msPerLaunch: number; warpPath: string; matrixPath: string | null; fma: string }

const EXAMPLES = ['vector_add', 'block_reduce', 'softmax', 'sgemm', 'warp_scan', 'wmma_gemm'];

let browser: Browser;
let page: Page;
let server: Server;
let url: string;
let userDataDir: string;
const shotDir = mkdtempSync(join(tmpdir(), 'ptxw-demo-shots-'));
const fileDir = mkdtempSync(join(tmpdir(), 'ptxw-demo-files-'));
const log: string[] = [];

beforeAll(async () => {
  await buildDemo();
  ({ server, url } = await serveDemo({ port: 0 }));
  userDataDir = mkdtempSync(join(tmpdir(), 'ptxw-demo-chromium-'));
  browser = await puppeteer.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, `--user-data-dir=${userDataDir}`, '--window-size=1600,1200'],
    defaultViewport: { width: 1600, height: 1200 },
    env: { ...process.env, XDG_RUNTIME_DIR: process.env['XDG_RUNTIME_DIR'] || '/tmp' },
    protocolTimeout: 10 * 60_000,
  });
  page = await browser.newPage();
  page.on('console', (m) => log.push(`[page] ${m.text()}`));
  page.on('pageerror', (e) => log.push(`[pageerror] ${String(e)}`));
  await page.goto(url, { waitUntil: 'load' });
  await page.evaluate('window.__demo.ready');
}, 300_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  if (readdirSync(shotDir).length === 0) rmSync(shotDir, { recursive: true, force: true });
  rmSync(fileDir, { recursive: true, force: true });
});

/** Runs `body`; on failure saves a screenshot and names it (and the page's log) in the error. */
async function withScreenshot(name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    const file = join(shotDir, `${name}.png`);
    await page.screenshot({ path: file as `${string}.png`, fullPage: true }).catch(() => undefined);
    const err = e instanceof Error ? e : new Error(String(e));
    err.message += `\nscreenshot: ${file}\n${log.slice(-20).join('\n')}`;
    throw err;
  }
}

async function runExample(id: string): Promise<RunRecord> {
  await page.select('#example', id);
  await page.waitForFunction(`document.body.dataset.state === 'ready'`);
  await page.click('#run');
  await page.waitForFunction(`['done', 'error'].includes(document.body.dataset.state)`, { timeout: 240_000 });
  const error = await page.$eval('#error', (el) => ((el as HTMLElement).hidden ? null : el.textContent));
  expect(error, `${id}: the page shows an error`).toBeNull();
  return (await page.evaluate('window.__demo.state.lastRun')) as RunRecord;
}

const buf = (r: RunRecord, i: number): BufferRecord => r.args[i] as BufferRecord;
const num = (r: RunRecord, i: number): number => (r.args[i] as ScalarRecord).value;

/** 2D outputs (drawn as heat maps); the others get a histogram. */
const SHAPED: Readonly<Record<string, readonly number[]>> = { softmax: [1], sgemm: [7], wmma_gemm: [2] };

/** Counts in 32 equal bins from the least to the greatest finite value (the greatest in the last bin). */
function histogramOf(values: readonly number[]): number[] {
  const finite = values.filter((v) => Number.isFinite(v));
  const lo = Math.min(...finite), hi = Math.max(...finite);
  const bins = new Array<number>(32).fill(0);
  for (const v of finite) {
    const b = hi > lo ? Math.min(31, Math.floor(((v - lo) / (hi - lo)) * 32)) : 16;
    bins[b]! += 1;
  }
  return bins;
}

/** A version 1.0 .npy file of little-endian f32 or f64 values, written from NumPy's format description. */
function npy(values: readonly number[], descr: '<f4' | '<f8', shape: readonly number[]): Buffer {
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const header = dict.padEnd(Math.ceil((10 + dict.length + 1) / 64) * 64 - 10 - 1, ' ') + '\n';
  const data = descr === '<f4' ? Buffer.from(new Float32Array(values).buffer) : Buffer.from(new Float64Array(values).buffer);
  const head = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(head);
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), data]);
}

/** Cases a conformance family runs: the first `keep` of each form, from the manifest the page is served. */
function shippedCases(name: string): number {
  const file = join('dist/demo/conformance', `${name}.json.gz`);
  const { manifest } = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as { manifest: { keep: number; forms: { count: number }[] } };
  return manifest.forms.reduce((n, f) => n + Math.min(manifest.keep, f.count), 0);
}

/** Output words the warp kernels write, from the recording the page is served. */
function warpWords(): number {
  const batch = JSON.parse(gunzipSync(readFileSync('dist/demo/conformance/warp-collectives.json.gz')).toString('utf8')) as { cases: { native: number[][] }[] };
  return batch.cases.reduce((n, c) => n + c.native.reduce((m, o) => m + o.length, 0), 0);
}

/**
 * The wmma GEMM's A and B are f16 (the page decodes them for the record): each value a half, not
 * all alike; C starts poisoned at -1, which no sum of products of [0, 1) inputs is.
 */
function checkHalfInputs(r: RunRecord): void {
  for (const i of [0, 1]) {
    const { dtype, before } = buf(r, i);
    expect(dtype).toBe('f16');
    expect(before.filter((v) => fromHalfBits(toHalfBits(v)) !== v || v < 0 || v > 1), `arg ${i}: not halves in [0, 1]`).toEqual([]);
    expect(new Set(before).size, `arg ${i}: distinct values`).toBeGreaterThan(before.length / 4);
  }
  expect(buf(r, 2).before.every((v) => v === -1)).toBe(true);
}

/** The outputs each example must produce, from the inputs the page generated (double precision). */
function reference(r: RunRecord): { arg: number; expected: number[]; tol: (e: number, i: number) => number }[] {
  const threads = (r.grid[0] ?? 1) * (r.block[0] ?? 1);
  const rel = (t: number) => (e: number) => t * Math.max(1, Math.abs(e));
  switch (r.example) {
    case 'vector_add': {
      const a = buf(r, 0).before, b = buf(r, 1).before, n = num(r, 3);
      return [{ arg: 2, expected: a.map((x, i) => (i < n ? Math.fround(x + (b[i] as number)) : 0)), tol: () => 0 }];
    }
    case 'block_reduce': {
      const x = buf(r, 0).before, n = num(r, 2), bx = r.block[0] as number;
      const out = buf(r, 1).before.map((_, blk) => {
        let s = 0;
        for (let t = 0; t < bx; t++) for (let i = blk * bx + t; i < n; i += threads) s += x[i] as number;
        return s;
      });
      return [{ arg: 1, expected: out, tol: rel(1e-4) }];
    }
    case 'softmax': {
      const x = buf(r, 0).before, cols = num(r, 2), rows = r.grid[0] as number;
      const y: number[] = [];
      for (let row = 0; row < rows; row++) {
        const v = x.slice(row * cols, (row + 1) * cols);
        const m = Math.max(...v);
        const e = v.map((z) => Math.exp(z - m));
        const s = e.reduce((p, q) => p + q, 0);
        y.push(...e.map((z) => z / s));
      }
      return [{ arg: 1, expected: y, tol: () => 1e-6 }];
    }
    case 'sgemm': {
      const M = num(r, 0), N = num(r, 1), K = num(r, 2), alpha = num(r, 3), beta = num(r, 6);
      const A = buf(r, 4).before, B = buf(r, 5).before, C = buf(r, 7).before;
      const out = C.map((c, idx) => {
        const i = Math.floor(idx / N), j = idx % N;
        let acc = 0;
        for (let k = 0; k < K; k++) acc += (A[i * K + k] as number) * (B[k * N + j] as number);
        return i < M ? alpha * acc + beta * c : c;
      });
      return [{ arg: 7, expected: out, tol: rel(1e-5) }];
    }
    case 'warp_scan': {
      const x = buf(r, 0).before, n = num(r, 3);
      const out = buf(r, 1).before.map((_, i) => { let s = 0; for (let j = i - (i % 32); j <= i; j++) s += j < n ? (x[j] as number) : 0; return s; });
      const totals = buf(r, 2).before.map((_, w) => { let s = 0; for (let j = w * 32; j < w * 32 + 32 && j < n; j++) s += x[j] as number; return s; });
      return [{ arg: 1, expected: out, tol: () => 0 }, { arg: 2, expected: totals.map((t, w) => (w * 32 < threads ? t : 0)), tol: () => 0 }];
    }
    case 'wmma_gemm': {
      const A = buf(r, 0).before, B = buf(r, 1).before, M = num(r, 3), N = num(r, 4), K = num(r, 5);
      const out: number[] = [], magnitude: number[] = [];
      for (let i = 0; i < M; i++) {
        for (let j = 0; j < N; j++) {
          let acc = 0, abs = 0;
          for (let k = 0; k < K; k++) { const p = (A[i * K + k] as number) * (B[k * N + j] as number); acc += p; abs += Math.abs(p); }
          out.push(acc);
          magnitude.push(abs);
        }
      }
      // A product of two halves (11 significant bits each) is exact in f32, so the one rounding is
      // the f32 sum over K, whose order the matrix path chooses (the portable path goes in
      // increasing k, a device path may use a tree): any order is within (K - 1) * 2^-24 of the
      // sum of |products| from the exact sum (the recursive summation bound, first order); K * 2^-24
      // covers the second-order term. For K = 64 and products in [0, 1), a few ulps of the result.
      return [{ arg: 2, expected: out, tol: (_, i) => K * 2 ** -24 * (magnitude[i] as number) }];
    }
    default: throw new Error(`no reference for ${r.example}`);
  }
}

describe('playground in Chromium', () => {
  it('shows the device and compiles the first example on load', async () => {
    await withScreenshot('load', async () => {
      expect(await page.$eval('#device', (el) => el.textContent)).toMatch(/^WebGPU: .*fma (fused|exact)/);
      expect(await page.$$eval('#wgsl .wl', (els) => els.length)).toBeGreaterThan(20);
      expect(await page.$$eval('#example option', (els) => els.map((e) => (e as HTMLOptionElement).value))).toEqual([...EXAMPLES, 'custom']);
    });
  });

  for (const id of EXAMPLES) {
    it(`runs ${id} and shows the right outputs`, async () => {
      await withScreenshot(id, async () => {
        const r = await runExample(id);
        expect(r.example).toBe(id);
        expect(r.msPerLaunch).toBeGreaterThan(0);
        expect(await page.$eval('#path .warp', (el) => el.textContent)).toBe(r.warpPath);
        if (id === 'warp_scan') expect(r.warpPath).not.toBe('none');
        // Only the wmma kernel has matrix products; without a device path in the layout they take the portable one.
        expect(await page.$$eval('#path .matrix', (els) => els.map((e) => e.textContent))).toEqual(r.matrixPath === null ? [] : [r.matrixPath]);
        expect(r.matrixPath).toBe(id === 'wmma_gemm' ? 'portable (warp shuffles)' : null);
        if (id === 'wmma_gemm') checkHalfInputs(r);
        for (const { arg, expected, tol } of reference(r)) {
          const got = buf(r, arg).after;
          expect(got.length).toBe(expected.length);
          const bad = got.flatMap((g, i) => (Math.abs(g - (expected[i] as number)) <= tol(expected[i] as number, i) ? [] : [`[${i}] ${g} vs ${expected[i]}`]));
          expect(bad.slice(0, 5), `${id} arg ${arg}: ${bad.length} elements differ`).toEqual([]);
          // The first values the page shows are the outputs.
          const shown = await page.$eval(`.out[data-arg="${arg}"] .vals`, (el) => el.textContent ?? '');
          const values = shown.split(', ').filter((s) => s !== '...').map(Number);
          expect(values.length).toBe(Math.min(16, got.length));
          values.forEach((v, i) => expect(Math.abs(v - (got[i] as number)), `shown [${i}] ${v}`).toBeLessThanOrEqual(1e-4 * Math.max(1, Math.abs(got[i] as number))));
          // 1D outputs: a histogram of the values; 2D ones: a heat map.
          const plot = await page.$eval(`.out[data-arg="${arg}"]`, (el) => ({
            heat: el.querySelector('canvas.heatmap') !== null,
            bins: (el.querySelector('canvas.histogram') as HTMLElement | null)?.dataset['bins'] ?? null,
          }));
          if (SHAPED[id]?.includes(arg)) expect(plot).toEqual({ heat: true, bins: null });
          else expect({ heat: plot.heat, bins: JSON.parse(plot.bins ?? 'null') as unknown }).toEqual({ heat: false, bins: histogramOf(got) });
        }
        if (id === 'sgemm') {
          // Link one line for the picture: the WGSL of the inner loop's first fma.
          const fma = await page.$$eval('#wgsl .wl[data-ptx]', (els) => (els as HTMLElement[]).find((e) => /fma/.test(e.textContent ?? ''))?.dataset['i'] ?? null);
          if (fma) await page.click(`#wgsl .wl[data-i="${fma}"]`);
          await page.mouse.move(0, 0);
          const png = await page.screenshot({ fullPage: true });
          expect(png.length).toBeGreaterThan(10_000);
          if (process.env['PTXW_UPDATE_SCREENSHOT']) writeFileSync(join('docs', 'demo-sgemm.png'), png);
        }
      });
    }, 300_000);
  }

  it('links WGSL lines to PTX lines, both ways', async () => {
    await withScreenshot('link', async () => {
      await page.select('#example', 'vector_add');
      await page.waitForFunction(`document.body.dataset.state === 'ready'`);
      const ptx = (await page.$eval('#ptx', (el) => (el as HTMLTextAreaElement).value)).split('\n');
      // WGSL -> PTX: hover the WGSL line of the add; the PTX line highlighted is add.f32's.
      const addLine = ptx.findIndex((l) => l.includes('add.f32')) + 1;
      expect(addLine).toBeGreaterThan(0);
      const row = await page.$$eval('#wgsl .wl[data-ptx]', (els, l) => (els as HTMLElement[]).find((e) => e.dataset['ptx'] === String(l))?.dataset['i'] ?? null, addLine);
      expect(row, 'no WGSL line maps to add.f32').not.toBeNull();
      await page.$eval(`#wgsl .wl[data-i="${row}"]`, (el) => el.scrollIntoView({ block: 'center' }));
      await page.hover(`#wgsl .wl[data-i="${row}"]`);
      expect(await page.$eval(`#wgsl .wl[data-i="${row}"] .t`, (el) => el.textContent)).toMatch(/add|\+/);
      expect(await page.$$eval('#ptx-gutter .hl', (els) => els.map((e) => (e as HTMLElement).dataset['line']))).toEqual([String(addLine)]);
      expect(await page.$$eval('#ptx-highlight .hl', (els) => els.map((e) => (e as HTMLElement).dataset['line']))).toEqual([String(addLine)]);
      // PTX -> WGSL: hover the st.global.f32 line in the editor; the WGSL lines lit are its store.
      const stLine = ptx.findIndex((l) => l.includes('st.global.f32')) + 1;
      const box = await page.$eval('#ptx', (el) => { const r = el.getBoundingClientRect(); return { x: r.left, y: r.top, scroll: el.scrollTop }; });
      await page.mouse.move(box.x + 60, box.y + 4 + (stLine - 1) * 18 - box.scroll + 9);
      const lit = await page.$$eval('#wgsl .wl.hl', (els) => els.map((e) => ({ ptx: (e as HTMLElement).dataset['ptx'], text: e.textContent ?? '' })));
      expect(lit.length).toBeGreaterThan(0);
      expect(lit.every((l) => l.ptx === String(stLine))).toBe(true);
      expect(lit.some((l) => /ptx_slot\d+\[.*\] =/.test(l.text))).toBe(true);
    });
  });

  it('shows a PTX error with its line and a caret', async () => {
    await withScreenshot('error', async () => {
      await page.select('#example', 'vector_add');
      await page.waitForFunction(`document.body.dataset.state === 'ready'`);
      const ptx = await page.$eval('#ptx', (el) => (el as HTMLTextAreaElement).value);
      const bad = ptx.replace('add.f32', 'add.q32');
      const line = bad.split('\n').findIndex((l) => l.includes('add.q32')) + 1;
      await page.$eval('#ptx', (el, text) => { (el as HTMLTextAreaElement).value = text; el.dispatchEvent(new Event('input')); }, bad);
      await page.waitForFunction(`document.body.dataset.state === 'error'`);
      const msg = await page.$eval('#error', (el) => el.textContent ?? '');
      expect(msg).toContain(`vector_add.ptx:${line}:`);
      expect(msg).toMatch(/\^/);
      expect(await page.$$eval('#ptx-gutter .err', (els) => els.map((e) => (e as HTMLElement).dataset['line']))).toContain(String(line));
    });
  });

  it('reads buffer arguments from a .npy file and a raw file', async () => {
    await withScreenshot('files', async () => {
      const a = Array.from({ length: 1000 }, (_, i) => (i % 37) * 0.25 - 3);
      const b = Array.from({ length: 1000 }, (_, i) => i * 1.5);
      writeFileSync(join(fileDir, 'a.npy'), npy(a, '<f4', [1000]));
      writeFileSync(join(fileDir, 'b.bin'), Buffer.from(new Float32Array(b).buffer));
      writeFileSync(join(fileDir, 'wide.npy'), npy(a, '<f8', [1000]));
      await page.select('#example', 'vector_add');
      await page.waitForFunction(`document.body.dataset.state === 'ready'`);
      const row = (i: number): string => `#args tbody tr:nth-child(${i + 1})`;
      const pick = async (i: number, file: string, note: string): Promise<void> => {
        await page.select(`${row(i)} select.gen`, 'file');
        const input = await page.$(`${row(i)} input.file`);
        await (input as unknown as { uploadFile(p: string): Promise<void> }).uploadFile(join(fileDir, file));
        await page.waitForFunction((sel: string, text: string) => document.querySelector(sel)?.textContent?.includes(text), {}, `${row(i)} .file-note`, note);
      };
      await pick(0, 'a.npy', 'a.npy: <f4 (1000,)');
      await pick(1, 'b.bin', 'b.bin: raw, 4000 bytes');
      expect(await page.$eval(`${row(0)} input.length`, (el) => [(el as HTMLInputElement).value, (el as HTMLInputElement).disabled])).toEqual(['1000', true]);
      await page.click('#run');
      await page.waitForFunction(`['done', 'error'].includes(document.body.dataset.state)`, { timeout: 240_000 });
      expect(await page.$eval('#error', (el) => ((el as HTMLElement).hidden ? null : el.textContent))).toBeNull();
      const r = (await page.evaluate('window.__demo.state.lastRun')) as RunRecord;
      expect([buf(r, 0).file, buf(r, 1).file, buf(r, 2).file]).toEqual(['a.npy', 'b.bin', null]);
      expect(buf(r, 0).before).toEqual(a.map(Math.fround));
      expect(buf(r, 1).before).toEqual(b.map(Math.fround));
      expect(buf(r, 2).after).toEqual(a.map((x, i) => Math.fround(Math.fround(x) + Math.fround(b[i] as number))));
      // An f64 file does not fill an f32 buffer: the run says so instead of reinterpreting its bytes.
      await pick(0, 'wide.npy', 'wide.npy: <f8 (1000,)');
      await page.click('#run');
      await page.waitForFunction(`document.body.dataset.state === 'error'`, { timeout: 60_000 });
      expect(await page.$eval('#error', (el) => el.textContent)).toContain('wide.npy holds <f8 elements, not f32');
    });
  }, 300_000);

  it('runs conformance families on the Conformance tab and shows the matrix', async () => {
    await withScreenshot('conformance', async () => {
      await page.click('nav#tabs button[data-tab="conformance"]');
      await page.waitForFunction(`document.body.dataset.conformance === 'idle'`, { timeout: 60_000 });
      expect(await page.$eval('#playground-tab', (el) => (el as HTMLElement).hidden)).toBe(true);
      const index = JSON.parse(readFileSync('dist/demo/conformance/index.json', 'utf8')) as { batches: string[] };
      expect(await page.$$eval('#conf-matrix tbody tr[data-family]', (els) => els.map((e) => (e as HTMLElement).dataset['family']))).toEqual(index.batches);
      const checked = await page.$$eval('#conf-families input[data-family]:checked', (els) => els.map((e) => (e as HTMLElement).dataset['family']));
      expect(checked).toEqual(index.batches.filter((n) => /^(int|float|warp)-/.test(n)));
      // Through the form: clear the checked suites, pick two integer families and the warp kernels.
      for (const suite of ['int', 'float', 'warp']) await page.click(`#conf-families input[data-suite="${suite}"]`);
      const families = ['int-lop3', 'int-carry', 'warp-collectives'];
      for (const f of families) await page.click(`#conf-families input[data-family="${f}"]`);
      await page.evaluate(() => {
        const seen: string[] = [];
        Object.assign(window, { __confStatus: seen });
        const el = document.getElementById('conf-status') as HTMLElement;
        new MutationObserver(() => seen.push(el.textContent ?? '')).observe(el, { childList: true, characterData: true, subtree: true });
      });
      await page.click('#conf-run');
      await page.waitForFunction(`['done', 'error'].includes(document.body.dataset.conformance)`, { timeout: 280_000 });
      const status = await page.$eval('#conf-status', (el) => el.textContent ?? '');
      expect(status).toMatch(/^3\/3 families pass on every warp path/);
      expect(await page.$eval('#conf-progress', (el) => (el as HTMLProgressElement).value)).toBe(1);
      const seen = (await page.evaluate('window.__confStatus')) as string[];
      // Progress: the families in the data's order, each once: the integer kernels have no warp
      // instructions, and SwiftShader's subgroups are not 32 lanes, so auto takes the emulation too.
      const order = index.batches.filter((n) => families.includes(n));
      expect(seen.filter((t) => /kernel runs/.test(t))).toEqual(order.map((f, i) => `${2 * i}/6 kernel runs · ${f} on warp path auto`));
      const rows = await page.$$eval('#conf-matrix tbody tr[data-family]', (els) => els.map((e) => ({
        family: (e as HTMLElement).dataset['family'],
        cases: e.querySelector('.cases')?.textContent,
        cells: [...e.querySelectorAll('td[data-path]')].map((c) => `${(c as HTMLElement).dataset['path']}=${(c as HTMLElement).dataset['status']}:${c.textContent}`),
      })));
      for (const r of rows) {
        if (families.includes(r.family ?? '')) {
          const cases = r.family === 'warp-collectives' ? warpWords() : shippedCases(r.family ?? '');
          expect(r, r.family).toEqual({ family: r.family, cases: String(cases), cells: ['auto=pass:pass', 'emulated=same:same: pass'] });
        } else expect(r.cells, r.family).toEqual(['auto=not-run:—', 'emulated=not-run:—']);
      }
      expect(await page.$eval('#conf-failures', (el) => (el as HTMLElement).hidden)).toBe(true);
      await page.click('nav#tabs button[data-tab="playground"]');
      expect(await page.$eval('#conformance-tab', (el) => (el as HTMLElement).hidden)).toBe(true);
    });
  }, 300_000);
});
