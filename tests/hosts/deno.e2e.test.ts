// Runs the shared e2e cases under Deno (tests/hosts/deno-runner.ts on the esbuild bundle) and
// asserts the runner passed; its output is printed on failure.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleFor, denoCommand, repoRoot, runProcess } from './host-utils.js';

const TIMEOUT_MS = 20 * 60_000;

const run = (cmd: string, args: string[]) => runProcess(cmd, args, TIMEOUT_MS - 30_000);

describe('deno host', () => {
  it(
    'runs every e2e case under Deno WebGPU',
    async () => {
      const bundle = await bundleFor('deno');
      const cmd = await denoCommand();
      const filter = process.env['PTXW_E2E_FILTER'];
      const { code, output } = await run(cmd, [
        'run',
        '--allow-read',
        '--allow-env',
        '--no-prompt',
        join(repoRoot, 'tests/hosts/deno-runner.ts'),
        bundle,
        ...(filter ? [`--filter=${filter}`] : []),
      ]);
      const summary = output.trim().split('\n').filter((l) => l.startsWith('deno e2e:')).join('\n');
      if (code !== 0 || process.env['PTXW_E2E_VERBOSE']) console.log(`--- deno runner output ---\n${output}`);
      expect(code, `deno runner failed (exit ${code}):\n${output}`).toBe(0);
      expect(summary).toMatch(/passed/);
    },
    TIMEOUT_MS,
  );
});
