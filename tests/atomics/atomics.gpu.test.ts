// atom/red on real WebGPU (Dawn + lavapipe) against the JS references of reference.ts:
// many threads on one address (results must linearise exactly), and one address per thread
// for the arithmetic (rounding, subnormals, wrap formulas), also checked against native CUDA
// recordings (tests/atomics/native/) where they exist. Output buffers are poisoned.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runPtx } from '../../src/index.js';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { contendKernel, eachKernel, elementBytes, type AtomSpec, type Space } from './kernels.js';
import { apply, f32Bits, f64Bits, linearise, type Bits, type Op } from './reference.js';
import { EACH_CASES } from './cases.js';
import { cases } from '../e2e/cases.js';

afterAll(() => releaseDefaultDevice());

/** Deterministic xorshift32 stream. */
export function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x; };
}

function toArray(values: readonly Bits[], bytes: number): Uint16Array | Uint32Array | BigUint64Array {
  if (bytes === 8) return BigUint64Array.from(values);
  return bytes === 2 ? Uint16Array.from(values.map(Number)) : Uint32Array.from(values.map(Number));
}
const fromArray = (a: Uint16Array | Uint32Array | BigUint64Array): Bits[] => [...a].map((x) => BigInt(x));
function poison(n: number, bytes: number): Uint16Array | Uint32Array | BigUint64Array {
  return bytes === 8 ? new BigUint64Array(n).fill(0xdeadbeefdeadbeefn) : bytes === 2 ? new Uint16Array(n).fill(0xdead) : new Uint32Array(n).fill(0xdeadbeef);
}

export async function runAtom(ptx: string, init: readonly Bits[], vals: readonly Bits[], cmps: readonly Bits[], bytes: number, grid: number, block: number): Promise<{ out: Bits[]; olds: Bits[] }> {
  const out = toArray(init, bytes);
  const olds = poison(vals.length, bytes);
  await runPtx(ptx, [out, olds, toArray(vals, bytes), toArray(cmps, bytes)], { grid, block });
  return { out: fromArray(out), olds: fromArray(olds) };
}

const OPS32: readonly [Op, string][] = [
  ['add', 'u32'], ['add', 's32'], ['min', 'u32'], ['min', 's32'], ['max', 'u32'], ['max', 's32'],
  ['inc', 'u32'], ['dec', 'u32'], ['cas', 'b32'], ['exch', 'b32'], ['and', 'b32'], ['or', 'b32'], ['xor', 'b32'], ['add', 'f32'],
];
const OPS64: readonly [Op, string][] = [
  ['add', 'u64'], ['add', 's64'], ['min', 'u64'], ['min', 's64'], ['max', 'u64'], ['max', 's64'],
  ['cas', 'b64'], ['exch', 'b64'], ['and', 'b64'], ['or', 'b64'], ['xor', 'b64'], ['add', 'f64'],
];

/** Operands that make each op do something interesting under contention. */
function operands(op: Op, type: string, n: number, seed: number): { init: Bits; vals: Bits[]; cmps: Bits[] } {
  const r = rng(seed);
  const wide = type.endsWith('64');
  const any = (): Bits => (wide ? (BigInt(r()) << 32n) | BigInt(r()) : BigInt(r()));
  const small = (k: number): Bits => BigInt(r() % k);
  const gen = (): Bits => {
    switch (op) {
      case 'inc': case 'dec': return small(40);
      case 'cas': return small(8);
      case 'and': return wide ? ~(1n << small(64)) & 0xffffffffffffffffn : BigInt(~(1 << Number(small(32))) >>> 0);
      case 'or': return 1n << small(wide ? 64 : 32);
      case 'add':
        if (type === 'f32') return BigInt(f32Bits(Number(small(1000)) - 500));
        if (type === 'f64') return f64Bits(Number(small(1 << 20)) - 2 ** 19);
        return any();
      default: return any();
    }
  };
  const vals = Array.from({ length: n }, gen);
  // cas: a ticket counter (new = compare + 1); exch: distinct values
  const cmps = vals.map((v) => (op === 'cas' ? v : 0n));
  if (op === 'cas') vals.forEach((v, t) => { vals[t] = v + 1n; });
  if (op === 'exch') vals.forEach((_, t) => { vals[t] = BigInt(t + 100); });
  const init = op === 'cas' ? 0n : op === 'exch' ? 3n : op === 'and' ? (wide ? 0xffffffffffffffffn : 0xffffffffn) : op === 'or' ? 0n : op === 'add' && type === 'f32' ? BigInt(f32Bits(0.5)) : op === 'add' && type === 'f64' ? f64Bits(0.25) : op === 'inc' || op === 'dec' ? 7n : any();
  return { init, vals, cmps };
}

