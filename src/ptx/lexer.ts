/**
 * Hand-written PTX lexer. One pass over the text with charCodeAt and a character-class
 * table (no regular expression per character), producing a linked list of tokens that
 * implements typescript-parsec's Token/Lexer interfaces, so the grammar combinators run
 * on it directly. Every token carries its span (character offsets) and doubles as its
 * own TokenPosition, so parsec's error reporting allocates nothing extra.
 */
import type { Lexer, Token, TokenPosition } from 'typescript-parsec';
import { DiagnosticCode, type Diagnostic } from '../diagnostics/diagnostic.js';

export enum TokenKind {
  /** `add`, `$L__BB0_2`, `_Z3fooi`, `sm_80` */
  Ident,
  /** `.reg`, `.f32`, `.shared::cta`, `.L2::cache_hint`, `.2d`: a directive or modifier word. */
  Dot,
  /** `%r12`, `%tid`, `%envreg3` */
  Register,
  /** `42`, `0x1F`, `0xFFFFFFFFU`, `017`, `0b101` */
  Integer,
  /** `0f3F800000`, `0d3FF0000000000000`, `1.5`, `1e-3` */
  Float,
  /** `"k.cu"` */
  String,
  /** Any punctuation or operator; the text says which. */
  Punct,
  /** A character that starts no token: reported, and kept so the parser fails there. */
  Invalid,
  /** The end of the text: always the last token, so every span has a following token. */
  EOF,
}

/**
 * A token with its span; it is its own TokenPosition. Tokens are lexed lazily: `next`
 * lexes the following token on first use, so tokens already parsed become garbage
 * instead of a file-sized linked list (this halves GC time on large modules).
 */
export class PtxToken implements Token<TokenKind>, TokenPosition {
  private following: PtxToken | undefined = undefined;
  /** End offset of the previous token (0 for the first): the end of a span that stops before this token. */
  prevEnd = 0;
  constructor(
    readonly kind: TokenKind,
    readonly text: string,
    /** Start offset (== TokenPosition.index). */
    readonly index: number,
    readonly end: number,
    readonly rowBegin: number,
    readonly columnBegin: number,
    private readonly lexer: PtxLexer | undefined,
  ) {}
  get next(): PtxToken | undefined {
    if (this.following === undefined && this.lexer) {
      this.following = this.lexer.after(this);
      this.following.prevEnd = this.end;
    }
    return this.following;
  }
  /**
   * Drops the links from `this` up to `to` (exclusive) once the parser is done with those
   * tokens, so a token still referenced from an older stack frame (a function's first
   * token while its body is parsed) no longer keeps every later token of the file alive
   * through `next`. Walking a dropped link again would lex the text anew: correct, and
   * never done by the parser.
   */
  release(to: PtxToken): void {
    let t: PtxToken = this;
    for (;;) {
      const f = t.following;
      if (f === undefined) return;
      t.following = undefined;
      if (f === to) return;
      t = f;
    }
  }
  get pos(): TokenPosition {
    return this;
  }
  get rowEnd(): number {
    return this.rowBegin;
  }
  get columnEnd(): number {
    return this.columnBegin + (this.end - this.index);
  }
}

// Character classes.
const C_OTHER = 0;
const C_SPACE = 1;
const C_NEWLINE = 2;
const C_IDSTART = 3; // letters, `_`, `$`
const C_DIGIT = 4;
const C_PUNCT = 5;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\f' || ch === '\v') CLASS[c] = C_SPACE;
  else if (ch === '\n') CLASS[c] = C_NEWLINE;
  else if (/[A-Za-z_$]/.test(ch)) CLASS[c] = C_IDSTART;
  else if (/[0-9]/.test(ch)) CLASS[c] = C_DIGIT;
  else if ('{}()[],;:+-*/%!~&|^<>=@?'.includes(ch)) CLASS[c] = C_PUNCT;
}

/**
 * A string that does not point into the text it was sliced from. V8 represents a slice of
 * 13 or more characters as a view of its parent, so a long modifier (`.mbarrier::complete_tx::bytes`)
 * kept in a module-level cache would keep that whole source text alive after its parse.
 * Only called when a spelling is first seen.
 */
export function ownCopy(s: string): string {
  return s.length < 13 ? s : s.split('').join('');
}

const PUNCT_TEXT: readonly string[] = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

