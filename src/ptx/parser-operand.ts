/**
 * Operand grammar: registers and special registers, literals with exact values,
 * addresses `[base+off]`, vectors `{a, _}`, bracket lists `[tex, {x, y}]`, negated
 * predicates, `%p|%q` pairs and constant expressions (C precedence, not folded except
 * for a minus sign on a literal, so `-1` is the integer -1).
 */
import { alt_sc, apply, kmid, kright, list_sc, lrec_sc, opt_sc, rep_sc, rule } from 'typescript-parsec';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import type {
  AddressOperand, ExpressionOperand, FloatOperand, IntegerOperand, Operand, RegisterOperand,
  SinkOperand, SpecialRegisterOperand, SymbolOperand, VectorOperand,
} from './ast.js';
import { type PtxToken, TokenKind } from './lexer.js';
import {
  check, floatBits, identifier, integerValue, kind, match, predict, punct, Reject, seq_sc, spanOf, tokenSpan, type P,
} from './parser-common.js';

/** Special registers with `.x/.y/.z` components. */
const VECTOR_SPECIALS = new Set(['tid', 'ntid', 'ctaid', 'nctaid', 'clusterid', 'nclusterid', 'cluster_ctaid', 'cluster_nctaid']);
const SCALAR_SPECIALS = new Set([
  'laneid', 'warpid', 'nwarpid', 'smid', 'nsmid', 'gridid', 'lanemask_eq', 'lanemask_le', 'lanemask_lt',
  'lanemask_ge', 'lanemask_gt', 'clock', 'clock64', 'clock_hi', 'globaltimer', 'globaltimer_lo', 'globaltimer_hi',
  'total_smem_size', 'aggr_smem_size', 'dynamic_smem_size', 'is_explicit_cluster', 'cluster_ctarank',
  'cluster_nctarank', 'current_graph_exec', 'reserved_smem_offset_begin', 'reserved_smem_offset_end',
  'reserved_smem_offset_cap', 'reserved_smem_offset_0', 'reserved_smem_offset_1',
  'pm0_64', 'pm1_64', 'pm2_64', 'pm3_64', 'pm4_64', 'pm5_64', 'pm6_64', 'pm7_64',
]);
const INDEXED_SPECIALS = ['envreg', 'pm'];

/** `%envreg3` → ['envreg', 3]. */
function indexedSpecial(name: string): [string, number] | undefined {
  for (const base of INDEXED_SPECIALS) {
    if (name.startsWith(base) && name.length > base.length) {
      const digits = name.slice(base.length);
      if (/^\d+$/.test(digits)) return [base, Number(digits)];
    }
  }
  return undefined;
}

const registerToken = kind(TokenKind.Register, 'a register');

export const register: P<RegisterOperand> = apply(registerToken, (t) => ({
  kind: 'register', name: t.text, span: tokenSpan(t),
}));

const component = match(
  (t) => t.kind === TokenKind.Dot && (t.text === '.x' || t.text === '.y' || t.text === '.z'),
  'a component `.x`, `.y` or `.z`',
);

const vectorSpecial = match(
  (t) => t.kind === TokenKind.Register && VECTOR_SPECIALS.has(t.text.slice(1)),
  'a special register',
);

/** `%tid.x`, `%ctaid.y`: a special register with its component. */
const specialWithComponent: P<SpecialRegisterOperand> = apply(seq_sc(vectorSpecial, component), ([t, c], [first, next]) => ({
  kind: 'special', name: t.text.slice(1), component: c.text.slice(1) as 'x' | 'y' | 'z', span: spanOf(first, next),
}));

/** A register token as an operand: `%r1`, or a special register without component (`%laneid`, `%envreg3`). */
export function classifyRegister(t: PtxToken): RegisterOperand | SpecialRegisterOperand {
  const special = specialOf(t.text);
  if (special === null) return { kind: 'register', name: t.text, span: tokenSpan(t) };
  if (special.index === undefined) return { kind: 'special', name: special.name, span: tokenSpan(t) };
  return { kind: 'special', name: special.name, index: special.index, span: tokenSpan(t) };
}

/** Per register spelling (`%r12`, `%tid`, `%envreg3`): the special register it names, or null. */
const SPECIAL_OF = new Map<string, { name: string; index?: number } | null>();

