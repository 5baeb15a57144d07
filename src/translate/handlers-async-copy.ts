/**
 * Non-bulk asynchronous copies (ISA "Data Movement and Conversion Instructions: cp.async",
 * `cp.async.commit_group`, `cp.async.wait_group` / `cp.async.wait_all`).
 *
 * WebGPU has no asynchronous copy engine, so `cp.async` is performed at issue: a plain global
 * load of cp-size bytes and a shared store of them. That is one of the executions the ISA
 * allows (a copy may complete at any time between its issue and the wait that covers it), so
 * `commit_group`, `wait_group N` and `wait_all` have nothing left to wait for, and the writes
 * reach other threads through the barrier the PTX must already have between the wait and their
 * reads. Forms:
 *  - `cp.async.ca|cg.shared{::cta}.global{.L2::cache_hint}{.L2::64B|128B|256B} [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}`:
 *    cp-size 4, 8 or 16 (`.cg`: 16 only); `src-size` (a u32, at most cp-size) copies that many
 *    bytes and zero-fills the rest; `ignore-src` (a predicate) zero-fills everything when true.
 *    The source is read in full even where it is zero-filled (WebGPU's bounds rules make a read
 *    outside a buffer harmless), then masked. Cache hints and prefetch sizes mean nothing here.
 * Bulk copies and `cp.async.mbarrier.arrive` are handlers-bulk-copy.ts's. `cp.reduce.async.bulk*`
 * and other state spaces are L001, naming the instruction as written; a bad cp-size is L002.
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { notSupported, operand, unsupported } from './handler.js';
import { BULK_COPY_HANDLERS } from './handlers-bulk-copy.js';

/** The optional operands after cp-size: [src-size or ignore-src, cache-policy]. */
function optionalOperands(cx: BuildContext, inst: Ast.Instruction): { srcSize?: Ast.Operand; ignoreSrc?: Ast.Operand } {
  const hinted = inst.modifiers.cacheHints?.includes('L2::cache_hint') ?? false;
  const n = inst.operands.length - (hinted ? 1 : 0);
  const op = n === 4 ? inst.operands[3] : undefined;
  if (!op) return {};
  const isPred = op.kind === 'negated' || (op.kind === 'register' && cx.registerType(op)?.kind === 'pred');
  return isPred ? { ignoreSrc: op } : { srcSize: op };
}

/** Word `w` of the copy kept up to `srcSize` bytes: all of it, none, or its low bytes. */
function keepBytes(cx: BuildContext, word: ValueId, w: number, srcSize: ValueId, s: Ast.Instruction['span']): ValueId {
  const k = (n: number): ValueId => cx.constant(T.i32, BigInt(n), s);
  const rest = cx.emit({ op: 'ibinary', kind: 'sub', type: T.i32, a: srcSize, b: k(4 * w) }, s);
  const full = cx.emit({ op: 'icmp', type: T.pred, cond: 'sge', a: rest, b: k(4) }, s);
  const none = cx.emit({ op: 'icmp', type: T.pred, cond: 'sle', a: rest, b: k(0) }, s);
  const bits = cx.emit({ op: 'ibinary', kind: 'shl', type: T.i32, a: rest, b: k(3) }, s);
  const low = cx.emit({ op: 'ibinary', kind: 'sub', type: T.i32, a: cx.emit({ op: 'ibinary', kind: 'shl', type: T.i32, a: k(1), b: bits }, s), b: k(1) }, s);
  const mask = cx.emit({ op: 'select', type: T.i32, cond: full, a: k(-1), b: cx.emit({ op: 'select', type: T.i32, cond: none, a: k(0), b: low }, s) }, s);
  return cx.emit({ op: 'ibinary', kind: 'and', type: T.i32, a: word, b: mask }, s);
}

const copy: Handler = (cx, inst) => {
  const s = inst.span;
  const m = inst.modifiers;
  const size = operand(inst, 2);
  const bytes = size.kind === 'integer' ? Number(size.value) : 0;
  const space = m.space;
  if (space?.space !== 'shared' || (space.qualifier !== undefined && space.qualifier !== 'cta') || !(m.extra ?? []).includes('global')) {
    notSupported(cx, inst, 'cp.async copies from `.global` to `.shared{::cta}` only');
    return;
  }
  if (bytes !== 4 && bytes !== 8 && bytes !== 16) { unsupported(cx, inst, 'needs cp-size 4, 8 or 16 (an integer constant)'); return; }
  if (m.cache === 'cg' && bytes !== 16) { unsupported(cx, inst, 'has cp-size 16 only (`.cg`)'); return; }
  const { srcSize, ignoreSrc } = optionalOperands(cx, inst);
  const words = bytes / 4;
  const type = words === 1 ? T.i32 : T.vector(T.i32, words as 2 | 4);
  const src = cx.address(operand(inst, 1), 'global');
  let value = cx.emit({ op: 'load', type, space: 'global', address: src, region: null }, s);
  const constSize = srcSize?.kind === 'integer' ? Number(srcSize.value) : undefined;
  if ((srcSize && constSize !== bytes) || ignoreSrc) {
    const n = srcSize ? cx.read(srcSize, T.i32) : undefined;
    const p = ignoreSrc ? cx.read(ignoreSrc, T.pred) : undefined;
    const zero = cx.constant(T.i32, 0n, s);
    const parts = Array.from({ length: words }, (_, w) => {
      let word = words === 1 ? value : cx.emit({ op: 'extract', type: T.i32, value, index: w }, s);
      if (n !== undefined) word = keepBytes(cx, word, w, n, s);
      if (p !== undefined) word = cx.emit({ op: 'select', type: T.i32, cond: p, a: zero, b: word }, s);
      return word;
    });
    value = words === 1 ? (parts[0] as ValueId) : cx.emit({ op: 'compose', type, parts }, s);
  }
  const dst = cx.address(operand(inst, 0), 'shared');
  cx.effect({ op: 'store', type, space: 'shared', address: dst, region: null, value }, s);
};

/** The copies completed at issue: there is nothing to commit or wait for. */
const done: Handler = () => {};

const BY_MODE: Readonly<Record<string, Handler>> = {
  async: copy,
  'async.commit_group': done,
  'async.wait_group': done,
  'async.wait_all': done,
  ...BULK_COPY_HANDLERS,
};

/** Every `cp.*` row of the opcode table (its fixed words are the instruction's `mode`). */
export const cp: Handler = (cx, inst) => {
  const h = BY_MODE[inst.modifiers.mode ?? ''];
  if (h) h(cx, inst);
  else notSupported(cx, inst, 'of the asynchronous copies, the `cp.async` and non-tensor `cp.async.bulk` families are');
};
