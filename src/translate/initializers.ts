/**
 * Variable initializers -> little-endian bytes: scalars, `{...}` aggregates (flattened in
 * order), and symbol addresses (`sym`, `generic(sym)`), which become relocations the
 * runtime resolves once it knows where each variable lives.
 */
import type * as Ast from '../ptx/ast.js';
import { DiagnosticCode, type Diagnostic } from '../diagnostics/diagnostic.js';
import { bitsToF32, bitsToF64, f32Bits, f64Bits } from './context.js';
import { isFloatType, sizeOf } from './ptx-types.js';
import { constantInteger, WARP_SZ, WARP_SZ_VALUE } from './constant-expression.js';

export interface InitialBytes {
  readonly bytes: Uint8Array;
  readonly relocations: { offset: number; symbol: string; generic: boolean; addend?: number }[];
}

/** `functions`: the addresses of the module's `.func`s (function-pointers.ts), for tables of function pointers. */
export function initialBytes(v: Ast.VariableDeclaration, size: number, diags: Diagnostic[], functions?: ReadonlyMap<string, bigint>): InitialBytes | undefined {
  if (!v.initializer) return undefined;
  const elem = sizeOf(v.type);
  const bytes = new Uint8Array(Math.max(size, elem));
  const relocations: InitialBytes['relocations'] = [];
  const view = new DataView(bytes.buffer);
  let offset = 0;
  const put = (op: Ast.Operand): void => {
    if (offset + elem > bytes.length) return;
    const fn = op.kind === 'symbol' ? functions?.get(op.name) : undefined;
    const bits = fn ?? scalarBits(op, v.type, relocations, offset);
    if (bits === undefined) {
      diags.push({ code: DiagnosticCode.ParseBadLiteral, severity: 'error', span: op.span, message: `initializer of kind ${op.kind} is not supported` });
    } else {
      for (let i = 0; i < elem; i++) view.setUint8(offset + i, Number((bits >> BigInt(8 * i)) & 0xffn));
    }
    offset += elem;
  };
  const walk = (init: Ast.Initializer): void => {
    if (init.kind === 'value') put(init.value);
    else for (const e of init.elements) walk(e);
  };
  walk(v.initializer);
  return { bytes, relocations };
}

function scalarBits(op: Ast.Operand, type: Ast.ScalarType, relocs: InitialBytes['relocations'], offset: number): bigint | undefined {
  const float = isFloatType(type);
  switch (op.kind) {
    case 'integer':
      if (!float) return BigInt.asUintN(64, op.value);
      return type === 'f32' ? f32Bits(Number(op.value)) : f64Bits(Number(op.value));
    case 'float':
      if (type === 'f32') return op.width === 32 ? op.bits : f32Bits(bitsToF64(op.bits));
      if (type === 'f64') return op.width === 64 ? op.bits : f64Bits(bitsToF32(op.bits));
      return op.bits;
    case 'symbol':
      if (op.name === WARP_SZ) return float ? undefined : WARP_SZ_VALUE;
      relocs.push({ offset, symbol: op.name, generic: false });
      return 0n;
    case 'expression': {
      const k = float ? undefined : constantInteger(op, () => false);
      if (k !== undefined) return BigInt.asUintN(64, k);
      const r = symbolic(op);
      if (!r) return undefined;
      relocs.push({ offset, ...r });
      return 0n;
    }
    default:
      return undefined;
  }
}

/** `sym`, `generic(sym)`, and either plus or minus a constant (`generic(gdata)+8`). */
function symbolic(op: Ast.Operand): { symbol: string; generic: boolean; addend: number } | undefined {
  if (op.kind === 'symbol') return { symbol: op.name, generic: false, addend: 0 };
  if (op.kind !== 'expression') return undefined;
  const [a, b] = op.args;
  if (op.op === 'generic') return a?.kind === 'symbol' ? { symbol: a.name, generic: true, addend: 0 } : undefined;
  if ((op.op === '+' || op.op === '-') && a && b?.kind === 'integer') {
    const base = symbolic(a);
    return base ? { ...base, addend: base.addend + (op.op === '+' ? 1 : -1) * Number(b.value) } : undefined;
  }
  if (op.op === '+' && a?.kind === 'integer' && b) {
    const base = symbolic(b);
    return base ? { ...base, addend: base.addend + Number(a.value) } : undefined;
  }
  return undefined;
}
