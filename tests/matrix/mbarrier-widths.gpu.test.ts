// mbarrier.gpu.test.ts on lavapipe with subgroups of 4 (LP_NATIVE_VECTOR_WIDTH=128; Mesa reads
// it when the driver loads, so it needs its own process). Lavapipe runs a subgroup's lanes in
// lock step and a workgroup's subgroups one after another between barriers: the width changes
// which threads contend for an mbarrier's lock together and where the waits interleave.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');

describe('mbarrier tests on lavapipe with LP_NATIVE_VECTOR_WIDTH=128', () => {
  it('run with subgroups of 4', () => {
    const r = spawnSync(process.execPath, [vitest, 'run', 'tests/matrix/mbarrier.gpu.test.ts'], {
      cwd: root,
      env: { ...process.env, LP_NATIVE_VECTOR_WIDTH: '128', MBAR_EXPECT_SUBGROUP: '4' },
      encoding: 'utf8',
      timeout: 560_000,
    });
    const out = `${r.stdout}\n${r.stderr}`;
    expect(r.status, out.slice(-4000)).toBe(0);
    expect(out).toMatch(/Tests\s+.*\d+ passed/);
  }, 600_000);
});
