/**
 * The hand-written instruction fast path (src/ptx/fast-instruction.ts) must build exactly
 * what the typescript-parsec grammar builds, spans included, or decline. Every instruction
 * of the corpus is parsed both ways and compared; so is every declaration (the `.reg`/
 * parameter fast path in parser-declaration.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Instruction, Statement } from '../../src/ptx/ast.js';
import { fastInstruction } from '../../src/ptx/fast-instruction.js';
import { PtxLexer, type PtxToken, TokenKind } from '../../src/ptx/lexer.js';
import { parameter, parameterGrammar, variableGrammar, variableStatement } from '../../src/ptx/parser-declaration.js';
import { parsePtx } from '../../src/ptx/parse.js';
import { instruction } from '../../src/ptx/parser-instruction.js';

const dir = new URL('./corpus/', import.meta.url);
const files = [
  ...readdirSync(dir).filter((f) => f.endsWith('.ptx')),
  ...readdirSync(new URL('arch/', dir)).filter((f) => f.endsWith('.ptx')).map((f) => `arch/${f}`),
].sort();

function instructions(body: readonly Statement[], out: Instruction[]): Instruction[] {
  for (const s of body) {
    if (s.kind === 'instruction') out.push(s);
    else if (s.kind === 'scope') instructions(s.body, out);
  }
  return out;
}

/** The token at character offset `at` (lexing from the start). */
function tokenAt(first: PtxToken, at: number): PtxToken {
  let t = first;
  while (t.index < at) t = t.next as PtxToken;
  return t;
}

describe('fast path = grammar', () => {
  test.each(files)('%s', (f) => {
    const text = readFileSync(new URL(f, dir), 'utf8');
    const m = parsePtx(text, f);
    let fast = 0;
    let first = new PtxLexer().parse(text);
    for (const item of m.items) {
      if (item.kind !== 'function' || !item.body) continue;
      for (const inst of instructions(item.body, [])) {
        const t = tokenAt(first, inst.span.start);
        first = t; // instructions come in source order
        const viaGrammar = instruction.parse(t);
        expect(viaGrammar.successful).toBe(true);
        const g = viaGrammar.successful ? viaGrammar.candidates[0]?.result : undefined;
        expect(g).toEqual(inst);
        const viaFast = fastInstruction(text, t);
        if (viaFast) {
          fast++;
          expect(viaFast.value).toEqual(g);
        }
      }
    }
    expect(fast).toBeGreaterThan(0);
  });
});

describe('declaration fast path = grammar', () => {
  test.each(files)('%s', (f) => {
    const text = readFileSync(new URL(f, dir), 'utf8');
    let checked = 0;
    // Every `.reg`/`.shared`/`.global`/`.param`… statement start, and every parameter of a header.
    for (let t = new PtxLexer().parse(text); t.kind !== TokenKind.EOF; t = t.next as PtxToken) {
      if (t.kind !== TokenKind.Dot || !/^\.(reg|shared|global|const|local|param)$/.test(t.text)) continue;
      const slowStmt = variableGrammar.parse(t);
      const fastStmt = variableStatement.parse(t);
      expect(fastStmt.successful).toBe(slowStmt.successful);
      if (slowStmt.successful && fastStmt.successful) expect(fastStmt.candidates[0]?.result).toEqual(slowStmt.candidates[0]?.result);
      const slowParam = parameterGrammar.parse(t);
      const fastParam = parameter.parse(t);
      if (slowParam.successful && fastParam.successful) expect(fastParam.candidates[0]?.result).toEqual(slowParam.candidates[0]?.result);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });
});
