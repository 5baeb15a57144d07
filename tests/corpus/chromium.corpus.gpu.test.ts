// The corpus in headless Chromium (WebGPU on its bundled SwiftShader, subgroups of 4) through
// tests/hosts/chromium-runner.ts on the corpus bundle (dist/browser/corpus.js, recordings
// embedded). PTXW_CORPUS_EXPECT=ref, PTXW_CORPUS_FILTER and PTXW_CORPUS_SLOW work as for the Node file.
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInChromium } from '../hosts/chromium-runner.js';
import { bundleCorpusFor } from '../hosts/host-utils.js';

const TIMEOUT_MS = 20 * 60_000;

describe('corpus on chromium', () => {
  it(
    'runs every corpus case in headless Chromium WebGPU',
    async () => {
      const t0 = Date.now();
      const bundleDir = dirname(await bundleCorpusFor('browser'));
      const filter = process.env['PTXW_CORPUS_FILTER'];
      const expectMode = process.env['PTXW_CORPUS_EXPECT'];
      const run = await runInChromium({
        bundleDir,
        script: 'corpus.js',
        options: { ...(expectMode ? { expect: expectMode } : {}), ...(process.env['PTXW_CORPUS_SLOW'] === '1' ? { slow: true } : {}) },
        timeoutMs: TIMEOUT_MS - 60_000,
        ...(filter ? { filter } : {}),
      });
      const failed = run.results.filter((r) => !r.ok);
      const summary = `chromium corpus: ${run.results.length - failed.length}/${run.results.length} passed in ${Date.now() - t0} ms`;
      console.log(`--- chromium corpus ---\n${failed.length > 0 || process.env['PTXW_E2E_VERBOSE'] ? run.log.join('\n') : ''}\n${summary}`);
      expect(run.results.length, 'no corpus cases ran').toBeGreaterThan(0);
      expect(failed.map((r) => `${r.name}: ${r.message}`)).toEqual([]);
    },
    TIMEOUT_MS,
  );
});