const SPACES: readonly Space[] = ['global', 'shared', 'generic-global', 'generic-shared'];

describe.each(SPACES)('many threads on one %s address', (space) => {
  const onShared = space.endsWith('shared');
  const [grid, block] = onShared ? [1, 128] : [4, 64];
  it.each([...OPS32, ...OPS64])('atom.%s.%s linearises exactly', async (op, type) => {
    const bytes = elementBytes(type);
    const n = grid * block;
    const { init, vals, cmps } = operands(op, type, n, 1234 + op.length * 7 + type.length);
    const spec: AtomSpec = { space, op, type };
    const { out, olds } = await runAtom(contendKernel(spec), [init], vals, cmps, bytes, grid, block);
    const err = linearise(init, olds, out[0] as Bits, (t, s) => apply(op, type, s, vals[t] as Bits, cmps[t] as Bits, !onShared));
    expect(err).toBeNull();
  });
  it.each([['add', 'u32'], ['xor', 'b32'], ['max', 's32'], ['add', 'u64'], ['or', 'b64']] as const)('red.%s.%s leaves the exact total', async (op, type) => {
    const bytes = elementBytes(type);
    const { init, vals, cmps } = operands(op, type, grid * block, 99);
    const { out } = await runAtom(contendKernel({ space, op, type, red: true }), [init], vals, cmps, bytes, grid, block);
    expect(out[0]).toBe(vals.reduce((s, v) => apply(op, type, s, v, 0n), init));
  });
});

describe('atom.add of 1 hands out every ticket once', () => {
  it.each(['global', 'shared'] as const)('%s', async (space) => {
    const [grid, block] = space === 'shared' ? [1, 256] : [8, 64];
    const n = grid * block;
    const { out, olds } = await runAtom(contendKernel({ space, op: 'add', type: 'u32', sem: '.relaxed.gpu' }), [0n], Array(n).fill(1n), Array(n).fill(0n), 4, grid, block);
    expect(out[0]).toBe(BigInt(n));
    expect(olds.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
  });
  it('with .sem and .scope qualifiers (acq_rel.gpu, acquire.cta, release.sys)', async () => {
    for (const sem of ['.acq_rel.gpu', '.acquire.cta', '.release.sys']) {
      const { out } = await runAtom(contendKernel({ space: 'global', op: 'add', type: 'u64', sem }), [5n], Array(64).fill(3n), Array(64).fill(0n), 8, 2, 32);
      expect(out[0]).toBe(5n + 3n * 64n);
    }
  });
});

describe('f16x2 / bf16x2 / b16 lanes under contention', () => {
  it.each(['f16x2', 'bf16x2'])('atom.add.noftz.%s sums small integers exactly in both lanes', async (type) => {
    const n = 256;
    const r = rng(7);
    const enc = (x: number): number => (type === 'f16x2' ? f16OfInt(x) : f32Bits(x) >>> 16);
    const lanes = Array.from({ length: n }, () => [r() % 3, r() % 2] as const);
    const vals = lanes.map(([a, b]) => BigInt((enc(a) | (enc(b) << 16)) >>> 0));
    const { out, olds } = await runAtom(contendKernel({ space: 'global', op: 'add.noftz', type }), [0n], vals, vals.map(() => 0n), 4, 4, 64);
    const total = lanes.reduce(([x, y], [a, b]) => [x + a, y + b], [0, 0]);
    expect(out[0]).toBe(BigInt((enc(total[0]) | (enc(total[1]) << 16)) >>> 0));
    expect(linearise(0n, olds, out[0] as Bits, (t, s) => apply('add', type, s, vals[t] as Bits, 0n))).toBeNull();
  });
  it('atom.cas.b16 on neighbouring halfwords keeps the other lane', async () => {
    // thread t: cas on halfword t % 4 of an 8-byte array, compare = t / 4 (a ticket), new = t / 4 + 1
    const n = 64;
    const src = eachKernel({ space: 'global', op: 'cas', type: 'b16' }, n).replace('mul.wide.u32 %rd5, %r4, 2; add.u64 %rd6', 'mul.wide.u32 %rd5, %r4, 2; and.b32 %r5, %r4, 3; mul.wide.u32 %rd13, %r5, 2; add.u64 %rd6').replace('add.u64 %rd8, %rd1, %rd5;', 'add.u64 %rd8, %rd1, %rd13;');
    const vals = Array.from({ length: n }, (_, t) => BigInt((t >> 2) + 1));
    const cmps = Array.from({ length: n }, (_, t) => BigInt(t >> 2));
    const init = Array.from({ length: n }, () => 0n);
    const { out, olds } = await runAtom(src, init, vals, cmps, 2, 1, n);
    // every lane counts up 0..16 exactly once per ticket: each cas succeeds when its ticket comes
    // up, so only threads whose ticket was reached succeed; the lane's final value is the length
    // of the chain of successful tickets from 0.
    for (let lane = 0; lane < 4; lane++) {
      const mine = Array.from({ length: n / 4 }, (_, k) => 4 * k + lane);
      const err = linearise(0n, mine.map((t) => olds[t] as Bits), out[lane] as Bits, (k, s) => apply('cas', 'b16', s, vals[mine[k] as number] as Bits, cmps[mine[k] as number] as Bits));
      expect(err).toBeNull();
    }
  });
});

function f16OfInt(x: number): number {
  if (x === 0) return 0;
  const e = Math.floor(Math.log2(x));
  return ((e + 15) << 10) | Math.round((x / 2 ** e - 1) * 1024);
}

const NATIVE = new URL('./native/each.json', import.meta.url);
const native: { each: Record<string, { out: string[]; olds: string[] }>; e2e: Record<string, string[]> } = JSON.parse(readFileSync(NATIVE, 'utf8'));

describe('one address per thread: arithmetic of each op', () => {
  it.each(EACH_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const bytes = elementBytes(c.spec.type);
    const n = c.vals.length;
    const { out, olds } = await runAtom(eachKernel(c.spec, n), c.init, c.vals, c.cmps, bytes, 1, n);
    const flush = c.spec.space !== 'shared';
    const expectOut = c.init.map((o, t) => apply(c.op, c.spec.type, o, c.vals[t] as Bits, c.cmps[t] as Bits, flush));
    expect(out.map(hex)).toEqual(expectOut.map(hex));
    if (!c.spec.red) expect(olds.map(hex)).toEqual(c.init.map(hex));
    if (c.unrecorded) return;
    const rec = native.each[c.name];
    expect(rec, `no native recording of ${c.name} (tests/atomics/native/record.py)`).toBeDefined();
    expect(out.map(hex)).toEqual(rec?.out);
    if (!c.spec.red) expect(olds.map(hex)).toEqual(rec?.olds);
  });
});

