/**
 * Memory and synchronisation instructions: ld/ldu/st (scalar and vector), kernel
 * parameter reads, `.param` variables of calls (local memory), call, isspacep, atom/red,
 * bar/barrier, membar/fence, and the cache hints that are no-ops on WebGPU (prefetch,
 * applypriority, discard).
 */
import type * as Ast from '../ptx/ast.js';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import type { ValueId } from '../ir/entities.js';
import type { MemorySpace } from '../ir/inst.js';
import * as T from '../ir/types.js';
import type { IrType } from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { operand, typeOf } from './handler.js';
import { irTypeOf, isFloatType, isSigned, sizeOf } from './ptx-types.js';
import { STACK_HANDLERS } from './handlers-stack.js';
import { calleeIndex, candidates, targetsLabel } from './function-pointers.js';
import type { BlockId } from '../ir/entities.js';
import type { BlockCall } from '../ir/function.js';
import { atomicOp, memoryScope, memorySemantics } from './vocabulary.js';

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
  // `ld.global.b32 { %r }` (Triton writes one-element braces without `.v1`): the scalar itself
  if (dst.elements.length === 1 && cx.fn.typeOf(v).kind !== 'vector') { cx.write(dst.elements[0] as Ast.Operand, v, signed); return; }
  const et = irTypeOf(typeOf(inst));
  dst.elements.forEach((e, index) => cx.write(e, cx.emit({ op: 'extract', type: et, value: v, index }, inst.span), signed));
}

/** `ld.param` of an entry parameter reads the launch uniform; returns false when it is not one. */
function loadKernelParam(cx: BuildContext, inst: Ast.Instruction): boolean {
  const addr = operand(inst, 1);
  if (addr.kind !== 'address' || addr.base.kind !== 'symbol') return false;
  const index = cx.symbols.kernelParams.get(addr.base.name);
  if (index === undefined) return false;
  readKernelParam(cx, inst, index, Number(addr.offset), null);
  return true;
}

/**
 * `ld.param` through a register in a kernel: the register holds a kernel parameter's address
 * (`mov.u64 %rd1, k_param_0;`, ISA "Kernel Function Parameters": such an address is in the
 * .param space and is read with ld.param), an offset in the parameter space (context.ts).
 * nvcc does this for `__grid_constant__` parameters indexed at run time.
 */
function loadKernelParamAt(cx: BuildContext, inst: Ast.Instruction): boolean {
  const addr = operand(inst, 1);
  if (!cx.fn.isEntry || addr.kind !== 'address' || addr.base.kind === 'symbol') return false;
  const full = cx.address({ ...addr, offset: 0n }, 'generic');
  const at = cx.fn.typeOf(full) === T.i32 ? full : cx.emit({ op: 'truncate', type: T.i32, value: full }, inst.span);
  readKernelParam(cx, inst, -1, Number(addr.offset), at);
  return true;
}

/** The element(s) of an `ld.param` from the launch uniform, `offset` bytes into `param` (or past `dynamic`). */
function readKernelParam(cx: BuildContext, inst: Ast.Instruction, param: number, offset: number, dynamic: ValueId | null): void {
  const dst = operand(inst, 0);
  const count = elementCount(dst, inst);
  const et = irTypeOf(typeOf(inst));
  const size = sizeOf(typeOf(inst));
  const parts = Array.from({ length: count }, (_, i) =>
    cx.emit({ op: 'kernel_param', type: et, param, offset: offset + i * size, dynamic }, inst.span));
  const value = count === 1 ? (parts[0] as ValueId) : cx.emit({ op: 'compose', type: accessType(inst, count), parts }, inst.span);
  writeLoaded(cx, inst, dst, value);
}

