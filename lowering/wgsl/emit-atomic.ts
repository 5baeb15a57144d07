/**
 * atom/red on shared and global memory (and generic addresses pointing to either).
 *
 * WGSL has only 32-bit `atomic<u32>` words with add/sub/max/min/and/or/xor/exchange and a
 * compare-exchange; regions that see atomics are viewed as `array<atomic<u32>>`
 * (lowering/address-spaces.ts). What PTX asks beyond that is built here:
 *  - 32-bit add/and/or/xor/exch and unsigned min/max: the native WGSL atomic;
 *  - signed min/max, inc/dec (the ISA's wrap formulas) and f32 add (exact, see
 *    shaders/atomic.wgsl): a compare-exchange loop on the word;
 *  - cas: a weak compare-exchange retried only while it fails spuriously;
 *  - 16-bit forms (cas.b16, add.noftz.{f16,bf16}) and f16x2/bf16x2 adds: a compare-exchange
 *    loop on the containing 32-bit word that rewrites only its lane(s);
 *  - 64-bit forms (.b64 .u64 .s64 .f64): WGSL has no 64-bit atomics, so each one runs under a
 *    per-address spin lock from a small lock table (`ptx_atom_locks_s` in workgroup memory for
 *    shared addresses, `ptx_atom_locks_g`, a runtime-owned 16-byte storage buffer, for global
 *    ones: 4 locks, hashed by address). The lock is taken and released in the same loop
 *    iteration by the invocation that holds it, and it leaves the loop only after that branch
 *    has merged with the spinners, so a holder never waits on anything: the
 *    pattern progresses under lock-step SIMD execution (lavapipe, GPUs without independent
 *    thread scheduling) and cannot deadlock. The 64-bit atomics are linearisable with respect
 *    to each other. Limits: a plain or 32-bit access racing with a 64-bit atomic on the same
 *    address may see half of an update; and WGSL atomics are relaxed, so the protocol relies
 *    on one invocation's atomics to different words becoming visible in program order (true
 *    of lavapipe, whose atomics are locked x86 instructions, and of the Vulkan/Metal/D3D
 *    backends Dawn uses in practice, but not promised by WGSL's memory model).
 *
 * `.sem` and `.scope` are accepted and all map to WGSL's relaxed atomics, which are atomic
 * across the whole dispatch: they are as strong as `.relaxed.gpu` for the operation itself;
 * the acquire/release ordering of surrounding non-atomic accesses is what WGSL cannot give
 * outside barriers (see the fence entry in emit-inst.ts).
 * Atomics on thread-private (local) memory, which PTX does not define but generic addresses
 * can reach, are plain read-modify-writes.
 */
import type { IrFunction } from '../../src/ir/function.js';
import type { InstOf } from '../../src/ir/inst.js';
import * as T from '../../src/ir/types.js';
import { LAUNCH_HEADER_BYTES, MODULE_GLOBAL_TAG, type BindingLayout } from '../layout.js';
import { GENERIC_TAG } from '../pass.js';
import type { Place } from './emit-memory.js';
import { deferredAdd, deferredIn } from './emit-deferred-adds.js';
import type { ExprContext } from './expr-context.js';

type Atomic = InstOf<'atomic'>;
type Cx = ExprContext & { readonly fn: IrFunction };

/** Which lock table guards 64-bit atomics on a memory (shared or global). */
type LockTable = 'ptx_atom_locks_s' | 'ptx_atom_locks_g';
/** Lock counts: the global table is the runtime's 16-byte buffer (runtime/bindings.ts). */
export const ATOMIC_LOCKS = { ptx_atom_locks_s: 32, ptx_atom_locks_g: 4 } as const;
/** Library names whose use makes emit-module declare each lock table. */
export const LOCK_MARKERS = { ptx_atom_locks_s: 'atom_lock_table_shared', ptx_atom_locks_g: 'atom_lock_table_global' } as const;

/** An atomic memory: a WGSL array of atomic<u32>, and the lock table its 64-bit atomics use. */
interface AtomicMemory { readonly name: string; readonly locks: LockTable }

