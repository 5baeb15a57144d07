/**
 * Pass `ldmatrix-strides`: proves, where the arithmetic shows it, that the lane addresses of an
 * mma operand read from an ldmatrix tile (`matrix_ldmatrix`) form a strided matrix, and records
 * the stride on the instruction. The emitter then loads the tile with one `subgroupMatrixLoad`
 * and no run-time test (lowering/wgsl/emit-matrix.ts); without a proof it tests the addresses
 * at run time, and that test and the fallback it guards cost our pipelined GEMM half its speed
 * (docs/BENCHMARKS.md, 2026-11-28).
 *
 * The analysis gives every integer value the form u + c[lane]: u the same for the 32 lanes of a
 * warp (unknown, but known to be a multiple of 2^a), c a known constant per lane. `%laneid` is
 * 0 + lane; `%tid.x` is 32w + lane, which holds when the block's x size is a multiple of 32 (the
 * emitter tests that: it is a pipeline constant); values computed from uniform values alone are
 * uniform. Adds, subtracts, multiplies and shifts by constants map both parts; masks, ors, xors,
 * right shifts and bit inserts by constants too while the parts do not overlap (every c[lane]
 * below 2^a), so that u + c is u | c. Block parameters join equal lane parts; any other value is
 * unknown. Phis of uniform values stay uniform only where every branch is uniform, so a kernel
 * with a lane-dependent branch gets no proof at all.
 *
 * Expects: the IR after carry-matrices and dead-code (block parameters, mma operands as
 *   matrix_ldmatrix). Guarantees: a matrix_ldmatrix gets `stride` (bytes between the rows of its
 *   memory matrices, a positive multiple of 16 below 16 KiB) only where every lane address the
 *   ldmatrix reads is base + (8 * along + row) * stride + 16 * across for the block its matrix
 *   holds (emit-matrix.ts `placement`), whenever the block's x size is a multiple of 32. The
 *   base itself is not tested: ldmatrix reads each row as one 16-byte access, so its row
 *   addresses are taken to be 16-byte aligned, as the load wants them.
 * Does not: change any other instruction, or prove anything for a kernel without matrix_ldmatrix.
 */
import type { BlockId, ValueId } from '../src/ir/entities.js';
import { postDominators, reversePostorder } from '../src/ir/cfg.js';
import type { IrFunction } from '../src/ir/function.js';
import { BLOCK_UNIFORM_SPECIALS, HAS_EFFECTS, operandsOf, type Inst, type InstOf } from '../src/ir/inst.js';
import { placement } from './matrix-placement.js';
import type { Pass } from './pass.js';

const LANES = 32;

/**
 * u + c[lane] in `w` bits: `a` low bits of u are zero (w when u is 0), `k` is u where known (a
 * constant), `c` null where every lane's part is 0. Values other than integers are uniform or
 * unknown only (w 0).
 */
export interface Form { readonly w: number; readonly a: number; readonly k?: bigint; readonly c: readonly bigint[] | null }
/** A value no form is known for. */
const UNKNOWN = 'unknown' as const;
export type Fact = Form | typeof UNKNOWN;

const LANE_IDS: readonly bigint[] = Array.from({ length: LANES }, (_, l) => BigInt(l));
const NO_LANE_PARTS: readonly bigint[] = LANE_IDS.map(() => 0n);

const mask = (w: number, x: bigint): bigint => BigInt.asUintN(w, x);
const trailingZeros = (w: number, k: bigint): number => {
  if (k === 0n) return w;
  let n = 0;
  while (((k >> BigInt(n)) & 1n) === 0n) n++;
  return n;
};
const uniform = (w: number, k?: bigint): Form => (k === undefined ? { w, a: 0, c: null } : { w, a: trailingZeros(w, mask(w, k)), k: mask(w, k), c: null });
const lanes = (f: Form): readonly bigint[] => f.c ?? NO_LANE_PARTS;
const laneMap = (f: Form, g: (c: bigint, lane: number) => bigint): bigint[] | null => {
  const c = lanes(f).map((x, l) => mask(f.w, g(x, l)));
  return c.every((x) => x === 0n) ? null : c;
};
/** The lane parts lie below u's zero bits, so u + c = u | c: bitwise operations see the parts apart. */
const apart = (f: Form): boolean => f.c === null || (f.a >= f.w ? true : f.c.every((x) => x < 1n << BigInt(f.a)));
const form = (w: number, a: number, c: bigint[] | null, k?: bigint): Form => {
  if (k === undefined) return { w, a: Math.min(w, a), c };
  const u = mask(w, k);
  return { w, a: trailingZeros(w, u), k: u, c };
};

