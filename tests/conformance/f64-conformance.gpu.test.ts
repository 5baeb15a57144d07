// .f64 instructions on WebGPU (integer-emulated binary64) against the JS reference (ref/f64.ts)
// and against the native CUDA recording (native/f64-*.bin.gz), bit for bit; the .approx forms
// within their error bound.
import { afterAll, describe, expect, it } from 'vitest';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { F64_BATCHES, F64_EXTRA_BATCHES, caseList, type F64Form } from './f64-cases.forms.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { emitBatch, loadNative, runForms } from './harness.js';
import * as R from './ref/f64.js';

afterAll(() => releaseDefaultDevice());

const hex = (v: bigint): string => `0x${v.toString(16).padStart(16, '0')}`;

/** Whether `got` is an acceptable result of an approximate form whose exact value is `want`. */
function close(got: bigint, want: bigint, bitsOk: number): boolean {
  if (got === want) return true;
  if (R.isNaN64(got) || R.isNaN64(want)) return R.isNaN64(got) && R.isNaN64(want);
  const g = R.toNumber(got); const w = R.toNumber(want);
  if (!Number.isFinite(w) || w === 0) return g === w;
  return Math.abs(g - w) <= Math.abs(w) * 2 ** -bitsOk;
}

/** Mismatch descriptions of one form: outputs `got[m][i]` against `want(i)[m]`. */
function mismatches(f: F64Form, inputs: readonly (readonly bigint[])[], got: readonly (readonly bigint[])[], want: (i: number) => readonly bigint[], count: number): string[] {
  const bad: string[] = [];
  for (let i = 0; i < count; i++) {
    const w = want(i);
    for (let m = 0; m < got.length; m++) {
      const g = got[m]?.[i] as bigint;
      const ok = f.approxBits ? close(g, w[m] as bigint, f.approxBits) : g === w[m];
      if (!ok) bad.push(`case ${i} (${inputs.map((x) => hex(x[i] as bigint)).join(', ')}) out ${m}: got ${hex(g)} want ${hex(w[m] as bigint)}`);
    }
  }
  return bad;
}

/** SHA-256 of each recorded batch's packed inputs: a recording is only valid for the exact inputs it ran on. */
const RECORDED_INPUTS = JSON.parse(readFileSync(new URL('./native/f64-inputs.json', import.meta.url), 'utf8')) as Record<string, string>;

const BATCHES = [...F64_BATCHES, ...F64_EXTRA_BATCHES].map((b) => [b.name, b] as const);

describe.each(BATCHES)('%s', (_name, batch) => {
  const cases = caseList(batch);

  it('runs on the inputs of the native recording', () => {
    const { inputBytes } = emitBatch({ name: batch.name, keep: batch.keep, cases: () => cases });
    expect(createHash('sha256').update(inputBytes).digest('hex')).toBe(RECORDED_INPUTS[batch.name]);
  });

  const results = runForms(cases);
  results.catch(() => undefined); // reported by the tests that await it
  const native = loadNative(batch.name, cases);

  it.each(batch.forms.map((f, k) => [f.form.body, k] as const))('%s matches the JS reference', async (_body, k) => {
    const f = batch.forms[k] as F64Form;
    const inputs = cases[k]?.inputs as readonly (readonly bigint[])[];
    const got = (await results)[k] as bigint[][];
    const bad = mismatches(f, inputs, got, (i) => f.ref(inputs.map((x) => x[i] as bigint)), inputs[0]?.length ?? 0);
    expect(bad.slice(0, 8), `${bad.length} mismatches`).toEqual([]);
  });

  it.each(batch.forms.map((f, k) => [f.form.body, k] as const))('%s matches native CUDA', async (_body, k) => {
    expect(native, `native/${batch.name}.bin.gz`).not.toBeNull();
    const f = batch.forms[k] as F64Form;
    const inputs = cases[k]?.inputs as readonly (readonly bigint[])[];
    const nat = (native as bigint[][][])[k] as bigint[][];
    const got = (await results)[k] as bigint[][];
    const bad = mismatches(f, inputs, got, (i) => nat.map((o) => o[i] as bigint), nat[0]?.length ?? 0);
    expect(bad.slice(0, 8), `${bad.length} mismatches`).toEqual([]);
  });
});
