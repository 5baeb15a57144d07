// Which narrow-float cvt forms compile: exactly those ptxas 13 accepts for sm_100a (recorded in
// float-narrow.ptxas.json) out of every combination of rounding, .satfinite, .relu and types
// below; the rest are positioned L002 errors naming the form.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PtxError } from '../../src/diagnostics/ptx-error.js';
import { compileErrorOf } from '../helpers/ptx-errors.js';

const REG: Readonly<Record<string, string>> = { e2m1x2: 'c', e2m3x2: 'h', e3m2x2: 'h', ue8m0x2: 'h' };

/** Every combination, spelled as the recording spells it (registers without `%`). */
function combinations(): string[] {
  const out: string[] = [];
  for (const rnd of ['', '.rn', '.rz', '.rp', '.rm', '.rna']) {
    for (const sat of ['', '.satfinite']) {
      for (const relu of ['', '.relu']) {
        for (const n of ['e2m1x2', 'e2m3x2', 'e3m2x2', 'ue8m0x2']) {
          const r = REG[n] as string;
          out.push(`cvt${rnd}${sat}${relu}.${n}.f32 ${r}1, f1, f2;`, `cvt${rnd}${sat}${relu}.${n}.f16x2 ${r}1, r1;`, `cvt${rnd}${sat}${relu}.${n}.bf16x2 ${r}1, r1;`);
          out.push(`cvt${rnd}${sat}${relu}.f16x2.${n} r1, ${r}2;`, `cvt${rnd}${sat}${relu}.bf16x2.${n} r1, ${r}2;`);
        }
      }
    }
  }
  return out;
}

const kernel = (form: string): string => `.version 9.0
.target sm_100a
.address_size 64
.visible .entry k()
{
  .reg .b8 %c<4>;
  .reg .b16 %h<4>;
  .reg .b32 %r<4>;
  .reg .f32 %f<4>;
  ${form.replace(/(?<=[ ,])([chrf]\d)(?=[,;])/g, '%$1')}
  ret;
}
`;

const errorOf = (src: string): PtxError | null => compileErrorOf(src, 'n.ptx');

describe('narrow-float cvt forms', () => {
  const accepted = new Set((JSON.parse(readFileSync(new URL('./float-narrow.ptxas.json', import.meta.url), 'utf8')) as { accepted: string[] }).accepted);
  const all = combinations();

  it('the recording is a subset of the combinations', () => {
    expect(all.length).toBe(480);
    expect(accepted.size).toBe(23);
    expect([...accepted].filter((f) => !all.includes(f))).toEqual([]);
  });

  it('compile exactly when ptxas accepts them', () => {
    const wrong: string[] = [];
    for (const f of all) {
      const e = errorOf(kernel(f));
      if (accepted.has(f) ? e !== null : !/error\[L002\]: cvt/.test(e?.message ?? '')) wrong.push(`${f}: ${e?.message.split('\n')[0] ?? 'compiled'}`);
    }
    expect(wrong).toEqual([]);
  });
});