const ld: Handler = (cx, inst) => {
  const space = spaceOf(inst);
  if (space === 'param' && (loadKernelParam(cx, inst) || loadKernelParamAt(cx, inst))) return;
  if (space === 'param' && !isParamVariable(cx, operand(inst, 1))) { unsupportedParam(cx, inst); return; }
  const dst = operand(inst, 0);
  const type = accessType(inst, elementCount(dst, inst));
  const memSpace = space === 'param' ? 'local' : space;
  const address = cx.address(operand(inst, 1), memSpace);
  const readOnly = inst.opcode === 'ldu' || inst.modifiers.cache === 'nc' ? { readOnly: true as const } : {};
  writeLoaded(cx, inst, dst, cx.emit({ op: 'load', type, space: memSpace, address, region: null, ...readOnly }, inst.span));
};

/** `.param` variables of `.func`s and call sequences live in the local window (build-module.ts). */
function isParamVariable(cx: BuildContext, op: Ast.Operand): boolean {
  return op.kind === 'address' && op.base.kind === 'symbol' && cx.symbols.variables.get(op.base.name) === 'local';
}

/**
 * `call` of a `.func` by name: the argument and return lists name `.param` variables, passed
 * as their addresses; lowering/inline-calls.ts replaces the call with the callee's body.
 * A call through a register (a function pointer) calls the candidate whose address it holds
 * (indirectCall).
 */
const call: Handler = (cx, inst) => {
  const calleeAt = calleeIndex(inst);
  const callee = inst.operands[calleeAt];
  const list = (op: Ast.Operand | undefined): ValueId[] => (op?.kind === 'vector' ? op.elements.map((e) => cx.read(e, cx.symbols.addressSize === 64 ? T.i64 : T.i32)) : []);
  const returns = calleeAt > 0 ? list(inst.operands[calleeAt - 1]) : [];
  const args = list(inst.operands[calleeAt + 1]);
  if (callee?.kind === 'symbol' && !cx.symbols.variables.has(callee.name)) {
    cx.effect({ op: 'call', type: T.i32, callee: callee.name, args, returns }, inst.span);
    return;
  }
  if (!callee || callee.kind !== 'register') {
    cx.diagnostics.push({ code: DiagnosticCode.SemaUndefinedSymbol, severity: 'error', span: callee?.span ?? inst.span, message: `\`${callee?.kind === 'symbol' ? callee.name : '?'}\` is not a function of this module` });
    return;
  }
  indirectCall(cx, inst, callee, args, returns);
};

/**
 * `call (r), %rd, (a), proto;`: WGSL has no function pointers, so the pointer is compared with
 * the address of each function the call may reach (function-pointers.ts), in turn, and the one
 * it equals is called directly; an address that is none of them traps.
 */
function indirectCall(cx: BuildContext, inst: Ast.Instruction, callee: Ast.Operand, args: readonly ValueId[], returns: readonly ValueId[]): void {
  const s = inst.span;
  const label = targetsLabel(inst);
  const targets = label === undefined ? undefined : cx.callTargets.get(label);
  const functions = cx.symbols.functions;
  if (!targets || !functions) {
    cx.diagnostics.push({ code: DiagnosticCode.SemaUndefinedLabel, severity: 'error', span: inst.operands.at(-1)?.span ?? s, message: 'an indirect call names a `.callprototype` or `.calltargets` label of its function as its last operand' });
    return;
  }
  const t = cx.symbols.addressSize === 64 ? T.i64 : T.i32;
  const pointer = cx.read(callee, t);
  const fn = cx.fn;
  const join = fn.addBlock();
  const edge = (from: BlockId, to: BlockId): BlockCall => {
    const e = { from, to, args: [] as ValueId[] };
    cx.ssa.addEdge(e);
    return { block: to, args: e.args };
  };
  for (const name of candidates(functions, targets)) {
    const address = cx.constant(t, functions.addresses.get(name) ?? 0n, s);
    const hit = cx.emit({ op: 'icmp', type: T.pred, cond: 'eq', a: pointer, b: address }, s);
    const callBlock = fn.addBlock();
    const next = fn.addBlock();
    fn.block(cx.block).term = { op: 'branch', cond: hit, then: edge(cx.block, callBlock), else: edge(cx.block, next), span: s };
    cx.ssa.seal(callBlock, s);
    cx.ssa.seal(next, s);
    fn.append(callBlock, { op: 'call', type: T.i32, callee: name, args, returns }, s, []);
    fn.block(callBlock).term = { op: 'jump', target: edge(callBlock, join), span: s };
    cx.block = next;
  }
  const never = cx.constant(T.pred, 1n, s);
  cx.effect({ op: 'trap_if', type: T.i32, cond: never, at: s.start, reason: 'an indirect call through an address that is not a function of this module matching the call\'s prototype' }, s);
  fn.block(cx.block).term = { op: 'trap', span: s };
  cx.ssa.seal(join, s);
  cx.block = join;
}