export function emitAtomic(cx: Cx, p: Place, i: Atomic): string {
  const bits = T.bitWidth(i.type);
  if (!checkSupported(cx, i, bits)) return zero(i.type);
  if (p.hi === undefined && p.name === 'ptx_local') return plainAtomic(cx, p, i);
  if (p.hi === undefined && p.view !== 'atomic<u32>') return cx.unsupported(`atom/red on ${p.name}, which is not viewed as atomic words`);
  const o = p.hi !== undefined ? `${cx.ref(i.address)}.x` : cx.ref(i.address);
  if (p.hi === undefined) {
    const m: AtomicMemory = { name: p.name, locks: p.name === 'ptx_shared' ? 'ptx_atom_locks_s' : 'ptx_atom_locks_g' };
    if (!deferredIn(cx.fn)?.adds.has(i)) return finish(i, atomicOn(cx, m, i, o));
    deferredAdd(cx, o, rawBits(cx, i, cx.ref(i.value)), () => { atomicOn(cx, m, i, o); });
    return zero(i.type); // nothing reads a deferred add's old value
  }
  // the allocation is known only at run time: one branch per atomic memory it may be in
  const cases = dynamicCases(cx.fn, p.hi);
  if (cases.length === 0) return cx.unsupported('atom/red through a pointer that can reach no shared or global memory');
  const result = cx.temp('old');
  cx.line(`var ${result}: ${bits === 64 ? 'vec2<u32>' : 'u32'};`);
  cases.forEach((c, k) => {
    cx.line(`${k === 0 ? '' : '} else '}if (${c.cond}) {`);
    cx.line(`  ${result} = ${atomicOn(cx, c.memory, i, o)};`);
  });
  cx.line('}');
  return finish(i, result);
}

function checkSupported(cx: ExprContext, i: Atomic, bits: number): boolean {
  const what = `atom.${i.kind}.${i.half ?? T.typeName(i.type)}`;
  if (i.half && i.kind !== 'add') { cx.unsupported(what); return false; }
  // the only 16-bit atomics of the ISA: cas.b16 and add.noftz.{f16,bf16}
  if (bits === 16 && !i.half && i.kind !== 'cas') { cx.unsupported(what); return false; }
  if (bits !== 16 && bits !== 32 && bits !== 64) { cx.unsupported(what); return false; }
  // the ISA has no float min/max atomics (atom.{min,max}.{f32,f64} are not PTX)
  if (i.isFloat && !['add', 'exch', 'cas'].includes(i.kind)) { cx.unsupported(what); return false; }
  if (bits === 64 && (i.kind === 'inc' || i.kind === 'dec')) { cx.unsupported(what); return false; }
  return true;
}

const zero = (t: T.IrType): string => (T.bitWidth(t) === 64 ? 'vec2<u32>()' : T.isFloat(t, 32) ? '0.0f' : '0u');

/** The WGSL value of the result from its raw bits. */
function finish(i: Atomic, bits: string): string {
  return T.isFloat(i.type, 32) ? `bitcast<f32>(${bits})` : bits;
}

/** The operand's raw bits: u32 for 16/32-bit types, vec2<u32> for 64-bit ones. */
function rawBits(cx: ExprContext, i: Atomic, v: string): string {
  return T.isFloat(i.type, 32) ? `bitcast<u32>(${v})` : v;
}

/** The old value (raw bits) of `i` on the word(s) at byte offset `o` of `m`. */
function atomicOn(cx: ExprContext, m: AtomicMemory, i: Atomic, o: string): string {
  const v = rawBits(cx, i, cx.ref(i.value));
  const bits = T.bitWidth(i.type);
  if (bits === 64) {
    if (splitAddsOnly(cx as Cx)) return splitAdd64(cx, m, o, v);
    return cx.subgroupOps ? grouped64(cx, m, i, o, v) : locked64(cx, m, i, o, v);
  }
  const ptr = `&${m.name}[${o} >> 2u]`;
  if (bits === 16) {
    const cmp = i.compare === null ? v : cx.ref(i.compare);
    const next = (cur: string): string => {
      if (i.kind === 'cas') return `select(${cur}, ${v}, ${cur} == ${cmp})`;
      return cx.call(i.half === 'bf16' ? 'atom_bf16_add' : 'atom_f16_add', cur, v);
    };
    return rmwLoop(cx, ptr, next, `((${o} & 2u) * 8u)`);
  }
  const native = nativeFunction(i);
  if (native) { const r = cx.temp('old'); cx.line(`let ${r} = ${native}(${ptr}, ${v});`); return r; }
  if (i.kind === 'cas') {
    const cmp = rawBits(cx, i, cx.ref(i.compare ?? i.value));
    const r = cx.temp('old');
    cx.line(`var ${r}: u32;`);
    // a weak compare-exchange may fail although the word equals `cmp`: retry only then
    cx.line(`loop { let r = atomicCompareExchangeWeak(${ptr}, ${cmp}, ${v}); if (r.exchanged || r.old_value != ${cmp}) { ${r} = r.old_value; break; } }`);
    return r;
  }
  return rmwLoop(cx, ptr, (cur) => update32(cx, i, cur, v, m.name === 'ptx_shared'), null);
}

