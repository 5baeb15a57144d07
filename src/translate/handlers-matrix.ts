/**
 * Warp-level matrix loads, stores and transposes (ISA "ldmatrix", "stmatrix", "movmatrix"),
 * `.m8n8` with `.b16` elements, lowered during translation into whole-warp shuffles and
 * ordinary memory accesses (warp-exchange.ts), so later passes see nothing new.
 *
 * The fragment of one 8x8 matrix: thread `lane` holds row lane/4, columns 2*(lane%4) and +1, in
 * one .b32 register (the lower column in the low half). For ldmatrix/stmatrix `.xN`, matrix i's
 * row r is the 16 bytes at the address held by lane 8i + r, so a thread first shuffles the row
 * address it needs from that lane, then accesses its 4 bytes at +4*(lane%4). With `.trans` the
 * fragment holds the transposed matrix: thread `lane` has rows 2*(lane%4) and +1 of memory at
 * column lane/4, two 2-byte accesses at +2*(lane/4) of the addresses of lanes 8i + 2*(lane%4)
 * and +1. movmatrix.trans exchanges halves between lanes the same way.
 * Other shapes and element types (`.m16n16`, `.m8n16`, `.b8`, sm_100a) are L001, naming the instruction as written.
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import type { MemorySpace } from '../ir/inst.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { notSupported, operand, typeOf, unsupported } from './handler.js';
import { WarpExchange } from './warp-exchange.js';
import { recordLdmatrix, swizzledAddress } from './ldmatrix-origins.js';

/** The registers of a `{d0, ...}` operand (a lone register for one). */
export function registerList(op: Ast.Operand): readonly Ast.Operand[] {
  return op.kind === 'vector' ? op.elements : [op];
}

/** Checks the `.m8n8 .xN .b16` form; reports L001 (another form) or L002 (bad operands) and returns 0 otherwise. */
function matrixCount(cx: BuildContext, inst: Ast.Instruction, regs: Ast.Operand): number {
  const m = inst.modifiers;
  const count = m.count ?? 0;
  const space = m.space;
  if (m.shape !== 'm8n8' || typeOf(inst) !== 'b16' || (m.extra ?? []).length > 0) {
    notSupported(cx, inst, 'only the `.m8n8` shape with `.b16` elements is');
  } else if (count !== 1 && count !== 2 && count !== 4) {
    unsupported(cx, inst, 'needs `.x1`, `.x2` or `.x4`');
  } else if (space && (space.space !== 'shared' || (space.qualifier !== undefined && space.qualifier !== 'cta'))) {
    notSupported(cx, inst, 'the matrix lives in `.shared{::cta}` or is addressed generically');
  } else if (registerList(regs).length !== count) {
    unsupported(cx, inst, `needs ${count} registers, one per matrix`);
  } else return count;
  return 0;
}

function spaceOf(inst: Ast.Instruction): MemorySpace {
  return inst.modifiers.space ? 'shared' : 'generic';
}

/** Two 16-bit values as one 32-bit register, `lo` in the low half. */
export function pack16(cx: BuildContext, lo: ValueId, hi: ValueId, span: Ast.Instruction['span']): ValueId {
  return cx.emit({ op: 'bitcast', type: T.i32, value: cx.emit({ op: 'compose', type: T.vector(T.i16, 2), parts: [lo, hi] }, span) }, span);
}

/** `address + bytes`, in the address's own width. */
function offset(cx: BuildContext, address: ValueId, bytes: ValueId, span: Ast.Instruction['span']): ValueId {
  const t = cx.fn.typeOf(address);
  const b = t === T.i32 ? bytes : cx.emit({ op: 'extend', type: t, signed: false, value: bytes }, span);
  return cx.emit({ op: 'ibinary', kind: 'add', type: t, a: address, b }, span);
}

/**
 * For matrix i: the address this thread accesses and the width of the access, for each of its
 * one (plain) or two (.trans) accesses, in the order of the halves they fill.
 */
function accesses(x: WarpExchange, address: ValueId, i: number, trans: boolean): { address: ValueId; wide: boolean }[] {
  const { cx, span } = x;
  if (!trans) {
    const row = x.shuffleWide(address, x.affine(x.group, 1, 8 * i));
    return [{ address: offset(cx, row, x.affine(x.inGroup, 4, 0), span), wide: true }];
  }
  const col = x.memo('col2', () => x.affine(x.group, 2, 0));
  return [0, 1].map((h) => {
    const row = x.shuffleWide(address, x.affine(x.inGroup, 2, 8 * i + h));
    return { address: offset(cx, row, col, span), wide: false };
  });
}

