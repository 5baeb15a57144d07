// Memory-op qualifiers that change caching, eviction or ordering on NVIDIA GPUs but not the
// values moved: every ld/st cache and eviction qualifier, ld.global.nc, ldu, ld.volatile /
// .relaxed / .acquire, st.release / .relaxed, createpolicy + .L2::cache_hint, prefetch,
// prefetchu, applypriority, discard, membar, fence (qualifiers.ptx, checked with ptxas
// -arch=sm_90). Thread 0 copies 26 words through all of them: b[k] = a[k].
import { readFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

it('qualified loads and stores move exactly the same words', async () => {
  const src = readFileSync(new URL('./qualifiers.ptx', import.meta.url), 'utf8');
  const a = Uint32Array.from({ length: 26 }, (_, k) => (0x9e3779b9 * (k + 1)) >>> 0);
  const b = new Uint32Array(28).fill(0xdeadbeef);
  await runPtx(src, [a, b], { grid: 1, block: 1 });
  expect([...b]).toEqual([...a, 0xdeadbeef, 0xdeadbeef]);
});