function nativeFunction(i: Atomic): string | undefined {
  if (i.half) return undefined;
  switch (i.kind) {
    case 'exch': return 'atomicExchange';
    case 'add': return i.isFloat ? undefined : 'atomicAdd';
    case 'and': return 'atomicAnd';
    case 'or': return 'atomicOr';
    case 'xor': return 'atomicXor';
    case 'min': return i.isFloat || i.signed ? undefined : 'atomicMin';
    case 'max': return i.isFloat || i.signed ? undefined : 'atomicMax';
    default: return undefined;
  }
}

/**
 * A compare-exchange loop: reads the word, computes the new one, retries until no other
 * invocation wrote in between. With `shift`, only the 16-bit lane at that bit offset changes
 * (and is returned). A lane that would not change ends the loop at the read, which is then
 * the atomic's linearisation point.
 */
function rmwLoop(cx: ExprContext, ptr: string, next: (cur: string) => string, shift: string | null): string {
  const w = cx.temp('word');
  const r = cx.temp('old');
  cx.line(`var ${w} = atomicLoad(${ptr});`);
  cx.line(`var ${r}: u32;`);
  const cur = shift ? `extractBits(${w}, ${shift}, 16u)` : w;
  const nw = shift ? `insertBits(${w}, ${next(r)}, ${shift}, 16u)` : next(r);
  cx.line(`loop { ${r} = ${cur}; let n = ${nw}; if (n == ${w}) { break; } let x = atomicCompareExchangeWeak(${ptr}, ${w}, n); if (x.exchanged) { break; } ${w} = x.old_value; }`);
  return r;
}

/** The new word of a 32-bit read-modify-write from the old word `old` (raw bits). */
function update32(cx: ExprContext, i: Atomic, old: string, v: string, shared: boolean): string {
  if (i.half === 'f16x2') return cx.call('atom_f16x2_add', old, v);
  if (i.half === 'bf16x2') return cx.call('atom_bf16x2_add', old, v);
  if (i.isFloat && i.kind === 'add') return cx.call(shared ? 'atom_f32_add' : 'atom_f32_add_ftz', old, v);
  switch (i.kind) {
    case 'add': return `(${old} + ${v})`;
    case 'min': return `u32(min(i32(${old}), i32(${v})))`;
    case 'max': return `u32(max(i32(${old}), i32(${v})))`;
    case 'inc': return `select(${old} + 1u, 0u, ${old} >= ${v})`;
    case 'dec': return `select(${old} - 1u, ${v}, ${old} == 0u || ${old} > ${v})`;
    default: return cx.unsupported(`atom.${i.kind}`);
  }
}

/** The new value of a 64-bit read-modify-write (vec2<u32>, low word first). */
function update64(cx: ExprContext, i: Atomic, old: string, v: string, compare?: string): string {
  switch (i.kind) {
    case 'exch': return v;
    case 'cas': return `select(${old}, ${v}, all(${old} == ${compare ?? cx.ref(i.compare ?? i.value)}))`;
    case 'and': return `(${old} & ${v})`;
    case 'or': return `(${old} | ${v})`;
    case 'xor': return `(${old} ^ ${v})`;
    case 'add': return i.isFloat ? cx.call('f64_add', old, v, '0u') : cx.call('i64_add', old, v);
    case 'min': case 'max': {
      const less = cx.call(i.signed ? 'i64_slt' : 'i64_ult', v, old);
      return i.kind === 'min' ? `select(${old}, ${v}, ${less})` : `select(${v}, ${old}, ${less})`;
    }
    default: return cx.unsupported(`atom.${i.kind}.${T.typeName(i.type)}`);
  }
}

