#!/usr/bin/env node
// Runs Deno from the `@deno/<platform>` npm package (a devDependency; the `deno` wrapper package is
// not used because this registry lacks its other platforms' binaries, which breaks `npm ci`),
// falling back to a `deno` on PATH. Sets XDG_RUNTIME_DIR (needed by WebGPU on lavapipe).
//   node scripts/deno.mjs run --allow-read tests/hosts/deno-runner.ts
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Absolute path of the Deno executable, or 'deno' (looked up on PATH). */
export function denoPath() {
  const require = createRequire(join(root, 'package.json'));
  const libc = process.platform === 'linux' ? '-glibc' : '';
  const exe = process.platform === 'win32' ? 'deno.exe' : 'deno';
  try {
    const pkg = require.resolve(`@deno/${process.platform}-${process.arch}${libc}/package.json`);
    const bin = join(dirname(pkg), exe);
    if (existsSync(bin)) return bin;
  } catch {
    // not installed for this platform
  }
  return 'deno';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR || '/tmp' };
  const r = spawnSync(denoPath(), process.argv.slice(2), { stdio: 'inherit', env });
  if (r.error) {
    console.error(`cannot run deno (${denoPath()}): ${r.error.message}`);
    process.exit(127);
  }
  process.exit(r.status ?? 1);
}
