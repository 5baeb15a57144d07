/**
 * mbarrier objects (PTX ISA "Parallel Synchronization and Communication Instructions:
 * mbarrier"): a 64-bit object in shared memory with a phase, pending and expected arrival
 * counts and a tx-count. Each instruction becomes one IR `mbarrier` step (src/ir/inst.ts says
 * what a step does; lowering/wgsl/emit-mbarrier.ts lays the object out in workgroup atomics)
 * or one `mbarrier_wait` test:
 *  - `init [a], count`; `inval [a]`;
 *  - `arrive{.noComplete} state, [a]{, count}`: arrive-on with count (default 1), the state
 *    token of the phase before; `.noComplete` promises the arrival does not complete the
 *    phase (undefined otherwise), so it is the same step;
 *  - `arrive_drop{.noComplete} state, [a]{, count}`: the expected count drops by count, then
 *    arrive-on with count (a thread leaving the barrier);
 *  - `arrive.expect_tx` / `arrive_drop.expect_tx state, [a], txCount`: expect-tx of txCount,
 *    then arrive-on with count 1 (and drop 1);
 *  - `expect_tx [a], txCount` (tx-count up), `complete_tx [a], txCount` (tx-count down, which
 *    may complete the phase);
 *  - `test_wait` / `try_wait{.parity} p, [a], state|phaseParity{, suspendTimeHint}`: whether
 *    the named phase completed; try_wait may suspend the thread until it does (the step loop,
 *    lowering/converge-steps.ts, parks it), and the time hint only bounds that suspension;
 *  - `pending_count count, state`: the pending count before the arrival that made the token.
 * `.sem` (release/acquire/relaxed) and `.scope` (cta/cluster) are accepted: the object's words
 * are atomics, and the data a phase guards is ordered by the barriers the waits meet
 * (emit-mbarrier.ts, converge-steps.ts). Addresses are `.shared{::cta}`, generic (which the ISA
 * requires to point into shared memory), or `.shared::cluster`: kernels run in clusters of one
 * CTA, so a cluster shared address is the executing CTA's own (`mapa` to any other rank traps,
 * handlers-misc.ts); a workgroup cannot reach another workgroup's memory in WebGPU.
 */
import type * as Ast from '../ptx/ast.js';
import type { ValueId } from '../ir/entities.js';
import { MBARRIER_TOKEN, type MemorySpace } from '../ir/inst.js';
import * as T from '../ir/types.js';
import type { BuildContext } from './context.js';
import type { Handler } from './handler.js';
import { operand, unsupported } from './handler.js';

/** The state space of an mbarrier address, or undefined (diagnosed) for one the ISA does not allow. */
export function mbarrierSpace(cx: BuildContext, inst: Ast.Instruction, space: Ast.SpaceRef | undefined = inst.modifiers.space): MemorySpace | undefined {
  if (space === undefined) return 'generic';
  if (space.space === 'shared') return 'shared';
  unsupported(cx, inst, 'addresses an mbarrier object outside shared memory (the ISA allows `.shared{::cta}`, `.shared::cluster` or a generic address)');
  return undefined;
}

/** The operand fields of one mbarrier update step (null: 0). */
export interface MbarrierStep {
  readonly arrive?: ValueId; readonly drop?: ValueId; readonly expectTx?: ValueId; readonly completeTx?: ValueId;
}

/** One update step of the object at address operand `at`; returns the state token. */
export function mbarrierUpdate(cx: BuildContext, inst: Ast.Instruction, at: Ast.Operand, space: MemorySpace, step: MbarrierStep): ValueId {
  const address = cx.address(at, space);
  return cx.emit({
    op: 'mbarrier', kind: 'update', type: T.i64, space, address, region: null, count: null,
    drop: step.drop ?? null, arrive: step.arrive ?? null, expectTx: step.expectTx ?? null, completeTx: step.completeTx ?? null,
  }, inst.span);
}

const init: Handler = (cx, inst) => {
  const space = mbarrierSpace(cx, inst);
  if (!space) return;
  const address = cx.address(operand(inst, 0), space);
  const count = cx.read(operand(inst, 1), T.i32);
  cx.effect({ op: 'mbarrier', kind: 'init', type: T.i64, space, address, region: null, count, drop: null, arrive: null, expectTx: null, completeTx: null }, inst.span);
};

const inval: Handler = (cx, inst) => {
  const space = mbarrierSpace(cx, inst);
  if (!space) return;
  const address = cx.address(operand(inst, 0), space);
  cx.effect({ op: 'mbarrier', kind: 'inval', type: T.i64, space, address, region: null, count: null, drop: null, arrive: null, expectTx: null, completeTx: null }, inst.span);
};

/** arrive and arrive_drop, with or without `.expect_tx`. */
function arrive(drops: boolean): Handler {
  return (cx, inst) => {
    const space = mbarrierSpace(cx, inst);
    if (!space) return;
    const one = cx.constant(T.i32, 1n, inst.span);
    const third = inst.operands[2];
    const expects = inst.modifiers.extra?.includes('expect_tx') === true;
    if (expects && !third) { unsupported(cx, inst, 'needs a txCount operand'); return; }
    const count = !expects && third ? cx.read(third, T.i32) : one;
    const token = mbarrierUpdate(cx, inst, operand(inst, 1), space, {
      arrive: count, ...(drops ? { drop: count } : {}), ...(expects && third ? { expectTx: cx.read(third, T.i32) } : {}),
    });
    const dst = operand(inst, 0);
    if (dst.kind !== 'sink') cx.write(dst, token);
  };
}

function tx(field: 'expectTx' | 'completeTx'): Handler {
  return (cx, inst) => {
    const space = mbarrierSpace(cx, inst);
    if (!space) return;
    mbarrierUpdate(cx, inst, operand(inst, 0), space, { [field]: cx.read(operand(inst, 1), T.i32) });
  };
}

function wait(blocking: boolean): Handler {
  return (cx, inst) => {
    const space = mbarrierSpace(cx, inst);
    if (!space) return;
    const parity = inst.modifiers.extra?.includes('parity') === true;
    const address = cx.address(operand(inst, 1), space);
    const phase = cx.read(operand(inst, 2), parity ? T.i32 : T.i64);
    if (inst.operands[3]) cx.read(operand(inst, 3), T.i32); // suspendTimeHint: bounds a suspension that ends at completion anyway
    const done = cx.emit({ op: 'mbarrier_wait', type: T.pred, blocking, parity, space, address, region: null, phase, sync: true, active: null }, inst.span);
    cx.write(operand(inst, 0), done);
  };
}

const pendingCount: Handler = (cx, inst) => {
  const s = inst.span;
  const low = cx.emit({ op: 'truncate', type: T.i32, value: cx.read(operand(inst, 1), T.i64) }, s);
  cx.write(operand(inst, 0), cx.emit({ op: 'ibinary', kind: 'and', type: T.i32, a: low, b: cx.constant(T.i32, BigInt(MBARRIER_TOKEN.pendingMask), s) }, s));
};

const BY_MODE: Readonly<Record<string, Handler>> = {
  init, inval,
  arrive: arrive(false), arrive_drop: arrive(true),
  expect_tx: tx('expectTx'), complete_tx: tx('completeTx'),
  test_wait: wait(false), try_wait: wait(true),
  pending_count: pendingCount,
};

/** Every `mbarrier.*` row of the opcode table (its sub-word is the instruction's `mode`). */
export const mbarrier: Handler = (cx, inst) => {
  BY_MODE[inst.modifiers.mode ?? '']?.(cx, inst);
};
