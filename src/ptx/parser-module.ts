/**
 * Module grammar: the `.version`/`.target`/`.address_size` header, `.file` entries,
 * `.section` debug blocks (kept verbatim), module-scope variables, and `.entry`/`.func`
 * headers with their performance directives. Bodies go to the statement driver.
 */
import { alt_sc, apply, list_sc, opt_sc, rep_sc } from 'typescript-parsec';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import type {
  DirectiveStatement, FileDirective, FunctionDeclaration, Module, ModuleItem, PerformanceDirectives, VariableDeclaration,
} from './ast.js';
import { type PtxToken, TokenKind } from './lexer.js';
import { identifier, integer, integerValue, kind, punct, skipStatement, tokenSpan, word, words, seq_sc, type P } from './parser-common.js';
import { type Driver, isDeclarationWord, pragma } from './parser-body.js';
import { parameterList, variableStatement } from './parser-declaration.js';

const num = (t: PtxToken): number => Number(integerValue(t.text) ?? 0n);

const version: P<{ major: number; minor: number }> = apply(
  seq_sc(word('.version'), kind(TokenKind.Float, 'a version number `major.minor`')),
  ([, v]) => {
    const [major, minor] = v.text.split('.');
    return { major: Number(major), minor: Number(minor ?? 0) };
  },
);
const target: P<string[]> = apply(seq_sc(word('.target'), list_sc(identifier, punct(','))), ([, ts]) => ts.map((t) => t.text));
const addressSize: P<number> = apply(seq_sc(word('.address_size'), integer), ([, n]) => num(n));

type Perf = (d: Record<string, unknown>) => void;
const listDirective: P<Perf> = apply(
  seq_sc(words(['.maxntid', '.reqntid', '.reqnctapercluster']), list_sc(integer, punct(','))),
  ([w, ns]) => (d) => void (d[w.text.slice(1)] = ns.map(num)),
);
const numberDirective: P<Perf> = apply(
  seq_sc(words(['.minnctapersm', '.maxnctapersm', '.maxnreg', '.maxclusterrank']), integer),
  ([w, n]) => (d) => void (d[w.text.slice(1)] = num(n)),
);
const flagDirective: P<Perf> = apply(words(['.noreturn', '.explicitcluster']), (w) => (d) => void (d[w.text.slice(1)] = true));
const pragmaDirective: P<Perf> = apply(pragma, (p) => (d) => {
  d['pragmas'] = [...((d['pragmas'] as string[] | undefined) ?? []), p.text ?? ''];
});
const performance = rep_sc(alt_sc(listDirective, numberDirective, flagDirective, pragmaDirective));

const LINKAGE = ['.visible', '.extern', '.weak'];
type Header = Omit<FunctionDeclaration, 'body' | 'span'>;

const functionHeader: P<Header> = apply(
  seq_sc(rep_sc(words(LINKAGE)), words(['.entry', '.func']), opt_sc(parameterList), identifier, opt_sc(parameterList), performance),
  ([links, kw, first, name, second, perf]): Header => {
    const directives: Record<string, unknown> = {};
    for (const f of perf) f(directives);
    const linkage = links[links.length - 1]?.text.slice(1) as Header['linkage'];
    const hasReturns = first !== undefined && kw.text === '.func';
    return {
      kind: 'function',
      isEntry: kw.text === '.entry',
      ...(linkage ? { linkage } : {}),
      name: name.text,
      returns: hasReturns ? first : [],
      params: second ?? (hasReturns ? [] : (first ?? [])),
      directives: directives as PerformanceDirectives,
      nameSpan: tokenSpan(name),
    };
  },
);

/** Is `t` (after any linkage words) the start of `.entry`/`.func`? */
function startsFunction(t: PtxToken): boolean {
  let cur = t;
  while (cur.kind === TokenKind.Dot && LINKAGE.includes(cur.text)) cur = cur.next as PtxToken;
  return cur.kind === TokenKind.Dot && (cur.text === '.entry' || cur.text === '.func');
}

/** Recovery after a bad function header: past the `;` of a prototype or the `}` closing the body. */
function skipFunction(t: PtxToken): PtxToken {
  let depth = 0;
  let cur = t;
  for (; cur.kind !== TokenKind.EOF; cur = cur.next as PtxToken) {
    if (cur.kind !== TokenKind.Punct) continue;
    if (cur.text === ';' && depth === 0) return cur.next as PtxToken;
    if (cur.text === '{') depth++;
    else if (cur.text === '}' && --depth <= 0) return cur.next as PtxToken;
  }
  return cur; // the end of file: an unterminated body ends the module
}

type Parsed<T> = { value: T | undefined; next: PtxToken };