const st: Handler = (cx, inst) => {
  const declared = spaceOf(inst);
  if (declared === 'param' && !isParamVariable(cx, operand(inst, 0))) { unsupportedParam(cx, inst); return; }
  const space = declared === 'param' ? 'local' : declared;
  const src = operand(inst, 1);
  const count = elementCount(src, inst);
  const et = irTypeOf(typeOf(inst));
  // a brace list, a vector register (`st.v4.u32 [p], v;`), or a scalar
  const value = src.kind === 'vector' && count === 1 && src.elements.length === 1
    ? cx.read(src.elements[0] as Ast.Operand, et)
    : src.kind === 'vector'
    ? cx.emit({ op: 'compose', type: accessType(inst, count), parts: src.elements.map((e) => cx.read(e, et)) }, inst.span)
    : cx.read(src, count > 1 ? accessType(inst, count) : et);
  const address = cx.address(operand(inst, 0), space);
  cx.effect({ op: 'store', type: cx.fn.typeOf(value), space, address, region: null, value }, inst.span);
};

function unsupportedParam(cx: BuildContext, inst: Ast.Instruction): void {
  cx.diagnostics.push({
    code: DiagnosticCode.LowerUnsupportedFeature, severity: 'error', span: inst.span,
    message: `\`${inst.opcode}.param\` through an address that is not a \`.param\` variable is not supported`,
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
    // `atom.cas d, [a], b, c` stores c where the old value equals b
    const cas = m.atomicOp === 'cas';
    const compare = cas ? cx.read(operand(inst, first + 1), t) : null;
    const value = cx.read(operand(inst, cas ? first + 2 : first + 1), t, isSigned(pt));
    const [old] = cx.fn.append(cx.block, {
      op: 'atomic', type: t, kind: atomicOp(m.atomicOp ?? 'add'), signed: isSigned(pt), isFloat: isFloatType(pt),
      space: space === 'param' ? 'generic' : space, address, region: null, value, compare,
      semantics: m.semantics ? memorySemantics(m.semantics) : null, scope: m.scope ? memoryScope(m.scope) : null,
      half: pt === 'f16' || pt === 'bf16' || pt === 'f16x2' || pt === 'bf16x2' ? pt : null,
    }, inst.span, [t]);
    if (hasResult && old !== undefined) cx.write(operand(inst, 0), old, isSigned(pt));
  };
}

/**
 * `bar{.cta}.sync|arrive a{, b}`, `barrier{.cta}.sync{.aligned} a{, b}` and
 * `bar{.cta}.red.popc.u32 d, a{, b}, {!}c` / `bar{.cta}.red.{and,or}.pred p, a{, b}, {!}c`:
 * barrier id `a`, optional thread count `b` (lowering/wgsl/emit-barrier.ts).
 */
const bar: Handler = (cx, inst) => {
  const m = inst.modifiers;
  if (m.mode === 'warp' || m.extra?.includes('warp')) return; // bar.warp.sync: see warp lowering
  const kind = m.barrier ?? 'sync';
  const aligned = !!m.aligned || inst.opcode === 'bar';
  if (kind === 'red') {
    const op = m.boolOp;
    const n = inst.operands.length;
    if ((op !== 'popc' && op !== 'and' && op !== 'or') || n < 3) {
      cx.diagnostics.push({ code: DiagnosticCode.LowerUnsupportedInstruction, severity: 'error', span: inst.opcodeSpan, message: '`bar.red` needs .popc, .and or .or, a destination, a barrier and a predicate' });
      return;
    }
    const id = cx.read(operand(inst, 1), T.i32);
    const count = n === 4 ? cx.read(operand(inst, 2), T.i32) : null;
    const pred = cx.read(operand(inst, n - 1), T.pred);
    const type = op === 'popc' ? T.i32 : T.pred;
    const [d] = cx.fn.append(cx.block, { op: 'barrier', type, kind, id, count, aligned, reduce: op, pred, active: null }, inst.span, [type]);
    if (d !== undefined) cx.write(operand(inst, 0), d, false);
    return;
  }
  const id = inst.operands[0] ? cx.read(operand(inst, 0), T.i32) : null;
  const count = inst.operands[1] ? cx.read(operand(inst, 1), T.i32) : null;
  cx.effect({ op: 'barrier', type: T.i32, kind, id, count, aligned, reduce: null, pred: null, active: null }, inst.span);
};

const fence: Handler = (cx, inst) => {
  const m = inst.modifiers;
  // `fence.mbarrier_init` exists only as `.release.cluster` (ISA; ptxas rejects the rest). With
  // one CTA per cluster and mbarrier objects in plain shared memory it is a release fence.
  if (m.mode === 'mbarrier_init' && (m.semantics !== 'release' || m.scope !== 'cluster')) {
    cx.diagnostics.push({ code: DiagnosticCode.ParseBadModifier, severity: 'error', span: inst.opcodeSpan, message: '`fence.mbarrier_init` takes exactly `.release.cluster`' });
    return;
  }
  cx.effect({ op: 'fence', type: T.i32, scope: memoryScope(inst.modifiers.scope ?? 'gpu') }, inst.span);
};

/**
 * `isspacep.space p, a`: a generic address is in a window space exactly when converting it to
 * that space and back gives it again (address-spaces.ts makes cvta keep the offset and set the
 * space's tag); it is global when it is in none of them. Generic addresses of `.param` never
 * exist here, so `isspacep.param` is false.
 */
const isspacep: Handler = (cx, inst) => {
  const s = inst.span;
  if (cx.symbols.addressSize === 32) {
    // 32-bit generic addresses carry no space tag here, so the answer would be a guess.
    cx.diagnostics.push({ code: DiagnosticCode.LowerUnsupportedFeature, severity: 'error', span: inst.opcodeSpan, message: '`isspacep` with `.address_size 32` is not supported' });
    return;
  }
  const t = cx.symbols.addressSize === 64 ? T.i64 : T.i32;
  const a = cx.read(operand(inst, 1), t);
  const inSpace = (space: 'shared' | 'local' | 'const'): ValueId => {
    const window = cx.emit({ op: 'cvta', type: t, value: a, space, toGeneric: false }, s);
    const back = cx.emit({ op: 'cvta', type: t, value: window, space, toGeneric: true }, s);
    return cx.emit({ op: 'icmp', type: T.pred, cond: 'eq', a: back, b: a }, s);
  };
  const space = inst.modifiers.space?.space;
  let p: ValueId;
  if (space === 'shared' || space === 'local' || space === 'const') p = inSpace(space);
  else if (space === 'global') {
    const any = (['shared', 'local', 'const'] as const).map(inSpace).reduce((x, y) => cx.emit({ op: 'ibinary', kind: 'or', type: T.pred, a: x, b: y }, s));
    p = cx.emit({ op: 'iunary', kind: 'not', type: T.pred, value: any }, s);
  } else p = cx.constant(T.pred, 0n, s);
  cx.write(operand(inst, 0), p);
};

const noop: Handler = () => {};

/** `createpolicy`: an opaque cache policy, consumed only by `.L2::cache_hint` operands, which have no WebGPU meaning. */
const createpolicy: Handler = (cx, inst) => { cx.write(operand(inst, 0), cx.constant(T.i64, 0n, inst.span)); };

export const MEMORY_HANDLERS: Readonly<Record<string, Handler>> = {
  ld, ldu: ld, st, call, isspacep,
  atom: atomic(true), red: atomic(false),
  bar, barrier: bar,
  membar: fence, fence,
  prefetch: noop, prefetchu: noop, applypriority: noop, discard: noop, createpolicy,
  ...STACK_HANDLERS,
};
