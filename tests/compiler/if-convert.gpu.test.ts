// Pass if-convert: nvcc's branch around each bounds-checked neighbour load becomes a load and a
// select, so the blur's nine fmas share one block (and one replay region); side blocks that store,
// divide or load too much keep their branch. The blur runs on the device with its border loads
// speculated past both ends of the image buffer, against exact fma rounding in JS.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { compile, createContext, getDefaultDevice, releaseDefaultDevice } from '../../src/index.js';
import { H100_FLOAT } from './f32-triples.ts';
import * as R from '../conformance/ref/float.ts';

process.env['XDG_RUNTIME_DIR'] ??= '/tmp';
afterAll(() => releaseDefaultDevice());

const BLUR = readFileSync(new URL('../kernels/blur3x3.ptx', import.meta.url), 'utf8');

function irAfter(src: string, pass: string): string {
  let ir = '';
  compile(src, { dumpAfter: { pass, sink: (t: string) => { ir += t; } } });
  return ir;
}

const branches = (ir: string): number => (ir.match(/^\s*branch /gm) ?? []).length;

function kernel(side: string): string {
  return `.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout, .param .u32 n)
{
  .reg .pred %p<3>; .reg .f32 %f<8>; .reg .b32 %r<8>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [pin]; ld.param.u64 %rd2, [pout]; ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd3, %r2, 4; add.s64 %rd4, %rd1, %rd3; add.s64 %rd5, %rd2, %rd3;
  setp.ge.u32 %p1, %r2, %r1;
  mov.f32 %f1, 0f00000000;
  @%p1 bra JOIN;
  ${side}
JOIN:
  add.f32 %f2, %f1, %f1;
  st.global.f32 [%rd5], %f2;
  ret;
}
`;
}

/**
 * An if/else that loads on both sides (even threads read in[t], odd ones in[n-1-t]) and a loop
 * whose every iteration loads behind a bounds test (1.0 past the end): both arms of the first and
 * the guarded load of the second are speculated, the loop keeps its back edge.
 */
const SHAPES = `.version 8.0
.target sm_80
.address_size 64
.visible .entry shapes(.param .u64 pin, .param .u64 pout, .param .u32 n)
{
  .reg .pred %p<6>; .reg .f32 %f<12>; .reg .b32 %r<12>; .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [pin]; ld.param.u64 %rd2, [pout]; ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p0, %r2, %r1;
  @%p0 bra DONE;
  and.b32 %r3, %r2, 1;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 bra EVEN;
  sub.u32 %r4, %r1, 1;
  sub.u32 %r4, %r4, %r2;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  bra JOIN;
EVEN:
  mul.wide.u32 %rd5, %r2, 4;
  add.s64 %rd6, %rd1, %rd5;
  ld.global.f32 %f1, [%rd6];
JOIN:
  mov.f32 %f2, 0f00000000;
  mov.u32 %r5, 0;
LOOP:
  add.u32 %r6, %r2, %r5;
  setp.ge.u32 %p2, %r6, %r1;
  mov.f32 %f3, 0f3F800000;
  @%p2 bra SKIP;
  mul.wide.u32 %rd7, %r6, 4;
  add.s64 %rd8, %rd1, %rd7;
  ld.global.f32 %f3, [%rd8];
SKIP:
  add.f32 %f2, %f2, %f3;
  add.u32 %r5, %r5, 1;
  setp.lt.u32 %p3, %r5, 8;
  @%p3 bra LOOP;
  mul.wide.u32 %rd9, %r2, 8;
  add.s64 %rd10, %rd2, %rd9;
  st.global.f32 [%rd10], %f1;
  st.global.f32 [%rd10+4], %f2;
DONE:
  ret;
}
`;


