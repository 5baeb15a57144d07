/**
 * Declaration grammar: variables in every state space (`.reg .b32 %r<42>;`,
 * `.shared .align 4 .b8 smem[1024];`, `.global .u64 p = generic(x);`), kernel and
 * function parameters (`.param .u64 .ptr .global .align 16 p`), initializers, and the
 * label-introduced `.callprototype`, `.branchtargets` and `.calltargets` statements.
 */
import { alt_sc, apply, kmid, kright, list_sc, opt_sc, rep_sc, rule } from 'typescript-parsec';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import {
  SCALAR_TYPES, type CallPrototype, type Initializer, type ScalarType, type StateSpace, type TargetList,
  type VariableDeclaration, type VectorWidth,
} from './ast.js';
import { type PtxToken, TokenKind } from './lexer.js';
import { check, identifier, integer, integerValue, kind, match, punct, Reject, spanOf, word, seq_sc, type P } from './parser-common.js';
import { spaceRef } from './parser-modifiers.js';
import { expression } from './parser-operand.js';

const TYPES: ReadonlySet<string> = new Set(SCALAR_TYPES);
const SPACES: ReadonlySet<string> = new Set(['reg', 'sreg', 'const', 'global', 'local', 'param', 'shared', 'tex']);
const LINKAGES: ReadonlySet<string> = new Set(['visible', 'extern', 'weak', 'common']);

/** A declaration word: `.align 16` or any dotted word (classified after parsing). */
type DeclWord = { tok: PtxToken; align?: PtxToken };
const alignWord: P<DeclWord> = apply(seq_sc(word('.align'), integer), ([tok, n]) => ({ tok, align: n }));
const plainWord: P<DeclWord> = apply(kind(TokenKind.Dot, 'a declaration'), (tok) => ({ tok }));
const declWords: P<DeclWord[]> = rep_sc(alt_sc(alignWord, plainWord));

export const initializer = rule<TokenKind, Initializer>();
initializer.setPattern(
  alt_sc(
    apply(seq_sc(punct('{'), opt_sc(list_sc(initializer, punct(','))), punct('}')), ([, elements], [first, next]) => ({
      kind: 'aggregate' as const, elements: elements ?? [], span: spanOf(first, next),
    })),
    apply(expression, (value) => ({ kind: 'value' as const, value, span: value.span })),
  ),
);

interface Declarator {
  name: PtxToken;
  count?: PtxToken;
  dims: (PtxToken | undefined)[];
  init?: Initializer;
}

const declName = alt_sc(kind(TokenKind.Register, 'a name'), identifier);
const declarator: P<Declarator> = apply(
  seq_sc(
    declName,
    opt_sc(kmid(punct('<'), integer, punct('>'))),
    rep_sc(kmid(punct('['), opt_sc(integer), punct(']'))),
    opt_sc(kright(punct('='), initializer)),
  ),
  ([name, count, dims, init]) => ({ name, dims, ...(count ? { count } : {}), ...(init ? { init } : {}) }),
);

type Shape = Omit<VariableDeclaration, 'name' | 'span' | 'parameterizedCount' | 'arrayDims' | 'initializer'>;

function num(t: PtxToken): number {
  return Number(integerValue(t.text) ?? 0n);
}

/** Classifies the words before the names: linkage, space, alignment, vector, type, `.ptr` attributes. */
function shape(ws: readonly DeclWord[], first: PtxToken): Shape | Reject {
  let space: string | undefined;
  let linkage: string | undefined;
  let align: number | undefined;
  let type: ScalarType | undefined;
  let vector: VectorWidth | undefined;
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
    else if ((w === 'v2' || w === 'v4' || w === 'v8') && vector === undefined) vector = Number(w.slice(1)) as VectorWidth;
    else return new Reject(tok, `unexpected \`${tok.text}\` in a declaration`, DiagnosticCode.ParseBadModifier);
  }
  if (space === undefined) return new Reject(first, 'expected a state space (`.reg`, `.shared`, `.global`, …)', DiagnosticCode.ParseExpected);
  if (type === undefined) return new Reject(first, 'expected a type in the declaration', DiagnosticCode.ParseExpected);
  return {
    kind: 'variable',
    space: spaceRef(space),
    type,
    ...(linkage ? { linkage: linkage as VariableDeclaration['linkage'] & string } : {}),
    ...(align !== undefined ? { align } : {}),
    ...(vector ? { vector } : {}),
    ...(pointer ? { pointer } : {}),
  };
}

function declare(s: Shape, d: Declarator, first: PtxToken, next: PtxToken): VariableDeclaration {
  return {
    ...s,
    name: d.name.text,
    ...(d.count ? { parameterizedCount: num(d.count) } : {}),
    ...(d.dims.length ? { arrayDims: d.dims.map((t) => (t ? num(t) : null)) } : {}),
    ...(d.init ? { initializer: d.init } : {}),
    span: spanOf(first, next),
  };
}

/** `.reg .f32 %f1, %f2;` → one VariableDeclaration per name. */
export const variableStatement: P<VariableDeclaration[]> = check(
  seq_sc(declWords, list_sc(declarator, punct(',')), punct(';')),
  ([ws, ds], first, next) => {
    const s = shape(ws, first);
    return s instanceof Reject ? s : ds.map((d) => declare(s, d, first, next));
  },
);

/** One parameter, no `;`: `.param .u64 .ptr .global .align 16 p`, `.reg .b32 x`. */
export const parameter: P<VariableDeclaration> = check(seq_sc(declWords, declarator), ([ws, d], first, next) => {
  const s = shape(ws, first);
  return s instanceof Reject ? s : declare(s, d, first, next);
});

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
