// %ctaid and %nctaid of compiled PTX on 1D, 2D and 3D grids, both where the grid is dispatched as
// it is and where it is linearised because one size exceeds the dispatch limit (runtime/grid.ts).
// Every block's first thread writes what it read at the block's linear index, computed in PTX;
// the reference is computed here from the grid alone. Output is poisoned first, so a block that
// never ran, ran twice into the same slot or ran as padding is caught.
import { afterAll, describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { getDefaultDevice, releaseDefaultDevice } from '../../runtime/device.js';
import { firstDifference } from '../e2e/reference.js';

afterAll(() => releaseDefaultDevice());

const POISON = 0xdeadbeef;

// out[4 * lin + k] = ctaid.x, ctaid.y, ctaid.z, nctaid.x + nctaid.y + nctaid.z for tid.x == 0,
// lin = ctaid.x + nctaid.x * (ctaid.y + nctaid.y * ctaid.z)
const GRID_PTX = `
.version 8.0
.target sm_80
.address_size 64
.visible .entry blocks(.param .u64 out) {
  .reg .pred %p<2>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ctaid.y;
  mov.u32 %r4, %ctaid.z;
  mov.u32 %r5, %nctaid.x;
  mov.u32 %r6, %nctaid.y;
  mov.u32 %r7, %nctaid.z;
  mad.lo.s32 %r8, %r6, %r4, %r3;
  mad.lo.s32 %r9, %r5, %r8, %r2;
  add.s32 %r10, %r5, %r6;
  add.s32 %r11, %r10, %r7;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r9, 16;
  add.s64 %rd2, %rd2, %rd3;
  st.global.v4.u32 [%rd2], {%r2, %r3, %r4, %r11};
DONE:
  ret;
}
`;

describe('%ctaid and %nctaid over the grid', () => {
  // [grid, whether it fits a dispatch as it is]
  const grids: [[number, number, number], string][] = [
    [[7, 1, 1], 'direct'],
    [[5, 6, 7], 'direct'],
    [[300, 250, 1], 'direct'],
    [[70000, 1, 1], 'linearised'],
    [[66000, 2, 1], 'linearised'],
    [[40000, 1, 2], 'direct'],
    [[70000, 1, 2], 'linearised'],
  ];
  it.each(grids)('grid %j (%s)', async (grid, how) => {
    const max = (await getDefaultDevice()).limits.maxComputeWorkgroupsPerDimension;
    expect(grid.every((d) => d <= max) ? 'direct' : 'linearised').toBe(how);
    const [gx, gy, gz] = grid;
    const blocks = gx * gy * gz;
    const out = new Uint32Array(4 * blocks + 16).fill(POISON);
    await runPtx(GRID_PTX, [out], { grid, block: 32 });
    const expected = new Uint32Array(4 * blocks + 16).fill(POISON);
    let lin = 0;
    for (let z = 0; z < gz; z++) {
      for (let y = 0; y < gy; y++) {
        for (let x = 0; x < gx; x++) expected.set([x, y, z, gx + gy + gz], 4 * lin++);
      }
    }
    expect(firstDifference(out, expected)).toBe('none');
  }, 60_000);
});
