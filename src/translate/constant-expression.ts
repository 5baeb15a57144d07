/**
 * PTX constant expressions as instruction operands (ISA "Constants", "Constant Expressions"):
 * integer expressions over literals and the predefined constant `WARP_SZ`, evaluated as C does
 * with 64-bit operands (`.s64`, or `.u64` once a literal does not fit `.s64`), and
 * `var+imm` / `var-imm` / `imm+var` address expressions.
 */
import * as Ast from '../ptx/ast.js';

export const WARP_SZ = Ast.WARP_SZ.name;
export const WARP_SZ_VALUE = Ast.WARP_SZ.value;

interface Value { readonly value: bigint; readonly unsigned: boolean }

/** The value of an integer constant expression, or undefined when it is not one (or divides by zero). */
export function constantInteger(op: Ast.Operand, isVariable: (name: string) => boolean): bigint | undefined {
  return evaluate(op, isVariable)?.value;
}

function evaluate(op: Ast.Operand, isVariable: (name: string) => boolean): Value | undefined {
  switch (op.kind) {
    case 'integer': return { value: op.value, unsigned: op.value > 0x7fffffffffffffffn };
    case 'symbol': return op.name === WARP_SZ && !isVariable(op.name) ? { value: WARP_SZ_VALUE, unsigned: false } : undefined;
    case 'expression': break;
    default: return undefined;
  }
  const args = op.args.map((a) => evaluate(a, isVariable));
  if (args.some((a) => a === undefined)) return undefined;
  const [a, b] = args as Value[];
  if (!a) return undefined;
  if (!b) return unary(op.op, a);
  const unsigned = a.unsigned || b.unsigned;
  const x = unsigned ? BigInt.asUintN(64, a.value) : BigInt.asIntN(64, a.value);
  const y = unsigned ? BigInt.asUintN(64, b.value) : BigInt.asIntN(64, b.value);
  const r = binary(op.op, x, y, unsigned);
  return r === undefined ? undefined : { value: unsigned ? BigInt.asUintN(64, r) : BigInt.asIntN(64, r), unsigned };
}

function unary(op: Ast.ExpressionOperand['op'], a: Value): Value | undefined {
  switch (op) {
    case 'neg': return { value: BigInt.asIntN(64, -a.value), unsigned: a.unsigned };
    case '~': return { value: BigInt.asIntN(64, ~a.value), unsigned: a.unsigned };
    case '!': return { value: a.value === 0n ? 1n : 0n, unsigned: false };
    default: return undefined;
  }
}

function binary(op: Ast.ExpressionOperand['op'], x: bigint, y: bigint, unsigned: boolean): bigint | undefined {
  switch (op) {
    case '+': return x + y;
    case '-': return x - y;
    case '*': return x * y;
    case '/': return y === 0n ? undefined : x / y;
    case '%': return y === 0n ? undefined : x % y;
    case '<<': return x << (y & 63n);
    case '>>': return (unsigned ? BigInt.asUintN(64, x) : x) >> (y & 63n);
    case '&': return x & y;
    case '|': return x | y;
    case '^': return x ^ y;
    default: return undefined;
  }
}

/** `var+imm`, `var-imm`, `imm+var`: the variable and the byte offset, or undefined. */
export function symbolPlusOffset(op: Ast.Operand, isVariable: (name: string) => boolean): { symbol: Ast.SymbolOperand; offset: bigint } | undefined {
  if (op.kind !== 'expression' || (op.op !== '+' && op.op !== '-')) return undefined;
  const [a, b] = op.args;
  if (!a || !b) return undefined;
  if (a.kind === 'symbol' && a.name !== WARP_SZ) {
    const k = constantInteger(b, isVariable);
    return k === undefined ? undefined : { symbol: a, offset: op.op === '+' ? k : -k };
  }
  if (op.op === '+' && b.kind === 'symbol' && b.name !== WARP_SZ) {
    const k = constantInteger(a, isVariable);
    return k === undefined ? undefined : { symbol: b, offset: k };
  }
  return undefined;
}
