/**
 * Loads and stores on memory regions (atomics: emit-atomic.ts). Every region is an array of 32-bit words
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

/**
 * A region as WGSL sees it; `hi` marks a run-time dispatch on the address's high word. `small`:
 * every offset in it is below 2^31 (shared, local and constant memory), so a base that went below
 * zero before its constant brings it back (`[%r-4+4]`) reads as a negative i32.
 */
export interface Place { readonly name: string; readonly view: MemoryView; readonly hi?: string; readonly small?: boolean }

export function regionPlace(memory: FunctionMemory, region: Region): Place | undefined {
  switch (region.kind) {
    case 'slot': {
      const index = memory.slots.findIndex((s) => s.param === region.slot);
      const slot = memory.slots[index];
      return slot ? { name: `ptx_slot${index}`, view: slot.view } : undefined;
    }
    case 'shared': return { name: 'ptx_shared', view: memory.shared.view, small: true };
    case 'local': return { name: 'ptx_local', view: 'u32', small: true };
    case 'const': return { name: 'ptx_const', view: memory.constant.view, small: true };
    case 'module-global': return { name: 'ptx_globals', view: memory.moduleGlobal.view };
    case 'global-dynamic': case 'generic-dynamic': return { name: 'ptx_dyn', view: 'u32', hi: '' };
    default: return undefined;
  }
}

/**
 * A byte offset: a WGSL expression plus a constant, `small` as in Place. Word indices are
 * `(base >> s) + (bytes >> s)` where the constant is a multiple of the word, so the driver folds
 * it into the access: the driver cannot, as a shift does not distribute over a wrapping add.
 */
interface Offset { readonly base: string; readonly bytes: number; readonly small?: boolean; readonly noWrap?: boolean }

const flat = (o: Offset): string => (o.bytes === 0 ? o.base : o.bytes > 0 ? `(${o.base} + ${o.bytes}u)` : `(${o.base} - ${-o.bytes}u)`);

/**
 * `o >> s`. A negative constant folds everywhere: `base - k` wraps only when the address is below
 * zero. A positive one wraps when the base itself went below zero (a pointer before the buffer
 * that the constant brings back): it folds where the base is known not to (thread-index
 * arithmetic), and in regions below 2^31 through an arithmetic shift, which drivers fold less
 * well (tiled SGEMM on an H200: 41.0 ms unfolded, 38.9 signed, 34.6 unsigned).
 */
function shr(o: Offset, s: number): string {
  if (o.bytes === 0) return `${o.base} >> ${s}u`;
  if (o.bytes % (1 << s) !== 0) return `${flat(o)} >> ${s}u`;
  const k = o.bytes / (1 << s);
  if (k < 0) return `(${o.base} >> ${s}u) - ${-k}u`;
  if (o.noWrap) return `(${o.base} >> ${s}u) + ${k}u`;
  return o.small ? `u32(bitcast<i32>(${o.base}) >> ${s}u) + ${k}u` : `${flat(o)} >> ${s}u`;
}

/** The word within a vector view's element (`bytes` a multiple of 4): exact under wrapping. */
function lane(o: Offset, mask: number): string {
  const k = (o.bytes / 4) & mask;
  return k === 0 ? `(${o.base} >> 2u) & ${mask}u` : `((${o.base} >> 2u) + ${k}u) & ${mask}u`;
}

/** A reference to the 32-bit word at byte offset `o` (non-atomic views). */
function wordRef(p: Place, o: Offset): string {
  const aligned = o.bytes % 4 === 0;
  switch (p.view) {
    case 'vec4<u32>': return aligned ? `${p.name}[${shr(o, 4)}][${lane(o, 3)}]` : `${p.name}[${flat(o)} >> 4u][(${flat(o)} >> 2u) & 3u]`;
    case 'vec2<u32>': return aligned ? `${p.name}[${shr(o, 3)}][${lane(o, 1)}]` : `${p.name}[${flat(o)} >> 3u][(${flat(o)} >> 2u) & 1u]`;
    default: return `${p.name}[${shr(o, 2)}]`;
  }
}

function loadWord(p: Place, o: Offset): string {
  if (p.hi) return `ptx_dyn_load(vec2<u32>(${flat(o)}, ${p.hi}))`;
  if (p.view === 'f16') return `${p.name}_word(${shr(o, 1)})`;
  return p.view === 'atomic<u32>' ? `atomicLoad(&${p.name}[${shr(o, 2)}])` : wordRef(p, o);
}

function storeWord(cx: ExprContext, p: Place, o: Offset, w: string): void {
  if (p.hi) { cx.line(`ptx_dyn_store(vec2<u32>(${flat(o)}, ${p.hi}), ${w});`); return; }
  if (p.view === 'f16') { cx.line(`${p.name}_put(${shr(o, 1)}, ${w});`); return; }
  cx.line(p.view === 'atomic<u32>' ? `atomicStore(&${p.name}[${shr(o, 2)}], ${w});` : `${wordRef(p, o)} = ${w};`);
}

const plus = (o: Offset, n: number): Offset => ({ ...o, bytes: (o.bytes + n) | 0 });

/**
 * A region viewed as halves (shared memory that mma operands are loaded from as matrices,
 * address-spaces.ts): its words as pairs of halves. Bit patterns pass unchanged (no arithmetic
 * touches them, so no NaN or subnormal half is canonicalised or flushed).
 */
