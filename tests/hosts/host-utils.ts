import { spawn } from 'node:child_process';
/** Node-side helpers shared by the host e2e vitest files (Deno and Chromium launchers). */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Environment for GPU child processes: Dawn + lavapipe need XDG_RUNTIME_DIR. */
export function gpuEnv(): NodeJS.ProcessEnv {
  return { ...process.env, XDG_RUNTIME_DIR: process.env['XDG_RUNTIME_DIR'] || '/tmp', NO_COLOR: '1' };
}

/** The Deno executable (see scripts/deno.mjs): the `@deno/<platform>` package's binary, else PATH. */
export async function denoCommand(): Promise<string> {
  const mod = (await import(join(repoRoot, 'scripts', 'deno.mjs'))) as { denoPath(): string };
  return mod.denoPath();
}

/** Bundles tests/hosts/browser-entry.ts for `target` (scripts/bundle.mjs); returns the output file. */
export async function bundleFor(target: 'browser' | 'deno'): Promise<string> {
  const mod = (await import(join(repoRoot, 'scripts', 'bundle.mjs'))) as { bundle(t: string): Promise<string> };
  return mod.bundle(target);
}

/** Bundles the corpus (tests/corpus/host-entry.ts) for `target`; returns the output file. */
export async function bundleCorpusFor(target: 'browser' | 'deno'): Promise<string> {
  const mod = (await import(join(repoRoot, 'scripts', 'bundle.mjs'))) as { bundleCorpus(t: string): Promise<string> };
  return mod.bundleCorpus(target);
}

/** Runs `cmd` in the repository root with the GPU environment (plus `env`); killed after `timeoutMs`. */
export function runProcess(cmd: string, args: string[], timeoutMs: number, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd: repoRoot, env: { ...gpuEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
  });
}
