/**
 * Warp-level instructions (ISA "Parallel Synchronization and Communication", shfl): shfl,
 * vote, match, redux, activemask, elect and bar.warp.sync, with or without `.sync` and a member
 * mask. The warp operations themselves stay whole in the IR (the emitter picks subgroups or
 * workgroup-memory emulation per device); what is plain arithmetic is built here: shfl's
 * destination predicate, which depends only on the lane, b and c operands (ISA pseudo-code),
 * and elect, a ballot's lowest lane.
 * `active` is always null here; the convergence pass sets it.
 */
import type * as Ast from '../ptx/ast.js';
import { DiagnosticCode } from '../diagnostics/diagnostic.js';
import type { ValueId } from '../ir/entities.js';
import type { ReduxOp, ShflMode } from '../ir/inst.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { operand, typeOf } from './handler.js';
import { shflMode, voteMode } from './vocabulary.js';

/** The member mask operand, or null (every active lane) for the deprecated forms. */
function memberMask(cx: BuildContext, inst: Ast.Instruction, index: number): ValueId | null {
  const op = inst.operands[index];
  return inst.modifiers.sync && op ? cx.read(op, T.i32) : null;
}

function splitDestination(inst: Ast.Instruction): [Ast.Operand, Ast.Operand | null] {
  const d = operand(inst, 0);
  return d.kind === 'pair' ? [d.first, d.second] : [d, null];
}

/** `pval` of the ISA's shfl pseudo-code, computed from %laneid, b and c. */
function shflInRange(cx: BuildContext, inst: Ast.Instruction, mode: ShflMode, b: ValueId, c: ValueId): ValueId {
  const s = inst.span;
  const k = (n: bigint): ValueId => cx.constant(T.i32, n, s);
  const bin = (kind: 'and' | 'or' | 'xor' | 'add' | 'sub' | 'shr_u', a: ValueId, x: ValueId): ValueId => cx.emit({ op: 'ibinary', kind, type: T.i32, a, b: x }, s);
  const not = (a: ValueId): ValueId => cx.emit({ op: 'iunary', kind: 'not', type: T.i32, value: a }, s);
  const lane = cx.emit({ op: 'special', type: T.i32, register: 'laneid', component: 0 }, s);
  const bval = bin('and', b, k(31n));
  const cval = bin('and', c, k(31n));
  const segMask = bin('and', bin('shr_u', c, k(8n)), k(31n));
  const maxLane = bin('or', bin('and', lane, segMask), bin('and', cval, not(segMask)));
  let j: ValueId;
  switch (mode) {
    case 'up': j = bin('sub', lane, bval); return cx.emit({ op: 'icmp', type: T.pred, cond: 'sge', a: j, b: maxLane }, s);
    case 'down': j = bin('add', lane, bval); break;
    case 'bfly': j = bin('xor', lane, bval); break;
    case 'idx': j = bin('or', bin('and', lane, segMask), bin('and', bval, not(segMask))); break;
  }
  return cx.emit({ op: 'icmp', type: T.pred, cond: 'ule', a: j, b: maxLane }, s);
}

const shfl: Handler = (cx, inst) => {
  const mode = shflMode(inst.modifiers.shfl ?? 'idx');
  const value = cx.read(operand(inst, 1), T.i32);
  const lane = cx.read(operand(inst, 2), T.i32);
  const clamp = cx.read(operand(inst, 3), T.i32);
  const mask = memberMask(cx, inst, 4);
  const [d, p] = splitDestination(inst);
  cx.write(d, cx.emit({ op: 'shfl', type: T.i32, mode, value, lane, clamp, mask, active: null }, inst.span));
  if (p) cx.write(p, shflInRange(cx, inst, mode, lane, clamp));
};

const vote: Handler = (cx, inst) => {
  const mode = voteMode(inst.modifiers.vote ?? 'all');
  const pred = cx.read(operand(inst, 1), T.pred);
  const mask = memberMask(cx, inst, 2);
  const type = mode === 'ballot' ? T.i32 : T.pred;
  cx.write(operand(inst, 0), cx.emit({ op: 'vote', type, mode, pred, mask, active: null }, inst.span));
};