/** A 64-bit atomic under the lock that hashes from its address (see the file comment). */
function locked64(cx: ExprContext, m: AtomicMemory, i: Atomic, o: string, v: string): string {
  const lock = lockFor(cx, m, o);
  const w = `(${o} >> 2u)`;
  const r = cx.temp('old');
  const done = cx.temp('locked');
  cx.line(`var ${r}: vec2<u32>;`);
  // The holder leaves the loop only after the branch that holds the lock has merged with the
  // spinning invocations: breaking out from inside it lets a SIMT compiler run the spinners'
  // next iteration first and park the holder forever (seen on NVIDIA's Vulkan driver).
  cx.line(`var ${done} = false;`);
  // Test before test-and-set: spinners read the lock word and try the exchange only when it
  // is free, so a release does not queue behind every waiter's compare-exchange.
  cx.line(`loop { if (atomicLoad(${lock}) == 0u && atomicCompareExchangeWeak(${lock}, 0u, 1u).exchanged) {`);
  cx.line(`  ${r} = vec2<u32>(atomicLoad(&${m.name}[${w}]), atomicLoad(&${m.name}[${w} + 1u]));`);
  cx.line(`  let n = ${update64(cx, i, r, v)};`);
  cx.line(`  atomicStore(&${m.name}[${w}], n.x); atomicStore(&${m.name}[${w} + 1u], n.y);`);
  cx.line(`  atomicExchange(${lock}, 0u); ${done} = true;`);
  cx.line(`} if (${done}) { break; } }`);
  return r;
}

/**
 * A 64-bit atomic with subgroup operations: the lanes of a subgroup that address the same word
 * form a group, and the group takes the word's lock once. Its first lane reads the word under
 * the lock; every lane of the group then applies the group's operations in lane order (the
 * values arrive by subgroupShuffle), keeping the value before its own as its result; the first
 * lane writes the final value and releases the lock. The group's operations are thus
 * linearised one after another as if each had taken the lock, so the result is the same as
 * locked64's for every kind (cas and f64 add included), while a contended word sees one lock
 * round trip per subgroup instead of one per thread: 100k threads on one counter took seconds
 * to minutes through per-thread locks on NVIDIA's Vulkan driver.
 * Only the first lane ever spins, alone, so no lane waits on another lane of its subgroup.
 */
function grouped64(cx: ExprContext, m: AtomicMemory, i: Atomic, o: string, v: string): string {
  const lock = lockFor(cx, m, o);
  const w = `(${o} >> 2u)`;
  const r = cx.temp('old');
  const cmp = i.kind === 'cas' ? cx.ref(i.compare ?? i.value) : null;
  cx.line(`var ${r}: vec2<u32>;`);
  perAddressGroup(cx, o, [
    `let lanes = subgroupBallot(true);`,
    `let first = subgroupElect();`,
    `var cur: vec2<u32>;`,
    `if (first) {`,
    `  loop { if (atomicLoad(${lock}) == 0u && atomicCompareExchangeWeak(${lock}, 0u, 1u).exchanged) { break; } }`,
    `  cur = vec2<u32>(atomicLoad(&${m.name}[${w}]), atomicLoad(&${m.name}[${w} + 1u]));`,
    `}`,
    `cur = subgroupBroadcastFirst(cur);`,
    `for (var q = 0u; q < 4u; q++) {`,
    `  var rest = lanes[q];`,
    `  loop {`,
    `    if (rest == 0u) { break; }`,
    `    let lane = q * 32u + firstTrailingBit(rest);`,
    `    rest &= rest - 1u;`,
    `    if (lane == ptx_sg_lane) { ${r} = cur; }`,
    `    let value = subgroupShuffle(${v}, lane);`,
    ...(cmp ? [`    let expected = subgroupShuffle(${cmp}, lane);`] : []),
    `    cur = ${update64(cx, i, 'cur', 'value', cmp ? 'expected' : undefined)};`,
    `  }`,
    `}`,
    `if (first) {`,
    `  atomicStore(&${m.name}[${w}], cur.x); atomicStore(&${m.name}[${w} + 1u], cur.y);`,
    `  atomicExchange(${lock}, 0u);`,
    `}`,
  ]);
  return r;
}

/** The lock word of the 64-bit atomic at byte offset `o` of `m` (declaring its table). */
function lockFor(cx: ExprContext, m: AtomicMemory, o: string): string {
  cx.call(LOCK_MARKERS[m.locks]);
  return `&${m.locks}[(${o} >> 3u) & ${ATOMIC_LOCKS[m.locks] - 1}u]`;
}

