// Irreducible and multi-level-exit control flow run on a real WebGPU against JS references.
import { afterAll, describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { IRREDUCIBLE, NESTED_BREAK, SEQUENTIAL_LOOPS } from './structurize.test.js';

afterAll(() => releaseDefaultDevice());

function irreducibleRef(tid: number, n: number): number {
  let r3 = 0;
  let at: 'A' | 'B' = tid === 0 ? 'B' : 'A';
  for (;;) {
    if (at === 'A') { r3 += 1; if (r3 < n) { at = 'B'; continue; } return r3; }
    r3 += 2; if (r3 < n) { at = 'A'; continue; }
    return r3; // B falls through to DONE
  }
}

function nestedRef(tid: number, n: number): number {
  let r3 = 0;
  for (let r4 = 0; ; ) {
    for (let r5 = 0; ; ) {
      r3 = (r3 + r5) >>> 0;
      if (r3 > 50) return r3;
      r5++;
      if (!(r5 < tid)) break;
    }
    r4++;
    if (!(r4 < n)) return r3;
  }
}

function sequentialRef(tid: number, n: number): number {
  let r3 = 0;
  let r4 = 0;
  do { r3 = (r3 + r4) >>> 0; r4++; } while (r4 < tid);
  for (r4 = 0; r4 < n; r4++) r3 = Math.imul(r3, 3) >>> 0;
  r3 = (r3 + 7) >>> 0;
  r4 = 0;
  for (;;) {
    r4++;
    r3 = (r3 ^ r4) >>> 0;
    if (r3 > 1000 || !(r4 < 20)) break;
  }
  return (r3 << 1) >>> 0;
}

describe.each([
  ['irreducible', IRREDUCIBLE, irreducibleRef],
  ['nested-break', NESTED_BREAK, nestedRef],
  ['sequential-loops', SEQUENTIAL_LOOPS, sequentialRef],
] as const)('%s control flow on WebGPU', (_name, src, ref) => {
  it('matches the JS reference for every thread', async () => {
    const out = new Uint32Array(64).fill(0xdeadbeef);
    const n = _name === 'irreducible' ? 10 : 9;
    await runPtx(src, [out, n], { block: 64 });
    const expected = Array.from({ length: 64 }, (_, t) => ref(t, n));
    expect([...out]).toEqual(expected);
  });
});