const hex = (b: Bits): string => `0x${b.toString(16)}`;

describe('the e2e atom_float_max reference agrees with the recorded H100 run', () => {
  it.each(cases.filter((c) => c.ptxFile === 'atom_float_max.ptx').map((c) => [c.name, c] as const))('%s', (name, c) => {
    const args = c.makeArgs() as ArrayBufferView[];
    c.expected?.(args);
    const bytes = args.slice(0, 4).map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex'));
    expect(bytes).toEqual(native.e2e[name]);
  });
});

// Addresses the compiler cannot trace (loaded back from memory): the atomic dispatches at run
// time on the address's high word to the global allocation or shared memory it points into.
const DYNAMIC = `
.version 8.0
.target sm_80
.address_size 64
.visible .entry dyn(.param .u64 out, .param .u64 box) {
  .shared .align 8 .b8 sh[8];
  .reg .b32 %r<10>; .reg .b64 %rd<16>; .reg .pred %p<2>;
  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [box];
  mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.shared.u32 [sh], 0;
  st.global.u64 [%rd2], %rd1;
  mov.u64 %rd5, sh; cvta.shared.u64 %rd6, %rd5;
  mul.wide.u32 %rd7, %r2, 8; add.u64 %rd8, %rd2, %rd7;
  st.global.u64 [%rd8+8], %rd6;
  bar.sync 0;
  ld.volatile.global.u64 %rd3, [%rd2];
  ld.volatile.global.u64 %rd9, [%rd8+8];
  atom.add.u32 %r3, [%rd3], 1;
  atom.add.u64 %rd4, [%rd3+8], 3;
  atom.max.s32 %r4, [%rd3+16], %r1;
  atom.inc.u32 %r5, [%rd9], 1000;
  bar.sync 0;
  @%p1 ld.shared.u32 %r6, [sh];
  mul.wide.u32 %rd10, %r2, 4; add.u64 %rd11, %rd1, %rd10;
  @%p1 st.global.u32 [%rd11+24], %r6;
  ret;
}`;

describe('atomics through addresses known only at run time', () => {
  it('reach global and shared memory, 32- and 64-bit', async () => {
    const out = new Uint32Array(8).fill(0);
    out[4] = 0xffffffff; // -1 as s32
    out[6] = out[7] = 0xdeadbeef;
    const box = new BigUint64Array(4).fill(0xdeadbeefdeadbeefn);
    await runPtx(DYNAMIC, [out, box], { grid: 2, block: 64 });
    expect([...out]).toEqual([128, 0, 3 * 128, 0, 63, 0, 64, 64]);
  });
});

