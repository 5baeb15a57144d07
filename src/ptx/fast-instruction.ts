/**
 * Hand-written fast path for the instruction shapes that make up nearly all real PTX:
 * `{@{!}p} opcode{.mod}* operand, …;` whose operands are registers, special registers,
 * literals (with an optional leading `-`), names, `_`, `!p`, `p|q`, `[base{±off}]` and
 * `{a, b, …}` vectors of those, and `call` with its parenthesised lists. It walks the tokens directly instead of through
 * typescript-parsec's combinators, whose per-step result objects made the parser spend
 * ~40% of its time in GC (measurements in docs/BENCHMARKS.md).
 *
 * Contract: it returns exactly the AST the combinator grammar (parser-instruction.ts)
 * builds, spans included, or `undefined` — never a diagnostic. Anything else
 * (expressions, bracket lists, any error) falls back to the grammar, which stays the one
 * definition of the language and the one source of error messages. tests/frontend/
 * fast-path.test.ts checks the equivalence on the corpus.
 *
 * Decoded modifiers are interned per spelling (`ld.global.nc.f32`): identical
 * instructions share one read-only `Modifiers` object.
 */
import type { Guard, Instruction, Modifiers, Operand, RegisterOperand, VectorOperand } from './ast.js';
import { ownCopy, type PtxToken, TokenKind } from './lexer.js';
import { floatBits, integerValue, Reject } from './parser-common.js';
import { decodeOpcode, type DecodedOpcode } from './parser-modifiers.js';
import { classifyRegister, isVectorSpecial } from './parser-operand.js';

type Step<T> = { value: T; next: PtxToken } | undefined;

/**
 * Operand lists are collected in these and copied out at their exact length: an array
 * grown by `push` keeps spare capacity for its whole life in the AST (a 3-operand list
 * would hold 17 slots), which every GC then copies.
 */
const OPERANDS: Operand[] = [];

/**
 * The token after the operand the last `operand`/`address`/`vector`/`parenList` call
 * returned (a second result without a `{value, next}` object per operand).
 */
let after: PtxToken = undefined as unknown as PtxToken;
const ELEMENTS: Operand[] = [];

const isPunct = (t: PtxToken, c: string): boolean => t.kind === TokenKind.Punct && t.text === c;
const span = (t: PtxToken) => ({ start: t.index, end: t.end });

/**
 * Decoded opcodes by spelling; a rejected spelling is cached as null (the grammar then
 * reports it). Never the Reject itself: it holds a token, and through it the lexer and
 * the whole text of a module parsed long ago.
 */
const decoded = new Map<string, DecodedOpcode | null>();

/** Decodes `opcode` and the modifier tokens up to `last` (inclusive). */
function decode(text: string, opcode: PtxToken, last: PtxToken): DecodedOpcode | undefined {
  let contiguous = true;
  for (let m = opcode; m !== last; m = m.next as PtxToken) if ((m.next as PtxToken).index !== m.end) contiguous = false;
  if (!contiguous) {
    const d = decodeOpcode(opcode, modifierTokens(opcode, last));
    return d instanceof Reject ? undefined : d;
  }
  // Contiguous spelling: the source slice is the key (one string, no concatenation).
  const key = text.slice(opcode.index, last.end);
  let d = decoded.get(key);
  if (d === undefined) {
    const r = decodeOpcode(opcode, modifierTokens(opcode, last));
    d = r instanceof Reject ? null : r;
    if (decoded.size < 10_000) decoded.set(ownCopy(key), d);
  }
  return d ?? undefined;
}

function modifierTokens(opcode: PtxToken, last: PtxToken): PtxToken[] {
  const mods: PtxToken[] = [];
  for (let m = opcode; m !== last; ) {
    m = m.next as PtxToken;
    mods.push(m);
  }
  return mods;
}

function registerLike(t: PtxToken): RegisterOperand | undefined {
  if (t.kind === TokenKind.Register || (t.kind === TokenKind.Ident && t.text !== '_')) {
    return { kind: 'register', name: t.text, span: span(t) };
  }
  return undefined;
}

/** An integer or float literal token, negated when `neg` is the `-` before it. */
function literal(t: PtxToken, neg: PtxToken | undefined): Operand | undefined {
  const s = { start: (neg ?? t).index, end: t.end };
  if (t.kind === TokenKind.Integer) {
    const v = integerValue(t.text);
    if (v === undefined) return undefined;
    return { kind: 'integer', value: neg ? -v : v, span: s };
  }
  const f = floatBits(t.text);
  if (!f) return undefined;
  const sign = f.width === 32 ? 1n << 31n : 1n << 63n;
  return { kind: 'float', bits: neg ? f.bits ^ sign : f.bits, width: f.width, span: s };
}

function endsOperand(t: PtxToken): boolean {
  if (t.kind !== TokenKind.Punct) return false;
  const c = t.text;
  return c === ',' || c === ';' || c === ']' || c === '}' || c === ')';
}