function functionItem(d: Driver, t: PtxToken): Parsed<FunctionDeclaration> {
  const h = d.run(functionHeader, t);
  if (!h) return { value: undefined, next: skipFunction(t) };
  const n = h.next;
  if (n.kind === TokenKind.Punct && n.text === ';') {
    return { value: { ...h.value, span: { start: t.index, end: n.end } }, next: n.next as PtxToken };
  }
  if (!(n.kind === TokenKind.Punct && n.text === '{')) {
    d.error(DiagnosticCode.ParseExpected, `expected \`{\` or \`;\` after the function header, found \`${n.text}\``, n);
    return { value: undefined, next: skipFunction(n) };
  }
  const inner = d.block(n.next as PtxToken);
  const close = inner.next;
  if (close.kind === TokenKind.EOF) d.error(DiagnosticCode.ParseUnterminated, 'unterminated function body: expected `}`', n);
  const next = close.kind === TokenKind.EOF ? close : (close.next as PtxToken);
  return { value: { ...h.value, body: inner.body, span: { start: t.index, end: close.end } }, next };
}

/** `.section .debug_info { ... }`: kept verbatim (text = what is between the braces). */
function section(d: Driver, t: PtxToken): { value: DirectiveStatement; next: PtxToken } | undefined {
  const name = t.next as PtxToken;
  const open = name.next as PtxToken;
  if (!(open.kind === TokenKind.Punct && open.text === '{')) {
    d.error(DiagnosticCode.ParseExpected, `expected \`{\` after \`.section ${name.text}\`, found \`${open.text}\``, open);
    return undefined;
  }
  let close = open.next as PtxToken;
  while (close.kind !== TokenKind.EOF && !(close.kind === TokenKind.Punct && close.text === '}')) close = close.next as PtxToken;
  const value: DirectiveStatement = {
    kind: 'directive',
    name: 'section',
    args: [{ kind: 'symbol', name: name.text, span: tokenSpan(name) }],
    text: d.text.slice(open.end, close.index),
    span: { start: t.index, end: close.end },
  };
  return { value, next: close.kind === TokenKind.EOF ? close : (close.next as PtxToken) };
}

function fileItem(d: Driver, t: PtxToken): { value: FileDirective; next: PtxToken } | undefined {
  const line = d.lineDirective(t);
  const index = line.value.args[0];
  const path = t.next?.next;
  if (index?.kind !== 'integer' || path?.kind !== TokenKind.String) {
    d.error(DiagnosticCode.ParseExpected, 'expected `.file <index> "<path>"`', t);
    return undefined;
  }
  const value: FileDirective = { kind: 'file', index: Number(index.value), path: path.text.slice(1, -1), span: line.value.span };
  return { value, next: line.next };
}

function item(d: Driver, t: PtxToken): Parsed<ModuleItem | VariableDeclaration[]> | undefined {
  if (startsFunction(t)) return functionItem(d, t);
  if (t.text === '.file') return fileItem(d, t);
  if (t.text === '.section') return section(d, t);
  if (t.text === '.pragma') return d.run(pragma, t);
  if (isDeclarationWord(t)) return d.run(variableStatement, t);
  const what = t.kind === TokenKind.Dot ? 'unknown directive' : 'expected a directive, found';
  d.error(t.kind === TokenKind.Dot ? DiagnosticCode.ParseUnknownDirective : DiagnosticCode.ParseExpected, `${what} \`${t.text}\``, t);
  return undefined;
}

/**
 * The module: header directives, then items until the end of file. The first token comes
 * from a thunk, not a parameter: a parameter stays in this frame for the whole parse and
 * would keep every token lexed from it alive (the whole file's token list, which the
 * young-generation GC then copies; measured: most of the parse's GC time).
 */
export function moduleOf(d: Driver, lexFirst: () => PtxToken): Module {
  let t = lexFirst();
  const header = (p: P<unknown>, what: string): unknown => {
    if (t.kind !== TokenKind.Dot || t.text !== what) return undefined;
    const r = d.run(p, t);
    if (r) t = r.next;
    else t = t.next as PtxToken;
    return r?.value;
  };
  const v = header(version, '.version') as Module['version'] | undefined;
  const tg = header(target, '.target') as string[] | undefined;
  const as = header(addressSize, '.address_size') as number | undefined;
  if (!v) d.error(DiagnosticCode.ParseExpected, 'expected `.version` at the start of the module', t);
  else if (!tg) d.error(DiagnosticCode.ParseExpected, 'expected `.target` after `.version`', t);
  const items: ModuleItem[] = [];
  while (t.kind !== TokenKind.EOF) {
    const r = item(d, t);
    if (!r) {
      t = skipStatement(t);
      continue;
    }
    if (Array.isArray(r.value)) items.push(...r.value);
    else if (r.value) items.push(r.value);
    // Every item consumes at least one token, so recovery always makes progress.
    t = r.next === t ? skipStatement(t) : r.next;
  }
  return {
    kind: 'module',
    version: v ?? { major: 0, minor: 0 },
    target: tg ?? [],
    addressSize: as === 32 ? 32 : 64,
    items,
    span: { start: 0, end: d.text.length },
  };
}
