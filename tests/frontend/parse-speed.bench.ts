/**
 * Parse speed on a few MB of real nvcc output (the corpus bodies repeated).
 * Run: npx vitest bench --run tests/frontend   (not part of the normal test run).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { bench, describe } from 'vitest';
import { parsePtx } from '../../src/ptx/parse.js';

const dir = new URL('./corpus/', import.meta.url);

/** The corpus without `.section` debug blocks and headers, repeated to about `bytes`. */
export function bigPtx(bytes: number): string {
  const bodies = readdirSync(dir)
    .filter((f) => f.endsWith('.ptx'))
    .map((f) => readFileSync(new URL(f, dir), 'utf8'))
    .map((t) => t.replace(/^\.(version|target|address_size).*$/gm, ''))
    .map((t) => t.split('\t.section')[0] ?? '');
  let out = '.version 9.0\n.target sm_90\n.address_size 64\n';
  while (out.length < bytes) out += bodies.join('\n');
  return out;
}

const small = bigPtx(1_000_000);
const large = bigPtx(4_000_000);

describe('parsePtx', () => {
  for (const text of [small, large]) {
    bench(`${(text.length / 1e6).toFixed(1)} MB of nvcc PTX`, () => {
      parsePtx(text, 'big.ptx');
    }, { iterations: 5, warmupIterations: 1 });
  }
});
