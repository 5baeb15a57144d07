/**
 * Loads, stores and atomics on memory regions. Every region is an array of 32-bit words
 * seen through its view (u32, vec2<u32>, vec4<u32> or atomic<u32>); accesses as wide as
 * the view stay single wide accesses (a 16-byte `ld.global.v4.f32` is one vec4 load),
 * narrower ones address a component, and sub-word stores to shared or global memory are
 * atomic and/or pairs so neighbouring bytes written by other threads survive.
 */
import type { FunctionMemory, MemoryView } from '../../src/ir/function.js';
import type { InstOf, Region } from '../../src/ir/inst.js';
import * as T from '../../src/ir/types.js';
import type { ExprContext } from './expr-context.js';
import { wgslType } from './types.js';

/** A region as WGSL sees it; `hi` marks a run-time dispatch on the address's high word. */
export interface Place { readonly name: string; readonly view: MemoryView; readonly hi?: string }

export function regionPlace(memory: FunctionMemory, region: Region): Place | undefined {
  switch (region.kind) {
    case 'slot': {
      const index = memory.slots.findIndex((s) => s.param === region.slot);
      const slot = memory.slots[index];
      return slot ? { name: `ptx_slot${index}`, view: slot.view } : undefined;
    }
    case 'shared': return { name: 'ptx_shared', view: memory.shared.view };
    case 'local': return { name: 'ptx_local', view: 'u32' };
    case 'global-dynamic': case 'generic-dynamic': return { name: 'ptx_dyn', view: 'u32', hi: '' };
    default: return undefined;
  }
}

/** A reference to the 32-bit word at byte offset `o` (non-atomic views). */
function wordRef(p: Place, o: string): string {
  switch (p.view) {
    case 'vec4<u32>': return `${p.name}[${o} >> 4u][(${o} >> 2u) & 3u]`;
    case 'vec2<u32>': return `${p.name}[${o} >> 3u][(${o} >> 2u) & 1u]`;
    default: return `${p.name}[${o} >> 2u]`;
  }
}

function loadWord(p: Place, o: string): string {
  if (p.hi) return `ptx_dyn_load(vec2<u32>(${o}, ${p.hi}))`;
  return p.view === 'atomic<u32>' ? `atomicLoad(&${p.name}[${o} >> 2u])` : wordRef(p, o);
}

function storeWord(cx: ExprContext, p: Place, o: string, w: string): void {
  if (p.hi) { cx.line(`ptx_dyn_store(vec2<u32>(${o}, ${p.hi}), ${w});`); return; }
  cx.line(p.view === 'atomic<u32>' ? `atomicStore(&${p.name}[${o} >> 2u], ${w});` : `${wordRef(p, o)} = ${w};`);
}

const plus = (o: string, n: number): string => (n === 0 ? o : `(${o} + ${n}u)`);

/** The raw bits of an access of `bytes` (4, 8 or 16) as u32 / vec2<u32> / vec4<u32>. */
function loadBits(p: Place, o: string, bytes: number): string {
  if (bytes === 16 && p.view === 'vec4<u32>') return `${p.name}[${o} >> 4u]`;
  if (bytes === 8 && p.view === 'vec2<u32>') return `${p.name}[${o} >> 3u]`;
  if (bytes === 4) return loadWord(p, o);
  const words = Array.from({ length: bytes / 4 }, (_, k) => loadWord(p, plus(o, 4 * k)));
  return `vec${bytes / 4}<u32>(${words.join(', ')})`;
}

function storeBits(cx: ExprContext, p: Place, o: string, bytes: number, bits: string): void {
  if (bytes === 16 && p.view === 'vec4<u32>') { cx.line(`${p.name}[${o} >> 4u] = ${bits};`); return; }
  if (bytes === 8 && p.view === 'vec2<u32>') { cx.line(`${p.name}[${o} >> 3u] = ${bits};`); return; }
  if (bytes === 4) { storeWord(cx, p, o, bits); return; }
  const t = cx.temp('bits');
  cx.line(`let ${t} = ${bits};`);
  for (let k = 0; k < bytes / 4; k++) storeWord(cx, p, plus(o, 4 * k), `${t}[${k}]`);
}

