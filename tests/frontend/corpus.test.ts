/** Every corpus file parses, and print(parse(x)) reparses to the same AST. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parsePtx } from '../../src/ptx/parse.js';
import { printPtx } from '../../src/ptx/printer.js';
import { stripSpans } from './helpers.js';

const dir = new URL('./corpus/', import.meta.url);
/** The original corpus plus arch/: every -arch (sm_52 … sm_90a), -G and -lineinfo (see corpus/build.sh). */
const files = [
  ...readdirSync(dir).filter((f) => f.endsWith('.ptx')),
  ...readdirSync(new URL('arch/', dir)).filter((f) => f.endsWith('.ptx')).map((f) => `arch/${f}`),
].sort();

describe('corpus', () => {
  test('has files', () => expect(files.length).toBeGreaterThan(25));
  test('covers every -arch of issue 3, -G and -lineinfo', () => {
    const targets = new Set(files.map((f) => /^\.target\s+(\w+)/m.exec(readFileSync(new URL(f, dir), 'utf8'))?.[1]));
    for (const t of ['sm_52', 'sm_70', 'sm_75', 'sm_80', 'sm_90', 'sm_90a']) expect(targets).toContain(t);
    expect(files.some((f) => f.includes('_G'))).toBe(true);
    expect(files.some((f) => f.includes('lineinfo'))).toBe(true);
  });
  for (const f of files) {
    test(`${f} parses and round-trips`, () => {
      const text = readFileSync(new URL(f, dir), 'utf8');
      const ast = parsePtx(text, f);
      const printed = printPtx(ast);
      let again;
      try {
        again = parsePtx(printed, `${f}.printed`);
      } catch (e) {
        throw new Error(`${(e as Error).message}\n--- printed ---\n${printed.slice(0, 2000)}`);
      }
      expect(stripSpans(again)).toEqual(stripSpans(ast));
    });
  }
});

/** With nvcc's ptxas on PATH, the printed PTX must also assemble (checks the printer's modifier order). */
const hasPtxas = ((): boolean => {
  try {
    execFileSync('ptxas', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasPtxas)('printed corpus assembles with ptxas', () => {
  const dirOut = hasPtxas ? mkdtempSync(join(tmpdir(), 'ptx-print-')) : '';
  // ptxas 13 refuses every `.address_size 32` module ("32-Bit compilation is no longer supported").
  const is32 = (f: string): boolean => /^\.address_size\s+32/m.test(readFileSync(new URL(f, dir), 'utf8'));
  for (const f of files) {
    test.skipIf(is32(f))(f, () => {
      const ast = parsePtx(readFileSync(new URL(f, dir), 'utf8'), f);
      const out = join(dirOut, f.replace('/', '_'));
      writeFileSync(out, printPtx(ast));
      // ptxas 13 knows sm_75 and newer only; older-target PTX assembles for sm_75.
      const target = ast.target[0] ?? 'sm_80';
      const arch = Number(/sm_(\d+)/.exec(target)?.[1] ?? 80) < 75 ? 'sm_75' : target;
      execFileSync('ptxas', [`-arch=${arch}`, out, '-o', '/dev/null'], { stdio: 'pipe' });
    }, 30_000);
  }
});