function specialOf(text: string): { name: string; index?: number } | null {
  let s = SPECIAL_OF.get(text);
  if (s !== undefined) return s;
  const name = text.slice(1);
  const idx = indexedSpecial(name);
  s = SCALAR_SPECIALS.has(name) || VECTOR_SPECIALS.has(name) ? { name } : idx ? { name: idx[0], index: idx[1] } : null;
  if (SPECIAL_OF.size < 16384) SPECIAL_OF.set(text, s);
  return s;
}

/** `%tid`, `%ctaid`, …: special registers that take a `.x/.y/.z` component. */
export const isVectorSpecial = (registerText: string): boolean => VECTOR_SPECIALS.has(registerText.slice(1));

const plainRegister: P<RegisterOperand | SpecialRegisterOperand> = apply(registerToken, classifyRegister);

const registerOrSpecial = alt_sc(specialWithComponent, plainRegister);

/** `.b0`..`.b3`, `.h0`, `.h1` and the SIMD lane forms (`.b3210`, `.h10`). */
const SELECTOR = /^\.(b[0-7]{1,4}|h[0-3]{1,2})$/;
const isSelector = (t: PtxToken | undefined): boolean => t?.kind === TokenKind.Dot && SELECTOR.test(t.text);

/** Vector register elements: `.x .y .z .w` and their colour names `.r .g .b .a` (ISA "Vectors"). */
const COMPONENT: Readonly<Record<string, number>> = { '.x': 0, '.y': 1, '.z': 2, '.w': 3, '.r': 0, '.g': 1, '.b': 2, '.a': 3 };
const isComponent = (t: PtxToken | undefined): boolean => t?.kind === TokenKind.Dot && t.text in COMPONENT;

/** `%v.x`, `v.w`: one element of a vector register (declared with or without `%`). */
const componentRegister: P<RegisterOperand> = apply(
  seq_sc(match((t) => t.kind === TokenKind.Register || t.kind === TokenKind.Ident, 'a vector register'), match(isComponent, 'an element `.x`, `.y`, `.z` or `.w`')),
  ([r, c], [first, next]) => ({ kind: 'register', name: r.text, component: COMPONENT[c.text] as number, span: spanOf(first, next) }),
);

/** `%r1.b2`: a video operand with its byte or half selector. */
const selectedRegister: P<RegisterOperand> = apply(
  seq_sc(registerToken, match(isSelector, 'a byte or half selector')),
  ([r, sel], [first, next]) => ({ kind: 'register', name: r.text, selector: sel.text.slice(1), span: spanOf(first, next) }),
);

const sinkToken = match((t) => t.kind === TokenKind.Ident && t.text === '_', '`_`');
export const sink: P<SinkOperand> = apply(sinkToken, (t) => ({ kind: 'sink', span: tokenSpan(t) }));

/**
 * Where the grammar requires a register (guards, `!p`, `p|q`), a register declared
 * without `%` (`.reg .pred p;`) is written as a plain name: it is a RegisterOperand there.
 */
export const registerLike: P<RegisterOperand> = alt_sc(
  register,
  apply(match((t) => t.kind === TokenKind.Ident && t.text !== '_', 'a register'), (t): RegisterOperand => ({
    kind: 'register', name: t.text, span: tokenSpan(t),
  })),
);

/** `p|_` with a plain-named first register (the `%` forms are handled by registerOrPair). */
const namedPair: P<Operand> = apply(
  seq_sc(registerLike, punct('|'), alt_sc(registerLike, sink)),
  ([a, , b], [first, next]) => ({ kind: 'pair', first: a, second: b, span: spanOf(first, next) }),
);

/** A register or sink, optionally `|` a second one: `%p|%q`, `_|%p`. */
const registerOrPair: P<Operand> = apply(
  seq_sc(alt_sc(registerOrSpecial, sink), opt_sc(seq_sc(punct('|'), alt_sc(registerLike, sink)))),
  ([a, rest], [first, next]): Operand => {
    if (!rest) return a;
    if (a.kind === 'special') return a; // unreachable in valid PTX; the `|` then fails the statement
    return { kind: 'pair', first: a, second: rest[1], span: spanOf(first, next) };
  },
);

export const integerLiteral: P<IntegerOperand> = check(kind(TokenKind.Integer, 'an integer'), (t) => {
  const value = integerValue(t.text);
  if (value === undefined) return new Reject(t, `bad integer literal \`${t.text}\``, DiagnosticCode.ParseBadLiteral);
  return { kind: 'integer', value, span: tokenSpan(t) };
});

