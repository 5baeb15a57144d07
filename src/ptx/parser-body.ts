/**
 * Statement driver for function bodies. Dispatches each statement on its first tokens to
 * a grammar rule (instruction, declaration, label, directive, nested scope), runs it on
 * its own — parsing per statement keeps typescript-parsec's work small — and on failure
 * records a diagnostic and resumes at the next `;` or `}`, so one parse reports every error.
 */
import { apply, list_sc, opt_sc } from 'typescript-parsec';
import { DiagnosticCode, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { DirectiveStatement, Operand, Statement } from './ast.js';
import { type PtxToken, TokenKind } from './lexer.js';
import { codeOf, integerValue, kind, punct, skipStatement, spanOf, tokenSpan, word, seq_sc, type P } from './parser-common.js';
import { callPrototype, targetList, variableStatement } from './parser-declaration.js';
import { fastInstruction } from './fast-instruction.js';
import { instruction } from './parser-instruction.js';

const DECLARATION_WORDS: ReadonlySet<string> = new Set([
  '.reg', '.sreg', '.local', '.shared', '.param', '.const', '.global', '.tex', '.visible', '.extern', '.weak', '.common',
]);
const DECLARATION_PREFIXES = ['.shared::', '.param::'];
/** Directives that end at the end of their line instead of at a `;`. */
export const LINE_DIRECTIVES: ReadonlySet<string> = new Set(['.loc', '.file']);

export function isDeclarationWord(t: PtxToken): boolean {
  return t.kind === TokenKind.Dot && (DECLARATION_WORDS.has(t.text) || DECLARATION_PREFIXES.some((p) => t.text.startsWith(p)));
}

const stringToken = kind(TokenKind.String, 'a string');

/** `.pragma "nounroll";` */
export const pragma: P<DirectiveStatement> = apply(
  seq_sc(word('.pragma'), opt_sc(list_sc(stringToken, punct(','))), punct(';')),
  ([, strings], [first, next]) => ({
    kind: 'directive', name: 'pragma', args: [], text: (strings ?? []).map((s) => s.text).join(', '), span: spanOf(first, next),
  }),
);

export class Driver {
  readonly diagnostics: Diagnostic[] = [];
  constructor(readonly text: string) {}

  /** Runs `p` at `t`; on failure records a diagnostic and returns undefined. */
  run<T>(p: P<T>, t: PtxToken): { value: T; next: PtxToken } | undefined {
    const out = p.parse(t);
    if (out.successful) {
      const c = out.candidates[0];
      if (c) return { value: c.result, next: c.nextToken as PtxToken };
    }
    const at = (out.error?.pos as PtxToken | undefined) ?? t;
    const code = out.error ? codeOf(out.error) : DiagnosticCode.ParseExpected;
    const message = out.error?.message ?? 'syntax error';
    const found = at.kind === TokenKind.EOF ? 'end of file' : `\`${at.text}\``;
    this.error(code, code === DiagnosticCode.ParseExpected ? `${message}, found ${found}` : message, at);
    return undefined;
  }

  error(code: DiagnosticCode, message: string, at: PtxToken): void {
    this.diagnostics.push({ code, severity: 'error', message, span: tokenSpan(at) });
  }

  /** A directive running to the end of its line (`.loc 1 5 3`): args are its numbers and names, text is verbatim. */
  lineDirective(t: PtxToken): { value: DirectiveStatement; next: PtxToken } {
    const args: Operand[] = [];
    let last = t;
    let cur = t.next as PtxToken;
    while (cur.kind !== TokenKind.EOF && cur.rowBegin === t.rowBegin) {
      const span = tokenSpan(cur);
      const value = cur.kind === TokenKind.Integer ? integerValue(cur.text) : undefined;
      if (value !== undefined) args.push({ kind: 'integer', value, span });
      else if (cur.kind === TokenKind.Ident) args.push({ kind: 'symbol', name: cur.text, span });
      last = cur;
      cur = cur.next as PtxToken;
    }
    const text = last === t ? '' : this.text.slice((t.next as PtxToken).index, last.end);
    const value: DirectiveStatement = { kind: 'directive', name: t.text.slice(1), args, text, span: { start: t.index, end: last.end } };
    return { value, next: cur };
  }

  /** Statements from `t` up to (not including) the `}` that closes the block, or the end of file. */
  block(t: PtxToken): { body: Statement[]; next: PtxToken } {
    const body: Statement[] = [];
    let cur = t;
    while (cur.kind !== TokenKind.EOF && !(cur.kind === TokenKind.Punct && cur.text === '}')) {
      const next = this.statement(cur, body);
      const after = next === cur ? (cur.next as PtxToken) : next; // recovery must always make progress
      cur.release(after);
      cur = after;
    }
    return { body, next: cur };
  }

  /** Parses one statement into `body`; returns the token after it. */
  private statement(t: PtxToken, body: Statement[]): PtxToken {
    if (t.kind === TokenKind.Punct && t.text === '{') return this.scope(t, body);
    const r = this.dispatch(t);
    if (!r) return skipStatement(t);
    if (Array.isArray(r.value)) body.push(...r.value);
    else body.push(r.value);
    return r.next;
  }

  private dispatch(t: PtxToken): { value: Statement | Statement[]; next: PtxToken } | undefined {
    if (t.kind === TokenKind.Dot) {
      if (LINE_DIRECTIVES.has(t.text)) return this.lineDirective(t);
      if (t.text === '.pragma') return this.run(pragma, t);
      if (isDeclarationWord(t)) return this.run(variableStatement, t);
      this.error(DiagnosticCode.ParseUnknownDirective, `unknown directive \`${t.text}\` in a function body`, t);
      return undefined;
    }
    const n = t.next as PtxToken;
    if (t.kind === TokenKind.Ident && n.kind === TokenKind.Punct && n.text === ':') {
      const after = n.next as PtxToken;
      if (after.text === '.callprototype') return this.run(callPrototype, t);
      if (after.text === '.branchtargets' || after.text === '.calltargets') return this.run(targetList, t);
      return { value: { kind: 'label', name: t.text, span: { start: t.index, end: n.end } }, next: after };
    }
    return fastInstruction(this.text, t) ?? this.run(instruction, t);
  }

  private scope(open: PtxToken, body: Statement[]): PtxToken {
    const inner = this.block(open.next as PtxToken);
    const close = inner.next;
    if (close.kind === TokenKind.EOF) {
      this.error(DiagnosticCode.ParseUnterminated, 'unterminated `{`: expected `}`', open);
      body.push({ kind: 'scope', body: inner.body, span: { start: open.index, end: close.index } });
      return close;
    }
    body.push({ kind: 'scope', body: inner.body, span: { start: open.index, end: close.end } });
    return close.next as PtxToken;
  }
}
