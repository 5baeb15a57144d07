/**
 * alloca, stacksave, stackrestore (PTX ISA 7.3+, sm_52+): a per-thread stack in the local
 * window. The stack is the module-wide `.local` variable STACK_SYMBOL of STACK_BYTES bytes
 * (CUDA's default per-thread stack limit, cudaLimitStackSize, is also 1 KiB) and grows down
 * from its end, as NVIDIA's does, so addresses relate as on the hardware; STACK_DEPTH_SYMBOL
 * holds the bytes in use (local memory starts zeroed, so an empty stack). An allocation that
 * does not fit records a trap at the `alloca` (R004 at launch, naming it): PTX leaves stack
 * overflow undefined, and here it is always reported, never silent.
 * A `.func`'s allocations are released when it returns (build-module.ts saves and restores
 * the depth around its body), as the ISA says.
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import * as T from '../ir/types.js';
import type { IrType } from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { operand, typeOf } from './handler.js';

/** Bytes of the per-thread alloca stack; larger demands trap. */
export const STACK_BYTES = 1024;
/** Names no PTX identifier can have, so they never clash with the program's variables. */
export const STACK_SYMBOL = '%%stack';
export const STACK_DEPTH_SYMBOL = '%%stack_depth';
/** The stack's own alignment (raised to the largest immAlign; the ISA's default immAlign is 8). */
export const STACK_MIN_ALIGN = 16;

export const STACK_OPCODES: ReadonlySet<string> = new Set(['alloca', 'stacksave', 'stackrestore']);

function instType(inst: Ast.Instruction): IrType {
  return typeOf(inst) === 'u32' ? T.i32 : T.i64;
}

function stackBase(cx: BuildContext, type: IrType, span: Ast.Instruction['span']): ValueId {
  return cx.coerce(cx.emit({ op: 'address_of', type: cx.symbols.addressSize === 64 ? T.i64 : T.i32, symbol: STACK_SYMBOL, space: 'local' }, span), type, false, span);
}

function depthAddress(cx: BuildContext, span: Ast.Instruction['span']): ValueId {
  return cx.emit({ op: 'address_of', type: T.i32, symbol: STACK_DEPTH_SYMBOL, space: 'local' }, span);
}

/**
 * Free bytes below the stack pointer, as an integer offset from the stack's base. The
 * `min` keeps it in [0, STACK_BYTES] whatever a stray `stackrestore` stored, and makes it an
 * integer rather than a loaded (unknown) pointer for address-space lowering.
 */
function freeBytes(cx: BuildContext, type: IrType, span: Ast.Instruction['span']): ValueId {
  const depth = cx.emit({ op: 'load', type: T.i32, space: 'local', address: depthAddress(cx, span), region: null }, span);
  const cap = cx.constant(T.i32, BigInt(STACK_BYTES), span);
  const used = cx.emit({ op: 'ibinary', kind: 'min_u', type: T.i32, a: depth, b: cap }, span);
  const free = cx.emit({ op: 'ibinary', kind: 'sub', type: T.i32, a: cap, b: used }, span);
  return cx.coerce(free, type, false, span);
}

function setFree(cx: BuildContext, free: ValueId, span: Ast.Instruction['span']): void {
  const f32 = cx.coerce(free, T.i32, false, span);
  const depth = cx.emit({ op: 'ibinary', kind: 'sub', type: T.i32, a: cx.constant(T.i32, BigInt(STACK_BYTES), span), b: f32 }, span);
  cx.effect({ op: 'store', type: T.i32, space: 'local', address: depthAddress(cx, span), region: null, value: depth }, span);
}

/** `alloca.type ptr, size{, immAlign}`: ptr = (sp - size) rounded down to immAlign (default 8). */
const alloca: Handler = (cx, inst) => {
  const type = instType(inst);
  const span = inst.span;
  const size = cx.read(operand(inst, 1), type);
  const alignOp = inst.operands[2];
  const align = alignOp?.kind === 'integer' ? alignOp.value : 8n;
  const free = freeBytes(cx, type, span);
  // Overflow (size > free, unsigned in the instruction's width) records a trap and leaves the
  // stack as it was; the thread goes on with the stack's base (the launch then fails with
  // R004, its results undefined as after `trap`). No control flow: a branch to a trap block
  // would be a divergent exit before any later barrier.
  const overflow = cx.emit({ op: 'icmp', type: T.pred, cond: 'ugt', a: size, b: free }, span);
  cx.effect({ op: 'trap_if', type: T.i32, cond: overflow, at: span.start, reason: `the allocation did not fit the per-thread alloca stack of ${STACK_BYTES} bytes (CUDA's default stack limit)` }, span);
  const below = cx.emit({ op: 'ibinary', kind: 'sub', type, a: free, b: size }, span);
  const mask = cx.constant(type, ~(align - 1n), span);
  const aligned = cx.emit({ op: 'ibinary', kind: 'and', type, a: below, b: mask }, span);
  setFree(cx, cx.emit({ op: 'select', type, cond: overflow, a: free, b: aligned }, span), span);
  const offset = cx.emit({ op: 'select', type, cond: overflow, a: cx.constant(type, 0n, span), b: aligned }, span);
  cx.write(operand(inst, 0), cx.emit({ op: 'ibinary', kind: 'add', type, a: stackBase(cx, type, span), b: offset }, span));
};

/** `stacksave.type d`: the current stack pointer. */
const stacksave: Handler = (cx, inst) => {
  const type = instType(inst);
  const free = freeBytes(cx, type, inst.span);
  cx.write(operand(inst, 0), cx.emit({ op: 'ibinary', kind: 'add', type, a: stackBase(cx, type, inst.span), b: free }, inst.span));
};

/** `stackrestore.type a`: the stack pointer becomes a (a value from stacksave). */
const stackrestore: Handler = (cx, inst) => {
  const type = instType(inst);
  const a = cx.read(operand(inst, 0), type);
  setFree(cx, cx.emit({ op: 'ibinary', kind: 'sub', type, a, b: stackBase(cx, type, inst.span) }, inst.span), inst.span);
};

export const STACK_HANDLERS: Readonly<Record<string, Handler>> = { alloca, stacksave, stackrestore };
