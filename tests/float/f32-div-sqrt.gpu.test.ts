// div.rn.f32, rcp.rn.f32 and sqrt.rn.f32 (and their .ftz forms) on the device, bit for bit
// against the correctly rounded result, on operands aimed at the fast paths of f32r_div_rn and
// f32r_sqrt_rn (div-sqrt-cases.ts): results a hair from a rounding boundary, divisors with
// all-ones significands, powers of two, every limit of the fast paths' ranges, and the special
// values. Devices whose fma() is fused (the H100/H200) take the fast paths; the others the
// integer division and root, which this checks too.
import { afterAll, describe, expect, it } from 'vitest';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { form, mismatches, runForms, type FormCase } from '../conformance/harness.js';
import { divCase, divRef, rand32, sqrtCase, sqrtRef } from './div-sqrt-cases.js';

afterAll(() => releaseDefaultDevice());

const N = 6000;

function inputs(seed: number, rcp: boolean): bigint[][] {
  const r = rand32(seed);
  const a: bigint[] = []; const b: bigint[] = [];
  for (let i = 0; i < N; i++) {
    const [x, y] = divCase(r);
    a.push(BigInt(x)); b.push(BigInt(y));
  }
  return rcp ? [b] : [a, b];
}

function roots(seed: number): bigint[][] {
  const r = rand32(seed);
  return [Array.from({ length: N }, () => BigInt(sqrtCase(r)))];
}

const CASES: { readonly c: FormCase; readonly ref: (x: bigint[]) => bigint }[] = [
  { c: { form: form('div.rn.f32 %d0, %a0, %a1;', ['f32', 'f32'], ['f32']), inputs: inputs(1, false) }, ref: ([a, b]) => BigInt(divRef(Number(a), Number(b))) },
  { c: { form: form('div.rn.ftz.f32 %d0, %a0, %a1;', ['f32', 'f32'], ['f32']), inputs: inputs(2, false) }, ref: ([a, b]) => BigInt(divRef(Number(a), Number(b), true)) },
  { c: { form: form('rcp.rn.f32 %d0, %a0;', ['f32'], ['f32']), inputs: inputs(3, true) }, ref: ([b]) => BigInt(divRef(0x3f800000, Number(b))) },
  { c: { form: form('rcp.rn.ftz.f32 %d0, %a0;', ['f32'], ['f32']), inputs: inputs(4, true) }, ref: ([b]) => BigInt(divRef(0x3f800000, Number(b), true)) },
  { c: { form: form('sqrt.rn.f32 %d0, %a0;', ['f32'], ['f32']), inputs: roots(5) }, ref: ([x]) => BigInt(sqrtRef(Number(x))) },
  { c: { form: form('sqrt.rn.ftz.f32 %d0, %a0;', ['f32'], ['f32']), inputs: roots(6) }, ref: ([x]) => BigInt(sqrtRef(Number(x), true)) },
];

describe('f32 division and square root, correctly rounded', () => {
  const results = runForms(CASES.map((x) => x.c));
  results.catch(() => undefined);

  it.each(CASES.map((x, k) => [x.c.form.body, k] as const))('%s matches the correctly rounded result', async (_body, k) => {
    const x = CASES[k] as (typeof CASES)[number];
    const got = (await results)[k] as bigint[][];
    const bad = mismatches([x.c], [got], (_f, ins) => [x.ref(ins)]);
    expect(bad, `${bad.length} lines`).toEqual([]);
  });
});
