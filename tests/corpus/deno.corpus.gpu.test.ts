// The corpus under Deno's WebGPU (lavapipe through wgpu, no subgroups): tests/hosts/deno-runner.ts
// on the corpus bundle (dist/deno/corpus.js, recordings embedded). PTXW_CORPUS_EXPECT=ref and
// PTXW_CORPUS_FILTER and PTXW_CORPUS_SLOW work as for the Node file; the runner's output is printed on failure.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleCorpusFor, denoCommand, repoRoot, runProcess } from '../hosts/host-utils.js';

const TIMEOUT_MS = 20 * 60_000;

const run = (cmd: string, args: string[]) => runProcess(cmd, args, TIMEOUT_MS - 30_000);

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
