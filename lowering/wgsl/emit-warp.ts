/**
 * Warp-level instructions in WGSL, on the kernel's warp path (lowering/warp-path.ts):
 *  - `subgroups`: the device runs 32-lane subgroups in thread order, so a warp is a subgroup
 *    and lane i of both coincide; subgroup built-ins compute the ISA's results (shfl's source
 *    lane is computed from the ISA pseudo-code first, then shuffled).
 *  - `emulated`: every warp operation is an exchange through workgroup memory plus one
 *    barrier (shaders/warp.wgsl). The convergence pass makes every thread of the workgroup
 *    reach each one; `active` false marks threads that only take part: they publish nothing
 *    that is counted (ballots, activemask, match) and their own results are not used.
 * Member masks: lanes outside the mask are left out of votes, ballots, matches and
 * reductions; PTX leaves a lane outside the mask executing the instruction undefined.
 */
import type { ValueId } from '../../src/ir/entities.js';
import type { IrFunction } from '../../src/ir/function.js';
import type { InstOf, ReduxOp } from '../../src/ir/inst.js';
import type { WarpReport } from '../layout.js';
import type { InstContext } from './expr-context.js';

/** The path of each function being emitted, set by emitKernel before the body is written. */
export const warpPaths = new WeakMap<IrFunction, WarpReport['path']>();

const LANE = '(ptx_tid_linear & 31u)';
/** Publications of the emulated path still readable from ptx_warp's ring (shaders/warp.wgsl). */
const WARP_READABLE = 3;
const SHFL_MODE = { up: 0, down: 1, bfly: 2, idx: 3 } as const;
const REDUX_OP: Record<ReduxOp, number> = { add: 0, min_u: 1, min_s: 2, max_u: 3, max_s: 4, and: 5, or: 6, xor: 7, fmin: 8, fmax: 9 };
/** The neutral element of each operator (f32: +inf for min, -inf for max), as u32 bits. */
const REDUX_IDENTITY: Record<ReduxOp, string> = {
  add: '0u', min_u: '0xffffffffu', min_s: '0x7fffffffu', max_u: '0u', max_s: '0x80000000u',
  and: '0xffffffffu', or: '0u', xor: '0u', fmin: '0x7f800000u', fmax: '0xff800000u',
};

function native(cx: InstContext): boolean | undefined {
  const path = warpPaths.get(cx.fn);
  if (path === 'subgroups') return true;
  if (path === 'emulated') return false;
  cx.unsupported('a warp instruction without a chosen warp path');
  return undefined;
}

const activeRef = (cx: InstContext, active: InstOf<'shfl'>['active']): string => (active === null ? 'true' : cx.ref(active));

/** Ballot of `p` and the active-lane mask, as a `vec2<u32>` temp. */
function ballot(cx: InstContext, p: string, active: string, nat: boolean): string {
  const t = cx.temp('ballot');
  if (nat) cx.line(`let ${t} = vec2<u32>(subgroupBallot(${p} && ${active}).x, subgroupBallot(${active}).x);`);
  else cx.line(`let ${t} = ${cx.call('ptx_warp_ballot', p, active)};`);
  return t;
}

/** The value of `v` when it is an IR constant. */
function constant(cx: InstContext, v: ValueId): number | undefined {
  const def = cx.fn.value(v).def;
  if (def.kind !== 'inst') return undefined;
  const inst = cx.fn.inst(def.inst).inst;
  return inst.op === 'const' ? Number(inst.bits & 0xffffffffn) : undefined;
}

/**
 * The whole-warp shuffles CUDA code usually has (constant offset, no segments) as the matching
 * subgroup built-in, which is what hand-written WGSL uses. For up/down, the ISA's range rule (a
 * lane whose source is outside the warp keeps its own value) selects the source lane of an
 * indexed shuffle rather than the shuffled value: the select then depends on the lane only and
 * leaves the value's dependency chain, which on the H100 made a 5-step shfl.down reduction 1.06x
 * faster than selecting the value (docs/BENCHMARKS.md).
 */
