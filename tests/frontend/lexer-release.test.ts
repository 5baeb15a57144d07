/**
 * `PtxToken.release`: the body driver drops each parsed statement's token links so that a
 * token an older stack frame still holds does not keep the rest of the file's tokens alive
 * (docs/BENCHMARKS.md, parser round 2). Walking a released token again must lex the same
 * tokens anew, and releasing must never reach past the token it is given.
 */
import { describe, expect, test } from 'vitest';
import { PtxLexer, type PtxToken, TokenKind } from '../../src/ptx/lexer.js';

const TEXT = '.reg .b32 %r<4>;\n\tadd.s32 %r1, %r2, 0x1F; // c\n@!%p1 bra $L__BB0_2;\n/* x */ ld.global.v2.f32 {%f1, %f2}, [%rd1+-8];\n';

function walk(first: PtxToken): { kind: TokenKind; text: string; index: number; end: number; row: number; col: number; prevEnd: number }[] {
  const out = [];
  for (let t: PtxToken | undefined = first; t; t = t.kind === TokenKind.EOF ? undefined : t.next) {
    out.push({ kind: t.kind, text: t.text, index: t.index, end: t.end, row: t.rowBegin, col: t.columnBegin, prevEnd: t.prevEnd });
  }
  return out;
}

describe('token release', () => {
  test('a released chain lexes again to the same tokens', () => {
    const first = new PtxLexer().parse(TEXT);
    const before = walk(first);
    const second = first.next as PtxToken;
    let eof = first;
    while (eof.kind !== TokenKind.EOF) eof = eof.next as PtxToken;
    first.release(eof);
    expect(first.next).not.toBe(second); // the link was dropped: a fresh token
    expect(walk(first)).toEqual(before);
    expect(before.length).toBeGreaterThan(30);
  });

  test('release stops at the given token', () => {
    const first = new PtxLexer().parse(TEXT);
    const tokens: PtxToken[] = [];
    for (let t = first; t.kind !== TokenKind.EOF; t = t.next as PtxToken) tokens.push(t);
    const semi = tokens.findIndex((t) => t.text === ';');
    const stop = tokens[semi + 1] as PtxToken;
    const afterStop = stop.next;
    first.release(stop);
    expect(stop.next).toBe(afterStop); // links from `stop` on are kept
    expect((tokens[semi] as PtxToken).next).not.toBe(stop);
  });
});