export function halfWordHelpers(name: string): string[] {
  return [
    `fn ${name}_word(h: u32) -> u32 { return bitcast<u32>(vec2<f16>(${name}[h], ${name}[h + 1u])); }`,
    `fn ${name}_put(h: u32, w: u32) { let v = bitcast<vec2<f16>>(w); ${name}[h] = v.x; ${name}[h + 1u] = v.y; }`,
  ];
}

/** The word at byte offset `byte` (a WGSL u32 expression, 4-aligned) of a region, as an expression. */
export function wordAt(p: Place, byte: string): string {
  return loadWord(p, { base: byte, bytes: 0 });
}

/** The raw bits of an access of `bytes` (4, 8 or 16) as u32 / vec2<u32> / vec4<u32>. */
function loadBits(p: Place, o: Offset, bytes: number): string {
  if (bytes === 16 && p.view === 'vec4<u32>') return `${p.name}[${shr(o, 4)}]`;
  if (bytes === 8 && p.view === 'vec2<u32>') return `${p.name}[${shr(o, 3)}]`;
  if (bytes === 4) return loadWord(p, o);
  const words = Array.from({ length: bytes / 4 }, (_, k) => loadWord(p, plus(o, 4 * k)));
  return `vec${bytes / 4}<u32>(${words.join(', ')})`;
}

function storeBits(cx: ExprContext, p: Place, o: Offset, bytes: number, bits: string): void {
  if (bytes === 16 && p.view === 'vec4<u32>') { cx.line(`${p.name}[${shr(o, 4)}] = ${bits};`); return; }
  if (bytes === 8 && p.view === 'vec2<u32>') { cx.line(`${p.name}[${shr(o, 3)}] = ${bits};`); return; }
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

/** The byte offset operand: the address (base and constant), or its low word for dynamic regions. */
function offsetOf(cx: ExprContext, p: Place, address: import('../../src/ir/entities.js').ValueId): Offset {
  if (p.hi) return { base: `${cx.ref(address)}.x`, bytes: 0 };
  const { base, bytes, noWrap } = cx.addressParts(address);
  return { base: cx.ref(base), bytes, small: p.small === true, noWrap };
}

export function emitLoad(cx: ExprContext, p: Place, i: InstOf<'load'>): string {
  const o = offsetOf(cx, p, i.address);
  const total = T.bitWidth(i.type) / 8;
  const eb = elementBits(i.type);
  if (eb < 32) {
    // bytes and halves: extract from the containing word(s)
    const count = i.type.kind === 'vector' ? i.type.count : 1;
    const parts = Array.from({ length: count }, (_, k) => {
      const at = flat(plus(o, (k * eb) / 8));
      return `extractBits(${loadWord(p, { base: `(${at} & ~3u)`, bytes: 0 })}, (${at} & 3u) * 8u, ${eb}u)`;
    });
    return count === 1 ? (parts[0] as string) : `${wgslType(i.type)}(${parts.join(', ')})`;
  }
  if (eb === 64 && i.type.kind === 'vector') {
    // .v2 of 64-bit values (double2, ulonglong2): one 16-byte access, split into vec2<u32> halves.
    if (i.type.count !== 2) return cx.unsupported(`ld.v${i.type.count} of 64-bit values`);
    const t = cx.temp('bits');
    cx.line(`let ${t} = ${loadBits(p, o, total)};`);
    return `array<vec2<u32>, 2>(${t}.xy, ${t}.zw)`;
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
      const at = flat(plus(o, (k * eb) / 8));
      storeSubword(cx, p, at, count === 1 ? v : `${v}[${k}]`, eb);
    }
    return;
  }
  if (eb === 64 && t.kind === 'vector') {
    if (t.count !== 2) { cx.unsupported(`st.v${t.count} of 64-bit values`); return; }
    storeBits(cx, p, o, 16, `vec4<u32>(${v}[0], ${v}[1])`);
    return;
  }
  storeBits(cx, p, o, T.bitWidth(t) / 8, toBits(t, v));
}

function storeSubword(cx: ExprContext, p: Place, at: string, v: string, bits: number): void {
  const shift = `((${at} & 3u) * 8u)`;
  const mask = bits === 8 ? '0xffu' : '0xffffu';
  if (p.hi) { cx.line(`ptx_dyn_store_bits(vec2<u32>(${at}, ${p.hi}), ${v}, ${bits}u);`); return; }
  if (p.view === 'f16') {
    // address-spaces views a region as halves only without byte stores
    if (bits === 16) cx.line(`${p.name}[${at} >> 1u] = bitcast<vec2<f16>>(${v}).x;`);
    else cx.unsupported(`a ${bits}-bit store to ${p.name}, which is viewed as halves`);
    return;
  }
  if (p.view === 'atomic<u32>') {
    const idx = `${p.name}[${at} >> 2u]`;
    cx.line(`atomicAnd(&${idx}, ~(${mask} << ${shift}));`);
    cx.line(`atomicOr(&${idx}, (${v} & ${mask}) << ${shift});`);
    return;
  }
  const ref = wordRef(p, { base: `(${at} & ~3u)`, bytes: 0 });
  cx.line(`${ref} = insertBits(${ref}, ${v}, ${shift}, ${bits}u);`);
}