describe('if-convert', () => {
  it('turns the blur\'s guarded loads into selects on one straight line', () => {
    expect(branches(irAfter(BLUR, 'narrow-int64'))).toBe(10);
    const after = irAfter(BLUR, 'if-convert');
    // only the bounds exit is left; each of the nine neighbours (the centre too: nvcc tests it) a select
    expect(branches(after)).toBe(1);
    expect((after.match(/= select/g) ?? []).length).toBe(9);
    // one region for the nine fmas on an H100: one test, the nine replayed exactly behind it, no
    // inline fma checks
    const wgsl = compile(BLUR, { fusedFma: true, nativeFloat: H100_FLOAT }).kernels[0]?.wgsl ?? '';
    const body = wgsl.slice(wgsl.indexOf('@compute'));
    expect(body.match(/if \(!ok_/g)?.length).toBe(1);
    expect(body.match(/f32_fma_exact\(/g)?.length).toBe(9);
    expect(body).not.toMatch(/f32_fma_checked/);
  });

  it('hoists a lone load, and leaves stores, divisions and a third load behind their branch', () => {
    expect(branches(irAfter(kernel('ld.global.f32 %f1, [%rd4];'), 'if-convert'))).toBe(0);
    expect(branches(irAfter(kernel('ld.global.f32 %f1, [%rd4]; st.global.f32 [%rd5], %f1;'), 'if-convert'))).toBe(1);
    expect(branches(irAfter(kernel('div.u32 %r3, %r1, %r2; cvt.rn.f32.u32 %f1, %r3;'), 'if-convert'))).toBe(1);
    expect(branches(irAfter(kernel('ld.global.f32 %f3, [%rd4]; ld.global.f32 %f4, [%rd4+4]; ld.global.f32 %f5, [%rd4+8]; add.f32 %f1, %f3, %f4;'), 'if-convert'))).toBe(1);
    // a side block of float arithmetic is not speculated either
    expect(branches(irAfter(kernel('ld.global.f32 %f3, [%rd4]; mul.f32 %f1, %f3, %f3;'), 'if-convert'))).toBe(1);
  });

  it('speculates both arms of an if/else and a guarded load inside a loop, and computes the same', async () => {
    expect(branches(irAfter(SHAPES, 'narrow-int64'))).toBe(4);
    // left: the bounds exit and the loop's back edge
    expect(branches(irAfter(SHAPES, 'if-convert'))).toBe(2);
    const n = 50;
    const input = new Float32Array(n).map((_, i) => (i * 37 % 23) - 11.5);
    const inBits = new Uint32Array(input.buffer);
    const expected = new Uint32Array(2 * 64).fill(0xabababab);
    for (let t = 0; t < n; t++) {
      expected[2 * t] = inBits[t % 2 === 0 ? t : n - 1 - t] as number;
      let acc = 0n;
      for (let k = 0; k < 8; k++) acc = R.add(R.F32, acc, t + k < n ? BigInt(inBits[t + k] as number) : 0x3f800000n, 'rn');
      expected[2 * t + 1] = Number(acc);
    }
    const ctx = await createContext({ device: await getDefaultDevice() });
    const fn = ctx.loadModule(SHAPES, { fileName: 'shapes.ptx' }).getFunction('shapes');
    const [din, dout] = [ctx.malloc(4 * n), ctx.malloc(4 * 2 * 64)];
    try {
      ctx.memcpyHtoD(din, input);
      ctx.memset(dout, 0xab, 4 * 2 * 64);
      fn.launch({ grid: [1, 1, 1], block: [64, 1, 1] }, [din, dout, n] as never);
      const got = new Uint32Array(2 * 64);
      await ctx.memcpyDtoH(got, dout);
      expect([...got].map((g) => g.toString(16))).toEqual([...expected].map((g) => g.toString(16)));
    } finally {
      ctx.free(din); ctx.free(dout);
      ctx.destroy();
    }
  }, 60_000);

  it('blurs exactly, border loads speculated outside the image', async () => {
    const ctx = await createContext({ device: await getDefaultDevice() });
    const [w, h] = [37, 23];
    let seed = 12345;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) >>> 0; return seed; };
    const img = new Float32Array(w * h).map(() => (rnd() % 2001 - 1000) / 97);
    const weights = new Float32Array([0.0625, -0.125, 0.0625, 0.125, 0, 0.125, 0.0625, 0.1875, -0.0625]);
    const bits = (x: Float32Array): Uint32Array => new Uint32Array(x.buffer);
    const [imgBits, wBits] = [bits(img), bits(weights)];
    const expected = new Uint32Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let acc = 0n;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const [xx, yy] = [x + dx, y + dy];
            const v = xx >= 0 && xx < w && yy >= 0 && yy < h ? BigInt(imgBits[yy * w + xx] as number) : 0n;
            acc = R.fma(R.F32, v, BigInt(wBits[(dy + 1) * 3 + dx + 1] as number), acc, 'rn');
          }
        }
        expected[y * w + x] = Number(acc);
      }
    }
    const fn = ctx.loadModule(BLUR, { fileName: 'blur3x3.ptx' }).getFunction('blur3x3');
    const [din, dw, dout] = [ctx.malloc(img.byteLength), ctx.malloc(weights.byteLength), ctx.malloc(4 * w * h)];
    try {
      ctx.memcpyHtoD(din, img);
      ctx.memcpyHtoD(dw, weights);
      ctx.memset(dout, 0xab, 4 * w * h);
      fn.launch({ grid: [Math.ceil(w / 16), Math.ceil(h / 8), 1], block: [16, 8, 1] }, [din, dw, dout, w, h] as never);
      const got = new Uint32Array(w * h);
      await ctx.memcpyDtoH(got, dout);
      const bad = [...got].flatMap((g, i) => (g === expected[i] ? [] : [`(${i % w}, ${Math.floor(i / w)}): ${g.toString(16)} want ${(expected[i] as number).toString(16)}`])).slice(0, 5);
      expect(bad).toEqual([]);
    } finally {
      ctx.free(din); ctx.free(dw); ctx.free(dout);
      ctx.destroy();
    }
  }, 60_000);
});
