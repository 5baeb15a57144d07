import { describe, expect, it } from 'vitest';
import { ctaidOf, maxGridBlocks, planDispatch, toDim3, type Dim3 } from '../../runtime/grid.js';
import { aliasGroups, aliasKey } from '../../runtime/bindings.js';
import { listEntries } from '../../src/ptx/entries.js';
import type { DeviceBuffer } from '../../runtime/memory.js';

describe('grid linearisation', () => {
  it('normalises dims', () => {
    expect(toDim3(undefined, 'grid')).toEqual([1, 1, 1]);
    expect(toDim3(7, 'grid')).toEqual([7, 1, 1]);
    expect(toDim3([2, 3], 'grid')).toEqual([2, 3, 1]);
    expect(() => toDim3([2.5], 'grid')).toThrow(/non-negative integers/);
  });

  it('dispatches grids whose sizes fit as they are', () => {
    expect(planDispatch([4, 3, 2], 65535)).toEqual({ x: 4, y: 3, z: 2, direct: true, blocks: 24 });
    expect(planDispatch([65535, 65535, 1], 65535)).toEqual({ x: 65535, y: 65535, z: 1, direct: true, blocks: 65535 * 65535 });
    expect(planDispatch([0, 1, 1], 65535)).toEqual({ x: 0, y: 1, z: 1, direct: true, blocks: 0 });
    expect(ctaidOf(3, 2, planDispatch([4, 3, 2], 65535), [4, 3, 2], 1)).toEqual([3, 2, 1]);
  });

  it('folds other grids into the fewest rows, padding less than one workgroup per row', () => {
    const linear = (x: number, y: number, blocks: number) => ({ x, y, z: 1, direct: false, blocks });
    expect(planDispatch([100000, 1, 1], 65535)).toEqual(linear(50000, 2, 100000));
    expect(planDispatch([65536, 1, 1], 65535)).toEqual(linear(32768, 2, 65536));
    expect(planDispatch([262144, 1, 1], 65535)).toEqual(linear(52429, 5, 262144));
    expect(planDispatch([70000, 1, 2], 65535)).toEqual(linear(46667, 3, 140000));
    expect(maxGridBlocks(65535)).toBe(65535 * 65535);
  });

  it.each([[5, 5, 21], [6, 6, 18]] as const)('visits every block of a linearised grid exactly once, padding workgroups none (max %i)', (max, x, y) => {
    const grid: Dim3 = [7, 5, 3];
    const plan = planDispatch(grid, max); // 105 blocks: 21 rows of 5 (no padding), or 18 rows of 6 (3 padding)
    expect(plan).toEqual({ x, y, z: 1, direct: false, blocks: 105 });
    const seen = new Set<string>();
    let padding = 0;
    for (let wy = 0; wy < plan.y; wy++) {
      for (let wx = 0; wx < plan.x; wx++) {
        const c = ctaidOf(wx, wy, plan, grid);
        if (c) seen.add(c.join(','));
        else padding++;
      }
    }
    const expected = new Set<string>();
    for (let z = 0; z < 3; z++) for (let y = 0; y < 5; y++) for (let x = 0; x < 7; x++) expected.add(`${x},${y},${z}`);
    expect(seen).toEqual(expected);
    expect(padding).toBe(plan.x * plan.y - 105);
  });
});

describe('alias detection', () => {
  const alloc = (id: number): DeviceBuffer => ({ address: BigInt(id) << 32n }) as DeviceBuffer;

  it('groups pointer parameters that resolve to the same allocation', () => {
    const of = [alloc(1), alloc(2), alloc(2), null, null, alloc(1)];
    expect(aliasGroups([5, 0, 1, 2, 3, 4], (p) => of[p] ?? null)).toEqual([[0, 5], [1, 2]]);
    expect(aliasKey([[0, 5], [1, 2]])).toBe('0=5,1=2');
  });

  it('finds no groups for distinct allocations and null pointers', () => {
    const of = [alloc(1), alloc(2), null, null];
    expect(aliasGroups([0, 1, 2, 3], (p) => of[p] ?? null)).toEqual([]);
  });
});

describe('listEntries', () => {
  it('lists entries outside comments and strings', () => {
    const src = `// .entry commented
      /* .entry blocked
      */ .visible .entry first(.param .u64 p) {}
      .func helper() {}
      .entry $second (
      ) {}`;
    expect(listEntries(src)).toEqual(['first', '$second']);
  });
});
