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
const files = readdirSync(dir).filter((f) => f.endsWith('.ptx')).sort();

describe('corpus', () => {
  test('has files', () => expect(files.length).toBeGreaterThan(5));
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
  for (const f of files) {
    test(f, () => {
      const ast = parsePtx(readFileSync(new URL(f, dir), 'utf8'), f);
      const out = join(dirOut, f);
      writeFileSync(out, printPtx(ast));
      execFileSync('ptxas', [`-arch=${ast.target[0] ?? 'sm_80'}`, out, '-o', '/dev/null'], { stdio: 'pipe' });
    }, 30_000);
  }
});
