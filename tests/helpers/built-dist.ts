// The tests of the CLI and of the package run what `npm run build` writes to dist/; this builds it
// first when a source is newer (CI builds before `npm test`, so there it is a check only). Test
// files run in parallel processes, so the build holds a lock directory.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const CLI = join(ROOT, 'dist/src/cli/main.js');
const SOURCES = ['src', 'lowering', 'runtime', 'shaders', 'tests/conformance', 'tests/warps/native', 'tests/kernels', 'scripts'];
/** What the build writes last: the CLI (tsc), then the conformance data. */
const BUILT = [CLI, join(ROOT, 'dist/conformance/index.json')];
const LOCK = join(ROOT, 'dist/.build-lock');

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (e.name !== 'library.generated.ts') newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function stale(): boolean {
  let built: number;
  try {
    built = Math.min(...BUILT.map((f) => statSync(f).mtimeMs));
  } catch {
    return true;
  }
  const newest = Math.max(statSync(join(ROOT, 'package.json')).mtimeMs, ...SOURCES.map((d) => newestSource(join(ROOT, d))));
  return newest > built;
}

/** Builds dist/ if any source is newer than it. */
export function ensureDist(): void {
  if (!stale()) return;
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${LOCK} held for 5 minutes; remove it if no build is running`);
      execFileSync('sleep', ['1']);
    }
  }
  try {
    if (stale()) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
