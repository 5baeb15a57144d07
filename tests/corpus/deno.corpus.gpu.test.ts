// The corpus under Deno's WebGPU (lavapipe through wgpu, no subgroups): tests/hosts/deno-runner.ts
// on the corpus bundle (dist/deno/corpus.js, recordings embedded). PTXW_CORPUS_EXPECT=ref and
// PTXW_CORPUS_FILTER and PTXW_CORPUS_SLOW work as for the Node file; the runner's output is printed on failure.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleCorpusFor, denoCommand, gpuEnv, repoRoot } from '../hosts/host-utils.js';

const TIMEOUT_MS = 20 * 60_000;

function run(cmd: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd: repoRoot, env: gpuEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS - 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output });
    });
  });
}

describe('corpus on deno', () => {
  it(
    'runs every corpus case under Deno WebGPU',
    async () => {
      const bundle = await bundleCorpusFor('deno');
      const filter = process.env['PTXW_CORPUS_FILTER'];
      const expectMode = process.env['PTXW_CORPUS_EXPECT'];
      const { code, output } = await run(await denoCommand(), [
        'run',
        '--allow-read',
        '--allow-env',
        '--no-prompt',
        join(repoRoot, 'tests/hosts/deno-runner.ts'),
        bundle,
        ...(filter ? [`--filter=${filter}`] : []),
        ...(expectMode ? [`--expect=${expectMode}`] : []),
        ...(process.env['PTXW_CORPUS_SLOW'] === '1' ? ['--slow'] : []),
      ]);
      const summary = output.split('\n').filter((l) => /^corpus(:| on)/.test(l)).join('\n');
      console.log(`--- deno corpus ---\n${code !== 0 || process.env['PTXW_E2E_VERBOSE'] ? output : summary}`);
      expect(code, `deno corpus failed (exit ${code}):\n${output}`).toBe(0);
    },
    TIMEOUT_MS,
  );
});
