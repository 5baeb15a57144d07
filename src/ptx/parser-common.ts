/**
 * Shared grammar primitives on top of typescript-parsec: token matchers whose errors say
 * what was expected, spans from token ranges, and `check`, a combinator that lets a
 * grammar rule reject a well-formed phrase with a precise diagnostic (unknown opcode,
 * bad modifier) at a chosen token. The parser modules build the PTX grammar from these.
 */
import { betterError, type Parser, type ParseError, type ParserOutput, type Token } from 'typescript-parsec';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import type { Span } from '../diagnostics/span.js';
import { type PtxToken, TokenKind } from './lexer.js';

export type P<T> = Parser<TokenKind, T>;
type Tok = Token<TokenKind> | undefined;

/** Diagnostic codes of the errors `check` (and literal decoding) raised, by error identity. */
const errorCodes = new WeakMap<ParseError, DiagnosticCode>();

export function codeOf(error: ParseError): DiagnosticCode {
  return errorCodes.get(error) ?? DiagnosticCode.ParseExpected;
}

function fail(token: Tok, message: string, code?: DiagnosticCode): { successful: false; error: ParseError } {
  const error: ParseError = { kind: 'Error', pos: token?.pos, message };
  if (code) errorCodes.set(error, code);
  return { successful: false, error };
}

function ok<T>(first: Tok, next: Tok, result: T): ParserOutput<TokenKind, T> {
  return { successful: true, candidates: [{ firstToken: first, nextToken: next, result }], error: undefined };
}

/** A token for which `test` holds; on failure the error says `expected <what>`. */
export function match(test: (t: PtxToken) => boolean, what: string): P<PtxToken> {
  const message = `expected ${what}`;
  return {
    parse(token) {
      const t = token as PtxToken | undefined;
      return t && test(t) ? ok(t, t.next, t) : fail(t, message);
    },
  };
}

/**
 * Predictive choice: `choose` looks at the current token (and, if it must, the next
 * ones) and names the one alternative to run, instead of trying each in turn as
 * `alt_sc` does. Keeps operand parsing linear in the number of tokens.
 */
export function predict<T>(choose: (t: PtxToken) => P<T> | undefined, what: string): P<T> {
  const message = `expected ${what}`;
  return {
    parse(token) {
      const t = token as PtxToken | undefined;
      const p = t ? choose(t) : undefined;
      return p ? p.parse(t) : fail(t, message);
    },
  };
}

export const kind = (k: TokenKind, what: string): P<PtxToken> => match((t) => t.kind === k, what);

/** A punctuation token: `punct(';')`. */
export function punct(text: string): P<PtxToken> {
  return match((t) => t.kind === TokenKind.Punct && t.text === text, `\`${text}\``);
}

/** A directive or modifier word, with its dot: `word('.reg')`. */
export function word(text: string): P<PtxToken> {
  return match((t) => t.kind === TokenKind.Dot && t.text === text, `\`${text}\``);
}

/** One of several directive words: `words(['.entry', '.func'])`. */
export function words(texts: readonly string[]): P<PtxToken> {
  const set = new Set(texts);
  return match((t) => t.kind === TokenKind.Dot && set.has(t.text), texts.map((x) => `\`${x}\``).join(' or '));
}

export const identifier = kind(TokenKind.Ident, 'an identifier');
export const integer = kind(TokenKind.Integer, 'an integer');

/** A rejection raised by a `check` callback. */
export class Reject {
  constructor(
    readonly token: PtxToken,
    readonly message: string,
    readonly code: DiagnosticCode,
  ) {}
}

/**
 * Runs `p`; then `f` turns its result into the rule's value or a `Reject`. A rejection
 * replaces every error `p` saw, so the diagnostic names the offending token.
 */
export function check<T, U>(p: P<T>, f: (value: T, first: PtxToken, next: PtxToken) => U | Reject): P<U> {
  return {
    parse(token) {
      const out = p.parse(token);
      if (!out.successful) return out;
      const c = out.candidates[0];
      if (!c) return fail(token, 'internal: no candidate');
      const value = f(c.result, c.firstToken as PtxToken, c.nextToken as PtxToken);
      if (value instanceof Reject) return fail(value.token, value.message, value.code);
      return ok(c.firstToken, c.nextToken, value);
    },
  };
}

/**
 * A hand-written fast path in front of a grammar rule: `fast` returns the value and the
 * token after it, or undefined to let `slow` (the rule that defines the language and its
 * error messages) parse the phrase. Used where typescript-parsec's per-step allocations
 * dominate the parse time (see docs/BENCHMARKS.md).
 */
export function fastOr<T>(fast: (t: PtxToken) => { value: T; next: PtxToken } | undefined, slow: P<T>): P<T> {
  return {
    parse(token) {
      const t = token as PtxToken | undefined;
      const r = t ? fast(t) : undefined;
      return r ? ok(t, r.next, r.value) : slow.parse(token);
    },
  };
}

