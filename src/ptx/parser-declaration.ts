/**
 * Declaration grammar: variables in every state space (`.reg .b32 %r<42>;`,
 * `.shared .align 4 .b8 smem[1024];`, `.global .u64 p = generic(x);`), kernel and
 * function parameters (`.param .u64 .ptr .global .align 16 p`), initializers, and the
 * label-introduced `.callprototype`, `.branchtargets` and `.calltargets` statements.
 */
import { alt_sc, apply, kmid, kright, list_sc, opt_sc, rep_sc, rule } from 'typescript-parsec';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import {
  SCALAR_TYPES, WARP_SZ, type CallPrototype, type Initializer, type ScalarType, type StateSpace, type TargetList,
  type VariableDeclaration, type VectorWidth,
} from './ast.js';
import { type PtxToken, TokenKind } from './lexer.js';
import {
  check, fastOr, floatBits, identifier, integer, integerValue, kind, match, predict, punct, Reject, spanOf, word, seq_sc, type P,
} from './parser-common.js';
import { spaceRef } from './parser-modifiers.js';
import { expression, floatLiteral, integerLiteral } from './parser-operand.js';

const TYPES: ReadonlySet<string> = new Set(SCALAR_TYPES);
const SPACES: ReadonlySet<string> = new Set(['reg', 'sreg', 'const', 'global', 'local', 'param', 'shared', 'tex']);
const LINKAGES: ReadonlySet<string> = new Set(['visible', 'extern', 'weak', 'common']);

/** A declaration word: `.align 16` or any dotted word (classified after parsing). */
type DeclWord = { tok: PtxToken; align?: PtxToken };
const alignWord: P<DeclWord> = apply(seq_sc(word('.align'), integer), ([tok, n]) => ({ tok, align: n }));
const plainWord: P<DeclWord> = apply(kind(TokenKind.Dot, 'a declaration'), (tok) => ({ tok }));
const declWords: P<DeclWord[]> = rep_sc(alt_sc(alignWord, plainWord));

export const initializer = rule<TokenKind, Initializer>();
const aggregate: P<Initializer> = apply(
  seq_sc(punct('{'), opt_sc(list_sc(initializer, punct(','))), punct('}')),
  ([, elements], [first, next]) => ({ kind: 'aggregate' as const, elements: elements ?? [], span: spanOf(first, next) }),
);
const valueInit: P<Initializer> = apply(expression, (value) => ({ kind: 'value' as const, value, span: value.span }));
/** A lone literal (`128`, `0f3F800000`) before `,` or `}`: most elements of large tables. */
const literalInit: P<Initializer> = apply(alt_sc(integerLiteral, floatLiteral), (value) => ({ kind: 'value' as const, value, span: value.span }));
const endsElement = (t: PtxToken | undefined): boolean => t?.kind === TokenKind.Punct && (t.text === ',' || t.text === '}' || t.text === ';');
initializer.setPattern(
  predict((t) => {
    if (t.kind === TokenKind.Punct && t.text === '{') return aggregate;
    if ((t.kind === TokenKind.Integer || t.kind === TokenKind.Float) && endsElement(t.next)) return literalInit;
    return valueInit;
  }, 'an initializer'),
);

type Fields = { name: string; value: string }[];

/** `{ addr_mode_0 = clamp_to_border, filter_mode = nearest }`: a sampler/texture/surface initializer. */
const fieldList: P<Fields> = apply(
  seq_sc(
    punct('{'),
    list_sc(seq_sc(identifier, punct('='), match((t) => t.kind === TokenKind.Ident || t.kind === TokenKind.Integer, 'a field value')), punct(',')),
    punct('}'),
  ),
  ([, fs]) => fs.map(([n, , v]) => ({ name: n.text, value: v.text })),
);
const isFieldList = (t: PtxToken): boolean => {
  const n = t.next;
  return t.text === '{' && n?.kind === TokenKind.Ident && n.next?.text === '=';
};
const declInit: P<Initializer | Fields> = predict<Initializer | Fields>((t) => (isFieldList(t) ? fieldList : initializer), 'an initializer');

