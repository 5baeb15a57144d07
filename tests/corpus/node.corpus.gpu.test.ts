// The corpus on Node (Dawn + lavapipe, subgroups of 8): one test per (case, variant), compared with
// the native recording (tests/corpus/native/), or with the JS reference when PTXW_CORPUS_EXPECT=ref
// (for development before recordings exist; runs without a reference are skipped then).
// tests/corpus/widths.corpus.gpu.test.ts reruns this file with lavapipe's subgroups of 4
// (CORPUS_EXPECT_SUBGROUP checks the width took effect). Environment:
//   PTXW_CORPUS_FILTER=<substring>[,<substring>...]   only the runs whose id contains one
//   PTXW_CORPUS_WARP_ONLY=1    only the runs whose kernels use warp-level instructions
//   PTXW_CORPUS_SLOW=1         also the cases marked slow
//   PTXW_CORPUS_NATIVE=<dir>   recordings from elsewhere than tests/corpus/native
//   PTXW_CORPUS_TRACE=<file>   appends each run's id before it starts and its result after (hangs)
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDefaultDevice, releaseDefaultDevice } from '../../src/index.js';
import { describeDevice, runs, Session, slowMessage, summaryTable, usesWarpOps, type Expectations, type RunResult } from './host.ts';
import type { CorpusRun } from './table.ts';
import type { NativeManifest } from './native.ts';

const here = import.meta.dirname;
const nativeDir = process.env['PTXW_CORPUS_NATIVE'] ?? join(here, 'native');
const manifestPath = join(nativeDir, 'manifest.json');
const expectations: Expectations = {
  mode: process.env['PTXW_CORPUS_EXPECT'] === 'ref' ? 'ref' : 'native',
  manifest: existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as NativeManifest) : undefined,
  load: async (name) => {
    const p = join(nativeDir, name);
    return existsSync(p) ? new Uint8Array(readFileSync(p)) : undefined;
  },
};
const filters = process.env['PTXW_CORPUS_FILTER']?.split(',');
const results: RunResult[] = [];
const session = new Session(() => getDefaultDevice(), () => releaseDefaultDevice());
let t0 = 0;

beforeAll(async () => {
  const device = await getDefaultDevice();
  await session.context();
  t0 = Date.now();
  console.log(`corpus on node: ${describeDevice(device)}, expecting ${expectations.mode}`);
  const want = process.env['CORPUS_EXPECT_SUBGROUP'];
  const info = (device as unknown as { adapterInfo?: { subgroupMinSize?: number } }).adapterInfo;
  if (want !== undefined) expect(info?.subgroupMinSize, 'lavapipe subgroup size').toBe(Number(want));
}, 120_000);

afterAll(() => {
  if (results.length > 0) console.log(`${summaryTable(results)}\nnode corpus: ${Date.now() - t0} ms`);
  session.end();
});

const kernel = (file: string): string | undefined => {
  const p = join(here, 'kernels', file);
  return existsSync(p) ? readFileSync(p, 'utf8') : undefined;
};

const warpOnly = process.env['PTXW_CORPUS_WARP_ONLY'] === '1';
const slow = process.env['PTXW_CORPUS_SLOW'] === '1';
const selected = (run: CorpusRun): boolean => {
  const ptx = kernel(run.ptxFile);
  if (filters !== undefined && !filters.some((f) => run.id.includes(f))) return false;
  return !warpOnly || (ptx !== undefined && usesWarpOps(run, ptx));
};

describe('corpus', () => {
  for (const run of runs) {
    it.skipIf(!selected(run))(run.id, async (t) => {
      if (run.c.slow !== undefined && !slow) t.skip(slowMessage(run));
      const trace = process.env['PTXW_CORPUS_TRACE'];
      if (trace) appendFileSync(trace, `${run.id}\n`);
      const r = await session.run(run, kernel(run.ptxFile), expectations);
      if (trace) appendFileSync(trace, `  ${r.status} ${r.ms} ms ${r.message?.split('\n').slice(0, 3).join(' | ').slice(0, 300) ?? ''}\n`);
      results.push(r);
      if (r.status === 'skip') t.skip(r.message ?? '');
      expect(r.message === null ? r.status : `${r.status}: ${r.message}`).toBe('pass');
    }, 600_000);
  }
});
