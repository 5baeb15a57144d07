// The playground (demo/) end to end in Debian's Chromium with SwiftShader WebGPU (the launch
// flags of tests/hosts/chromium-runner.ts): builds dist/demo, serves it, loads the page, runs
// every example through its UI and checks the outputs shown against a JS reference computed
// here from the inputs the page generated; checks the PTX <-> WGSL line link by hovering.
// On failure it saves a screenshot to a temp dir (named in the error). With
// PTXW_UPDATE_SCREENSHOT=1 it rewrites docs/demo-sgemm.png.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../hosts/chromium-runner.js';
// @ts-expect-error: a plain ES module script without declarations
import { buildDemo } from '../../scripts/build-demo.mjs';
// @ts-expect-error: a plain ES module script without declarations
import { serveDemo } from '../../scripts/serve-demo.mjs';

interface BufferRecord { name: string; kind: 'buffer'; dtype: string; before: number[]; after: number[] }
interface ScalarRecord { name: string; kind: 'scalar'; value: number }
interface RunRecord { example: string; entry: string; grid: number[]; block: number[]; args: (BufferRecord | ScalarRecord)[]; msPerLaunch: number; warpPath: string; fma: string }

const EXAMPLES = ['vector_add', 'block_reduce', 'softmax', 'sgemm', 'warp_scan'];

let browser: Browser;
let page: Page;
let server: Server;
let url: string;
let userDataDir: string;
const shotDir = mkdtempSync(join(tmpdir(), 'ptxw-demo-shots-'));
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
  const error = await page.$eval('#error', (el) => (el.hidden ? null : el.textContent));
  expect(error, `${id}: the page shows an error`).toBeNull();
  return (await page.evaluate('window.__demo.state.lastRun')) as RunRecord;
}

const buf = (r: RunRecord, i: number): BufferRecord => r.args[i] as BufferRecord;
const num = (r: RunRecord, i: number): number => (r.args[i] as ScalarRecord).value;

/** The outputs each example must produce, from the inputs the page generated (double precision). */
function reference(r: RunRecord): { arg: number; expected: number[]; tol: (e: number) => number }[] {
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
        for (const { arg, expected, tol } of reference(r)) {
          const got = buf(r, arg).after;
          expect(got.length).toBe(expected.length);
          const bad = got.flatMap((g, i) => (Math.abs(g - (expected[i] as number)) <= tol(expected[i] as number) ? [] : [`[${i}] ${g} vs ${expected[i]}`]));
          expect(bad.slice(0, 5), `${id} arg ${arg}: ${bad.length} elements differ`).toEqual([]);
          // The first values the page shows are the outputs.
          const shown = await page.$eval(`.out[data-arg="${arg}"] .vals`, (el) => el.textContent ?? '');
          const values = shown.split(', ').filter((s) => s !== '...').map(Number);
          expect(values.length).toBe(Math.min(16, got.length));
          values.forEach((v, i) => expect(Math.abs(v - (got[i] as number)), `shown [${i}] ${v}`).toBeLessThanOrEqual(1e-4 * Math.max(1, Math.abs(got[i] as number))));
        }
        if (id === 'sgemm') {
          // Link one line for the picture: the WGSL of the inner loop's first fma.
          const fma = await page.$$eval('#wgsl .wl[data-ptx]', (els) => els.find((e) => /fma/.test(e.textContent ?? ''))?.dataset['i'] ?? null);
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
      const row = await page.$$eval('#wgsl .wl[data-ptx]', (els, l) => els.find((e) => e.dataset['ptx'] === String(l))?.dataset['i'] ?? null, addLine);
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
});
