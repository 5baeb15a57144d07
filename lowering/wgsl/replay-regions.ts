/**
 * Replay regions: how a block's checked f32 arithmetic is grouped so that one test guards many
 * operations and one exact fallback serves them all.
 *
 * On a device that may flush subnormals (NVIDIA's Vulkan driver), every add/sub/mul/fma.rn.f32
 * is WGSL's own operation checked for a result it could have got wrong (round32.wgsl,
 * f32r_suspect). Inlined per operation, each check is a branch to its own copy of an integer
 * slow path: on an H100 that code, which almost never runs, made plain-PTX n-body 42x slower
 * than CUDA, four fifths of it from the slow paths' presence alone (docs/BENCHMARKS.md). A
 * region instead computes its operations natively and ANDs one predicate per result; only when
 * the predicate fails does it replay the whole region exactly through the exact fma (add =
 * fma(a, 1, b), mul = fma(a, b, -0)): in a straight line for up to 32 checked operations, beyond
 * that in a loop that interprets the region as a small program through one shared exact fma
 * (emit-replay.ts says why both). Its arithmetic is pure, so replaying it from its inputs gives
 * the exact results.
 *
 * A region is a run of a block's instructions; its members are the checked operations and the
 * pure instructions that consume a member's result (those are replayed by their own emitted
 * text in the loop). Instructions that read no member are not members: they run once, in place.
 * A region ends before an instruction that reads a member but cannot be replayed (effects,
 * memory, warp operations, results other than one 32-bit scalar), or at the end of the block.
 *
 * Collective regions (the native warp path, where a warp is one subgroup): a whole-warp `shfl`
 * of a member's value is a member too, so a shuffle reduction or scan (a dozen adds, each between
 * two shuffles) is one region instead of a dozen checked adds, each with its own branch (a row
 * layernorm's reductions on an H200: see docs/BENCHMARKS.md). The replay re-runs the shuffles, so
 * every lane of the subgroup must replay when any lane's test fails: the emitter writes the
 * region's condition as `subgroupAny(...)`, and the replay as straight-line code (a replay loop
 * would run the shuffles a lane-dependent number of times). A collective region therefore holds at
 * most `maxCollective` checked operations.
 */
import type { InstId, ValueId } from '../../src/ir/entities.js';
import type { IrFunction } from '../../src/ir/function.js';
import { HAS_EFFECTS, operandsOf, someOperand, type Inst } from '../../src/ir/inst.js';
import type { CheckedArith } from './emit-float.js';
import { wgslType } from './types.js';

export interface RegionMember {
  readonly inst: InstId;
  /** The checked operation, or undefined for a replayed pure instruction. */
  readonly arith?: CheckedArith;
}

export interface ReplayRegion {
  readonly members: readonly RegionMember[];
  /** Values defined by members. */
  readonly values: ReadonlySet<ValueId>;
  /** Member results read outside the region: assigned again after a replay. */
  readonly outputs: ReadonlySet<ValueId>;
  /** The member after which the region's test and replay are written. */
  readonly last: InstId;
  /** Shuffles are members: the whole subgroup replays together. */
  readonly collective: boolean;
}

/**
 * Fewer checked operations keep their inline checks: the one exact fma a region carries is larger
 * than an inline add's or mul's slow path, and a reduction's lone add between two shuffles gains
 * nothing from a loop (an H100 ran row layernorm 1.8x slower with one-add regions).
 */
const MIN_CHECKED = 3;
/** Operand slots are 10-bit indices in a replay program word. */
const MAX_SLOTS = 1000;
/** A replayed instruction names at most this many member results (three 10-bit fields). */
const MAX_MEMBER_OPERANDS = 3;

const NOT_REPLAYABLE = new Set<Inst['op']>(['load', 'special', 'kernel_param', 'address_of', 'call', 'const', 'undef']);

/**
 * The replay regions of one block. `checked` says which instructions the emitter would write as
 * checked arithmetic; `useCounts` are the function's uses by value id.
 */