function wholeWarpShuffle(cx: InstContext, i: InstOf<'shfl'>): string | undefined {
  const b = constant(cx, i.lane);
  const c = constant(cx, i.clamp);
  if (b === undefined || c === undefined) return undefined;
  const bval = b & 31;
  const v = cx.ref(i.value);
  const seg = c & 0x1f1f;
  if (i.mode === 'down' && seg === 0x1f && bval > 0) return `subgroupShuffle(${v}, select(${LANE}, ${LANE} + ${bval}u, ${LANE} < ${32 - bval}u))`;
  if (i.mode === 'up' && seg === 0 && bval > 0) return `subgroupShuffle(${v}, select(${LANE}, ${LANE} - ${bval}u, ${LANE} >= ${bval}u))`;
  if (i.mode === 'bfly' && seg === 0x1f) return `subgroupShuffleXor(${v}, ${bval}u)`;
  if (i.mode === 'idx' && seg === 0x1f) return `subgroupBroadcast(${v}, ${bval}u)`;
  return undefined;
}

export function shfl(cx: InstContext, i: InstOf<'shfl'>): string {
  const nat = native(cx);
  if (nat === undefined) return '0u';
  const fast = nat ? wholeWarpShuffle(cx, i) : undefined;
  if (fast) return fast;
  // A whole-warp indexed shuffle (c = 0x1f: no segments, every lane in range) reads lane b & 31,
  // as the matrix instructions' exchanges do (src/translate/warp-exchange.ts).
  const c = constant(cx, i.clamp);
  const src = i.mode === 'idx' && c !== undefined && (c & 0x1f1f) === 0x1f
    ? `(${cx.ref(i.lane)} & 31u)`
    : cx.call('ptx_shfl_src', `${SHFL_MODE[i.mode]}u`, LANE, cx.ref(i.lane), cx.ref(i.clamp));
  if (nat) return `subgroupShuffle(${cx.ref(i.value)}, ${src})`;
  // The matrix instructions shuffle each fragment register from several lanes in a row
  // (src/translate/warp-exchange.ts), A's and B's alternating: the ring of ptx_warp keeps the
  // last three publications readable, so each is published once and read with no barrier.
  const back = cx.publishedWarpValues.lastIndexOf(i.value);
  if (back >= 0) {
    const d = cx.publishedWarpValues.length - 1 - back;
    return d === 0 ? cx.call('ptx_warp_get', src) : cx.call('ptx_warp_get_back', src, `${d}u`);
  }
  cx.publishedWarpValues.push(i.value);
  if (cx.publishedWarpValues.length > WARP_READABLE) cx.publishedWarpValues.shift();
  return cx.call('ptx_warp_shfl', cx.ref(i.value), src);
}

export function vote(cx: InstContext, i: InstOf<'vote'>): string {
  const nat = native(cx);
  if (nat === undefined) return 'false';
  const b = ballot(cx, cx.ref(i.pred), activeRef(cx, i.active), nat);
  const m = i.mask === null ? `${b}.y` : `(${b}.y & ${cx.ref(i.mask)})`;
  const hits = `(${b}.x & ${m})`;
  switch (i.mode) {
    case 'ballot': return hits;
    case 'all': return `(${hits} == ${m})`;
    case 'any': return `(${hits} != 0u)`;
    case 'uni': return `(${hits} == 0u || ${hits} == ${m})`;
  }
}

export function activemask(cx: InstContext, i: InstOf<'activemask'>): string {
  const nat = native(cx);
  if (nat === undefined) return '0u';
  const active = activeRef(cx, i.active);
  return nat ? `subgroupBallot(${active}).x` : `${cx.call('ptx_warp_ballot', 'true', active)}.y`;
}

export function match(cx: InstContext, i: InstOf<'match'>): string {
  const nat = native(cx);
  if (nat === undefined) return '0u';
  const m = cx.temp('members');
  cx.line(`let ${m} = ${ballot(cx, 'true', activeRef(cx, i.active), nat)}.y & ${cx.ref(i.mask)};`);
  const eq = nat ? 'ptx_sg_eq' : 'ptx_warp_eq';
  const v = cx.ref(i.value);
  const t = cx.typeOf(i.value);
  const wide = t.kind === 'int' && t.bits === 64;
  const same = wide ? `(${cx.call(eq, `${v}.x`, m)} & ${cx.call(eq, `${v}.y`, m)})` : cx.call(eq, v, m);
  if (i.mode === 'any') return same;
  const s = cx.temp('same');
  cx.line(`let ${s} = ${same};`);
  return `select(0u, ${m}, ${s} == ${m})`;
}

