// f32/f16/bf16 arithmetic, comparison and conversion instructions on the real WebGPU against
// the exact-rational references (ref/float.ts) and, where committed, against outputs recorded
// natively on an NVIDIA GPU (native/float-*).
import { afterAll, describe, expect, it } from 'vitest';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { loadNative, mismatches, runForms } from './harness.js';
import { FLOAT_BATCHES, casesOf } from './float-cases.forms.js';

afterAll(() => releaseDefaultDevice());

const only = process.env['FLOAT_BATCH'];

describe.each(FLOAT_BATCHES.filter((b) => !only || b.name === only).map((b) => [b.name, b] as const))('%s', (_name, batch) => {
  const cases = casesOf(batch);
  const want = (f: number, ins: bigint[]): readonly bigint[] => (batch.forms[f] as (typeof batch.forms)[number]).ref(ins);
  let got: bigint[][][] = [];

  it(`matches the ISA reference on WebGPU (${cases.length} forms, ${cases.reduce((n, c) => n + (c.inputs[0]?.length ?? 0), 0)} cases)`, async () => {
    got = await runForms(cases);
    expect(mismatches(cases, got, want, 40)).toEqual([]);
  }, 120_000);

  it('the reference and WebGPU match the native NVIDIA recording', () => {
    const native = loadNative(batch.name, cases);
    expect(native, `no native recording of ${batch.name}: record it (scripts/gen-conformance.mjs, record_native.py)`).not.toBeNull();
    if (!native) return;
    const cut = cases.map((c, f) => ({ form: c.form, inputs: c.inputs.map((a) => a.slice(0, native[f]?.[0]?.length ?? 0)) }));
    expect(mismatches(cut, native, want, 40), 'reference vs hardware').toEqual([]);
    const hwVsGpu = got.flatMap((outs, f) => outs.flatMap((o, m) => o.slice(0, native[f]?.[m]?.length ?? 0).map((v, i) => (v === native[f]?.[m]?.[i] ? null : `${cases[f]?.form.body} #${i}`)).filter((x) => x)));
    expect(hwVsGpu.slice(0, 10), 'WebGPU vs hardware').toEqual([]);
  });
});
