// Integer and logic instructions on the real WebGPU against the ISA-text references (ref/int.ts)
// and, where committed, against outputs recorded natively on an NVIDIA GPU (native/int-*).
import { afterAll, describe, expect, it } from 'vitest';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { compile } from '../../src/compile.js';
import { batchPtx, form, loadNative, mismatches, runForms } from './harness.js';
import { INT_BATCHES, casesOf } from './int-cases.forms.js';

afterAll(() => releaseDefaultDevice());

const only = process.env['INT_BATCH'];

describe.each(INT_BATCHES.filter((b) => !only || b.name === only).map((b) => [b.name, b] as const))('%s', (_name, batch) => {
  const cases = casesOf(batch);
  const want = (f: number, ins: bigint[]): readonly bigint[] => (batch.forms[f] as (typeof batch.forms)[number]).ref(ins);
  let got: bigint[][][] = [];

  it(`matches the ISA reference on WebGPU (${cases.length} forms, ${cases.reduce((n, c) => n + (c.inputs[0]?.length ?? 0), 0)} cases)`, async () => {
    got = await runForms(cases);
    expect(mismatches(cases, got, want)).toEqual([]);
  });

  it('WebGPU matches the native NVIDIA recording', () => {
    const native = loadNative(batch.name, cases);
    if (!native) return; // int-native.test.ts requires the recordings that exist
    expect(got.length, 'the WebGPU run failed').toBe(cases.length);
    const diffs: string[] = [];
    native.forEach((outs, f) => outs.forEach((o, m) => o.forEach((v, i) => {
      if (got[f]?.[m]?.[i] !== v && diffs.length < 10) diffs.push(`${cases[f]?.form.body} case ${i} output ${m}: ${got[f]?.[m]?.[i]} vs ${v}`);
    })));
    expect(diffs).toEqual([]);
  });
});

it('mul.wide.u64 is a diagnostic, not a crash', () => {
  const ptx = batchPtx([{ form: form('mul.wide.u64 %d0, %a0, %a1;', ['b64', 'b64'], ['b64']), inputs: [[0n], [0n]] }]);
  expect(() => compile(ptx, {})).toThrow(/mul\.wide is defined for 16- and 32-bit types only/);
});

it('lop3 with a register lookup table is a diagnostic, not a crash', () => {
  const ptx = batchPtx([{ form: form('lop3.b32 %d0, %a0, %a1, %a2, %a3;', ['b32', 'b32', 'b32', 'b32'], ['b32']), inputs: [[0n], [0n], [0n], [0n]] }]);
  expect(() => compile(ptx, {})).toThrow(/lop3: the lookup table must be an integer constant/);
});

// ptxas 13 refuses these for every target (the min/max/add rows are shared with the float forms,
// which do take a third source on sm_100 and .relu/.sat on half types).
it.each([
  ['min.s32 %d0, %a0, %a1, %a2;', /min\.s32 takes two source operands/],
  ['max.relu.s16x2 %d0, %a0, %a1, %a2;', /max\.s16x2 takes two source operands/],
  ['min.relu.u32 %d0, %a0, %a1;', /min\.u32: \.relu is defined for min\/max \.s32 and \.s16x2 only/],
  ['max.u16x2.relu %d0, %a0, %a1;', /max\.u16x2: \.relu is defined/],
  ['add.relu.s32 %d0, %a0, %a1;', /add\.s32: \.relu is defined/],
  ['add.sat.s16x2 %d0, %a0, %a1;', /add\.s16x2 takes neither \.sat nor \.cc/],
  ['add.cc.u16x2 %d0, %a0, %a1;', /add\.u16x2 takes neither \.sat nor \.cc/],
  ['max.relu.s16x2 %d0, %a0, 0;', /max\.s16x2 takes registers only/],
] as const)('%s is a diagnostic', (body, message) => {
  const n = (body.match(/%a\d/g) ?? []).length;
  const ptx = batchPtx([{ form: form(body, Array(n).fill('b32') as string[], ['b32'], { sm: 100, version: '8.8' }), inputs: Array.from({ length: n }, () => [0n]) }]);
  expect(() => compile(ptx, {})).toThrow(message);
});
