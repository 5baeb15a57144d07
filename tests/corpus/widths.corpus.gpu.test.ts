// The corpus on lavapipe with subgroups of 4 (LP_NATIVE_VECTOR_WIDTH=128; Mesa reads it when the
// driver loads, so it needs its own process): reruns node.corpus.gpu.test.ts in a child. To keep CI
// time down the child runs the cases whose kernels use warp-level instructions (the ones the
// subgroup width can change); PTXW_CORPUS_WIDTHS_ALL=1 runs every case.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');

describe('corpus on lavapipe with LP_NATIVE_VECTOR_WIDTH=128', () => {
  it('runs the corpus with subgroups of 4', () => {
    const r = spawnSync(process.execPath, [vitest, 'run', 'tests/corpus/node.corpus.gpu.test.ts'], {
      cwd: root,
      env: {
        ...process.env,
        LP_NATIVE_VECTOR_WIDTH: '128',
        CORPUS_EXPECT_SUBGROUP: '4',
        ...(process.env['PTXW_CORPUS_WIDTHS_ALL'] === '1' ? {} : { PTXW_CORPUS_WARP_ONLY: '1' }),
      },
      encoding: 'utf8',
      timeout: 1_150_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const out = `${r.stdout}\n${r.stderr}`;
    const table = out.split('\n').filter((l) => /@\S+\s+(pass|fail|error|skip)\s|^corpus:|^node corpus:/.test(l));
    console.log(`--- corpus, subgroups of 4 ---\n${table.join('\n')}`);
    expect(r.status, out.slice(-6000)).toBe(0);
    expect(out).toMatch(/Tests\s+.*\d+ passed/);
  }, 1_200_000);
});