/** A decimal literal with an `e`/`E` (`1e10`) is a float. */
function hasExponent(t: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if ((t.charCodeAt(i) | 0x20) === 0x65) return true;
  return false;
}

function isFollow(c: number): boolean {
  if (c >= 128) return false;
  const k = CLASS[c];
  return k === C_IDSTART || k === C_DIGIT;
}

const INTERN_SIZE = 1 << 14;
const CH_DOT = 46;
const CH_COLON = 58;
const CH_SLASH = 47;
const CH_STAR = 42;
const CH_QUOTE = 34;
const CH_PERCENT = 37;

/** Interned spellings by hash slot, shared by all lexers (only own copies: see ownCopy). */
const INTERNED: (string | undefined)[] = new Array<string | undefined>(INTERN_SIZE);

export class PtxLexer implements Lexer<TokenKind> {
  /** Lexical errors of the last `parse` call (invalid characters, unterminated comments or strings). */
  diagnostics: Diagnostic[] = [];
  private text = '';
  private i = 0;
  private line = 1;
  private lineStart = 0;

  /** The first token of `input`; the rest are lexed as the parser walks `next`. */
  parse(input: string): PtxToken {
    this.text = input;
    this.diagnostics = [];
    this.i = 0;
    this.line = 1;
    this.lineStart = 0;
    return this.nextToken();
  }

  /** Lexes the token after `t`, resuming from its end, line and column. */
  after(t: PtxToken): PtxToken {
    this.i = t.end;
    this.line = t.rowBegin;
    this.lineStart = t.index - t.columnBegin + 1;
    return this.nextToken();
  }

  private nextToken(): PtxToken {
    this.skipTrivia();
    const t = this.text;
    const start = this.i;
    if (start >= t.length) return new PtxToken(TokenKind.EOF, '', start, start, this.line, start - this.lineStart + 1, undefined);
    const c = t.charCodeAt(start);
    const cls = c < 128 ? CLASS[c] : C_OTHER;
    if (cls === C_IDSTART) return this.make(TokenKind.Ident, start, this.scanIdent(start + 1));
    if (cls === C_DIGIT) return this.number(start);
    if (c === CH_DOT) return this.dot(start);
    if (c === CH_PERCENT && isFollow(t.charCodeAt(start + 1))) {
      return this.make(TokenKind.Register, start, this.scanIdent(start + 1));
    }
    if (c === CH_QUOTE) return this.string(start);
    if (cls === C_PUNCT) return this.punct(start, c);
    this.error(DiagnosticCode.LexInvalidCharacter, `invalid character \`${t[start]}\``, start, start + 1);
    return this.make(TokenKind.Invalid, start, start + 1);
  }

  private make(kind: TokenKind, start: number, end: number): PtxToken {
    this.i = end;
    const text = kind <= TokenKind.Integer || kind === TokenKind.Punct ? this.intern(start, end) : this.text.slice(start, end);
    return new PtxToken(kind, text, start, end, this.line, start - this.lineStart + 1, this);
  }

  /**
   * Names, modifiers, registers, integers and punctuation repeat endlessly in PTX (`%r12`, `.f32`,
   * `,`, `4`): one shared string per spelling, found by hashing the characters in place, keeps
   * the token text and the AST names they end up in from being fresh copies every time.
   * One table for every parse (INTERNED): a table per lexer cost more to allocate than a
   * small module takes to lex, and spellings repeat across modules too.
   */
  private readonly names = INTERNED;
  private intern(start: number, end: number): string {
    const t = this.text;
    const len = end - start;
    if (len > 48) return t.slice(start, end);
    let h = len;
    for (let i = start; i < end; i++) h = (Math.imul(h, 31) + t.charCodeAt(i)) | 0;
    const slot = (h ^ (h >>> 15)) & (INTERN_SIZE - 1);
    const known = this.names[slot];
    if (known !== undefined && known.length === len && t.startsWith(known, start)) return known;
    const fresh = ownCopy(t.slice(start, end));
    this.names[slot] = fresh;
    return fresh;
  }

  private scanIdent(i: number): number {
    const t = this.text;
    while (i < t.length && isFollow(t.charCodeAt(i))) i++;
    return i;
  }