function sameLanes(x: Form, y: Form): boolean {
  if (x.c === null || y.c === null) return x.c === y.c;
  return x.c.every((v, l) => v === (y.c as readonly bigint[])[l]);
}

function join(x: Fact | undefined, y: Fact): Fact {
  if (x === undefined) return y;
  if (x === UNKNOWN || y === UNKNOWN || x.w !== y.w || !sameLanes(x, y)) return UNKNOWN;
  return form(x.w, Math.min(x.a, y.a), x.c === null ? null : [...x.c], x.k !== undefined && x.k === y.k ? x.k : undefined);
}

const bitOp = (kind: 'and' | 'or' | 'xor', p: bigint, q: bigint): bigint => (kind === 'and' ? p & q : kind === 'or' ? p | q : p ^ q);

/**
 * Bitwise and/or/xor of two forms whose lane parts lie below the zero bits of both u's; a side
 * whose u is unknown is fine as long as the other's lane parts lie below its zero bits.
 */
function bitwise(kind: 'and' | 'or' | 'xor', x: Form, y: Form): Fact {
  const a = Math.min(x.a, y.a);
  const below = (f: Form): boolean => f.c === null || a >= f.w || f.c.every((v) => v < 1n << BigInt(a));
  if (!below(x) || !below(y)) return UNKNOWN;
  const yc = lanes(y);
  const k = x.k !== undefined && y.k !== undefined ? bitOp(kind, x.k, y.k) : kind === 'and' && (x.k === 0n || y.k === 0n) ? 0n : undefined;
  // every part below both u's zero bits: u op v meets no lane part, and keeps the zero bits of
  // both (and) or of either (or, xor)
  return form(x.w, kind === 'and' ? Math.max(x.a, y.a) : a, laneMap(x, (c, l) => bitOp(kind, c, yc[l] as bigint)), k);
}

function binary(inst: InstOf<'ibinary'>, x: Form, y: Form): Fact {
  const w = x.w;
  const both = x.k !== undefined && y.k !== undefined;
  const yc = lanes(y);
  switch (inst.kind) {
    case 'add': return form(w, Math.min(x.a, y.a), laneMap(x, (c, l) => c + (yc[l] as bigint)), both ? (x.k as bigint) + (y.k as bigint) : undefined);
    case 'sub': return form(w, Math.min(x.a, y.a), laneMap(x, (c, l) => c - (yc[l] as bigint)), both ? (x.k as bigint) - (y.k as bigint) : undefined);
    case 'mul': {
      if (x.c === null && y.c === null) return both ? uniform(w, (x.k as bigint) * (y.k as bigint)) : uniform(w);
      const [v, k] = y.c === null ? [x, y.k] : x.c === null ? [y, x.k] : [undefined, undefined];
      if (!v || k === undefined) return UNKNOWN;
      return form(w, Math.min(w, v.a + trailingZeros(w, k)), laneMap(v, (c) => c * k), v.k === undefined ? undefined : v.k * k);
    }
    case 'shl': {
      if (y.c !== null || y.k === undefined || y.k >= BigInt(w)) return x.c === null && y.c === null ? uniform(w) : UNKNOWN;
      const s = Number(y.k);
      return form(w, Math.min(w, x.a + s), laneMap(x, (c) => c << BigInt(s)), x.k === undefined ? undefined : x.k << BigInt(s));
    }
    case 'shr_u': {
      if (y.c !== null || y.k === undefined || y.k >= BigInt(w)) return x.c === null && y.c === null ? uniform(w) : UNKNOWN;
      if (x.c === null) return x.k === undefined ? uniform(w) : uniform(w, x.k >> y.k);
      if (!apart(x)) return UNKNOWN;
      // (u | c) >> s: u's low a bits are zero, so u >> s keeps a - s of them
      const s = Number(y.k);
      return form(w, Math.max(0, x.a - s), laneMap(x, (c) => c >> BigInt(s)), x.k === undefined ? undefined : x.k >> BigInt(s));
    }
    case 'and': case 'or': case 'xor':
      if (x.c === null && y.c === null) return both ? uniform(w, bitOp(inst.kind, x.k as bigint, y.k as bigint)) : uniform(w);
      if (!apart(x) || !apart(y)) return UNKNOWN;
      return splitBitwise(inst.kind, x, y);
    default:
      return x.c === null && y.c === null ? uniform(w) : UNKNOWN;
  }
}

