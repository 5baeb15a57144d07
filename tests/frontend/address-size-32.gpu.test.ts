/**
 * `.address_size 32` end to end: clang/LLVM's 32-bit NVPTX saxpy (corpus/arch/
 * llvm_saxpy32_sm52.ptx, `.u32` pointer parameters) compiles and runs on WebGPU, and
 * matches a JS reference computed with Math.fround (mul then add, each rounded: the PTX
 * has separate mul.rn/add.rn). The output buffer is poisoned first.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';

afterAll(() => releaseDefaultDevice());

const src = readFileSync(new URL('./corpus/arch/llvm_saxpy32_sm52.ptx', import.meta.url), 'utf8');

describe('.address_size 32 module on WebGPU', () => {
  it('saxpy with 32-bit pointers matches the JS reference', async () => {
    const n = 1000;
    const a = 2.5;
    const x = new Float32Array(1024).map((_, i) => i * 0.37 - 11);
    const y0 = new Float32Array(1024).map((_, i) => 3 - i * 0.011);
    const y = new Float32Array(y0);
    for (let i = n; i < y.length; i++) y[i] = new Float32Array(new Uint32Array([0xdeadbeef]).buffer)[0] ?? 0;
    const poison = new Float32Array(y);
    await runPtx(src, [n, a, x, y], { grid: 4, block: 256 });
    for (let i = 0; i < y.length; i++) {
      const want = i < n ? Math.fround(Math.fround(a * (x[i] ?? 0)) + (y0[i] ?? 0)) : poison[i];
      if (!Object.is(y[i], want)) expect(`y[${i}] = ${y[i]}`).toBe(`y[${i}] = ${want}`);
    }
  });
});
