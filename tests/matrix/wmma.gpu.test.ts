// wmma.load / wmma.store / wmma.mma on WebGPU (src/translate/handlers-wmma.ts), with the
// kernels the layouts were recorded with (kernels/wmma_layout.cu):
//  - every ld_* kernel loads a random matrix (stride padded past the matrix, given at run
//    time) and writes its raw registers: each must hold what NVIDIA's recorded layout
//    (kernels/wmma_layout.json) puts there; every st_d_* kernel stores a fragment whose elements
//    name their lane and index: each must land where the recording says;
//  - every mma_* kernel runs on the inputs the H100 ran them on; D must equal the JS reference
//    (wmma-reference.ts) bit for bit, on the `auto` and forced `emulated` warp paths; the
//    subgroups path's WGSL must at least validate here (lavapipe has no 32-lane subgroups).
// How the H100's own D compares with that reference is wmma-native.test.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { getDefaultDevice, releaseDefaultDevice } from '../../runtime/device.js';
import { compile } from '../../src/compile.js';
import { POISON, kernelSource, runKernel, type WarpPath } from './harness.js';
import { Random } from './reference.js';
import {
  BITS, LAYOUTS, NATIVE, address, expectedMma, leading, mmaInputs, mmaKernel, packMemory, randomElements, seedOf, unpackMemory,
  type WmmaType,
} from './wmma-reference.js';

afterAll(() => releaseDefaultDevice());

const words = (bytes: Uint8Array): Uint32Array => new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
const hex = (xs: ArrayLike<number>): string[] => Array.from(xs, (x) => (x >>> 0).toString(16));

/** The 32-bit words of a lane's fragment elements (f64: two words each, low first). */
function fragmentWords(t: WmmaType, elems: readonly bigint[], per: number): number[] {
  const bits = BITS[t];
  if (bits === 64) return elems.flatMap((v) => [Number(v & 0xffffffffn), Number(v >> 32n)]);
  const out: number[] = [];
  for (let r = 0; r < elems.length / per; r++) {
    let w = 0n;
    for (let s = 0; s < per; s++) w |= (elems[r * per + s] as bigint) << BigInt(s * bits);
    out.push(Number(w));
  }
  return out;
}

/** A stride one 16-byte unit longer than the matrix needs, so rows do not touch. */
const paddedStride = (t: WmmaType, order: 'row' | 'col', rows: number, cols: number): number => leading(t, order, rows, cols) + 128 / BITS[t];

describe('wmma.load and wmma.store place elements as the H100 does', () => {
  const keys = Object.keys(LAYOUTS.fragments);
  it.each(keys.filter((k) => !k.startsWith('d_')))('load %s', async (key) => {
    const [use, shape, type, order] = key.split('_') as [string, string, WmmaType, 'row' | 'col'];
    const f = LAYOUTS.fragments[key] as (typeof LAYOUTS.fragments)[string];
    const ld = paddedStride(type, order, f.rows, f.cols);
    const size = ld * (order === 'row' ? f.rows : f.cols);
    const mem = randomElements(type, size, new Random(seedOf(key)));
    const W = BITS[type] === 64 ? f.regs * 2 : f.regs;
    const run = await runKernel('wmma_layout', `ld_${key}`, { grid: 1, block: 32 }, [{ in: words(packMemory(type, mem)) }, { u32: ld }, { out: 1 + 32 * W }], 'auto');
    const want = [W, ...f.at.flatMap((row) => fragmentWords(type, row.map((i) => mem[address(order, ld, Math.floor(i / f.cols), i % f.cols)] as bigint), f.per))];
    expect(hex(run.outputs[0] as Uint32Array), `${use} fragment`).toEqual(hex(want));
  });

  it.each(keys.filter((k) => k.startsWith('d_')))('store %s', async (key) => {
    const [, , type, order] = key.split('_') as [string, string, WmmaType, 'row' | 'col'];
    const f = LAYOUTS.fragments[key] as (typeof LAYOUTS.fragments)[string];
    const ld = paddedStride(type, order, f.rows, f.cols);
    const size = ld * (order === 'row' ? f.rows : f.cols);
    const bytes = (size * BITS[type]) / 8;
    const run = await runKernel('wmma_layout', `st_${key}`, { grid: 1, block: 32 }, [{ out: bytes / 4 }, { u32: ld }], 'auto');
    const got = new Uint8Array((run.outputs[0] as Uint32Array).buffer);
    const poison = unpackMemory(type, packMemory('s32', new Array(bytes / 4).fill(BigInt(POISON))), size);
    const want = [...poison];
    const E = f.regs * f.per;
    f.at.forEach((row, lane) => row.forEach((i, e) => {
      want[address(order, ld, Math.floor(i / f.cols), i % f.cols)] = codeBits(type, lane * E + e + 1);
    }));
    expect(unpackMemory(type, got, size).map((v) => v.toString(16))).toEqual(want.map((v) => v.toString(16)));
  });
});

/** The bits of the small integer v as an element of t (the st_d_* kernels' from_int). */
function codeBits(t: WmmaType, v: number): bigint {
  const dv = new DataView(new ArrayBuffer(8));
  if (t === 'f64') { dv.setFloat64(0, v, true); return dv.getBigUint64(0, true); }
  if (t === 'f32') { dv.setFloat32(0, v, true); return BigInt(dv.getUint32(0, true)); }
  if (t === 'f16') { dv.setFloat32(0, v, true); return BigInt(dv.getUint32(0, true) >>> 13) - (112n << 10n); } // exact small integers
  return BigInt(v);
}

// ---------------------------------------------------------------- wmma.mma

const paths: WarpPath[] = ['auto', 'emulated'];

describe.each(paths)('wmma.mma, warpPath %s', (warpPath) => {
  it.each(Object.keys(NATIVE.mma))('%s', async (name) => {
    const mk = mmaKernel(name);
    const { seed, problems } = NATIVE.mma[name] as { seed: number; problems: number };
    const { A, B, C, bytes } = mmaInputs(mk, seed, problems);
    const { m, n, k, d } = mk.spec;
    const dBytes = (problems * m * n * BITS[d]) / 8;
    const args = [...bytes.map((b) => ({ in: words(b) })), { out: Math.ceil(dBytes / 4) }, { u32: k }, { u32: k }];
    const run = await runKernel('wmma_layout', name, { grid: problems, block: 32 }, args, warpPath);
    expect(warpPath === 'emulated' ? ['emulated'] : ['emulated', 'subgroups']).toContain(run.path);
    const got = unpackMemory(d, new Uint8Array((run.outputs[0] as Uint32Array).buffer), problems * m * n);
    expect(got.map((v) => v.toString(16))).toEqual(expectedMma(mk, A, B, C).map((v) => v.toString(16)));
  });
});

describe('the subgroups path of every wmma.mma kernel is valid WGSL', () => {
  it.each(Object.keys(NATIVE.mma))('%s', async (name) => {
    const [k] = compile(kernelSource('wmma_layout'), { entry: name, warpPath: 'subgroups' }).kernels;
    expect(k?.wgsl).toMatch(/subgroupShuffle\(/);
    const device = await getDefaultDevice();
    if (!device.features.has('subgroups')) return;
    const info = await device.createShaderModule({ code: k?.wgsl ?? '' }).getCompilationInfo();
    expect(info.messages.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([]);
  });
});