/** `[base]`, `[base+off]`, `[base+-off]`, `[base-off]`. */
function address(open: PtxToken): Operand | undefined {
  const b = open.next as PtxToken;
  let base: Operand;
  if (b.kind === TokenKind.Register) base = { kind: 'register', name: b.text, span: span(b) };
  else if (b.kind === TokenKind.Ident) base = { kind: 'symbol', name: b.text, span: span(b) };
  else if (b.kind === TokenKind.Integer) {
    const v = integerValue(b.text);
    if (v === undefined) return undefined;
    base = { kind: 'integer', value: v, span: span(b) };
  } else return undefined;
  let t = b.next as PtxToken;
  let offset = 0n;
  if (isPunct(t, '+') || isPunct(t, '-')) {
    let neg = t.text === '-';
    t = t.next as PtxToken;
    if (isPunct(t, '-')) {
      neg = !neg;
      t = t.next as PtxToken;
    }
    if (t.kind !== TokenKind.Integer) return undefined;
    const v = integerValue(t.text);
    if (v === undefined) return undefined;
    offset = neg ? -v : v;
    t = t.next as PtxToken;
  }
  if (!isPunct(t, ']')) return undefined;
  after = t.next as PtxToken;
  return { kind: 'address', base: base as RegisterOperand, offset, span: { start: open.index, end: t.end } };
}

/** `{a, b, _}` of simple operands. */
function vector(open: PtxToken): VectorOperand | undefined {
  const elements = ELEMENTS;
  elements.length = 0;
  let t = open.next as PtxToken;
  if (!isPunct(t, '}')) {
    for (;;) {
      const e = operand(t);
      if (!e || e.kind === 'vector' || e.kind === 'address') return undefined;
      elements.push(e);
      t = after;
      if (isPunct(t, '}')) break;
      if (!isPunct(t, ',')) return undefined;
      t = t.next as PtxToken;
    }
  }
  after = t.next as PtxToken;
  return { kind: 'vector', elements: elements.slice(), span: { start: open.index, end: t.end } };
}

/** A second pair member after `|`: a register-like name or `_`. */
function pairSecond(t: PtxToken): Operand | undefined {
  if (t.kind === TokenKind.Ident && t.text === '_') return { kind: 'sink', span: span(t) };
  return registerLike(t);
}

