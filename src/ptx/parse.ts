/**
 * Entry point of the PTX frontend: text → Module. Lexes once, then parses statement by
 * statement with error recovery, and throws one PtxError carrying every diagnostic of
 * the file (lexical and syntactic), each rendered with file:line:col and a code frame.
 */
import { PtxError } from '../diagnostics/ptx-error.js';
import { SourceFile } from '../diagnostics/source.js';
import type { Module } from './ast.js';
import { PtxLexer } from './lexer.js';
import { Driver } from './parser-body.js';
import { moduleOf } from './parser-module.js';

/** Parses a PTX module; throws PtxError with all diagnostics if the text has any error. */
export function parsePtx(text: string, fileName = 'input.ptx'): Module {
  const lexer = new PtxLexer();
  const driver = new Driver(text);
  // The first token is never held in a variable or argument: tokens already parsed must stay collectable.
  const module = moduleOf(driver, () => lexer.parse(text));
  const all = [...lexer.diagnostics, ...driver.diagnostics].sort((a, b) => (a.span?.start ?? 0) - (b.span?.start ?? 0));
  if (all.length > 0) throw new PtxError(all, new SourceFile(fileName, text));
  return module;
}