/**
 * x op y where one side may be a known constant: a constant splits into its bits at u's zero
 * bits and the rest, so that each part meets its kind.
 */
function splitBitwise(kind: 'and' | 'or' | 'xor', x: Form, y: Form): Fact {
  const split = (f: Form, a: number): Form => {
    if (f.c !== null || f.k === undefined) return f;
    const low = a >= f.w ? f.k : f.k & ((1n << BigInt(a)) - 1n);
    const high = f.k - low;
    return { w: f.w, a: trailingZeros(f.w, high), k: high, c: low === 0n ? null : LANE_IDS.map(() => low) };
  };
  // a constant's low bits go with the other side's lane parts, its high bits with u
  return bitwise(kind, split(x, y.a), split(y, x.a));
}

/**
 * u | c against a constant K a multiple of 2^a (K - 1 for <= and >): the lane part cannot carry
 * u across K, so the comparison is u's, the same in every lane. Loops such as
 * `for (i = lane; i < 256; i += 32)` have this bound.
 */
function unsignedBound(cond: InstOf<'icmp'>['cond'], x: Form, y: Form): Fact {
  const flip: Partial<Record<typeof cond, typeof cond>> = { ult: 'ugt', ule: 'uge', ugt: 'ult', uge: 'ule' };
  const [v, k, c] = y.c === null ? [x, y.k, cond] : x.c === null ? [y, x.k, flip[cond]] : [undefined, undefined, undefined];
  if (!v || k === undefined || c === undefined || !apart(v) || v.a >= v.w) return UNKNOWN;
  const edge = c === 'ult' || c === 'uge' ? k : c === 'ule' || c === 'ugt' ? k + 1n : -1n;
  return edge >= 0n && edge % (1n << BigInt(v.a)) === 0n ? uniform(0) : UNKNOWN;
}

function bfi(args: readonly Fact[], w: number): Fact {
  // bfi f, b, pos, len: b with bits [pos, pos + len) replaced by f's low len bits
  const [f, b, pos, len] = args;
  if (!isForm(f) || !isForm(b) || !isForm(pos) || !isForm(len)) return UNKNOWN;
  if (f.c === null && b.c === null && pos.c === null && len.c === null) return uniform(w);
  if (f.c !== null || pos.c !== null || len.c !== null || pos.k === undefined || len.k === undefined) return UNKNOWN;
  // bfi.b32 takes position and length & 0xff; bfi.b64 the whole 32-bit values (emit-int.ts)
  const [p, n] = [pos.k, len.k].map((x) => Number(w === 32 ? x & 0xffn : x)) as [number, number];
  if (p + n > w || !apart(b)) return UNKNOWN;
  const field = ((1n << BigInt(n)) - 1n) << BigInt(p);
  // u' = (u & ~field) | (f << pos & field): low min(a, pos) bits zero
  return form(w, Math.min(b.a, p), laneMap(b, (c) => c & ~field), b.k !== undefined && f.k !== undefined ? (b.k & ~field) | ((f.k << BigInt(p)) & field) : undefined);
}

/**
 * bfe x, pos, len with constant pos and len: a field inside the lane parts is each lane's own
 * (u's zero bits add nothing to it), a field above them is u's, uniform.
 */
function bfe(args: readonly Fact[], w: number, signed: boolean): Fact {
  const [x, pos, len] = args;
  if (!isForm(x) || !isForm(pos) || !isForm(len)) return UNKNOWN;
  if (x.c === null && pos.c === null && len.c === null) return uniform(w);
  if (pos.c !== null || len.c !== null || pos.k === undefined || len.k === undefined || !apart(x)) return UNKNOWN;
  // as bfi: & 0xff for .b32, whole for .b64
  const [p, n] = [pos.k, len.k].map((v) => Number(w === 32 ? v & 0xffn : v)) as [number, number];
  if (n === 0) return uniform(w, 0n);
  if (p + n > w) return UNKNOWN;
  if (p >= x.a) return uniform(w);
  if (p + n > x.a) return UNKNOWN;
  const ones = (1n << BigInt(n)) - 1n;
  const field = (c: bigint): bigint => {
    const f = (c >> BigInt(p)) & ones;
    return signed && (f >> BigInt(n - 1)) & 1n ? f | ~ones : f;
  };
  return form(w, w, laneMap(x, field), 0n);
}

const isForm = (f: Fact | undefined): f is Form => f !== undefined && f !== UNKNOWN;
const widthOf = (fn: IrFunction, v: ValueId): number => {
  const t = fn.typeOf(v);
  return t.kind === 'int' ? t.bits : 0;
};