/** Bits -> typed value, for scalars and vectors of 32-bit elements. */
function fromBits(t: T.IrType, bits: string): string {
  const w = wgslType(t);
  return w === 'u32' || w.endsWith('<u32>') || w === 'bool' ? bits : `bitcast<${w}>(${bits})`;
}

function toBits(t: T.IrType, v: string): string {
  const w = wgslType(t);
  if (w === 'u32' || w.endsWith('<u32>')) return v;
  const n = T.bitWidth(t) / 32;
  return `bitcast<${n === 1 ? 'u32' : `vec${n}<u32>`}>(${v})`;
}

function elementBits(t: T.IrType): number {
  return t.kind === 'vector' ? T.bitWidth(t.element) : T.bitWidth(t);
}

/** The byte offset operand: the address itself, or its low word for dynamic regions. */
function offsetOf(cx: ExprContext, p: Place, address: import('../../src/ir/entities.js').ValueId): string {
  return p.hi ? `${cx.ref(address)}.x` : cx.ref(address);
}

export function emitLoad(cx: ExprContext, p: Place, i: InstOf<'load'>): string {
  const o = offsetOf(cx, p, i.address);
  const total = T.bitWidth(i.type) / 8;
  const eb = elementBits(i.type);
  if (eb < 32) {
    // bytes and halves: extract from the containing word(s)
    const count = i.type.kind === 'vector' ? i.type.count : 1;
    const parts = Array.from({ length: count }, (_, k) => {
      const at = plus(o, (k * eb) / 8);
      return `extractBits(${loadWord(p, `(${at} & ~3u)`)}, (${at} & 3u) * 8u, ${eb}u)`;
    });
    return count === 1 ? (parts[0] as string) : `${wgslType(i.type)}(${parts.join(', ')})`;
  }
  return fromBits(i.type, loadBits(p, o, total));
}

export function emitStore(cx: ExprContext, p: Place, i: InstOf<'store'>): void {
  const o = offsetOf(cx, p, i.address);
  const t = cx.typeOf(i.value);
  const v = cx.ref(i.value);
  const eb = elementBits(t);
  if (eb < 32) {
    const count = t.kind === 'vector' ? t.count : 1;
    for (let k = 0; k < count; k++) {
      const at = plus(o, (k * eb) / 8);
      storeSubword(cx, p, at, count === 1 ? v : `${v}[${k}]`, eb);
    }
    return;
  }
  storeBits(cx, p, o, T.bitWidth(t) / 8, toBits(t, v));
}

function storeSubword(cx: ExprContext, p: Place, at: string, v: string, bits: number): void {
  const shift = `((${at} & 3u) * 8u)`;
  const mask = bits === 8 ? '0xffu' : '0xffffu';
  if (p.hi) { cx.line(`ptx_dyn_store_bits(vec2<u32>(${at}, ${p.hi}), ${v}, ${bits}u);`); return; }
  if (p.view === 'atomic<u32>') {
    const idx = `${p.name}[${at} >> 2u]`;
    cx.line(`atomicAnd(&${idx}, ~(${mask} << ${shift}));`);
    cx.line(`atomicOr(&${idx}, (${v} & ${mask}) << ${shift});`);
    return;
  }
  const ref = wordRef(p, `(${at} & ~3u)`);
  cx.line(`${ref} = insertBits(${ref}, ${v}, ${shift}, ${bits}u);`);
}

