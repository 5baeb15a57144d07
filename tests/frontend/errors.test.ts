/** Diagnostics: every error of a file is reported, with line:col, a code frame and a stable code. */
import { describe, expect, test } from 'vitest';
import type { PtxError } from '../../src/diagnostics/ptx-error.js';
import { parsePtx } from '../../src/ptx/parse.js';
import { HEADER, parseBody } from './helpers.js';
import { ptxErrorOf } from '../helpers/ptx-errors.js';

function errorOf(f: () => unknown): PtxError {
  const e = ptxErrorOf(f);
  if (!e) throw new Error('expected a PtxError');
  return e;
}

const BAD = `${HEADER}
.visible .entry k(
\t.param .u64 k_param_0
)
{
\t.reg .b32 %r<4>;
\tadd.s32 %r1, %r2 %r3;
\tfrob.u32 %r1, %r2;
\tmov.u32.quux %r1, 0;
\tret;
}
`;

const EXPECTED = [
  `bad.ptx:10:19: error[P002]: expected \`,\`, found \`%r3\`
   |
10 | \tadd.s32 %r1, %r2 %r3;
   |                   ^^^`,
  `bad.ptx:11:2: error[P004]: unknown opcode \`frob\`
   |
11 | \tfrob.u32 %r1, %r2;
   |  ^^^^`,
  `bad.ptx:12:9: error[P005]: unknown modifier \`.quux\` for \`mov\`
   |
12 | \tmov.u32.quux %r1, 0;
   |         ^^^^^`,
];

describe('errors', () => {
  test('a file with three errors reports all three, rendered', () => {
    const e = errorOf(() => parsePtx(BAD, 'bad.ptx'));
    expect(e.diagnostics.map((d) => d.code)).toEqual(['P002', 'P004', 'P005']);
    expect(e.rendered).toEqual(EXPECTED);
    expect(e.message).toBe(EXPECTED.join('\n\n'));
  });

  test('unknown opcode is named', () => {
    const e = errorOf(() => parseBody('bogus.s32 %r1, %r2;'));
    expect(e.diagnostics[0]?.message).toBe('unknown opcode `bogus`');
  });

  test('unknown modifier is named', () => {
    const e = errorOf(() => parseBody('add.zz.s32 %r1, %r2, %r3;'));
    expect(e.diagnostics[0]?.message).toBe('unknown modifier `.zz` for `add`');
    expect(e.diagnostics[0]?.code).toBe('P005');
  });

  test('wrong operand count is named', () => {
    const e = errorOf(() => parseBody('add.s32 %r1, %r2;'));
    expect(e.diagnostics[0]?.message).toBe('`add` takes 3 operands, found 2');
  });

  test('unknown directive in a body', () => {
    const e = errorOf(() => parseBody('.frobnicate 3;\nret;'));
    expect(e.diagnostics[0]?.code).toBe('P003');
  });

  test('invalid character and unterminated comment are lexical errors', () => {
    const e = errorOf(() => parseBody('ret;\n#\n/* never closed'));
    expect(e.diagnostics.map((d) => d.code)).toContain('P001');
    expect(e.diagnostics.map((d) => d.code)).toContain('P008');
  });

  test('recovery resumes after the bad statement', () => {
    const e = errorOf(() => parseBody('add.s32 %r1 %r2;\nsub.s32 %r1, %r2, %r3;\nmul.s32 %r1, , %r2;'));
    expect(e.diagnostics).toHaveLength(2);
  });

  test('missing closing brace', () => {
    const e = errorOf(() => parsePtx(`${HEADER}.entry k()\n{\nret;\n`, 'x.ptx'));
    expect(e.diagnostics[0]?.code).toBe('P008');
  });
});
