// The conformance data the package ships (dist/conformance/, scripts/build-conformance.mjs): every
// recorded batch of tests/conformance/*.forms.ts, cut to the first cases per form, with the same
// kernel, inputs and NVIDIA outputs the suites' own harness uses.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { approxAgrees, isApproximate } from '../../src/conformance/approx.js';
import { formSlots, outputBits } from '../../src/conformance/batch.js';
import { readConformance } from '../../src/conformance/node-data.js';
import type { ConformanceData } from '../../src/conformance/data.js';
import { emitBatch, loadNative } from '../conformance/harness.js';
import { INT_BATCHES, casesOf as intCases } from '../conformance/int-cases.forms.js';
import { FLOAT_BATCHES, casesOf as floatCases } from '../conformance/float-cases.forms.js';
import { ensureDist, ROOT } from '../helpers/built-dist.js';
import { isKernelBatch } from '../../src/conformance/batch.js';
import { WARP_CASES, outputWords } from '../warps/cases.js';
import { kernelSource, nativeCases } from '../warps/harness.js';
import { POISON, warpInput } from '../warps/reference.js';

const DATA = pathToFileURL(join(ROOT, 'dist/conformance/'));

let data: ConformanceData;
beforeAll(async () => {
  ensureDist();
  const read = await readConformance(DATA);
  if (!read) throw new Error('dist/conformance/ is missing');
  data = read;
}, 300_000);

describe('shipped conformance data', () => {
  it('holds every recorded batch', () => {
    const index = data.index;
    expect(index.skipped).toEqual([]);
    expect(index.batches).toEqual(expect.arrayContaining(['int-arith32', 'int-carry', 'float-f32-arith', 'float-cvt', 'f64-arith', 'video-simd']));
    expect(index.cases).toBeGreaterThanOrEqual(64);
  });

  const batches = [
    { batch: INT_BATCHES.find((b) => b.name === 'int-carry'), cases: intCases },
    { batch: FLOAT_BATCHES.find((b) => b.name === 'float-satfinite'), cases: floatCases },
  ] as const;
  it.each(batches.map((b) => [b.batch?.name ?? '?', b] as const))('%s: the harness kernel, inputs and recording, cut to the first cases', async (name, { batch, cases }) => {
    const shipped = await data.batch(name);
    if (isKernelBatch(shipped)) throw new Error(`${name} is a kernel batch`);
    const all = cases(batch as never);
    const keep = shipped.manifest.keep;
    const emitted = emitBatch({ name, keep, cases: () => all });
    expect(shipped.ptx).toBe(emitted.ptx);
    expect(new Uint8Array(shipped.inputs.buffer)).toEqual(emitted.inputBytes);
    const native = loadNative(name, all);
    expect(native).not.toBeNull();
    const slots = formSlots(shipped.manifest.forms, keep);
    shipped.manifest.forms.forEach((form, f) => {
      const s = slots[f]!;
      form.outs.forEach((type, m) => {
        const mask = (1n << BigInt(outputBits(type))) - 1n;
        const got = Array.from({ length: s.cases }, (_, i) => shipped.native[s.outOff + i * form.outs.length + m]! & mask);
        expect(got, form.body).toEqual(native![f]![m]!.slice(0, s.cases));
      });
    });
  });
});

describe('shipped warp kernels', () => {
  it('are the warp suite\'s kernels, inputs and NVIDIA recording (tests/warps/)', async () => {
    const shipped = await data.batch('warp-collectives');
    expect(isKernelBatch(shipped)).toBe(true);
    if (!isKernelBatch(shipped)) return;
    const native = nativeCases();
    expect(native.length).toBe(WARP_CASES.length);
    expect(shipped.poison).toBe(POISON);
    expect(shipped.cases).toEqual(native.map((n) => ({ source: n.ptx, entry: n.kernel, grid: n.grid, block: n.block, input: n.input, native: n.outputs })));
    for (const c of WARP_CASES) {
      expect(shipped.sources[c.ptx]).toBe(kernelSource(c.ptx));
      const rec = shipped.cases.find((k) => k.entry === c.kernel);
      expect(rec?.input).toEqual([...warpInput(c.grid * c.block)]);
      expect(rec?.native.map((o) => o.length)).toEqual(outputWords(c));
    }
  });
});

describe('approximate forms', () => {
  it('agree with the recording within the loose bound, on both lanes of packed halves, and exactly on NaN and infinities', () => {
    expect(isApproximate('sin.approx.f32 %d0, %a0;')).toBe(true);
    expect(isApproximate('div.full.f32 %d0, %a0, %a1;')).toBe(true);
    expect(isApproximate('div.rn.f32 %d0, %a0, %a1;')).toBe(false);
    const f32 = (x: number): bigint => BigInt(new Uint32Array(new Float32Array([x]).buffer)[0]!);
    expect(approxAgrees('sin.approx.f32 %d0, %a0;', f32(1e-7), f32(-3e-7))).toBe(true); // near a zero: absolute
    expect(approxAgrees('rcp.approx.ftz.f32 %d0, %a0;', f32(0.5), f32(0.5 * (1 + 2 ** -12)))).toBe(true);
    expect(approxAgrees('rcp.approx.ftz.f32 %d0, %a0;', f32(0.5), f32(0.51))).toBe(false);
    expect(approxAgrees('lg2.approx.f32 %d0, %a0;', 0x7fc00000n, 0x7fffffffn)).toBe(true);
    expect(approxAgrees('lg2.approx.f32 %d0, %a0;', f32(1e30), 0x7f800000n)).toBe(false);
    const halves = (lo: number, hi: number): bigint => (BigInt(hi) << 16n) | BigInt(lo);
    expect(approxAgrees('ex2.approx.f16x2 %d0, %a0;', halves(0x3c00, 0x4000), halves(0x3c01, 0x4000))).toBe(true);
    expect(approxAgrees('ex2.approx.f16x2 %d0, %a0;', halves(0x3c00, 0x4000), halves(0x3c00, 0x4400))).toBe(false);
  });
});
