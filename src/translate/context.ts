/**
 * The state of translating one PTX function body into IR: the current block, register
 * scopes, the SSA builder, and the operand readers/writers every opcode handler uses.
 * Coercions between a register's declared type and an instruction's type follow PTX's
 * operand rules: same-width reinterpretation is a bitcast, a wider register is truncated
 * on read and extended (per the instruction type's signedness) on write.
 */
import type * as Ast from '../ptx/ast.js';
import { DiagnosticCode, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { Span } from '../diagnostics/span.js';
import type { BlockId, ValueId } from '../ir/entities.js';
import type { IrFunction } from '../ir/function.js';
import type { Inst, MemorySpace } from '../ir/inst.js';
import * as T from '../ir/types.js';
import type { IrType } from '../ir/types.js';
import type { SsaBuilder, Variable } from './ssa.js';
import { irTypeOf } from './ptx-types.js';
import { RESERVED_SMEM_BYTES, RESERVED_SMEM_SYMBOL, reservedSmemOffset, specialRegister } from './special-registers.js';
import { constantInteger, symbolPlusOffset, WARP_SZ, WARP_SZ_VALUE } from './constant-expression.js';
import type { CallTargets, FunctionTable } from './function-pointers.js';

export interface Scope {
  readonly parent: Scope | undefined;
  readonly registers: Map<string, Variable>;
  /** Parameterized declarations `%r<N>`: prefix -> (variable key prefix, type, count). */
  readonly families: Map<string, { readonly key: string; readonly type: IrType; readonly count: number }>;
}

export interface ModuleSymbols {
  readonly addressSize: 32 | 64;
  /** Kernel parameters of the function being built, by name. */
  readonly kernelParams: ReadonlyMap<string, number>;
  /** Variables with an address in a memory window, by name. */
  readonly variables: ReadonlyMap<string, MemorySpace>;
  /** The module's text, to name an instruction as it is written (diagnostics). */
  readonly text?: string;
  /** The element size of each variable in scope, for array elements `a[i]` as operands. */
  readonly elementBytes?: ReadonlyMap<string, number>;
  /** The module's function addresses (function-pointers.ts). */
  readonly functions?: FunctionTable;
  /** Set when this kernel's wmma takes the tensor-core path (wmma-fragment-flow.ts). */
  readonly fragments?: FragmentPlan;
  /** Set when this kernel's mma takes the tensor-core path (mma-tensor-core.ts). */
  readonly mmaTensorCores?: boolean;
}

import type { FragmentPlan } from './wmma-fragment-plan.js';

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

export class BuildContext {
  block: BlockId;
  scope: Scope;
  /** The function's `.callprototype` and `.calltargets` statements, by label (function-pointers.ts). */
  callTargets: ReadonlyMap<string, CallTargets> = new Map();
  /** Registers that may hold a swizzled tile's address (ldmatrix-origins.ts), on the tensor-core path of mma. */
  swizzledRegisters: ReadonlySet<string> = new Set();
  /** Constants by type (types are interned), then bits. */
  private readonly consts = new Map<IrType, Map<bigint, ValueId>>();

  constructor(
    readonly fn: IrFunction,
    readonly ssa: SsaBuilder,
    readonly symbols: ModuleSymbols,
    readonly diagnostics: Diagnostic[],
    entry: BlockId,
    scope: Scope,
  ) {
    this.block = entry;
    this.scope = scope;
  }

  emit(inst: Inst, span: Span, hint?: string): ValueId {
    const [v] = this.fn.append(this.block, inst, span, [inst.type], hint);
    return v as ValueId;
  }

  /** Emits an instruction whose result is not used (stores, barriers). */
  effect(inst: Inst, span: Span): void {
    this.fn.append(this.block, inst, span, []);
  }

  /** Constants are emitted once, in the entry block, so they dominate every use. */
  constant(type: IrType, bits: bigint, span: Span): ValueId {
    const width = T.bitWidth(type);
    const masked = width >= 128 ? bits : BigInt.asUintN(width, bits);
    let byBits = this.consts.get(type);
    if (byBits === undefined) this.consts.set(type, (byBits = new Map()));
    const hit = byBits.get(masked);
    if (hit !== undefined) return hit;
    const { id, results } = this.fn.createDetached(this.fn.entry, { op: 'const', type, bits: masked }, span);
    this.fn.block(this.fn.entry).insts.unshift(id);
    const v = results[0] as ValueId;
    byBits.set(masked, v);
    return v;
  }

  lookup(reg: Ast.RegisterOperand): Variable | undefined {
    for (let s: Scope | undefined = this.scope; s; s = s.parent) {
      const v = s.registers.get(reg.name);
      if (v) return v;
      // `%r12`: family `%r`, number 12 (the trailing digits; scanned, not matched: this runs
      // at the first read of every register of every function).
      const name = reg.name;
      let cut = name.length;
      while (cut > 0 && isDigit(name.charCodeAt(cut - 1))) cut--;
      if (cut < name.length) {
        const digits = name.slice(cut);
        const fam = s.families.get(name.slice(0, cut));
        const n = Number(digits);
        if (fam && n < fam.count && String(n) === digits) {
          const variable = { key: `${fam.key}${n}`, type: fam.type, hint: reg.name };
          s.registers.set(reg.name, variable);
          return variable;
        }
      }
    }
    return undefined;
  }

  /** Reads an operand as a value of `type`; `signed` picks sign extension for narrow registers. */
  /** The SSA value a whole register holds now (no coercion), or undefined for other operands. */
  definition(op: Ast.Operand): ValueId | undefined {
    if (op.kind !== 'register' || op.component !== undefined) return undefined;
    const variable = this.lookup(op);
    return variable ? this.ssa.read(variable, this.block, op.span) : undefined;
  }

  read(op: Ast.Operand, type: IrType, signed = false): ValueId {
    switch (op.kind) {
      case 'register': {
        const variable = this.lookup(op);
        if (!variable) return this.fail(DiagnosticCode.SemaUndefinedRegister, `register \`${op.name}\` is not declared`, op.span, type);
        const whole = this.ssa.read(variable, this.block, op.span);
        if (op.component === undefined) return this.coerce(whole, type, signed, op.span);
        const element = this.element(variable.type, op);
        if (!element) return this.fail(DiagnosticCode.ParseBadOperand, `\`${op.name}\` has no element ${op.component} (it is not a vector register of that length)`, op.span, type);
        return this.coerce(this.emit({ op: 'extract', type: element, value: whole, index: op.component }, op.span), type, signed, op.span);
      }
      case 'integer': return this.integerLiteral(op.value, type, op.span);
      case 'float': return this.floatLiteral(op, type);
      case 'special': return this.coerce(this.special(op), type, false, op.span);
      case 'negated': {
        const p = this.read(op.operand, T.pred);
        return this.emit({ op: 'iunary', kind: 'not', type: T.pred, value: p }, op.span);
      }
      // WARP_SZ: the predefined constant nvcc emits for `warpSize` (32 on every warp path of ours)
      case 'symbol': return op.name === WARP_SZ && !this.isVariable(op.name)
        ? this.coerce(this.constant(T.i32, WARP_SZ_VALUE, op.span), type, false, op.span)
        : this.coerce(this.symbolAddress(op), type, false, op.span);
      case 'expression': return this.expression(op, type);
      default:
        return this.fail(DiagnosticCode.ParseBadOperand, `operand of kind ${op.kind} is not valid here`, op.span, type);
    }
  }

  private isVariable = (name: string): boolean => this.symbols.variables.has(name);

  /**
   * A constant expression (`WARP_SZ-1`, `(4+1)*2`), a variable's address plus an offset
   * (`tbl+12`), or an array element's address (`a[3]`, `a[%r1]`, ISA "Arrays as Operands").
   */
  private expression(op: Ast.ExpressionOperand, type: IrType): ValueId {
    const k = constantInteger(op, this.isVariable);
    if (k !== undefined) return this.integerLiteral(k, type, op.span);
    if (op.op === 'index') return this.coerce(this.elementAddress(op), type, false, op.span);
    const [a, b] = op.args;
    const offset = b ? constantInteger(b, this.isVariable) : undefined;
    if ((op.op === '+' || op.op === '-') && a?.kind === 'register' && offset !== undefined) {
      // `%r1+1`, as an array index
      const r = this.read(a, type, true);
      return this.emit({ op: 'ibinary', kind: 'add', type, a: r, b: this.constant(type, op.op === '+' ? offset : -offset, op.span) }, op.span);
    }
    const at = symbolPlusOffset(op, this.isVariable);
    if (at && this.isVariable(at.symbol.name)) {
      const base = this.symbolAddress(at.symbol);
      const t = this.fn.typeOf(base);
      const sum = this.emit({ op: 'ibinary', kind: 'add', type: t, a: base, b: this.constant(t, at.offset, op.span) }, op.span);
      return this.coerce(sum, type, false, op.span);
    }
    return this.fail(DiagnosticCode.ParseBadOperand, 'expected a constant integer expression or `variable+offset` here', op.span, type);
  }

  /** `a[i]`: the address of `a` plus i elements; i is a constant expression or a register (plus or minus a constant). */
  private elementAddress(op: Ast.ExpressionOperand): ValueId {
    const [array, index] = op.args;
    const bytes = array?.kind === 'symbol' ? this.symbols.elementBytes?.get(array.name) : undefined;
    if (!array || array.kind !== 'symbol' || !index || bytes === undefined) {
      return this.fail(DiagnosticCode.ParseBadOperand, 'an array element `a[i]` names a variable', op.span, T.i64);
    }
    const base = this.symbolAddress(array);
    const t = this.fn.typeOf(base);
    const k = constantInteger(index, this.isVariable);
    const i = k !== undefined ? this.constant(t, k, index.span) : this.read(index, t, true);
    const offset = this.emit({ op: 'ibinary', kind: 'mul', type: t, a: i, b: this.constant(t, BigInt(bytes), op.span) }, op.span);
    return this.emit({ op: 'ibinary', kind: 'add', type: t, a: base, b: offset }, op.span);
  }

  /** Writes `value` to a destination register (or discards it for `_`). */
  write(op: Ast.Operand, value: ValueId, signed = false): void {
    if (op.kind === 'sink') return;
    if (op.kind !== 'register') {
      this.fail(DiagnosticCode.ParseBadOperand, `destination must be a register`, op.span, T.i32);
      return;
    }
    const variable = this.lookup(op);
    if (!variable) {
      this.fail(DiagnosticCode.SemaUndefinedRegister, `register \`${op.name}\` is not declared`, op.span, T.i32);
      return;
    }
    if (op.component !== undefined) {
      // one element of a vector register: the others keep their values
      const element = this.element(variable.type, op);
      if (!element || variable.type.kind !== 'vector') {
        this.fail(DiagnosticCode.ParseBadOperand, `\`${op.name}\` has no element ${op.component} (it is not a vector register of that length)`, op.span, T.i32);
        return;
      }
      const whole = this.ssa.read(variable, this.block, op.span);
      const parts = Array.from({ length: variable.type.count }, (_, k) =>
        k === op.component ? this.coerce(value, element, signed, op.span) : this.emit({ op: 'extract', type: element, value: whole, index: k }, op.span));
      this.ssa.write(variable, this.block, this.emit({ op: 'compose', type: variable.type, parts }, op.span));
      return;
    }
    this.ssa.write(variable, this.block, this.coerce(value, variable.type, signed, op.span));
  }

  /** The element type of vector register type `t` when `op`'s component is inside it. */
  private element(t: IrType, op: Ast.RegisterOperand): IrType | undefined {
    return t.kind === 'vector' && op.component !== undefined && op.component < t.count ? t.element : undefined;
  }

  /** The declared IR type of a destination register, if it is one. */
  registerType(op: Ast.Operand): IrType | undefined {
    if (op.kind !== 'register') return undefined;
    const t = this.lookup(op)?.type;
    return t && op.component !== undefined ? this.element(t, op) : t;
  }

  coerce(v: ValueId, to: IrType, signed: boolean, span: Span): ValueId {
    const from = this.fn.typeOf(v);
    if (from === to) return v;
    const fw = T.bitWidth(from);
    const tw = T.bitWidth(to);
    if (from.kind === 'pred' || to.kind === 'pred') {
      if (from.kind === 'pred') return this.emit({ op: 'select', type: to, cond: v, a: this.constant(to, 1n, span), b: this.constant(to, 0n, span) }, span);
      return this.emit({ op: 'icmp', type: T.pred, cond: 'ne', a: v, b: this.constant(from, 0n, span) }, span);
    }
    if (fw === tw) return this.emit({ op: 'bitcast', type: to, value: v }, span);
    const asInt = (x: ValueId, bits: number): ValueId => (this.fn.typeOf(x).kind === 'int' ? x : this.emit({ op: 'bitcast', type: T.int(bits as T.IntBits), value: x }, span));
    const src = asInt(v, fw);
    const resized = tw < fw
      ? this.emit({ op: 'truncate', type: T.int(tw as T.IntBits), value: src }, span)
      : this.emit({ op: 'extend', type: T.int(tw as T.IntBits), signed, value: src }, span);
    return to.kind === 'int' ? resized : this.emit({ op: 'bitcast', type: to, value: resized }, span);
  }

  /** The address of `[base+offset]` in the width of its base. */
  address(op: Ast.Operand, space: MemorySpace): ValueId {
    if (op.kind === 'expression' && op.op === 'index') return this.elementAddress(op);
    if (op.kind !== 'address') return this.fail(DiagnosticCode.ParseBadOperand, 'expected an address `[...]`', op.span, T.i64);
    const width = this.addressWidth(op.base, space);
    const base = op.base.kind === 'integer'
      ? this.constant(width, op.base.value, op.base.span)
      : this.read(op.base, width);
    if (op.offset === 0n) return base;
    return this.emit({ op: 'ibinary', kind: 'add', type: width, a: base, b: this.constant(width, op.offset, op.span) }, op.span);
  }

  fail(code: Diagnostic['code'], message: string, span: Span, type: IrType): ValueId {
    this.diagnostics.push({ code, severity: 'error', message, span });
    return this.constant(type, 0n, span);
  }

  /** A special register (special-registers.ts); L002 for one the IR does not know. */
  private special(op: Ast.SpecialRegisterOperand): ValueId {
    if (op.name.startsWith('reserved_smem_offset_')) return this.reservedSmem(op);
    if (op.name === 'envreg') {
      return this.fail(DiagnosticCode.LowerUnsupportedFeature, `special register %envreg${op.index ?? ''} is not supported: the CUDA driver fills it from its launch environment, which has no WebGPU counterpart and no documented value`, op.span, T.i32);
    }
    const inst = specialRegister(op);
    if (!inst) return this.fail(DiagnosticCode.LowerUnsupportedFeature, `special register %${op.name} is not supported`, op.span, T.i32);
    return this.emit(inst, op.span);
  }

  /** `%reserved_smem_offset_*`: offsets in the reserved shared region (special-registers.ts). */
  private reservedSmem(op: Ast.SpecialRegisterOperand): ValueId {
    const at = reservedSmemOffset(op.name.slice('reserved_smem_offset_'.length));
    if (at === undefined) return this.fail(DiagnosticCode.LowerUnsupportedFeature, `special register %${op.name} is not supported`, op.span, T.i32);
    if (at === 'cap') return this.constant(T.i32, BigInt(RESERVED_SMEM_BYTES), op.span);
    const base = this.emit({ op: 'address_of', type: T.i32, symbol: RESERVED_SMEM_SYMBOL, space: 'shared' }, op.span);
    if (at === 0) return base;
    return this.emit({ op: 'ibinary', kind: 'add', type: T.i32, a: base, b: this.constant(T.i32, BigInt(at), op.span) }, op.span);
  }

  private addressWidth(base: Ast.Operand, space: MemorySpace): IrType {
    if (base.kind === 'register') {
      const t = this.lookup(base)?.type;
      if (t && t.kind === 'int' && (t.bits === 32 || t.bits === 64)) return t;
    }
    if (base.kind === 'symbol' && space !== 'global' && space !== 'generic') return T.i32;
    return this.symbols.addressSize === 64 ? T.i64 : T.i32;
  }

  /**
   * The address `mov` and address operands take of a name: a variable's in its window; a kernel
   * parameter's in the .param space (ISA "Kernel Function Parameters"), its offset there, read
   * back by ld.param (handlers-memory.ts); a function's (function-pointers.ts).
   */
  private symbolAddress(op: Ast.SymbolOperand): ValueId {
    const type = this.symbols.addressSize === 64 ? T.i64 : T.i32;
    const space = this.symbols.variables.get(op.name);
    if (space) return this.emit({ op: 'address_of', type, symbol: op.name, space }, op.span);
    const param = this.symbols.kernelParams.get(op.name);
    if (param !== undefined) return this.constant(type, BigInt(this.fn.kernelParams[param]?.offset ?? 0), op.span);
    const fn = this.symbols.functions?.addresses.get(op.name);
    if (fn !== undefined) return this.constant(type, fn, op.span);
    if (this.symbols.functions?.kernels.has(op.name)) {
      return this.fail(DiagnosticCode.LowerUnsupportedFeature, `the address of kernel \`${op.name}\` is for launching it from the GPU (CUDA dynamic parallelism), which WebGPU cannot do`, op.span, type);
    }
    return this.fail(DiagnosticCode.SemaUndefinedSymbol, `\`${op.name}\` is not a variable with an address`, op.span, T.i64);
  }

  private integerLiteral(value: bigint, type: IrType, span: Span): ValueId {
    if (type.kind === 'float') {
      const bits = type.bits === 32 ? f32Bits(Number(value)) : type.bits === 64 ? f64Bits(Number(value)) : 0n;
      return this.constant(type, bits, span);
    }
    if (type.kind === 'pred') return this.constant(type, value === 0n ? 0n : 1n, span);
    return this.constant(type, value, span);
  }

  private floatLiteral(op: Ast.FloatOperand, type: IrType): ValueId {
    if (type.kind === 'float' && type.bits === 32 && op.width === 64) {
      return this.constant(type, f32Bits(bitsToF64(op.bits)), op.span);
    }
    if (type.kind === 'float' && type.bits === 64 && op.width === 32) {
      return this.constant(type, f64Bits(bitsToF32(op.bits)), op.span);
    }
    return this.constant(type, op.bits, op.span);
  }
}

const scratch = new DataView(new ArrayBuffer(8));
export function f32Bits(x: number): bigint { scratch.setFloat32(0, x, true); return BigInt(scratch.getUint32(0, true)); }
export function f64Bits(x: number): bigint { scratch.setFloat64(0, x, true); return scratch.getBigUint64(0, true); }
export function bitsToF32(b: bigint): number { scratch.setUint32(0, Number(b & 0xffffffffn), true); return scratch.getFloat32(0, true); }
export function bitsToF64(b: bigint): number { scratch.setBigUint64(0, b, true); return scratch.getFloat64(0, true); }
export { irTypeOf };