// PTX leaves atomics on local memory undefined, but a generic address may point there: the
// compiler then does a plain read-modify-write of the thread's own word.
const LOCAL = `
.version 8.0
.target sm_80
.address_size 64
.visible .entry loc(.param .u64 out) {
  .local .align 4 .b8 buf[16];
  .reg .b32 %r<12>; .reg .f32 %f<4>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  st.local.u32 [buf], %r1;
  st.local.u32 [buf+4], 10;
  st.local.f32 [buf+8], 0f3FC00000;
  st.local.u32 [buf+12], -5;
  mov.u64 %rd2, buf; cvta.local.u64 %rd3, %rd2;
  atom.add.u32 %r2, [%rd3], 100;
  atom.cas.b32 %r3, [%rd3+4], 10, 77;
  atom.add.f32 %f1, [%rd3+8], 0f40000000;
  atom.max.s32 %r4, [%rd3+12], -7;
  atom.inc.u32 %r5, [%rd3+4], 77;
  ld.local.u32 %r6, [buf]; ld.local.u32 %r7, [buf+4]; ld.local.f32 %f2, [buf+8]; ld.local.u32 %r8, [buf+12];
  mul.wide.u32 %rd4, %r1, 48; add.u64 %rd5, %rd1, %rd4;
  st.global.v4.u32 [%rd5], {%r2, %r3, %r4, %r5};
  st.global.v4.u32 [%rd5+16], {%r6, %r7, %r8, %r8};
  st.global.f32 [%rd5+32], %f1;
  st.global.f32 [%rd5+36], %f2;
  ret;
}`;

describe('generic atomics that land in local memory', () => {
  it("are the thread's own read-modify-write", async () => {
    const out = new Uint32Array(48).fill(0xdeadbeef);
    await runPtx(LOCAL, [out], { grid: 1, block: 4 });
    const want = (t: number): number[] => [t, 10, 0xfffffffb, 77, t + 100, 0, 0xfffffffb, 0xfffffffb, f32Bits(1.5), f32Bits(3.5), 0xdeadbeef, 0xdeadbeef];
    expect([...out]).toEqual([0, 1, 2, 3].flatMap(want));
  });
});

// atom on module-scope `.global` variables (the runtime's per-module buffer), directly and
// through a generic address loaded back from memory.
const MODULE_VARS = `
.version 8.0
.target sm_80
.address_size 64
.global .align 4 .u32 hits = 5;
.global .align 8 .u64 total = 0x100000000;
.visible .entry mv(.param .u64 out, .param .u64 box) {
  .reg .b32 %r<10>; .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [out]; ld.param.u64 %rd2, [box];
  mov.u32 %r1, %tid.x;
  atom.global.add.u32 %r2, [hits], 1;
  mov.u64 %rd3, total; cvta.global.u64 %rd4, %rd3;
  st.global.u64 [%rd2], %rd4;
  ld.volatile.global.u64 %rd5, [%rd2];
  cvt.u64.u32 %rd6, %r1;
  atom.add.u64 %rd7, [%rd5], %rd6;
  bar.sync 0;
  ld.global.u32 %r3, [hits];
  ld.global.u64 %rd8, [total];
  st.global.u32 [%rd1], %r3;
  st.global.u64 [%rd1+8], %rd8;
  ret;
}`;

describe('atomics on .global module variables', () => {
  it('count exactly, 32- and 64-bit', async () => {
    const out = new Uint32Array(4).fill(0xdeadbeef);
    const box = new BigUint64Array(1);
    await runPtx(MODULE_VARS, [out, box], { grid: 1, block: 64 });
    expect([...out]).toEqual([5 + 64, 0xdeadbeef, (63 * 64) / 2, 1]);
  });
});

describe('64-bit tickets across many workgroups (lock contention)', () => {
  it('atom.global.add.u64 of 1 from 8192 threads hands out every ticket once', async () => {
    const [grid, block] = [64, 128];
    const n = grid * block;
    const { out, olds } = await runAtom(contendKernel({ space: 'global', op: 'add', type: 'u64', sem: '.acq_rel.sys' }), [1n << 40n], Array(n).fill(1n), Array(n).fill(0n), 8, grid, block);
    expect(out[0]).toBe((1n << 40n) + BigInt(n));
    expect(olds.map((o) => Number(o - (1n << 40n))).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
  });
});
