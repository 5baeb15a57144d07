/**
 * `for (i = 0; i < limit; i += step) body(i)` as IR blocks, built during translation by the
 * handlers that expand one PTX instruction into a loop (bulk copies, the portable mma). The
 * counter is an SSA variable, and so is anything the body writes with `cx.ssa.write`: values
 * the loop carries become parameters of its header, and reads after the loop see the last
 * iteration's values. Translation goes on in the loop's exit block.
 */
import type { Span } from '../diagnostics/span.js';
import type { BlockId, ValueId } from '../ir/entities.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Variable } from './ssa.js';

let loops = 0;

/** A fresh SSA variable for values a handler's loop carries. */
export function loopVariable(type: T.IrType, hint: string): Variable {
  return { key: `loop#${++loops}`, type, hint };
}

export function countedLoop(cx: BuildContext, limit: ValueId, step: number, hint: string, body: (i: ValueId) => void, s: Span): void {
  const fn = cx.fn;
  const counter = loopVariable(T.i32, hint);
  cx.ssa.write(counter, cx.block, cx.constant(T.i32, 0n, s));
  const head = fn.addBlock();
  const loop = fn.addBlock();
  const exit = fn.addBlock();
  const jump = (to: BlockId): void => {
    const e = { from: cx.block, to, args: [] as ValueId[] };
    cx.ssa.addEdge(e);
    fn.block(cx.block).term = { op: 'jump', target: { block: to, args: e.args }, span: s };
  };
  jump(head);
  cx.block = head;
  const i = cx.ssa.read(counter, head, s);
  const more = cx.emit({ op: 'icmp', type: T.pred, cond: 'ult', a: i, b: limit }, s);
  const inLoop = { from: head, to: loop, args: [] as ValueId[] };
  const out = { from: head, to: exit, args: [] as ValueId[] };
  cx.ssa.addEdge(inLoop);
  cx.ssa.addEdge(out);
  fn.block(head).term = { op: 'branch', cond: more, then: { block: loop, args: inLoop.args }, else: { block: exit, args: out.args }, span: s };
  cx.ssa.seal(loop, s);
  cx.block = loop;
  body(i);
  cx.ssa.write(counter, cx.block, cx.emit({ op: 'ibinary', kind: 'add', type: T.i32, a: i, b: cx.constant(T.i32, BigInt(step), s) }, s));
  jump(head);
  cx.ssa.seal(head, s);
  cx.ssa.seal(exit, s);
  cx.block = exit;
}