/** The span from `first` up to (not including) `next`. */
export function spanOf(first: Tok, next: Tok): Span {
  const f = first as PtxToken;
  const n = next as PtxToken | undefined;
  return { start: f.index, end: n ? n.prevEnd : f.end };
}

export function tokenSpan(t: PtxToken): Span {
  return { start: t.index, end: t.end };
}

/** Parses a PTX integer literal text (decimal, hex, octal, binary; optional `U` suffix). */
export function integerValue(text: string): bigint | undefined {
  // Literals repeat (`0`, `1`, `4`, offsets): one BigInt per spelling instead of one per use.
  const known = INTEGERS.get(text);
  if (known !== undefined) return known;
  const v = parseInteger(text);
  if (v !== undefined && INTEGERS.size < 8192) INTEGERS.set(text, v);
  return v;
}

const INTEGERS = new Map<string, bigint>();

function parseInteger(text: string): bigint | undefined {
  let t = text;
  const last = t.charCodeAt(t.length - 1) | 0x20;
  if (last === 0x75) t = t.slice(0, -1);
  try {
    if (t.length > 1 && t[0] === '0' && /^[0-7]+$/.test(t)) return BigInt('0o' + t.slice(1));
    return BigInt(t);
  } catch {
    return undefined;
  }
}

const f64 = new DataView(new ArrayBuffer(8));

/** Exact IEEE bits of a float literal: `0f` → 32-bit, `0d` and decimal → 64-bit. */
export function floatBits(text: string): { bits: bigint; width: 32 | 64 } | undefined {
  const c1 = text.charCodeAt(1) | 0x20;
  if (text[0] === '0' && (c1 === 0x66 || c1 === 0x64)) {
    const hex = text.slice(2);
    const width = c1 === 0x66 ? 32 : 64;
    if (hex.length !== width / 4 || !/^[0-9A-Fa-f]+$/.test(hex)) return undefined;
    return { bits: BigInt('0x' + hex), width };
  }
  const v = Number(text);
  if (Number.isNaN(v)) return undefined;
  f64.setFloat64(0, v);
  return { bits: f64.getBigUint64(0), width: 64 };
}

/**
 * Error recovery: from a statement's first token to the token after its `;`, or to the
 * `}` that closes the enclosing block. Braces opened inside the statement (vector
 * operands) are skipped whole.
 */
export function skipStatement(t: PtxToken): PtxToken {
  let depth = 0;
  for (let cur = t; ; cur = cur.next ?? cur) {
    if (cur.kind === TokenKind.EOF) return cur;
    if (cur.kind !== TokenKind.Punct) continue;
    if (cur.text === '{') depth++;
    else if (cur.text === '}') {
      if (depth === 0) return cur === t ? (cur.next ?? cur) : cur;
      depth--;
    } else if (cur.text === ';' && depth === 0) return cur.next ?? cur;
  }
}

/**
 * `seq` for deterministic grammars: typescript-parsec's `seq` carries every candidate of
 * an ambiguous parse (copying the result array at each step); all PTX rules here are
 * single-candidate (`alt_sc`, `rep_sc`, `opt_sc`), so this keeps only the first, which
 * halves the parser's allocation rate. Same Parser interface, same error reporting.
 */
export function seq_sc<A, B>(a: P<A>, b: P<B>): P<[A, B]>;
export function seq_sc<A, B, C>(a: P<A>, b: P<B>, c: P<C>): P<[A, B, C]>;
export function seq_sc<A, B, C, D>(a: P<A>, b: P<B>, c: P<C>, d: P<D>): P<[A, B, C, D]>;
export function seq_sc<A, B, C, D, E>(a: P<A>, b: P<B>, c: P<C>, d: P<D>, e: P<E>): P<[A, B, C, D, E]>;
export function seq_sc<A, B, C, D, E, F>(a: P<A>, b: P<B>, c: P<C>, d: P<D>, e: P<E>, f: P<F>): P<[A, B, C, D, E, F]>;
export function seq_sc<A, B, C, D, E, F, G>(
  a: P<A>, b: P<B>, c: P<C>, d: P<D>, e: P<E>, f: P<F>, g: P<G>,
): P<[A, B, C, D, E, F, G]>;
export function seq_sc(...ps: P<unknown>[]): P<unknown[]> {
  return {
    parse(token) {
      const results: unknown[] = new Array(ps.length);
      let error: ParseError | undefined;
      let cur = token;
      for (let i = 0; i < ps.length; i++) {
        const out = (ps[i] as P<unknown>).parse(cur);
        error = betterError(error, out.error);
        if (!out.successful) return { successful: false, error: error ?? out.error };
        const c = out.candidates[0];
        if (!c) return fail(cur, 'internal: no candidate');
        results[i] = c.result;
        cur = c.nextToken;
      }
      return { successful: true, candidates: [{ firstToken: token, nextToken: cur, result: results }], error };
    },
  };
}