interface Declarator {
  name: PtxToken;
  count?: PtxToken;
  dims: (PtxToken | undefined)[];
  init?: Initializer | Fields;
}

const declName = alt_sc(kind(TokenKind.Register, 'a name'), identifier);
/** `WARP_SZ` as an array dimension (`.shared .f32 s[WARP_SZ];`, which ptxas accepts). */
const warpSize = match((t) => t.kind === TokenKind.Ident && t.text === WARP_SZ.name, 'an integer');
const declarator: P<Declarator> = apply(
  seq_sc(
    declName,
    opt_sc(kmid(punct('<'), integer, punct('>'))),
    rep_sc(kmid(punct('['), opt_sc(alt_sc(integer, warpSize)), punct(']'))),
    opt_sc(kright(punct('='), declInit)),
  ),
  ([name, count, dims, init]) => ({ name, dims, ...(count ? { count } : {}), ...(init ? { init } : {}) }),
);

type Shape = Omit<VariableDeclaration, 'name' | 'span' | 'parameterizedCount' | 'arrayDims' | 'initializer'>;

function num(t: PtxToken): number {
  return Number(t.text === WARP_SZ.name ? WARP_SZ.value : integerValue(t.text) ?? 0n);
}

/** Classifies the words before the names: linkage, space, alignment, vector, type, `.ptr` attributes. */
function shape(ws: readonly DeclWord[], first: PtxToken): Shape | Reject {
  let space: string | undefined;
  let linkage: string | undefined;
  let align: number | undefined;
  let type: ScalarType | undefined;
  let vector: VectorWidth | undefined;
  let opaque: VariableDeclaration['opaque'];
  let pointer: { space?: StateSpace; align?: number } | undefined;
  for (const { tok, align: a } of ws) {
    const w = tok.text.slice(1);
    const base = w.split('::')[0] ?? w;
    if (a) {
      if (pointer) pointer = { ...pointer, align: num(a) };
      else align = num(a);
    } else if (w === 'ptr') pointer = {};
    else if (pointer && SPACES.has(w)) pointer = { ...pointer, space: w as StateSpace };
    else if (SPACES.has(base) && space === undefined) space = w;
    else if (LINKAGES.has(w) && linkage === undefined) linkage = w;
    else if (TYPES.has(w) && type === undefined) type = w as ScalarType;
    else if ((w === 'texref' || w === 'samplerref' || w === 'surfref') && type === undefined) {
      opaque = w;
      type = 'b64';
    }
    else if ((w === 'v2' || w === 'v4' || w === 'v8') && vector === undefined) vector = Number(w.slice(1)) as VectorWidth;
    else return new Reject(tok, `unexpected \`${tok.text}\` in a declaration`, DiagnosticCode.ParseBadModifier);
  }
  if (space === undefined) return new Reject(first, 'expected a state space (`.reg`, `.shared`, `.global`, …)', DiagnosticCode.ParseExpected);
  if (type === undefined) return new Reject(first, 'expected a type in the declaration', DiagnosticCode.ParseExpected);
  const out: { -readonly [K in keyof Shape]: Shape[K] } = { kind: 'variable', space: spaceRef(space), type };
  if (linkage) out.linkage = linkage as VariableDeclaration['linkage'] & string;
  if (align !== undefined) out.align = align;
  if (vector) out.vector = vector;
  if (pointer) out.pointer = pointer;
  if (opaque) out.opaque = opaque;
  return out;
}