/** atom/red on 32-bit words: native WGSL atomics where they exist, compare-exchange loops otherwise. */
export function emitAtomic(cx: ExprContext, p: Place, i: InstOf<'atomic'>): string {
  if (T.bitWidth(i.type) !== 32) return cx.unsupported(`${T.bitWidth(i.type)}-bit atom/red`);
  if (p.hi) return cx.unsupported('atom/red through a pointer whose allocation is only known at run time');
  const o = cx.ref(i.address);
  const v = cx.ref(i.value);
  const asBits = i.isFloat ? `bitcast<u32>(${v})` : v;
  if (p.view !== 'atomic<u32>') return plainAtomic(cx, p, i, o, asBits);
  const ptr = `&${p.name}[${o} >> 2u]`;
  const native: Partial<Record<string, string>> = { add: 'atomicAdd', exch: 'atomicExchange', and: 'atomicAnd', or: 'atomicOr', xor: 'atomicXor' };
  if (!i.isFloat && !i.signed) Object.assign(native, { min: 'atomicMin', max: 'atomicMax' });
  if (i.isFloat && i.kind !== 'add' && i.kind !== 'exch' && i.kind !== 'min' && i.kind !== 'max') return cx.unsupported(`atom.${i.kind}.f32`);
  const fnName = i.isFloat && i.kind !== 'exch' ? undefined : native[i.kind];
  const result = cx.temp('old');
  if (fnName) {
    cx.line(`let ${result} = ${fnName}(${ptr}, ${asBits});`);
  } else if (i.kind === 'cas') {
    const cmp = cx.ref(i.compare ?? i.value);
    cx.line(`var ${result}: u32;`);
    cx.line(`loop { let r = atomicCompareExchangeWeak(${ptr}, ${cmp}, ${v}); if (r.exchanged || r.old_value != ${cmp}) { ${result} = r.old_value; break; } }`);
  } else {
    cx.line(`var ${result} = atomicLoad(${ptr});`);
    cx.line(`loop { let r = atomicCompareExchangeWeak(${ptr}, ${result}, ${update(cx, i, result, v)}); if (r.exchanged) { break; } ${result} = r.old_value; }`);
  }
  return i.isFloat ? `bitcast<f32>(${result})` : result;
}

/** The new word of a read-modify-write atomic, from the old word `old`. */
function update(cx: ExprContext, i: InstOf<'atomic'>, old: string, v: string): string {
  if (i.isFloat) {
    const f = `bitcast<f32>(${old})`;
    if (i.kind === 'add') return `bitcast<u32>(${f} + ${v})`;
    return `bitcast<u32>(${cx.call(i.kind === 'min' ? 'f32_min' : 'f32_max', f, v)})`;
  }
  switch (i.kind) {
    case 'min': return `u32(min(i32(${old}), i32(${v})))`;
    case 'max': return `u32(max(i32(${old}), i32(${v})))`;
    case 'inc': return `select(${old} + 1u, 0u, ${old} >= ${v})`;
    case 'dec': return `select(${old} - 1u, ${v}, ${old} == 0u || ${old} > ${v})`;
    default: return cx.unsupported(`atom.${i.kind}`);
  }
}

/** Atomics on thread-private memory (local) are plain read-modify-writes. */
function plainAtomic(cx: ExprContext, p: Place, i: InstOf<'atomic'>, o: string, v: string): string {
  const ref = wordRef(p, o);
  const result = cx.temp('old');
  cx.line(`let ${result} = ${ref};`);
  let next: string;
  switch (i.kind) {
    case 'add': next = i.isFloat ? `bitcast<u32>(bitcast<f32>(${result}) + bitcast<f32>(${v}))` : `${result} + ${v}`; break;
    case 'exch': next = v; break;
    case 'and': next = `${result} & ${v}`; break;
    case 'or': next = `${result} | ${v}`; break;
    case 'xor': next = `${result} ^ ${v}`; break;
    case 'cas': next = `select(${result}, ${v}, ${result} == ${cx.ref(i.compare ?? i.value)})`; break;
    default: next = update(cx, i, result, i.isFloat ? `bitcast<f32>(${v})` : v);
  }
  cx.line(`${ref} = ${next};`);
  return i.isFloat ? `bitcast<f32>(${result})` : result;
}