function transfer(fn: IrFunction, inst: Inst, result: ValueId, facts: Map<ValueId, Fact>): Fact | undefined {
  const w = widthOf(fn, result);
  const ops = operandsOf(inst).map((v) => facts.get(v));
  if (ops.some((f) => f === undefined)) return undefined;
  const args = ops as Fact[];
  const allUniform = args.every((f) => f !== UNKNOWN && f.c === null);
  switch (inst.op) {
    case 'const': return w ? uniform(w, inst.bits) : uniform(0);
    case 'special':
      if (inst.register === 'laneid') return { w, a: w, k: 0n, c: LANE_IDS };
      // x = 32 * warp + lane where the block's x size is a multiple of 32; y and z are the warp's
      if (inst.register === 'tid') return inst.component === 0 ? { w, a: 5, c: LANE_IDS } : uniform(w);
      return BLOCK_UNIFORM_SPECIALS.has(inst.register) ? uniform(w) : UNKNOWN;
    case 'kernel_param': case 'address_of': case 'cvta': return allUniform ? uniform(w) : UNKNOWN;
    case 'ibinary': {
      // predicates (and, or, xor of conditions) are uniform or unknown
      if (!w) return allUniform ? uniform(0) : UNKNOWN;
      const [x, y] = args;
      return isForm(x) && isForm(y) ? binary(inst, x, y) : UNKNOWN;
    }
    case 'ibits':
      if (inst.fn.kind === 'bfi') return bfi(args, w);
      if (inst.fn.kind === 'bfe') return bfe(args, w, inst.fn.signed);
      return allUniform ? uniform(w) : UNKNOWN;
    case 'truncate': {
      const [x] = args;
      if (!isForm(x) || !w) return UNKNOWN;
      return form(w, Math.min(x.a, w), laneMap({ ...x, w }, (c) => c), x.k);
    }
    case 'extend': {
      const [x] = args;
      if (!isForm(x) || !w) return UNKNOWN;
      if (x.c === null) return inst.signed || x.k === undefined ? uniform(w) : uniform(w, x.k);
      // zero extension of u | c is zext(u) | c
      return !inst.signed && apart(x) ? form(w, x.a >= x.w ? w : x.a, [...x.c], x.k) : UNKNOWN;
    }
    case 'mul_wide': {
      const [x, y] = args;
      if (!isForm(x) || !isForm(y)) return UNKNOWN;
      if (x.c === null && y.c === null) return uniform(w);
      if (inst.signed) return UNKNOWN;
      const wide = (f: Form): Fact => (f.c === null ? (f.k === undefined ? uniform(w) : uniform(w, f.k)) : apart(f) ? form(w, f.a >= f.w ? w : f.a, [...f.c], f.k) : UNKNOWN);
      const xw = wide(x), yw = wide(y);
      return isForm(xw) && isForm(yw) ? binary({ op: 'ibinary', kind: 'mul', type: inst.type, a: inst.a, b: inst.b }, xw, yw) : UNKNOWN;
    }
    case 'icmp': {
      const [x, y] = args;
      if (!isForm(x) || !isForm(y)) return UNKNOWN;
      return x.c === null && y.c === null ? uniform(0) : unsignedBound(inst.cond, x, y);
    }
    case 'select': {
      const [cond, x, y] = args;
      if (!isForm(cond) || cond.c !== null) return UNKNOWN;
      return join(x, y as Fact);
    }
    case 'bitcast': {
      const [x] = args;
      return isForm(x) && x.w === w ? x : allUniform ? uniform(w) : UNKNOWN;
    }
    case 'load': case 'matrix_ldmatrix': case 'matrix_load': return UNKNOWN;
    default:
      return allUniform && !HAS_EFFECTS[inst.op] ? uniform(w) : UNKNOWN;
  }
}

/**
 * Facts for every value, to a fixed point, optimistic at block parameters. The parameters of
 * the blocks in `divergent` are unknown: lanes may arrive there from different paths.
 */