export function planReplayRegions(fn: IrFunction, insts: readonly InstId[], useCounts: Readonly<Int32Array>, checked: (inst: Inst) => CheckedArith | undefined, minChecked = MIN_CHECKED, maxCollective = 0): ReplayRegion[] {
  // Most blocks hold fewer checked operations than a region needs: then nothing is allocated.
  let total = 0;
  for (const id of insts) if (checked(fn.inst(id).inst) && ++total >= minChecked) break;
  if (total < minChecked) return [];
  const regions: ReplayRegion[] = [];
  let members: RegionMember[] = [];
  let values = new Set<ValueId>();
  let slots = 0;
  let collective = false;
  let checkedCount = 0;
  const close = (): void => {
    if (checkedCount >= minChecked) {
      // a value is an output when something other than the region's members uses it
      const inside = new Map<ValueId, number>();
      for (const m of members) for (const v of operandsOf(fn.inst(m.inst).inst)) if (values.has(v)) inside.set(v, (inside.get(v) ?? 0) + 1);
      const outputs = new Set<ValueId>();
      for (const v of values) if ((useCounts[v] ?? 0) > (inside.get(v) ?? 0)) outputs.add(v);
      regions.push({ members, values, outputs, last: (members.at(-1) as RegionMember).inst, collective });
      members = [];
      values = new Set();
    } else {
      // what no region keeps is emptied, not made anew: every block closes at least once
      members.length = 0;
      values.clear();
    }
    slots = 0;
    collective = false;
    checkedCount = 0;
  };
  // An instruction's operands other than constants: the first `count` of one array for all (this
  // planning was 3% of what a compile of the repository's kernels allocates; emptying the array
  // by its length would drop its storage).
  const ops: ValueId[] = [];
  let count = 0;
  const notConstant = (v: ValueId): boolean => { if (fn.defOf(v)?.op !== 'const') ops[count++] = v; return false; };
  for (const id of insts) {
    const data = fn.inst(id);
    const inst = data.inst;
    if (inst.op === 'const') continue;
    const arith = checked(inst);
    // with no region open, an instruction that is not checked arithmetic joins none (most do not)
    if (!arith && values.size === 0) continue;
    count = 0;
    someOperand(inst, notConstant);
    let readsMember = false;
    for (let k = 0; k < count; k++) if (values.has(ops[k] as ValueId)) { readsMember = true; break; }
    const result = data.results[0];
    if (arith && result !== undefined) {
      if (collective && checkedCount >= maxCollective) close();
      checkedCount++;
      members.push({ inst: id, arith });
      values.add(result);
      let inputs = 0;
      for (let k = 0; k < count; k++) if (!values.has(ops[k] as ValueId)) inputs++;
      slots += 1 + inputs + 1; // its result, its inputs, a constant
    } else if (readsMember) {
      if (result !== undefined && replayable(fn, inst, data.results, values)) {
        members.push({ inst: id });
        values.add(result);
        slots += 1;
      } else if (result !== undefined && checkedCount < maxCollective && wholeWarpShuffle(fn, inst, data.results)) {
        collective = true;
        members.push({ inst: id });
        values.add(result);
        slots += 1;
      } else {
        close();
      }
    }
    if (slots > MAX_SLOTS) close();
  }
  close();
  return regions;
}

function replayable(fn: IrFunction, inst: Inst, results: readonly ValueId[], members: ReadonlySet<ValueId>): boolean {
  if (HAS_EFFECTS[inst.op] || NOT_REPLAYABLE.has(inst.op) || results.length !== 1) return false;
  if (!isScalar32(fn, results[0] as ValueId)) return false;
  const read = new Set(operandsOf(inst).filter((v) => members.has(v)));
  return read.size <= MAX_MEMBER_OPERANDS;
}

/** A shfl every lane runs (no predicate from the convergence pass) with one 32-bit result. */
function wholeWarpShuffle(fn: IrFunction, inst: Inst, results: readonly ValueId[]): boolean {
  return inst.op === 'shfl' && inst.active === null && results.length === 1 && isScalar32(fn, results[0] as ValueId);
}

function isScalar32(fn: IrFunction, v: ValueId): boolean {
  const t = wgslType(fn.typeOf(v));
  return t === 'u32' || t === 'f32';
}
