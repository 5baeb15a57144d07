// The warp tests on lavapipe with subgroups of 4 and 16 (Mesa reads LP_NATIVE_VECTOR_WIDTH when
// the driver loads, so each width needs its own process): reruns warps.gpu.test.ts in a child.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');

describe.each([[128, 4], [512, 16]] as const)('lavapipe with LP_NATIVE_VECTOR_WIDTH=%i', (width, size) => {
  it(`runs the warp kernels with subgroups of ${size}`, () => {
    const r = spawnSync(process.execPath, [vitest, 'run', 'tests/warps/warps.gpu.test.ts'], {
      cwd: root,
      env: { ...process.env, LP_NATIVE_VECTOR_WIDTH: String(width), WARP_EXPECT_SUBGROUP: String(size) },
      encoding: 'utf8',
      timeout: 560_000,
    });
    const out = `${r.stdout}\n${r.stderr}`;
    expect(r.status, out.slice(-4000)).toBe(0);
    expect(out).toMatch(/Tests\s+.*\d+ passed/);
  }, 600_000);
});