const match: Handler = (cx, inst) => {
  const t = typeOf(inst);
  const mode = inst.modifiers.mode === 'all' ? 'all' : 'any';
  const vt = t === 'b64' || t === 'u64' || t === 's64' ? T.i64 : T.i32;
  const value = cx.read(operand(inst, 1), vt);
  const mask = cx.read(operand(inst, 2), T.i32);
  const [d, p] = splitDestination(inst);
  const r = cx.emit({ op: 'match', type: T.i32, mode, value, mask, active: null }, inst.span);
  cx.write(d, r);
  // match.all: d is the member mask (never 0: it holds the executing lane) or 0, and p says which.
  if (p) cx.write(p, cx.emit({ op: 'icmp', type: T.pred, cond: 'ne', a: r, b: cx.constant(T.i32, 0n, inst.span) }, inst.span));
};

function reduxKind(inst: Ast.Instruction): ReduxOp | undefined {
  const op = inst.modifiers.atomicOp;
  const t = typeOf(inst);
  if (t === 'f32') return op === 'min' ? 'fmin' : op === 'max' ? 'fmax' : undefined;
  if (inst.modifiers.abs || inst.modifiers.nan) return undefined;
  const signed = t === 's32';
  switch (op) {
    case 'add': case 'and': case 'or': case 'xor': return op;
    case 'min': return signed ? 'min_s' : 'min_u';
    case 'max': return signed ? 'max_s' : 'max_u';
    default: return undefined;
  }
}

const redux: Handler = (cx, inst) => {
  const kind = reduxKind(inst);
  const t = typeOf(inst);
  const vt = t === 'f32' ? T.f32 : T.i32;
  if (!kind) {
    cx.fail(DiagnosticCode.LowerUnsupportedFeature, `redux.sync.${inst.modifiers.atomicOp ?? '?'}.${t} is not a redux form of the ISA`, inst.opcodeSpan, T.i32);
    return;
  }
  const value = cx.read(operand(inst, 1), vt);
  const mask = cx.read(operand(inst, 2), T.i32);
  const r = cx.emit({ op: 'redux', type: vt, kind, value, mask, abs: !!inst.modifiers.abs, nan: !!inst.modifiers.nan, active: null }, inst.span);
  cx.write(operand(inst, 0), r);
};

const activemask: Handler = (cx, inst) => {
  cx.write(operand(inst, 0), cx.emit({ op: 'activemask', type: T.i32, active: null }, inst.span));
};

/**
 * `elect.sync d|p, membermask` (sm_90): one leader among the active lanes of membermask; d is
 * its lane id in every member, p is true in the leader only. The ISA leaves the choice open;
 * NVIDIA hardware elects the lowest active member lane, and so does this: a ballot of the
 * active members (the vote machinery, exact on both warp paths and in divergent code), then
 * its lowest set bit, clz(brev(b)).
 */
const elect: Handler = (cx, inst) => {
  const s = inst.span;
  const dst = operand(inst, 0);
  if (!inst.modifiers.sync || dst.kind !== 'pair' || dst.second.kind !== 'register') {
    cx.diagnostics.push({ code: DiagnosticCode.ParseBadOperand, severity: 'error', span: dst.span, message: '`elect` is `elect.sync d|p, membermask` (or `_|p`): it needs a predicate destination' });
    return;
  }
  const mask = cx.read(operand(inst, 1), T.i32);
  const members = cx.emit({ op: 'vote', type: T.i32, mode: 'ballot', pred: cx.constant(T.pred, 1n, s), mask, active: null }, s);
  const reversed = cx.emit({ op: 'iunary', kind: 'brev', type: T.i32, value: members }, s);
  const leader = cx.emit({ op: 'iunary', kind: 'clz', type: T.i32, value: reversed }, s);
  const lane = cx.emit({ op: 'special', type: T.i32, register: 'laneid', component: 0 }, s);
  cx.write(dst.first, leader);
  cx.write(dst.second, cx.emit({ op: 'icmp', type: T.pred, cond: 'eq', a: lane, b: leader }, s));
};

/** `bar.warp.sync membermask`: the `bar` row with fixed word `warp`. */
export const warpSync: Handler = (cx, inst) => {
  cx.effect({ op: 'warp_sync', type: T.i32, mask: cx.read(operand(inst, 0), T.i32), active: null }, inst.span);
};

export const WARP_HANDLERS: Readonly<Record<string, Handler>> = { shfl, vote, match, redux, activemask, elect };