// Built by assignment, not spreads: spreads of conditional `{}`s cost a temporary object
// each and a slow generic copy, on every declaration of a large module.
function declare(s: Shape, d: Declarator, first: PtxToken, next: PtxToken): VariableDeclaration {
  const v: Record<string, unknown> = { kind: s.kind, space: s.space, type: s.type };
  if (s.linkage !== undefined) v['linkage'] = s.linkage;
  if (s.align !== undefined) v['align'] = s.align;
  if (s.vector !== undefined) v['vector'] = s.vector;
  if (s.pointer !== undefined) v['pointer'] = s.pointer;
  if (s.opaque !== undefined) v['opaque'] = s.opaque;
  v['name'] = d.name.text;
  if (d.count) v['parameterizedCount'] = num(d.count);
  if (d.dims.length) v['arrayDims'] = d.dims.map((t) => (t ? num(t) : null));
  if (d.init) v[Array.isArray(d.init) ? 'fields' : 'initializer'] = d.init;
  v['span'] = spanOf(first, next);
  return v as unknown as VariableDeclaration;
}

// ---------------------------------------------------------------- fast path

const isPunct = (t: PtxToken, c: string): boolean => t.kind === TokenKind.Punct && t.text === c;

/** Declaration words up to the first name: `.reg`, `.align 8`, `.v4`, `.f32`, `.ptr`, … */
function fastWords(t: PtxToken): { ws: DeclWord[]; next: PtxToken } | undefined {
  const ws: DeclWord[] = [];
  let cur = t;
  while (cur.kind === TokenKind.Dot) {
    if (cur.text === '.align') {
      const n = cur.next as PtxToken;
      if (n.kind !== TokenKind.Integer) return undefined;
      ws.push({ tok: cur, align: n });
      cur = n.next as PtxToken;
    } else {
      ws.push({ tok: cur });
      cur = cur.next as PtxToken;
    }
  }
  return { ws, next: cur };
}

/** `name`, `%r<42>`, `buf[16][4]`, `smem[]`, with at most a flat literal table as initializer. */
function fastDeclarator(t: PtxToken): { value: Declarator; next: PtxToken } | undefined {
  if (t.kind !== TokenKind.Register && t.kind !== TokenKind.Ident) return undefined;
  let cur = t.next as PtxToken;
  let count: PtxToken | undefined;
  if (isPunct(cur, '<')) {
    const n = cur.next as PtxToken;
    const close = n.next as PtxToken;
    if (n.kind !== TokenKind.Integer || !isPunct(close, '>')) return undefined;
    count = n;
    cur = close.next as PtxToken;
  }
  const dims: (PtxToken | undefined)[] = [];
  while (isPunct(cur, '[')) {
    let n = cur.next as PtxToken;
    let dim: PtxToken | undefined;
    if (n.kind === TokenKind.Integer) {
      dim = n;
      n = n.next as PtxToken;
    }
    if (!isPunct(n, ']')) return undefined;
    dims.push(dim);
    cur = n.next as PtxToken;
  }
  if (isPunct(cur, '=')) {
    const init = fastTable(cur.next as PtxToken);
    if (!init) return undefined;
    return { value: { name: t, dims, ...(count ? { count } : {}), init: init.value }, next: init.next };
  }
  return { value: { name: t, dims, ...(count ? { count } : {}) }, next: cur };
}

/** `{65, 144, 0f3F800000, …}`: a flat table of bare literals (nested or computed ones take the grammar). */
function fastTable(open: PtxToken): { value: Initializer; next: PtxToken } | undefined {
  if (!isPunct(open, '{')) return undefined;
  const elements: Initializer[] = [];
  let t = open.next as PtxToken;
  for (;;) {
    if (t.kind === TokenKind.Integer) {
      const value = integerValue(t.text);
      if (value === undefined) return undefined;
      const span = { start: t.index, end: t.end };
      elements.push({ kind: 'value', value: { kind: 'integer', value, span }, span });
    } else if (t.kind === TokenKind.Float) {
      const f = floatBits(t.text);
      if (!f) return undefined;
      const span = { start: t.index, end: t.end };
      elements.push({ kind: 'value', value: { kind: 'float', bits: f.bits, width: f.width, span }, span });
    } else return undefined;
    t = t.next as PtxToken;
    if (isPunct(t, '}')) break;
    if (!isPunct(t, ',')) return undefined;
    t = t.next as PtxToken;
  }
  return { value: { kind: 'aggregate', elements, span: { start: open.index, end: t.end } }, next: t.next as PtxToken };
}

