/** Every corpus file parses, and print(parse(x)) reparses to the same AST. */
import { readFileSync, readdirSync } from 'node:fs';
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
