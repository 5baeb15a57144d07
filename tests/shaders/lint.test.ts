// The helper library is inlined into kernels, often inside loops. WGSL's short-circuit `&&` and
// `||` become branches, and Chromium's SwiftShader compiles a loop body full of small branches
// extremely slowly (an unrolled sgemm with 16 exact-fma calls took over 8 minutes with them and
// 3 seconds without). Helpers therefore combine conditions with the non-short-circuit `&` and `|`.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('../../shaders/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.wgsl'));

describe('shaders/*.wgsl', () => {
  it('exist', () => expect(files.length).toBeGreaterThan(3));
  it.each(files)('%s uses no short-circuit && or ||', (f) => {
    const text = readFileSync(new URL(f, dir), 'utf8').split('\n');
    const hits = text
      .map((line, i) => [i + 1, line.replace(/\/\/.*$/, '')] as const)
      .filter(([, code]) => /&&|\|\|/.test(code))
      .map(([n, code]) => `${f}:${n}: ${code.trim()}`);
    expect(hits).toEqual([]);
  });
});
