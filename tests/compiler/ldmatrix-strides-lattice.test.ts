// The lane-form analysis of lowering/ldmatrix-strides.ts against evaluation: random integer
// programs over %tid.x, %laneid, per-block values and constants, each evaluated for the 32 lanes
// of a warp (with a random warp and block), and every form the analysis claims checked against
// the lanes' values: value = u + c[lane] with one u for the warp, u a multiple of 2^a, u = k
// where k is given, and a compare it calls uniform the same in every lane. A rule that is not
// sound (a carry from the lane part into u, a mask that meets unknown bits, a wrap) fails here.
import { describe, expect, it } from 'vitest';
import { IrFunction } from '../../src/ir/function.js';
import type { ValueId } from '../../src/ir/entities.js';
import type { Inst, IntBinaryOp, IntCompare } from '../../src/ir/inst.js';
import { NO_SPAN } from '../../src/diagnostics/span.js';
import * as T from '../../src/ir/types.js';
import { analyse, type Form } from '../../lowering/ldmatrix-strides.js';
import { mulberry32 } from '../e2e/reference.js';

/** Uniform in [0, 1), seeded, so that a failure reproduces. */
const random = (seed: number): (() => number) => { const next = mulberry32(seed); return () => next() / 2 ** 32; };

const CONSTANTS = [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 24, 31, 32, 48, 63, 64, 96, 127, 144, 255, 256, 0xffffffe0, 0xfffffff0, 0xfffffff8, 0x7fffffff, 0x80000000];
const BINARY: IntBinaryOp[] = ['add', 'sub', 'mul', 'shl', 'shr_u', 'and', 'or', 'xor'];
const COMPARES: IntCompare[] = ['ult', 'ule', 'ugt', 'uge', 'eq'];
const mask = (w: number, x: bigint): bigint => BigInt.asUintN(w, x);

interface Program { fn: IrFunction; values: { v: ValueId; lanes: bigint[]; w: number }[] }