/**
 * Runs `body` once per group of the subgroup's lanes that address the same word `o` (the group
 * is the active lanes inside the branch). The loop leaves through a flag after the branch has
 * merged, never from inside it, so a SIMT compiler cannot park lanes of the group.
 */
function perAddressGroup(cx: ExprContext, o: string, body: readonly string[]): void {
  cx.call(SUBGROUP_LANE_MARKER); // enables subgroups (emit-module.ts)
  const done = cx.temp('grouped');
  cx.line(`var ${done} = false;`);
  cx.line(`loop {`);
  cx.line(`  if (${o} == subgroupBroadcastFirst(${o})) {`);
  for (const l of body) cx.line(`    ${l}`);
  cx.line(`    ${done} = true;`);
  cx.line(`  }`);
  cx.line(`  if (${done}) { break; }`);
  cx.line(`}`);
}

/**
 * Whether every 64-bit atomic of the function is an integer add whose result nothing reads
 * (`atomicAdd` on `unsigned long long` counters and sums; `red.add.u64`). Then no lock is
 * needed: the low words add with atomicAdd and the carry goes into the high word, so the final
 * value is exact, and as no 64-bit atomic of the kernel returns a value and none takes the
 * lock, no locked read-modify-write can interleave with the halves. (A plain 64-bit load
 * racing with them may see one half updated; WGSL's 64-bit loads are two 32-bit loads anyway.)
 */
function splitAddsOnly(cx: Cx): boolean {
  let known = SPLIT_ADDS.get(cx.fn);
  if (known === undefined) {
    known = true;
    for (const b of cx.fn.blockIds()) {
      for (const id of cx.fn.block(b).insts) {
        const data = cx.fn.inst(id);
        const a = data.inst;
        if (a.op !== 'atomic' || T.bitWidth(a.type) !== 64) continue;
        if (a.kind !== 'add' || a.isFloat || !data.results.every((r) => cx.valueUnused(r))) known = false;
      }
    }
    SPLIT_ADDS.set(cx.fn, known);
  }
  return known;
}
const SPLIT_ADDS = new WeakMap<IrFunction, boolean>();

/**
 * A 64-bit integer add whose result nothing reads (see splitAddsOnly): with subgroups, the
 * lanes on the same word add their values first (16-bit pieces, so the subgroup sums cannot
 * overflow) and one lane updates the word; without, each lane updates it.
 */
function splitAdd64(cx: ExprContext, m: AtomicMemory, o: string, v: string): string {
  const w = `(${o} >> 2u)`;
  // `var t`, not `let`: naga (Deno's WebGPU) folds a `let` of constants and then rejects the
  // pipeline ("entry point is invalid") for `atomicAdd(.., 1u + 0u)`-shaped operands.
  const update = (value: string): string =>
    `{ var t = ${value}; let lo = atomicAdd(&${m.name}[${w}], t.x); _ = atomicAdd(&${m.name}[${w} + 1u], t.y + select(0u, 1u, lo + t.x < lo)); }`;
  if (!cx.subgroupOps) { cx.line(update(v)); return 'vec2<u32>()'; }
  perAddressGroup(cx, o, [
    `let a = subgroupAdd(${v}.x & 0xffffu); let b = subgroupAdd(${v}.x >> 16u); let h = subgroupAdd(${v}.y);`,
    `let sum = ${cx.call('i64_add', 'vec2<u32>(a, h)', 'vec2<u32>(b << 16u, b >> 16u)')};`,
    `if (subgroupElect()) ${update('sum')}`,
  ]);
  return 'vec2<u32>()';
}

/** Library name whose use makes the kernel take `subgroup_invocation_id` into `ptx_sg_lane`. */
export const SUBGROUP_LANE_MARKER = 'subgroup_lane';

/** Atomics on thread-private (local) memory: plain read-modify-writes. */
function plainAtomic(cx: ExprContext, p: Place, i: Atomic): string {
  if (T.bitWidth(i.type) !== 32 || i.half) return cx.unsupported(`atom.${i.kind}.${i.half ?? T.typeName(i.type)} on local memory`);
  const o = cx.ref(i.address);
  const ref = `${p.name}[${o} >> 2u]`;
  const v = rawBits(cx, i, cx.ref(i.value));
  const r = cx.temp('old');
  cx.line(`let ${r} = ${ref};`);
  let next: string;
  switch (i.kind) {
    case 'exch': next = v; break;
    case 'and': next = `(${r} & ${v})`; break;
    case 'or': next = `(${r} | ${v})`; break;
    case 'xor': next = `(${r} ^ ${v})`; break;
    case 'cas': next = `select(${r}, ${v}, ${r} == ${rawBits(cx, i, cx.ref(i.compare ?? i.value))})`; break;
    default: next = !i.isFloat && !i.signed && (i.kind === 'min' || i.kind === 'max') ? `${i.kind}(${r}, ${v})` : update32(cx, i, r, v, true);
  }
  cx.line(`${ref} = ${next};`);
  return finish(i, r);
}