export const floatLiteral: P<FloatOperand> = check(kind(TokenKind.Float, 'a float'), (t) => {
  const f = floatBits(t.text);
  if (!f) return new Reject(t, `bad floating-point literal \`${t.text}\``, DiagnosticCode.ParseBadLiteral);
  return { kind: 'float', bits: f.bits, width: f.width, span: tokenSpan(t) };
});

export const symbol: P<SymbolOperand> = apply(identifier, (t) => ({ kind: 'symbol', name: t.text, span: tokenSpan(t) }));

// ---------------------------------------------------------------- constant expressions

export const expression = rule<TokenKind, Operand>();

type UnaryOp = ExpressionOperand['op'];
function binary(op: UnaryOp, a: Operand, b: Operand): Operand {
  return { kind: 'expression', op, args: [a, b], span: { start: a.span.start, end: b.span.end } };
}

/** Minus on a literal folds into the literal; other unary operators stay expressions. */
function unary(opTok: PtxToken, arg: Operand): Operand {
  const span = { start: opTok.index, end: arg.span.end };
  if (opTok.text === '-' && arg.kind === 'integer') return { ...arg, value: -arg.value, span };
  if (opTok.text === '-' && arg.kind === 'float') {
    const sign = arg.width === 32 ? 1n << 31n : 1n << 63n;
    return { ...arg, bits: arg.bits ^ sign, span };
  }
  const op: UnaryOp = opTok.text === '-' ? 'neg' : (opTok.text as '~' | '!');
  return { kind: 'expression', op, args: [arg], span };
}

/** `generic(sym)`: the generic address of a variable, in initializers. */
const genericOf: P<Operand> = apply(
  seq_sc(match((t) => t.kind === TokenKind.Ident && t.text === 'generic', '`generic`'), punct('('), symbol, punct(')')),
  ([, , s], [first, next]) => ({ kind: 'expression', op: 'generic', args: [s], span: spanOf(first, next) }),
);

const primary: P<Operand> = alt_sc(
  integerLiteral,
  floatLiteral,
  genericOf,
  symbol,
  kmid(punct('('), expression, punct(')')),
);

const unaryExpr = rule<TokenKind, Operand>();
unaryExpr.setPattern(
  alt_sc(
    apply(seq_sc(match((t) => t.kind === TokenKind.Punct && (t.text === '-' || t.text === '~' || t.text === '!'), 'an operand'), unaryExpr), ([op, a]) => unary(op, a)),
    primary,
  ),
);

function level(next: P<Operand>, ops: readonly string[]): P<Operand> {
  const opTok = match((t) => t.kind === TokenKind.Punct && ops.includes(t.text), ops.map((o) => `\`${o}\``).join(' or '));
  return lrec_sc(next, seq_sc(opTok, next), (a: Operand, [op, b]: [PtxToken, Operand]) => binary(op.text as UnaryOp, a, b));
}

const multiplicative = level(unaryExpr, ['*', '/', '%']);
const additive = level(multiplicative, ['+', '-']);
const shift = level(additive, ['<<', '>>']);
const bitAnd = level(shift, ['&']);
const bitXor = level(bitAnd, ['^']);
expression.setPattern(level(bitXor, ['|']));

/** `-%r1` (vmad's negated sources): a `neg` expression over the register. */
const negatedRegister: P<Operand> = apply(
  seq_sc(punct('-'), alt_sc(selectedRegister, register)),
  ([, r], [first, next]) => ({ kind: 'expression', op: 'neg', args: [r], span: spanOf(first, next) }),
);

/** `%r1`, `%r1+4`, `%r1-4`: an array index in a register, plus or minus a constant (ISA "Arrays as Operands"). */
const registerIndex: P<Operand> = apply(
  seq_sc(register, opt_sc(seq_sc(match((t) => t.kind === TokenKind.Punct && (t.text === '+' || t.text === '-'), '`+` or `-`'), integerLiteral))),
  ([r, off], [first, next]): Operand => (off ? { kind: 'expression', op: off[0].text as '+' | '-', args: [r, off[1]], span: spanOf(first, next) } : r),
);

/** `a[3]`, `a[N-1]`, `a[%r1]`: the address of an array element. */
const arrayElement: P<Operand> = apply(
  seq_sc(symbol, punct('['), alt_sc(registerIndex, expression), punct(']')),
  ([a, , i], [first, next]) => ({ kind: 'expression', op: 'index', args: [a, i], span: spanOf(first, next) }),
);

// ---------------------------------------------------------------- addresses and vectors

export const operand = rule<TokenKind, Operand>();

