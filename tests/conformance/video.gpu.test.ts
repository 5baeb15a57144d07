// The video instructions (scalar vadd..vmad/vset, SIMD vop2/vop4/vset2/vset4) on the real WebGPU
// against the references (ref/video.ts: the ISA text, with the rules recorded on an H100 where the
// scalar forms differ from it) and against the outputs recorded natively on the H100
// (native/video-*; video-native.test.ts checks the references there).
import { afterAll, describe, expect, it } from 'vitest';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { compile } from '../../src/compile.js';
import { batchPtx, form, loadNative, mismatches, runForms, type FormCase } from './harness.js';
import { VIDEO_BATCHES, casesOf } from './video.forms.js';

afterAll(() => releaseDefaultDevice());


/** Forms per dispatch: one kernel of a whole batch is large for lavapipe's compiler. */
const CHUNK = 48;

describe.each(VIDEO_BATCHES.map((b) => [b.name, b] as const))('%s', (_name, batch) => {
  const cases = casesOf(batch);
  const want = (f: number, ins: bigint[]): readonly bigint[] => (batch.forms[f] as (typeof batch.forms)[number]).ref(ins);
  let got: bigint[][][] = [];

  it(`matches the reference on WebGPU (${cases.length} forms, ${cases.reduce((n, c) => n + (c.inputs[0]?.length ?? 0), 0)} cases)`, async () => {
    const out: bigint[][][] = [];
    for (let i = 0; i < cases.length; i += CHUNK) out.push(...(await runForms(cases.slice(i, i + CHUNK))));
    got = out;
    expect(mismatches(cases, got, want)).toEqual([]);
  }, 600_000);

  // Skipped only while tests/conformance/native/<batch>.json is not committed.
  it('WebGPU matches the native NVIDIA recording', () => {
    const native = loadNative(batch.name, cases);
    expect(native, `tests/conformance/native/${batch.name}.bin.gz is missing`).not.toBeNull();
    expect(got.length, 'the WebGPU run failed').toBe(cases.length);
    const diffs: string[] = [];
    native?.forEach((outs, f) => outs.forEach((o, m) => o.forEach((v, i) => {
      if (got[f]?.[m]?.[i] !== v && diffs.length < 10) diffs.push(`${cases[f]?.form.body.split('\n')[m]} case ${i}: ${got[f]?.[m]?.[i]} vs ${v}`);
    })));
    expect(diffs).toEqual([]);
  });
});

/** One-form kernel of `body` (registers %a0.. and %d0..), compiled: the diagnostic it raises. */
function compileBody(body: string): void {
  const n = new Set(body.match(/%a\d/g) ?? []).size;
  const c: FormCase = { form: form(body, Array(n).fill('b32') as string[], ['b32']), inputs: Array.from({ length: n }, () => [0n]) };
  compile(batchPtx([c]), {});
}

// Each of these is refused by ptxas 13 (sm_80) with the reason named.
it.each([
  ['vadd.u32.u32.u32.add %d0.b1, %a0, %a1, %a2;', /destination selector and a secondary operation/],
  ['vadd.u32.u32.u32 %d0, %a0.b5, %a1;', /source selectors are/],
  ['vadd.u32.u32.u32 %d0, %a0, %a1, %a2.b1;', /operand c takes no selector/],
  ['vadd.u32.u32.u32.min %d0, %a0, %a1;', /needs operand c/],
  ['vadd.u32.u32.u64 %d0, %a0, %a1;', /each \.u32 or \.s32/],
  ['vshl.u32.u32.u32 %d0, %a0, %a1;', /needs \.clamp or \.wrap/],
  ['vshr.u32.u32.s32.wrap %d0, %a0, %a1;', /shift amount type is \.u32/],
  ['vmad.s32.s32.s32 %d0, -%a0, %a1, -%a2;', /either \(a xor b\) or c/],
  ['vmad.s32.s32.s32.po %d0, -%a0, %a1, %a2;', /\.po cannot be combined/],
  ['vmad.s32.s32.s32 %d0, %a0, %a1, %a2.b1;', /operand c takes no selector/],
  ['vset.u32.u32.lo %d0, %a0, %a1;', /comparison is \.eq/],
  ['vset.u32.u32.lt.sat %d0, %a0, %a1;', /takes no \.sat/],
  ['vadd2.u32.u32.u32.sat.add %d0, %a0, %a1, %a2;', /\.sat and \.add cannot be combined/],
  ['vadd2.u32.u32.u32 %d0.h01, %a0, %a1, %a2;', /the mask is \.h0, \.h1 or \.h10/],
  ['vadd4.u32.u32.u32 %d0.b01, %a0, %a1, %a2;', /the mask is \.b0/],
  ['vadd2.u32.u32.u32 %d0, %a0.h3, %a1, %a2;', /lane selectors are \.hxy/],
  ['vadd2.u32.u32.u32.min %d0, %a0, %a1, %a2;', /only secondary operation is \.add/],
  ['vset4.u32.u32.lt.sat %d0, %a0, %a1, %a2;', /takes no \.sat/],
  ['vadd2.u32.u32.u32 %d0, %a0, %a1, 5;', /sources are registers/],
] as const)('%s is a diagnostic', (body, message) => {
  expect(() => compileBody(body)).toThrow(message);
});
