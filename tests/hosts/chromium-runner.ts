/**
 * Runs the shared e2e cases in headless Chromium: serves dist/browser/ (the esbuild bundle) and a
 * tiny page from a static server bound to 127.0.0.1 only, launches /usr/bin/chromium through
 * puppeteer-core with WebGPU on Vulkan, and runs every case in the page.
 *
 * WebGPU is not exposed on about:blank/data: pages, hence the loopback server (a secure context).
 * Chromium rejects the system lavapipe adapter (no external-image support, and CPU adapters are
 * blocklisted) and falls back to its bundled SwiftShader Vulkan (subgroup size 4).
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import puppeteer from 'puppeteer-core';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-angle=vulkan',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

export interface ChromiumRun {
  info: unknown;
  results: { name: string; ok: boolean; message: string | null; ms: number }[];
  log: string[];
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};

const PAGE = '<!doctype html><meta charset="utf-8"><title>ptx-wgsl e2e</title><body>ptx-wgsl e2e</body>';

/** A static server for `dir` on 127.0.0.1 (random port). */
export async function serveDir(dir: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': TYPES['.html']!, 'cache-control': 'no-store' });
      res.end(PAGE);
      return;
    }
    const file = normalize(join(dir, path));
    if (!file.startsWith(normalize(dir + '/')) || !existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('static server has no port');
  return { server, origin: `http://127.0.0.1:${addr.port}` };
}

export async function runInChromium(opts: {
  bundleDir: string;
  /** The bundle in bundleDir to import (default tests.js; corpus.js runs the corpus). */
  script?: string;
  /** More options for the bundle's runAll (JSON-serialisable). */
  options?: Record<string, unknown>;
  executablePath?: string;
  filter?: string;
  timeoutMs?: number;
  onLog?: (line: string) => void;
}): Promise<ChromiumRun> {
  const log: string[] = [];
  const say = (l: string) => {
    log.push(l);
    opts.onLog?.(l);
  };
  const userDataDir = mkdtempSync(join(tmpdir(), 'ptxw-chromium-'));
  const { server, origin } = await serveDir(opts.bundleDir);
  const browser = await puppeteer.launch({
    executablePath: opts.executablePath ?? process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, `--user-data-dir=${userDataDir}`],
    env: { ...process.env, XDG_RUNTIME_DIR: process.env['XDG_RUNTIME_DIR'] || '/tmp' },
    protocolTimeout: opts.timeoutMs ?? 20 * 60_000,
  });
  try {
    const page = await browser.newPage();
    page.on('console', (m) => say(`[page] ${m.text()}`));
    page.on('pageerror', (e) => say(`[pageerror] ${String(e)}`));
    await page.exposeFunction('__ptxwLog', (l: string) => say(l));
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    page.setDefaultTimeout(opts.timeoutMs ?? 20 * 60_000);
    // A source string, not a function: vitest/vite rewrites `import()` inside functions.
    const script = `(async () => {
      const mod = await import(${JSON.stringify(`${origin}/${opts.script ?? 'tests.js'}`)});
      const out = await mod.runAll({ ...(${JSON.stringify(opts.filter ?? '')} ? { filter: ${JSON.stringify(opts.filter ?? '')} } : {}),
        ...${JSON.stringify(opts.options ?? {})}, log: (l) => void window.__ptxwLog(l) });
      return { info: out.info, results: out.results };
    })()`;
    const out = (await page.evaluate(script)) as { info: unknown; results: ChromiumRun['results'] };
    return { ...out, log };
  } finally {
    await browser.close().catch(() => undefined);
    await new Promise<void>((ok) => server.close(() => ok()));
    rmSync(userDataDir, { recursive: true, force: true });
  }
}