  /** `.word`, with `::word` chains (`.shared::cta`, `.mbarrier::complete_tx::bytes`). */
  private dot(start: number): PtxToken {
    const t = this.text;
    let i = this.scanIdent(start + 1);
    if (i === start + 1) return this.make(TokenKind.Punct, start, start + 1);
    while (t.charCodeAt(i) === CH_COLON && t.charCodeAt(i + 1) === CH_COLON && isFollow(t.charCodeAt(i + 2))) {
      i = this.scanIdent(i + 2);
    }
    return this.make(TokenKind.Dot, start, i);
  }

  private number(start: number): PtxToken {
    const t = this.text;
    const c1 = t.charCodeAt(start + 1) | 0x20;
    if (t.charCodeAt(start) === 48 && (c1 === 0x66 || c1 === 0x64)) {
      // 0f / 0d hex float
      return this.make(TokenKind.Float, start, this.scanIdent(start + 2));
    }
    let i = this.scanIdent(start);
    let kind = TokenKind.Integer;
    if (c1 !== 0x78 && c1 !== 0x62) {
      // decimal: may continue as a float (`1.5`, `1e-3`, `1.5e+3`)
      if (t.charCodeAt(i) === CH_DOT) {
        kind = TokenKind.Float;
        i = this.scanIdent(i + 1);
      }
      const prev = t.charCodeAt(i - 1) | 0x20;
      const sign = t.charCodeAt(i);
      if (prev === 0x65 && (sign === 43 || sign === 45) && CLASS[t.charCodeAt(i + 1)] === C_DIGIT) {
        kind = TokenKind.Float;
        i = this.scanIdent(i + 1);
      } else if (kind === TokenKind.Integer && hasExponent(t, start, i)) kind = TokenKind.Float;
    }
    return this.make(kind, start, i);
  }

  private string(start: number): PtxToken {
    const t = this.text;
    let i = start + 1;
    while (i < t.length && t.charCodeAt(i) !== CH_QUOTE && t.charCodeAt(i) !== 10) {
      i += t.charCodeAt(i) === 92 ? 2 : 1;
    }
    if (t.charCodeAt(i) !== CH_QUOTE) {
      this.error(DiagnosticCode.ParseUnterminated, 'unterminated string literal', start, i);
      return this.make(TokenKind.String, start, i);
    }
    return this.make(TokenKind.String, start, i + 1);
  }

  private punct(start: number, c: number): PtxToken {
    const n = this.text.charCodeAt(start + 1);
    // `<<` and `>>` are the only two-character operators PTX constant expressions use.
    if ((c === 60 || c === 62) && n === c) return this.make(TokenKind.Punct, start, start + 2);
    // One-character punctuation (`,` `;` `[` …, a third of all tokens) needs no hashing.
    this.i = start + 1;
    return new PtxToken(TokenKind.Punct, PUNCT_TEXT[c] as string, start, start + 1, this.line, start - this.lineStart + 1, this);
  }

  private skipTrivia(): void {
    const t = this.text;
    let i = this.i;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 10) {
        i++;
        this.line++;
        this.lineStart = i;
      } else if (c < 128 && CLASS[c] === C_SPACE) i++;
      else if (c === CH_SLASH && t.charCodeAt(i + 1) === CH_SLASH) {
        while (i < t.length && t.charCodeAt(i) !== 10) i++;
      } else if (c === CH_SLASH && t.charCodeAt(i + 1) === CH_STAR) i = this.blockComment(i);
      else break;
    }
    this.i = i;
  }

  private blockComment(start: number): number {
    const t = this.text;
    let i = start + 2;
    for (; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c === 10) {
        this.line++;
        this.lineStart = i + 1;
      } else if (c === CH_STAR && t.charCodeAt(i + 1) === CH_SLASH) return i + 2;
    }
    this.error(DiagnosticCode.ParseUnterminated, 'unterminated block comment', start, start + 2);
    return i;
  }

  private error(code: DiagnosticCode, message: string, start: number, end: number): void {
    this.diagnostics.push({ code, severity: 'error', message, span: { start, end } });
  }
}

/**
 * Starts lexing a text: returns the first token (the EOF token for an empty text) and the
 * array that collects lexical diagnostics as the tokens are walked.
 */
export function lexPtx(text: string): { first: PtxToken; diagnostics: Diagnostic[] } {
  const lexer = new PtxLexer();
  const first = lexer.parse(text);
  return { first, diagnostics: lexer.diagnostics };
}