export function redux(cx: InstContext, i: InstOf<'redux'>): string {
  const nat = native(cx);
  if (nat === undefined) return '0u';
  const isFloat = i.kind === 'fmin' || i.kind === 'fmax';
  let v = isFloat ? `bitcast<u32>(${cx.ref(i.value)})` : cx.ref(i.value);
  if (i.abs) v = `(${v} & 0x7fffffffu)`;
  const op = REDUX_OP[i.kind] + (i.nan ? 2 : 0);
  const m = cx.ref(i.mask);
  let r: string;
  if (!nat && constant(cx, i.mask) === 0xffffffff) r = cx.call('ptx_warp_redux_all', `${op}u`, v, REDUX_IDENTITY[i.kind]);
  else if (!nat) r = cx.call('ptx_warp_redux', `${op}u`, v, m, REDUX_IDENTITY[i.kind]);
  else if (isFloat) r = cx.call('ptx_sg_redux', `${op}u`, v, m, REDUX_IDENTITY[i.kind]);
  else {
    // A subgroup reduction is one group; lanes may pass different masks (each naming its own
    // group, e.g. two half warps), so the builtin is used only when the mask is the same in
    // every active lane, and otherwise each lane folds its members' values.
    const fast = nativeIntRedux(i.kind, v, `((${m} >> ${LANE}) & 1u) != 0u`);
    if (constant(cx, i.mask) === 0xffffffff) r = fast;
    else {
      r = cx.temp('redux');
      cx.line(`var ${r}: u32;`);
      cx.line(`if (subgroupAll(${m} == subgroupBroadcastFirst(${m}))) { ${r} = ${fast}; } else { ${r} = ${cx.call('ptx_sg_redux', `${op}u`, v, m, REDUX_IDENTITY[i.kind])}; }`);
    }
  }
  return isFloat ? `bitcast<f32>(${r})` : r;
}

/** Integer redux with subgroup reductions: lanes outside the mask contribute the identity. */
function nativeIntRedux(kind: ReduxOp, v: string, member: string): string {
  const u = (builtin: string, identity: string): string => `${builtin}(select(${identity}, ${v}, ${member}))`;
  const s = (builtin: string, identity: string): string => `u32(${builtin}(select(${identity}, i32(${v}), ${member})))`;
  switch (kind) {
    case 'add': return u('subgroupAdd', '0u');
    case 'min_u': return u('subgroupMin', '0xffffffffu');
    case 'max_u': return u('subgroupMax', '0u');
    case 'min_s': return s('subgroupMin', '2147483647i');
    case 'max_s': return s('subgroupMax', '(-2147483647i - 1i)');
    case 'and': return u('subgroupAnd', '0xffffffffu');
    case 'or': return u('subgroupOr', '0u');
    default: return u('subgroupXor', '0u');
  }
}

/** bar.warp.sync: on the emulated path a workgroup barrier (every thread reaches it). */
export function warpSync(cx: InstContext): undefined {
  const nat = native(cx);
  if (nat === true) cx.unsupported('bar.warp.sync on the subgroups warp path (WGSL has no subgroup memory barrier)');
  else if (nat === false) cx.line('workgroupBarrier();');
  return undefined;
}

/** Module-scope declarations the path needs, and the first lines of the entry point. */
export function warpDeclarations(warp: WarpReport): { readonly enables: string[]; readonly decls: string[]; readonly prologue: string[]; readonly attributes: string[] } {
  if (warp.path === 'subgroups') {
    const pinned = warp.pinnedSubgroupSize;
    return {
      enables: ['enable subgroups;', ...(pinned ? ['enable subgroup_size_control;'] : []), 'diagnostic(off, subgroup_uniformity);'],
      decls: [], prologue: [], attributes: pinned ? [`@subgroup_size(${pinned})`] : [],
    };
  }
  if (warp.path === 'emulated') {
    return {
      enables: [],
      decls: [
        'var<workgroup> ptx_warp: array<u32, 4u * ptx_ntid_x * ptx_ntid_y * ptx_ntid_z>;',
        'var<workgroup> ptx_warp_bits: array<atomic<u32>, 6u * ((ptx_ntid_x * ptx_ntid_y * ptx_ntid_z + 31u) / 32u)>;',
        'var<private> ptx_warp_phase: u32;',
        'var<private> ptx_warp_bphase: u32;',
        'var<private> ptx_warp_t: u32;',
      ],
      prologue: ['  ptx_warp_t = ptx_tid_linear;'],
      attributes: [],
    };
  }
  return { enables: [], decls: [], prologue: [], attributes: [] };
}