function operand(t: PtxToken): Operand | undefined {
  const n = t.next as PtxToken;
  switch (t.kind) {
    case TokenKind.Register: {
      if (isPunct(n, '|')) {
        const second = pairSecond(n.next as PtxToken);
        const first = classifyRegister(t);
        if (!second || first.kind !== 'register') return undefined;
        const value: Operand = { kind: 'pair', first, second: second as RegisterOperand, span: { start: t.index, end: second.span.end } };
        after = (n.next as PtxToken).next as PtxToken;
        return value;
      }
      if (n.kind === TokenKind.Dot && isVectorSpecial(t.text)) {
        const c = n.text;
        if (c !== '.x' && c !== '.y' && c !== '.z') return undefined;
        const value: Operand = { kind: 'special', name: t.text.slice(1), component: c.slice(1) as 'x', span: { start: t.index, end: n.end } };
        after = n.next as PtxToken;
        return value;
      }
      after = n;
      return classifyRegister(t);
    }
    case TokenKind.Ident: {
      if (t.text === '_') {
        if (isPunct(n, '|')) return undefined;
        after = n;
        return { kind: 'sink', span: span(t) };
      }
      if (isPunct(n, '|')) {
        const second = pairSecond(n.next as PtxToken);
        if (!second) return undefined;
        const value: Operand = {
          kind: 'pair', first: { kind: 'register', name: t.text, span: span(t) }, second: second as RegisterOperand,
          span: { start: t.index, end: second.span.end },
        };
        after = (n.next as PtxToken).next as PtxToken;
        return value;
      }
      if (!endsOperand(n) || t.text === 'generic') return undefined;
      after = n;
      return { kind: 'symbol', name: t.text, span: span(t) };
    }
    case TokenKind.Integer:
    case TokenKind.Float: {
      if (!endsOperand(n)) return undefined;
      const v = literal(t, undefined);
      if (!v) return undefined;
      after = n;
      return v;
    }
    case TokenKind.Punct: {
      if (t.text === '[') return address(t);
      if (t.text === '{') return vector(t);
      if (t.text === '-' && (n.kind === TokenKind.Integer || n.kind === TokenKind.Float) && endsOperand(n.next as PtxToken)) {
        const v = literal(n, t);
        if (!v) return undefined;
        after = n.next as PtxToken;
        return v;
      }
      if (t.text === '!' && n.kind !== TokenKind.Integer) {
        const r = registerLike(n);
        if (!r) return undefined;
        after = n.next as PtxToken;
        return { kind: 'negated', operand: r, span: { start: t.index, end: n.end } };
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** `(a, b)`: a call's return or parameter list. */
function parenList(open: PtxToken): VectorOperand | undefined {
  const elements = ELEMENTS;
  elements.length = 0;
  let t = open.next as PtxToken;
  if (!isPunct(t, ')')) {
    for (;;) {
      const e = operand(t);
      if (!e || e.kind === 'vector' || e.kind === 'address') return undefined;
      elements.push(e);
      t = after;
      if (isPunct(t, ')')) break;
      if (!isPunct(t, ',')) return undefined;
      t = t.next as PtxToken;
    }
  }
  after = t.next as PtxToken;
  return { kind: 'vector', elements: elements.slice(), span: { start: open.index, end: t.end } };
}

/** A call target or prototype: a name or a register (never a special register). */
function callee(t: PtxToken): Operand | undefined {
  if (t.kind === TokenKind.Register) return { kind: 'register', name: t.text, span: span(t) };
  if (t.kind === TokenKind.Ident) return { kind: 'symbol', name: t.text, span: span(t) };
  return undefined;
}

const emptyAt = (at: number): VectorOperand => ({ kind: 'vector', elements: [], span: { start: at, end: at } });

/**
 * `(rets), target, (params), proto` with the optional parts, normalised as the grammar
 * does to `[returns, target, params, prototype?]` (missing lists are empty and zero-width).
 */
function callOperands(t: PtxToken): Step<Operand[]> {
  let cur = t;
  let rets: VectorOperand | undefined;
  if (isPunct(cur, '(')) {
    const r = parenList(cur);
    if (!r || !isPunct(after, ',')) return undefined;
    rets = r;
    cur = after.next as PtxToken;
  }
  const target = callee(cur);
  if (!target) return undefined;
  cur = cur.next as PtxToken;
  let params: VectorOperand | undefined;
  let proto: Operand | undefined;
  if (isPunct(cur, ',') && isPunct(cur.next as PtxToken, '(')) {
    const p = parenList(cur.next as PtxToken);
    if (!p) return undefined;
    params = p;
    cur = after;
    if (isPunct(cur, ',')) {
      proto = callee(cur.next as PtxToken);
      if (!proto) return undefined;
      cur = (cur.next as PtxToken).next as PtxToken;
    }
  }
  const out: Operand[] = [rets ?? emptyAt(target.span.start), target, params ?? emptyAt(target.span.end)];
  if (proto) out.push(proto);
  return { value: out, next: cur };
}

function guardAt(t: PtxToken): Step<Guard> {
  let r = t.next as PtxToken;
  const negated = isPunct(r, '!');
  if (negated) r = r.next as PtxToken;
  const register = registerLike(r);
  if (!register) return undefined;
  return { value: { register, negated, span: { start: t.index, end: r.end } }, next: r.next as PtxToken };
}

/** The instruction starting at `t`, or undefined when the combinator grammar must parse it. */
export function fastInstruction(text: string, t: PtxToken): Step<Instruction> {
  let cur = t;
  let guard: Guard | undefined;
  if (isPunct(cur, '@')) {
    const g = guardAt(cur);
    if (!g) return undefined;
    guard = g.value;
    cur = g.next;
  }
  const opcode = cur;
  if (opcode.kind !== TokenKind.Ident) return undefined;
  let lastMod = opcode;
  cur = opcode.next as PtxToken;
  while (cur.kind === TokenKind.Dot) {
    lastMod = cur;
    cur = cur.next as PtxToken;
  }
  let operands: Operand[] = OPERANDS;
  operands.length = 0;
  if (opcode.text === 'call') {
    const c = callOperands(cur);
    if (!c || !isPunct(c.next, ';')) return undefined;
    operands = c.value;
    cur = c.next;
  } else if (!isPunct(cur, ';')) {
    for (;;) {
      const o = operand(cur);
      if (!o) return undefined;
      operands.push(o);
      cur = after;
      if (isPunct(cur, ';')) break;
      if (!isPunct(cur, ',')) return undefined;
      cur = cur.next as PtxToken;
    }
  }
  const d = decode(text, opcode, lastMod);
  if (!d) return undefined;
  const n = operands.length;
  if (n < d.row.minOperands || n > d.row.maxOperands) return undefined;
  const value: { -readonly [K in keyof Instruction]: Instruction[K] } = {
    kind: 'instruction',
    opcode: d.row.opcode,
    modifiers: d.modifiers as Modifiers,
    operands: operands === OPERANDS ? operands.slice() : operands,
    span: { start: guard ? guard.span.start : opcode.index, end: cur.end },
    opcodeSpan: { start: opcode.index, end: lastMod.end },
  };
  if (guard) value.guard = guard;
  return { value, next: cur.next as PtxToken };
}
