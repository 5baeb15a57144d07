/**
 * Instruction grammar: `{@{!}%p} opcode{.modifier}* operand, …;` with the call form
 * `call{.uni} (ret), f, (args){, proto};`. The grammar accepts any well-formed phrase;
 * `check` then asks the opcode table whether the opcode, each modifier and the operand
 * count are valid, and rejects with a diagnostic that names the offending token.
 */
import { alt_sc, apply, kleft, kright, opt_sc, rep_sc } from 'typescript-parsec';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import type { Guard, Instruction, Operand, VectorOperand } from './ast.js';
import { type PtxToken, TokenKind } from './lexer.js';
import { check, identifier, kind, match, predict, punct, Reject, spanOf, seq_sc, type P } from './parser-common.js';
import { decodeOpcode } from './parser-modifiers.js';
import { operandList, parenList, register, registerLike, symbol } from './parser-operand.js';

/** `@%p` or `@!%p` */
export const guard: P<Guard> = apply(seq_sc(punct('@'), opt_sc(punct('!')), registerLike), ([, bang, r], [first, next]) => ({
  register: r,
  negated: bang !== undefined,
  span: spanOf(first, next),
}));

const modifierWord = kind(TokenKind.Dot, 'a modifier');

type Head = [Guard | undefined, PtxToken, PtxToken[]];

const head: P<Head> = seq_sc(opt_sc(guard), identifier, rep_sc(modifierWord));
const callHead: P<Head> = seq_sc(
  opt_sc(guard),
  match((t) => t.kind === TokenKind.Ident && t.text === 'call', '`call`'),
  rep_sc(modifierWord),
);

function emptyList(at: { start: number }): VectorOperand {
  return { kind: 'vector', elements: [], span: { start: at.start, end: at.start } };
}

/**
 * Call operands, normalised to `[returns, target, params, prototype?]`: the lists are
 * vectors and are empty (zero-width span) when the source omits them.
 */
const callOperands: P<Operand[]> = apply(
  seq_sc(
    opt_sc(kleft(parenList, punct(','))),
    alt_sc(register, symbol),
    opt_sc(kright(punct(','), parenList)),
    opt_sc(kright(punct(','), alt_sc(symbol, register))),
  ),
  ([rets, target, params, proto]) => {
    const out: Operand[] = [rets ?? emptyList(target.span), target, params ?? emptyList({ start: target.span.end })];
    if (proto) out.push(proto);
    return out;
  },
);

function build([h, operands, semi]: [Head, Operand[], PtxToken]): Instruction | Reject {
  const [g, opcode, mods] = h;
  const decoded = decodeOpcode(opcode, mods);
  if (decoded instanceof Reject) return decoded;
  const { row, modifiers } = decoded;
  const n = operands.length;
  if (n < row.minOperands || n > row.maxOperands) {
    const want = row.minOperands === row.maxOperands ? `${row.minOperands}` : `${row.minOperands} to ${row.maxOperands}`;
    return new Reject(opcode, `\`${row.name}\` takes ${want} operands, found ${n}`, DiagnosticCode.ParseBadOperand);
  }
  const lastMod = mods[mods.length - 1] ?? opcode;
  const inst: { -readonly [K in keyof Instruction]: Instruction[K] } = {
    kind: 'instruction',
    opcode: row.opcode,
    modifiers,
    operands,
    span: { start: g ? g.span.start : opcode.index, end: semi.end },
    opcodeSpan: { start: opcode.index, end: lastMod.end },
  };
  if (g) inst.guard = g;
  return inst;
}

/** Is this the `call` form? The opcode follows an optional `@`, `!` and guard register. */
function isCall(t: PtxToken): boolean {
  let cur: PtxToken | undefined = t;
  if (cur.text === '@') {
    cur = cur.next;
    if (cur?.text === '!') cur = cur.next;
    cur = cur?.next; // the guard register, `%p` or a plain name
  }
  return cur?.kind === TokenKind.Ident && cur.text === 'call';
}

const callForm = seq_sc(callHead, callOperands, punct(';'));
const plainForm = seq_sc(head, operandList, punct(';'));

/** One instruction statement, including its `;`. */
export const instruction: P<Instruction> = check(
  predict((t) => (isCall(t) ? callForm : plainForm), 'an instruction'),
  (parts) => build(parts),
);
