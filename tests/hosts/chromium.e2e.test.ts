// Runs the shared e2e cases in headless Chromium (see chromium-runner.ts) and asserts each passed.
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleFor } from './host-utils.js';
import { runInChromium } from './chromium-runner.js';

const TIMEOUT_MS = 20 * 60_000;

describe('chromium host', () => {
  it(
    'runs every e2e case in headless Chromium WebGPU',
    async () => {
      const t0 = Date.now();
      const bundleDir = dirname(await bundleFor('browser'));
      const filter = process.env['PTXW_E2E_FILTER'];
      const run = await runInChromium({ bundleDir, timeoutMs: TIMEOUT_MS - 60_000, ...(filter ? { filter } : {}) });
      const failed = run.results.filter((r) => !r.ok);
      const summary = `chromium e2e: ${run.results.length - failed.length}/${run.results.length} passed in ${Date.now() - t0} ms`;
      if (failed.length > 0 || process.env['PTXW_E2E_VERBOSE']) console.log(`--- chromium output ---\n${run.log.join('\n')}\n${summary}`);
      expect(run.results.length, 'no cases ran').toBeGreaterThan(0);
      expect(
        failed.map((r) => `${r.name}: ${r.message}`),
        `failed in Chromium:\n${run.log.join('\n')}`,
      ).toEqual([]);
    },
    TIMEOUT_MS,
  );
});
