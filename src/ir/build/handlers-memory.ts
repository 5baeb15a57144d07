/**
 * Memory and synchronisation instructions: ld/ldu/st (scalar and vector), kernel
 * parameter reads, atom/red, bar/barrier, membar/fence, and the cache hints that are
 * no-ops on WebGPU (prefetch, applypriority, discard).
 */
import type * as Ast from '../../ptx/ast.js';
import { DiagnosticCode } from '../../diagnostics/diagnostic.js';
import type { ValueId } from '../entities.js';
import type { MemorySpace } from '../inst.js';
import * as T from '../types.js';
import type { IrType } from '../types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { operand, typeOf } from './handler.js';
import { irTypeOf, isFloatType, isSigned, sizeOf } from './ptx-types.js';

function spaceOf(inst: Ast.Instruction): MemorySpace | 'param' {
  const s = inst.modifiers.space?.space;
  if (s === 'param') return 'param';
  if (s === 'global' || s === 'shared' || s === 'local' || s === 'const') return s;
  return 'generic';
}

function elementCount(op: Ast.Operand, inst: Ast.Instruction): number {
  return inst.modifiers.vector ?? (op.kind === 'vector' ? op.elements.length : 1);
}

function accessType(inst: Ast.Instruction, count: number): IrType {
  const e = irTypeOf(typeOf(inst));
  return count === 1 ? e : T.vector(e as T.ScalarIrType, count as 2 | 4 | 8);
}

/** Writes a loaded scalar or vector to the destination register(s). */
function writeLoaded(cx: BuildContext, inst: Ast.Instruction, dst: Ast.Operand, v: ValueId): void {
  const signed = isSigned(typeOf(inst));
  if (dst.kind !== 'vector') { cx.write(dst, v, signed); return; }
  const et = irTypeOf(typeOf(inst));
  dst.elements.forEach((e, index) => cx.write(e, cx.emit({ op: 'extract', type: et, value: v, index }, inst.span), signed));
}

/** `ld.param` of an entry parameter reads the launch uniform; returns false when it is not one. */
function loadKernelParam(cx: BuildContext, inst: Ast.Instruction): boolean {
  const addr = operand(inst, 1);
  if (addr.kind !== 'address' || addr.base.kind !== 'symbol') return false;
  const index = cx.symbols.kernelParams.get(addr.base.name);
  if (index === undefined) return false;
  const dst = operand(inst, 0);
  const count = elementCount(dst, inst);
  const et = irTypeOf(typeOf(inst));
  const size = sizeOf(typeOf(inst));
  const parts = Array.from({ length: count }, (_, i) =>
    cx.emit({ op: 'kernel_param', type: et, param: index, offset: Number(addr.offset) + i * size }, inst.span));
  const value = count === 1 ? (parts[0] as ValueId) : cx.emit({ op: 'compose', type: accessType(inst, count), parts }, inst.span);
  writeLoaded(cx, inst, dst, value);
  return true;
}

const ld: Handler = (cx, inst) => {
  const space = spaceOf(inst);
  if (space === 'param') {
    if (!loadKernelParam(cx, inst)) unsupportedParam(cx, inst);
    return;
  }
  const dst = operand(inst, 0);
  const type = accessType(inst, elementCount(dst, inst));
  const address = cx.address(operand(inst, 1), space);
  writeLoaded(cx, inst, dst, cx.emit({ op: 'load', type, space, address, region: null }, inst.span));
};

const st: Handler = (cx, inst) => {
  const space = spaceOf(inst);
  if (space === 'param') { unsupportedParam(cx, inst); return; }
  const src = operand(inst, 1);
  const count = elementCount(src, inst);
  const et = irTypeOf(typeOf(inst));
  const value = src.kind === 'vector'
    ? cx.emit({ op: 'compose', type: accessType(inst, count), parts: src.elements.map((e) => cx.read(e, et)) }, inst.span)
    : cx.read(src, et);
  const address = cx.address(operand(inst, 0), space);
  cx.effect({ op: 'store', type: cx.fn.typeOf(value), space, address, region: null, value }, inst.span);
};

function unsupportedParam(cx: BuildContext, inst: Ast.Instruction): void {
  cx.diagnostics.push({
    code: DiagnosticCode.LowerUnsupportedFeature, severity: 'error', span: inst.span,
    message: `\`${inst.opcode}.param\` outside an entry's own parameters (device-function calls) is not supported yet`,
  });
}

function atomic(hasResult: boolean): Handler {
  return (cx, inst) => {
    const space = spaceOf(inst);
    const pt = typeOf(inst);
    const t = irTypeOf(pt);
    const m = inst.modifiers;
    const first = hasResult ? 1 : 0;
    const address = cx.address(operand(inst, first), space === 'param' ? 'generic' : space);
    const value = cx.read(operand(inst, first + 1), t, isSigned(pt));
    const compare = m.atomicOp === 'cas' ? cx.read(operand(inst, first + 2), t) : null;
    const [old] = cx.fn.append(cx.block, {
      op: 'atomic', type: t, kind: m.atomicOp ?? 'add', signed: isSigned(pt), isFloat: isFloatType(pt),
      space: space === 'param' ? 'generic' : space, address, region: null, value, compare,
      semantics: m.semantics ?? null, scope: m.scope ?? null,
    }, inst.span, [t]);
    if (hasResult && old !== undefined) cx.write(operand(inst, 0), old, isSigned(pt));
  };
}

const bar: Handler = (cx, inst) => {
  const m = inst.modifiers;
  if (m.mode === 'warp' || m.extra?.includes('warp')) return; // bar.warp.sync: see warp lowering
  const kind = m.barrier ?? 'sync';
  if (kind === 'red') {
    cx.diagnostics.push({ code: DiagnosticCode.LowerUnsupportedInstruction, severity: 'error', span: inst.opcodeSpan, message: '`bar.red` is not supported yet' });
    return;
  }
  const id = inst.operands[0] ? cx.read(operand(inst, 0), T.i32) : null;
  const count = inst.operands[1] ? cx.read(operand(inst, 1), T.i32) : null;
  cx.effect({ op: 'barrier', type: T.i32, kind, id, count, aligned: !!m.aligned || inst.opcode === 'bar', reduce: null }, inst.span);
};

const fence: Handler = (cx, inst) => {
  cx.effect({ op: 'fence', type: T.i32, scope: inst.modifiers.scope ?? 'gpu' }, inst.span);
};

const noop: Handler = () => {};

export const MEMORY_HANDLERS: Readonly<Record<string, Handler>> = {
  ld, ldu: ld, st,
  atom: atomic(true), red: atomic(false),
  bar, barrier: bar,
  membar: fence, fence,
  prefetch: noop, prefetchu: noop, applypriority: noop, discard: noop,
};