/** The atomic memories a run-time address may be in, with the test of its high word `hi`. */
function dynamicCases(fn: IrFunction, hi: string): { cond: string; memory: AtomicMemory }[] {
  const memory = fn.memory;
  if (!memory) return [];
  const out: { cond: string; memory: AtomicMemory }[] = [];
  if (memory.dynamicGeneric && (memory.shared.used || memory.shared.dynamic) && memory.shared.view === 'atomic<u32>') {
    out.push({ cond: `${hi} == ${GENERIC_TAG.shared}u`, memory: { name: 'ptx_shared', locks: 'ptx_atom_locks_s' } });
  }
  if (memory.moduleGlobal.used && memory.moduleGlobal.view === 'atomic<u32>') {
    out.push({ cond: `${hi} == ${MODULE_GLOBAL_TAG}u`, memory: { name: 'ptx_globals', locks: 'ptx_atom_locks_g' } });
  }
  memory.slots.forEach((s, k) => {
    if (s.view !== 'atomic<u32>') return;
    const at = LAUNCH_HEADER_BYTES + (fn.kernelParams[s.param]?.offset ?? 0) + 4;
    out.push({ cond: `${hi} == ptx_launch[${at >> 4}].${'xyzw'[(at >> 2) & 3]}`, memory: { name: `ptx_slot${k}`, locks: 'ptx_atom_locks_g' } });
  });
  return out;
}

/** Declarations of the lock tables the kernel's 64-bit atomics used (and the global one's binding). */
export function atomicLockDeclarations(used: ReadonlySet<string>, bindings: BindingLayout[]): string[] {
  const out: string[] = [];
  if (used.has(LOCK_MARKERS.ptx_atom_locks_s)) out.push(`var<workgroup> ptx_atom_locks_s: array<atomic<u32>, ${ATOMIC_LOCKS.ptx_atom_locks_s}>;`);
  if (used.has(LOCK_MARKERS.ptx_atom_locks_g)) {
    const binding = Math.max(...bindings.map((b) => b.binding)) + 1;
    bindings.push({ kind: 'atomic-locks', binding, access: 'read_write' });
    out.push(`@group(0) @binding(${binding}) var<storage, read_write> ptx_atom_locks_g: array<atomic<u32>, ${ATOMIC_LOCKS.ptx_atom_locks_g}>;`);
  }
  return out;
}

/**
 * `membar.{cta,gl,sys}`, `fence.{sc,acq_rel}.{cta,cluster,gpu,sys}`, `fence.proxy.*`,
 * `membar.proxy.*`: no WGSL statement.
 *
 * WGSL's only ordering statements, `storageBarrier()`/`workgroupBarrier()`, are execution
 * barriers of the whole workgroup that must stand in uniform control flow, and order memory
 * only among the invocations of one workgroup. A PTX fence is neither: it is executed by the
 * threads that reach it (typically `if (tid == 0) { ...; __threadfence(); atomicInc(...) }`),
 * nobody waits for anybody, and `.gpu`/`.sys` order against other CTAs. Turning a fence into a
 * barrier would therefore need the convergence transform (lowering/converge.ts) around every
 * fence, and would still give only workgroup-scope ordering, while what a fence orders inside
 * one workgroup is already ordered wherever WGSL can observe it: threads of a workgroup can
 * only communicate through a barrier (bar.sync emits storage + workgroup barriers) or through
 * atomics, and WGSL atomics on one word are coherent across the whole dispatch. What no WGSL
 * statement can give is cross-workgroup ordering between *different* words (release/acquire
 * at device scope); WebGPU implementations provide it in practice (lavapipe: x86 total store
 * order with locked atomics; tests/e2e "atom_last_block" checks the __threadfence pattern),
 * but the WGSL memory model does not promise it.
 */
export function emitFence(): undefined {
  return undefined;
}
