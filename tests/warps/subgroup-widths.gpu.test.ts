// The warp tests on lavapipe with subgroups of 4 and 16 (Mesa reads LP_NATIVE_VECTOR_WIDTH when
// the driver loads, so each width needs its own process): reruns warps.gpu.test.ts in a child,
// and block-reduce.gpu.test.ts with subgroups of 4 (lavapipe's default, 8, runs it directly).
// Width 1024 makes Mesa 25.0 report subgroups of 32 while it runs 16 lanes (subgroup_invocation_id
// repeats 0..15): the probe must see that the layout is not consecutive and keep the emulation.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');

describe.each([[128, 4, true], [512, 16, true], [1024, 32, false]] as const)('lavapipe with LP_NATIVE_VECTOR_WIDTH=%i', (width, size, consecutive) => {
  it(`runs the warp kernels with subgroups of ${size}${consecutive ? '' : ' (reported, not consecutive)'}`, () => {
    const files = ['tests/warps/warps.gpu.test.ts', ...(size === 4 ? ['tests/warps/block-reduce.gpu.test.ts'] : [])];
    const r = spawnSync(process.execPath, [vitest, 'run', ...files], {
      cwd: root,
      env: { ...process.env, LP_NATIVE_VECTOR_WIDTH: String(width), WARP_EXPECT_SUBGROUP: String(size), WARP_EXPECT_CONSECUTIVE: consecutive ? '1' : '0' },
      encoding: 'utf8',
      timeout: 560_000,
    });
    const out = `${r.stdout}\n${r.stderr}`;
    expect(r.status, out.slice(-4000)).toBe(0);
    expect(out).toMatch(/Tests\s+.*\d+ passed/);
  }, 600_000);
});