function fastVariables(t: PtxToken): { value: VariableDeclaration[]; next: PtxToken } | undefined {
  const w = fastWords(t);
  if (!w || w.ws.length === 0) return undefined;
  const ds: Declarator[] = [];
  let cur = w.next;
  for (;;) {
    const d = fastDeclarator(cur);
    if (!d) return undefined;
    ds.push(d.value);
    cur = d.next;
    if (isPunct(cur, ';')) break;
    if (!isPunct(cur, ',')) return undefined;
    cur = cur.next as PtxToken;
  }
  const s = shape(w.ws, t);
  if (s instanceof Reject) return undefined;
  const next = cur.next as PtxToken;
  return { value: ds.map((d) => declare(s, d, t, next)), next };
}

function fastParameter(t: PtxToken): { value: VariableDeclaration; next: PtxToken } | undefined {
  const w = fastWords(t);
  if (!w || w.ws.length === 0) return undefined;
  const d = fastDeclarator(w.next);
  if (!d || !(isPunct(d.next, ',') || isPunct(d.next, ')'))) return undefined;
  const s = shape(w.ws, t);
  if (s instanceof Reject) return undefined;
  return { value: declare(s, d.value, t, d.next), next: d.next };
}

// ---------------------------------------------------------------- rules

/** `.reg .f32 %f1, %f2;` → one VariableDeclaration per name (the grammar; `variableStatement` adds the fast path). */
export const variableGrammar: P<VariableDeclaration[]> = check(
  seq_sc(declWords, list_sc(declarator, punct(',')), punct(';')),
  ([ws, ds], first, next) => {
    const s = shape(ws, first);
    return s instanceof Reject ? s : ds.map((d) => declare(s, d, first, next));
  },
);
export const variableStatement: P<VariableDeclaration[]> = fastOr(fastVariables, variableGrammar);

/** One parameter, no `;`: `.param .u64 .ptr .global .align 16 p`, `.reg .b32 x`. */
export const parameterGrammar: P<VariableDeclaration> = check(seq_sc(declWords, declarator), ([ws, d], first, next) => {
  const s = shape(ws, first);
  return s instanceof Reject ? s : declare(s, d, first, next);
});
export const parameter: P<VariableDeclaration> = fastOr(fastParameter, parameterGrammar);

/** `( .param .b32 a, .param .b32 b )` */
export const parameterList: P<VariableDeclaration[]> = apply(
  seq_sc(punct('('), opt_sc(list_sc(parameter, punct(','))), punct(')')),
  ([, ps]) => ps ?? [],
);

const underscore = match((t) => t.kind === TokenKind.Ident && t.text === '_', '`_`');

/** `proto: .callprototype (.param .b32 _) _ (.param .b32 _);` */
export const callPrototype: P<CallPrototype> = apply(
  seq_sc(identifier, punct(':'), word('.callprototype'), opt_sc(parameterList), underscore, opt_sc(parameterList), punct(';')),
  ([label, , , returns, , params], [first, next]) => ({
    kind: 'callprototype', label: label.text, returns: returns ?? [], params: params ?? [], span: spanOf(first, next),
  }),
);

/** `ts: .branchtargets L1, L2;` and `.calltargets f, g;` */
export const targetList: P<TargetList> = apply(
  seq_sc(identifier, punct(':'), alt_sc(word('.branchtargets'), word('.calltargets')), list_sc(identifier, punct(',')), punct(';')),
  ([label, , d, ts], [first, next]) => ({
    kind: 'targets',
    label: label.text,
    directive: d.text.slice(1) as 'branchtargets' | 'calltargets',
    targets: ts.map((t) => t.text),
    span: spanOf(first, next),
  }),
);