const offset: P<bigint> = apply(
  seq_sc(match((t) => t.kind === TokenKind.Punct && (t.text === '+' || t.text === '-'), '`+`, `-` or `]`'), opt_sc(punct('-')), integerLiteral),
  ([sign, neg, n]) => ((sign.text === '-') !== (neg !== undefined) ? -n.value : n.value),
);

const addressBase: P<RegisterOperand | SymbolOperand | IntegerOperand> = alt_sc(register, symbol, integerLiteral);

/** `[base]`, `[base+off]`, or a bracket list `[tex, sampler, {x, y}]` (a vector whose last element is a vector). */
const address: P<AddressOperand | VectorOperand> = apply(
  seq_sc(punct('['), addressBase, opt_sc(offset), opt_sc(seq_sc(punct(','), list_sc(operand, punct(',')))), punct(']')),
  ([, base, off, rest], [first, next]): AddressOperand | VectorOperand => {
    const span = spanOf(first, next);
    if (!rest) return { kind: 'address', base, offset: off ?? 0n, span };
    const head: Operand = off ? { kind: 'address', base, offset: off, span: { start: base.span.start, end: base.span.end } } : base;
    return { kind: 'vector', elements: [head, ...rest[1]], span };
  },
);

/** `{a, b, _}`, and tex's `{a, b, c, d}|p`. */
export const braceVector: P<VectorOperand> = apply(
  seq_sc(punct('{'), opt_sc(list_sc(operand, punct(','))), punct('}'), opt_sc(kright(punct('|'), registerLike))),
  ([, elements, , p], [first, next]) => ({
    kind: 'vector', elements: elements ?? [], ...(p ? { predicate: p } : {}), span: spanOf(first, next),
  }),
);

/** `(a, b)`: call return and parameter lists. */
export const parenList: P<VectorOperand> = apply(
  seq_sc(punct('('), opt_sc(list_sc(operand, punct(','))), punct(')')),
  ([, elements], [first, next]) => ({ kind: 'vector', elements: elements ?? [], span: spanOf(first, next) }),
);

const negated: P<Operand> = apply(seq_sc(punct('!'), registerLike), ([, r], [first, next]) => ({
  kind: 'negated', operand: r, span: spanOf(first, next),
}));

/** Tokens that end an operand: a lone literal or name before one of them needs no expression grammar. */
function endsOperand(t: PtxToken | undefined): boolean {
  if (!t || t.kind !== TokenKind.Punct) return false;
  const c = t.text;
  return c === ',' || c === ';' || c === ']' || c === '}' || c === ')';
}

const simpleOperand: P<Operand> = predict((t): P<Operand> => {
  if (t.kind === TokenKind.Integer) return integerLiteral;
  if (t.kind === TokenKind.Float) return floatLiteral;
  return symbol;
}, 'an operand');

operand.setPattern(
  predict((t): P<Operand> => {
    switch (t.kind) {
      case TokenKind.Register: {
        const n = t.next;
        if (n?.kind === TokenKind.Punct && n.text === '|') return registerOrPair;
        if (n?.kind === TokenKind.Dot && VECTOR_SPECIALS.has(t.text.slice(1))) return specialWithComponent;
        if (isSelector(n)) return selectedRegister;
        if (isComponent(n) && endsOperand(n?.next)) return componentRegister;
        return plainRegister;
      }
      case TokenKind.Punct:
        if (t.text === '[') return address;
        if (t.text === '{') return braceVector;
        if (t.text === '!' && t.next?.kind !== TokenKind.Integer) return negated;
        if (t.text === '-' && t.next?.kind === TokenKind.Register) return negatedRegister;
        return expression;
      case TokenKind.Ident: {
        const n = t.next;
        if (t.text === '_') return registerOrPair;
        if (n?.kind === TokenKind.Punct && n.text === '|') return namedPair;
        if (n?.kind === TokenKind.Punct && n.text === '[') return arrayElement;
        if (isComponent(n) && endsOperand(n?.next)) return componentRegister;
        return endsOperand(n) ? simpleOperand : expression;
      }
      case TokenKind.Integer:
      case TokenKind.Float:
        return endsOperand(t.next) ? simpleOperand : expression;
      default:
        return expression;
    }
  }, 'an operand'),
);

/** Comma-separated operands (possibly none). */
export const operandList: P<Operand[]> = apply(
  opt_sc(seq_sc(operand, rep_sc(seq_sc(punct(','), operand)))),
  (x) => (x ? [x[0], ...x[1].map((p) => p[1])] : []),
);
