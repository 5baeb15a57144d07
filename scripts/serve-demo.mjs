#!/usr/bin/env node
// Serves the built playground (dist/demo/, made by scripts/build-demo.mjs) on 127.0.0.1 and
// prints its URL. No dependencies: node:http. WebGPU needs a secure context, which
// http://127.0.0.1 and http://localhost are.
// Usage: node scripts/serve-demo.mjs [--port N] [--host H]    (env PORT / HOST; default 8080, or any free port when 8080 is taken; 127.0.0.1)
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.map': 'application/json', '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml',
};

/** Starts a static server for `dir`; resolves to { server, url }. */
export function serveDemo({ dir = join(root, 'dist', 'demo'), port = 8080, host = '127.0.0.1' } = {}) {
  const base = normalize(dir + sep);
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(dir, path));
    if (!file.startsWith(base) || !existsSync(file) || !statSync(file).isFile()) { res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'); return; }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(readFileSync(file));
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const a = server.address();
      ok({ server, url: `http://${host.includes(':') ? `[${host}]` : host}:${a.port}/` });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : undefined; };
  const dir = join(root, 'dist', 'demo');
  if (!existsSync(join(dir, 'main.js'))) { console.error('dist/demo/ is not built: run `node scripts/build-demo.mjs` (or `npm run demo`)'); process.exit(2); }
  const asked = arg('port') ?? process.env.PORT;
  const port = Number(asked ?? 8080);
  const host = arg('host') ?? process.env.HOST ?? '127.0.0.1';
  try {
    // The default port taken: any free one (a port asked for is an error instead).
    const { url } = await serveDemo({ dir, port, host }).catch((e) => (e.code === 'EADDRINUSE' && asked === undefined ? serveDemo({ dir, port: 0, host }) : Promise.reject(e)));
    console.log(`ptx-wgsl playground: ${url}  (open it in a browser with WebGPU; Ctrl-C stops the server)`);
  } catch (e) {
    console.error(`could not serve on ${host}:${port}: ${e.message}${e.code === 'EADDRINUSE' ? ' (try --port 0 for any free port)' : ''}`);
    process.exit(1);
  }
}