/** `ldmatrix.sync.aligned.m8n8.xN{.trans}{.shared{::cta}}.b16 d, [a]`. */
const ldmatrix: Handler = (cx, inst) => {
  const dst = operand(inst, 0);
  const count = matrixCount(cx, inst, dst);
  if (count === 0) return;
  const x = new WarpExchange(cx, inst.span);
  const space = spaceOf(inst);
  const address = cx.address(operand(inst, 1), space);
  registerList(dst).forEach((d, i) => {
    const parts = accesses(x, address, i, !!inst.modifiers.trans).map((a) =>
      cx.emit({ op: 'load', type: a.wide ? T.i32 : T.i16, space, address: a.address, region: null }, inst.span));
    cx.write(d, parts.length === 1 ? (parts[0] as ValueId) : pack16(cx, parts[0] as ValueId, parts[1] as ValueId, inst.span));
  });
  if (cx.symbols.mmaTensorCores && space === 'shared' && !swizzledAddress(operand(inst, 1), cx.swizzledRegisters)) recordLdmatrix(cx, registerList(dst), address, space, !!inst.modifiers.trans);
};

/** `stmatrix.sync.aligned.m8n8.xN{.trans}{.shared{::cta}}.b16 [a], r`: ldmatrix's accesses, storing. */
const stmatrix: Handler = (cx, inst) => {
  const src = operand(inst, 1);
  const count = matrixCount(cx, inst, src);
  if (count === 0) return;
  const x = new WarpExchange(cx, inst.span);
  const space = spaceOf(inst);
  const address = cx.address(operand(inst, 0), space);
  registerList(src).forEach((r, i) => {
    const value = cx.read(r, T.i32);
    const at = accesses(x, address, i, !!inst.modifiers.trans);
    if (at.length === 1) {
      cx.effect({ op: 'store', type: T.i32, space, address: (at[0] as { address: ValueId }).address, region: null, value }, inst.span);
      return;
    }
    const halves = cx.emit({ op: 'bitcast', type: T.vector(T.i16, 2), value }, inst.span);
    at.forEach((a, h) => {
      const half = cx.emit({ op: 'extract', type: T.i16, value: halves, index: h }, inst.span);
      cx.effect({ op: 'store', type: T.i16, space, address: a.address, region: null, value: half }, inst.span);
    });
  });
};

/**
 * `movmatrix.sync.aligned.m8n8.trans.b16 d, a`: d holds the fragment of the transpose, so
 * thread `lane` gets elements (2*(lane%4) + h, lane/4) of a for h = 0, 1: element (R, C) is half
 * C%2 of lane 4R + C/2.
 */
const movmatrix: Handler = (cx, inst) => {
  const m = inst.modifiers;
  if (m.shape !== 'm8n8' || typeOf(inst) !== 'b16' || !m.trans) {
    notSupported(cx, inst, 'only `movmatrix.sync.aligned.m8n8.trans.b16` is');
    return;
  }
  const x = new WarpExchange(cx, inst.span);
  const s = inst.span;
  const a = cx.read(operand(inst, 1), T.i32);
  // half (lane/4) % 2 of the source word: shift by 16 * ((lane >> 2) & 1)
  const shift = x.bin('shl', x.bin('and', x.group, x.k(1)), x.k(4));
  const srcBase = x.affine(x.inGroup, 8, 0);
  const colLane = x.bin('shr_u', x.lane, x.k(3));
  const halves = [0, 1].map((h) => {
    const word = x.shuffle(a, x.bin('add', x.affine(srcBase, 1, 4 * h), colLane));
    const bits = x.bin('shr_u', word, shift);
    return cx.emit({ op: 'truncate', type: T.i16, value: bits }, s);
  });
  cx.write(operand(inst, 0), pack16(cx, halves[0] as ValueId, halves[1] as ValueId, s));
};

export const MATRIX_HANDLERS: Readonly<Record<string, Handler>> = { ldmatrix, stmatrix, movmatrix };