function facts(fn: IrFunction, order: readonly BlockId[], divergent: ReadonlySet<BlockId>): Map<ValueId, Fact> {
  const out = new Map<ValueId, Fact>();
  // the round in which each value's fact last changed: an instruction is computed again only
  // when an operand changed since it was last computed (this round or the one before)
  const changedIn = new Map<ValueId, number>();
  let round = 0;
  let changed = true;
  const set = (v: ValueId, f: Fact | undefined): void => {
    if (f === undefined) return;
    const old = out.get(v);
    if (old !== undefined && same(old, f)) return;
    const next = old === undefined ? f : join(old, f);
    if (old === undefined || !same(old, next)) { out.set(v, next); changedIn.set(v, round); changed = true; }
  };
  const stale = (v: ValueId): boolean => (changedIn.get(v) ?? -1) >= round - 1;
  for (; changed; round++) {
    changed = false;
    for (const b of order) {
      const block = fn.block(b);
      for (const id of block.insts) {
        const data = fn.inst(id);
        if (data.results.length !== 1) { for (const r of data.results) set(r, UNKNOWN); continue; }
        const result = data.results[0] as ValueId;
        if (out.has(result) && !operandsOf(data.inst).some(stale)) continue;
        set(result, transfer(fn, data.inst, result, out));
      }
      for (const s of fn.successors(b)) {
        const params = fn.block(s.block).params;
        const lost = divergent.has(s.block);
        s.args.forEach((v, i) => set(params[i] as ValueId, lost ? UNKNOWN : out.get(v)));
      }
    }
  }
  return out;
}

/**
 * The facts with the parameters of every block a lane-dependent branch reaches before its
 * paths meet again (its immediate post-dominator, included) unknown: where lanes part, values
 * that are uniform on each path differ between lanes when the paths meet, and a loop whose exit
 * depends on the lane carries different values in different lanes. Grows until the branches
 * the facts call uniform are those it assumed uniform.
 */
export function analyse(fn: IrFunction): Map<ValueId, Fact> {
  const divergent = new Set<BlockId>();
  const order = reversePostorder(fn);
  let ipdom: Map<BlockId, BlockId | undefined> | undefined;
  for (;;) {
    const found = facts(fn, order, divergent);
    let grown = false;
    for (const b of fn.blockIds()) {
      const t = fn.block(b).term;
      const cond = t?.op === 'branch' ? t.cond : t?.op === 'switch' ? t.index : undefined;
      const f = cond === undefined ? undefined : found.get(cond);
      if (f === undefined || (f !== UNKNOWN && f.c === null)) continue;
      ipdom ??= postDominators(fn);
      const join = ipdom.get(b);
      const work = fn.successors(b).map((s) => s.block);
      const region = new Set<BlockId>(join === undefined ? [] : [join]);
      while (work.length) {
        const x = work.pop() as BlockId;
        if (region.has(x)) continue;
        region.add(x);
        for (const s of fn.successors(x)) work.push(s.block);
      }
      for (const x of region) if (!divergent.has(x) && fn.block(x).params.length) { divergent.add(x); grown = true; }
    }
    if (!grown) return found;
  }
}

function same(x: Fact, y: Fact): boolean {
  if (x === UNKNOWN || y === UNKNOWN) return x === y;
  return x.w === y.w && x.a === y.a && x.k === y.k && sameLanes(x, y);
}

/** The stride in bytes the lane parts prove for this ldmatrix, or undefined. */
export function provenStride(i: InstOf<'matrix_ldmatrix'>, address: Fact | undefined): number | undefined {
  if (!isForm(address)) return undefined;
  const c = lanes(address);
  const w = address.w;
  const diff = (l: number, l0: number): number => Number(BigInt.asIntN(w, (c[l] as bigint) - (c[l0] as bigint)));
  const l0 = 8 * (i.matrices[0] as number);
  const stride = diff(l0 + 1, l0);
  if (stride <= 0 || stride >= 0x4000 || stride % 16 !== 0) return undefined;
  const { used, along, across } = placement(i);
  for (let m = 0; m < 4; m++) {
    if (!((used >> m) & 1)) continue;
    for (let j = 0; j < 8; j++) {
      if (diff(8 * m + j, l0) !== (8 * ((along >> m) & 1) + j) * stride + 16 * ((across >> m) & 1)) return undefined;
    }
  }
  return stride;
}

export const ldmatrixStrides: Pass = {
  name: 'ldmatrix-strides',
  run(fn: IrFunction): void {
    const found: { id: number; inst: InstOf<'matrix_ldmatrix'> }[] = [];
    for (const b of fn.blockIds()) for (const id of fn.block(b).insts) {
      const inst = fn.inst(id).inst;
      if (inst.op === 'matrix_ldmatrix') found.push({ id, inst });
    }
    if (!found.length) return;
    const known = analyse(fn);
    for (const { id, inst } of found) {
      const stride = provenStride(inst, known.get(inst.address));
      if (stride !== undefined) fn.inst(id as never).inst = { ...inst, stride };
    }
  },
};