/** One random straight-line program; `lanes` are each value's 32 lane values. */
function program(rand: () => number): Program {
  const fn = new IrFunction('k', true, [], NO_SPAN);
  const b = fn.addBlock();
  fn.entry = b;
  const pick = <X>(xs: readonly X[]): X => xs[Math.floor(rand() * xs.length)] as X;
  const warp = Math.floor(rand() * 32), block = Math.floor(rand() * 2 ** 32), size = 32 * (1 + Math.floor(rand() * 32));
  const values: Program['values'] = [];
  const i32 = T.int(32), i64 = T.int(64);
  const add = (inst: Inst, lanes: bigint[], w: number): ValueId => {
    const v = fn.append(b, inst, NO_SPAN)[0] as ValueId;
    values.push({ v, lanes: lanes.map((x) => mask(w, x)), w });
    return v;
  };
  const all = (x: bigint): bigint[] => Array.from({ length: 32 }, () => x);
  const ints = (w: number) => values.filter((x) => x.w === w);
  const constant = (w: number, x: number): ValueId => add({ op: 'const', type: w === 32 ? i32 : i64, bits: mask(w, BigInt(x)) }, all(BigInt(x)), w);
  add({ op: 'special', type: i32, register: 'tid', component: 0 }, Array.from({ length: 32 }, (_, l) => BigInt(32 * warp + l)), 32);
  add({ op: 'special', type: i32, register: 'laneid', component: 0 }, Array.from({ length: 32 }, (_, l) => BigInt(l)), 32);
  add({ op: 'special', type: i32, register: 'ctaid', component: 0 }, all(BigInt(block)), 32);
  add({ op: 'special', type: i32, register: 'ntid', component: 0 }, all(BigInt(size)), 32);
  for (let n = 0; n < 14; n++) {
    const r = rand();
    if (r < 0.55) {
      const kind = pick(BINARY);
      const x = pick(ints(32));
      const shift = kind === 'shl' || kind === 'shr_u';
      const y = shift || rand() < 0.6 ? { v: constant(32, shift ? Math.floor(rand() * 32) : pick(CONSTANTS)), lanes: [] as bigint[], w: 32 } : pick(ints(32));
      const yl = y.lanes.length ? y.lanes : (values[values.length - 1] as Program['values'][number]).lanes;
      const out = x.lanes.map((p, l) => {
        const q = yl[l] as bigint;
        switch (kind) {
          case 'add': return p + q; case 'sub': return p - q; case 'mul': return p * q;
          case 'shl': return p << q; case 'shr_u': return p >> q;
          case 'and': return p & q; case 'or': return p | q; default: return p ^ q;
        }
      });
      add({ op: 'ibinary', type: i32, kind, a: x.v, b: y.v }, out, 32);
    } else if (r < 0.65) {
      // bfi f, b, pos, len with constant pos and len
      const f = pick(ints(32)), base = pick(ints(32));
      const pos = Math.floor(rand() * 32), len = Math.floor(rand() * (33 - pos));
      const p = constant(32, pos), q = constant(32, len);
      const field = ((1n << BigInt(len)) - 1n) << BigInt(pos);
      add({ op: 'ibits', type: i32, fn: { kind: 'bfi' }, args: [f.v, base.v, p, q] },
        base.lanes.map((x, l) => (x & ~field) | (((f.lanes[l] as bigint) << BigInt(pos)) & field)), 32);
    } else if (r < 0.7) {
      // bfe x, pos, len (signed or not) with constant pos and len, mostly fields near the lane
      // bits (the edge between the lane parts and u is where a wrong rule shows)
      const x = pick(ints(32));
      const pos = rand() < 0.7 ? Math.floor(rand() * 8) : Math.floor(rand() * 32);
      const len = Math.min(32 - pos, rand() < 0.7 ? 1 + Math.floor(rand() * 6) : Math.floor(rand() * 33));
      const signed = rand() < 0.5;
      const p = constant(32, pos), q = constant(32, len);
      const ones = (1n << BigInt(len)) - 1n;
      add({ op: 'ibits', type: i32, fn: { kind: 'bfe', signed }, args: [x.v, p, q] }, x.lanes.map((v) => {
        if (len === 0) return 0n;
        const f = (v >> BigInt(pos)) & ones;
        return signed && (f >> BigInt(len - 1)) & 1n ? f | ~ones : f;
      }), 32);
    } else if (r < 0.78) {
      // through 64 bits and back: zero extension, a wide multiply by a constant, truncation
      const x = pick(ints(32));
      const wide = rand() < 0.5
        ? add({ op: 'extend', type: i64, signed: false, value: x.v }, x.lanes, 64)
        : (() => { const k = pick(CONSTANTS); const kv = constant(32, k); return add({ op: 'mul_wide', type: i64, signed: false, a: x.v, b: kv }, x.lanes.map((p) => p * BigInt(k)), 64); })();
      const w = values.find((e) => e.v === wide) as Program['values'][number];
      const k = pick(CONSTANTS);
      const kv = constant(64, k);
      const sum = add({ op: 'ibinary', type: i64, kind: 'add', a: wide, b: kv }, w.lanes.map((p) => p + BigInt(k)), 64);
      const s = values.find((e) => e.v === sum) as Program['values'][number];
      add({ op: 'truncate', type: i32, value: sum }, s.lanes, 32);
    } else if (r < 0.87) {
      // a compare against a constant, and a select on it
      const x = pick(ints(32));
      const cond = pick(COMPARES);
      const k = pick(CONSTANTS);
      const kv = constant(32, k);
      const K = mask(32, BigInt(k));
      const truth = x.lanes.map((p) => (cond === 'ult' ? p < K : cond === 'ule' ? p <= K : cond === 'ugt' ? p > K : cond === 'uge' ? p >= K : p === K));
      const c = fn.append(b, { op: 'icmp', type: T.pred, cond, a: x.v, b: kv }, NO_SPAN)[0] as ValueId;
      values.push({ v: c, lanes: truth.map((t) => (t ? 1n : 0n)), w: 0 });
      const y = pick(ints(32)), z = pick(ints(32));
      add({ op: 'select', type: i32, cond: c, a: y.v, b: z.v }, truth.map((t, l) => ((t ? y : z).lanes[l] as bigint)), 32);
    } else {
      const x = pick(ints(32));
      add({ op: 'iunary', type: i32, kind: 'not', value: x.v }, x.lanes.map((p) => ~p), 32);
    }
  }
  fn.block(b).term = { op: 'return', values: [], span: NO_SPAN };
  return { fn, values };
}

/** What is wrong with `form` for these lane values, or null. */
function violation(form: Form, lanes: readonly bigint[], w: number): string | null {
  if (w === 0) return form.c === null && lanes.some((x) => x !== lanes[0]) ? 'a compare called uniform differs between lanes' : null;
  const c = form.c ?? lanes.map(() => 0n);
  const u = mask(w, (lanes[0] as bigint) - (c[0] as bigint));
  for (let l = 0; l < 32; l++) if (mask(w, u + (c[l] as bigint)) !== lanes[l]) return `lane ${l}: ${lanes[l]} is not u + c = ${mask(w, u + (c[l] as bigint))}`;
  if (form.a > 0 && mask(Math.min(form.a, w), u) !== 0n) return `u = ${u} is not a multiple of 2^${form.a}`;
  if (form.k !== undefined && form.k !== u) return `u = ${u}, not k = ${form.k}`;
  return null;
}

describe('ldmatrix-strides lane forms', () => {
  it('hold for every lane in 3000 random programs, and prove lane parts in most', () => {
    let checked = 0, withLanes = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const { fn, values } = program(random(seed));
      const facts = analyse(fn);
      for (const { v, lanes, w } of values) {
        const f = facts.get(v);
        if (f === undefined || f === 'unknown') continue;
        const bad = violation(f, lanes, w);
        if (bad) expect.fail(`seed ${seed}, v${v} (${JSON.stringify(fn.defOf(v), (_, x) => (typeof x === 'bigint' ? x.toString() : x))}): ${bad}`);
        checked++;
        if (f.c !== null && w) withLanes++;
      }
    }
    // the check must see forms with lane parts, not only uniform values
    expect(withLanes).toBeGreaterThan(5000);
    expect(checked).toBeGreaterThan(50000);
  });
});
