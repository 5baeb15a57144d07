/**
 * Pass `address-spaces`: resolves every memory access to a region.
 *
 * Expects: SSA from the builder; memory instructions with `region: null` and PTX addresses
 *   (64- or 32-bit integers); `address_of` and `cvta` as the only address constructors.
 * Guarantees: every load/store/atomic has a region. For `slot`, `shared`, `local`, `const`
 *   and `module-global` regions the address operand is the i32 byte offset inside the region;
 *   for the dynamic regions it is the full address. `address_of` becomes a constant window
 *   offset (a `.global` variable's: MODULE_GLOBAL_TAG in the high word, module-memory.ts) and
 *   `cvta` becomes integer arithmetic on the generic tags (GENERIC_TAG). `fn.memory` records
 *   the global slots (pointer parameters bound as storage buffers), each region's view, and
 *   the module's `.const`/`.global` images (laid out once per module, so every kernel of a
 *   module agrees on them).
 *   A generic load through a kernel parameter's generic address (`cvta.param`, traced like any
 *   provenance) becomes a `kernel_param` read at the address's low word.
 * Does not: narrow 64-bit arithmetic (narrow-int64 does), or check bounds (WGSL clamps).
 *
 * Provenance is a forward data-flow lattice over SSA values: a value derived from kernel
 * parameter k by integer arithmetic points into slot k; values from memory are unknown.
 */
import { DiagnosticCode } from '../src/diagnostics/diagnostic.js';
import type { ValueId } from '../src/ir/entities.js';
import type { FunctionMemory, GlobalSlot, IrFunction, MemoryVariable, MemoryView, WindowRegion } from '../src/ir/function.js';
import type { Inst, MemorySpace, Region } from '../src/ir/inst.js';
import { reversePostorder } from '../src/ir/cfg.js';
import * as T from '../src/ir/types.js';
import { GENERIC_TAG, type Pass, type PassContext } from './pass.js';
import { MODULE_GLOBAL_TAG, type MemoryImage } from './layout.js';
import { moduleMemory } from './module-memory.js';
import { UNIFORM_CONST_BYTES } from './layout.js';
import { MatrixFallback } from './matrix-path.js';

type Provenance =
  | { readonly kind: 'none' | 'int' | 'mixed' | 'shared' | 'local' | 'const' | 'module-global' | 'param' }
  | { readonly kind: 'slot'; readonly param: number };

const NONE: Provenance = { kind: 'none' };
const INT: Provenance = { kind: 'int' };
const MIXED: Provenance = { kind: 'mixed' };

function join(a: Provenance, b: Provenance): Provenance {
  if (a.kind === 'none' || a.kind === 'int') return b.kind === 'none' ? a : b;
  if (b.kind === 'none' || b.kind === 'int') return a;
  if (a.kind === 'slot' && b.kind === 'slot') return a.param === b.param ? a : MIXED;
  return a.kind === b.kind ? a : MIXED;
}

const isPointer = (p: Provenance): boolean => p.kind !== 'none' && p.kind !== 'int';

function transfer(inst: Inst, get: (v: ValueId) => Provenance, pointerBits: number): Provenance {
  switch (inst.op) {
    case 'kernel_param':
      if (T.bitWidth(inst.type) !== pointerBits) return INT;
      return inst.dynamic === null ? { kind: 'slot', param: inst.param } : MIXED; // which parameter is known at run time only
    case 'address_of': return inst.space === 'shared' || inst.space === 'local' || inst.space === 'const' ? { kind: inst.space } : inst.space === 'global' ? { kind: 'module-global' } : MIXED;
    case 'cvta': return inst.space === 'param' && inst.toGeneric ? { kind: 'param' } : get(inst.value);
    case 'extend': case 'truncate': case 'bitcast': return get(inst.value);
    case 'select': return join(get(inst.a), get(inst.b));
    case 'ibinary': {
      const a = get(inst.a);
      const b = get(inst.b);
      if (inst.kind === 'add' || inst.kind === 'and' || inst.kind === 'or') return isPointer(a) && isPointer(b) ? MIXED : isPointer(a) ? a : b;
      if (inst.kind === 'sub') return isPointer(b) ? INT : a;
      return INT;
    }
    case 'load': case 'atomic': return MIXED;
    default: return INT;
  }
}

function provenance(fn: IrFunction, pointerBits: number): Map<ValueId, Provenance> {
  const prov = new Map<ValueId, Provenance>();
  const get = (v: ValueId): Provenance => prov.get(v) ?? NONE;
  const rpo = reversePostorder(fn);
  for (let changed = true; changed; ) {
    changed = false;
    const update = (v: ValueId, p: Provenance): void => {
      const old = get(v);
      const next = join(old, p);
      if (next.kind !== old.kind || (next.kind === 'slot' && old.kind === 'slot' && next.param !== old.param)) { prov.set(v, next); changed = true; }
    };
    for (const b of rpo) {
      for (const id of fn.block(b).insts) {
        const data = fn.inst(id);
        for (const r of data.results) update(r, transfer(data.inst, get, pointerBits));
      }
      for (const edge of fn.successors(b)) {
        const params = fn.block(edge.block).params;
        edge.args.forEach((a, i) => update(params[i] as ValueId, get(a)));
      }
    }
  }
  return prov;
}

/**
 * `matrix`: a subgroup matrix access, which needs the region viewed as an array of its elements.
 * `ldmatrix`: an mma operand read from a shared tile (`matrix_ldmatrix`), which can load it as
 * a matrix where the region is viewed as halves. `rmw`: an atomic read-modify-write (atomics and
 * mbarriers), where a sub-word store (`atomic` too) only needs its neighbours kept. `dynamic`:
 * an access whose region is known only at run time (the `ptx_dyn_*` helpers read words).
 */
interface Access {
  readonly bytes: number; readonly store: boolean; readonly atomic: boolean; readonly rmw?: boolean;
  readonly matrix?: 'f16' | 'f32'; readonly ldmatrix?: boolean; readonly dynamic?: boolean;
}

function accessOf(inst: Inst): Access {
  if (inst.op === 'matrix_load' || inst.op === 'matrix_store') {
    return { bytes: 4, store: inst.op === 'matrix_store', atomic: false, matrix: matrixBits(inst) === 16 ? 'f16' : 'f32' };
  }
  if (inst.op === 'matrix_ldmatrix') return { bytes: 16, store: false, atomic: false, ldmatrix: true };
  // An mbarrier object is two words updated with atomics (lowering/wgsl/emit-mbarrier.ts).
  if (inst.op === 'mbarrier' || inst.op === 'mbarrier_wait') return { bytes: 8, store: true, atomic: true, rmw: true };
  const bytes = Math.max(1, T.bitWidth(inst.type) / 8);
  return { bytes, store: inst.op !== 'load', atomic: inst.op === 'atomic' || (inst.op === 'store' && bytes < 4), rmw: inst.op === 'atomic' };
}

/** The element bits of a matrix load's or store's matrix (a store records its value's type). */
function matrixBits(inst: Inst): number {
  return inst.type.kind === 'matrix' ? inst.type.element.bits : 32;
}

/**
 * Halves, when mma operands are read from the region as matrices (`matrix_ldmatrix`), or
 * `wanted` (CompileOptions.sharedHalves, for tests), and every
 * other access can be written on halves: no atomics, no byte stores (a half holds two bytes that
 * different threads may store), no access of a run-time region. Other accesses then move words
 * as pairs of halves (lowering/wgsl/emit-memory.ts); a 2-byte store is one half, no atomic.
 */
function halfView(accesses: readonly Access[], wanted: boolean): boolean {
  return (wanted || accesses.some((a) => a.ldmatrix)) && accesses.length > 0 && !accesses.some((a) => a.rmw || a.matrix || a.dynamic || (a.store && a.bytes === 1));
}

/** `halves`: view the region as halves where its accesses allow it (CompileOptions.sharedHalves). */
function viewOf(accesses: readonly Access[], halves = false): MemoryView {
  if (halfView(accesses, halves)) return 'f16';
  const matrix = accesses.find((a) => a.matrix)?.matrix;
  if (matrix) {
    if (accesses.some((a) => a.matrix !== matrix)) throw new MatrixFallback(`a buffer holds wmma fragments and is also accessed as ${accesses.some((a) => a.matrix) ? 'another element type' : 'plain memory'}, which WGSL cannot view both ways`);
    return matrix;
  }
  if (accesses.some((a) => a.atomic)) return 'atomic<u32>';
  const widest = Math.max(4, ...accesses.map((a) => a.bytes));
  return widest >= 16 ? 'vec4<u32>' : widest >= 8 ? 'vec2<u32>' : 'u32';
}

function layoutWindow(vars: readonly MemoryVariable[], accesses: readonly Access[], used: boolean, halves = false): WindowRegion {
  const offsets = new Map<string, number>();
  let end = 0;
  let dynamic = false;
  for (const v of vars) {
    if (v.dynamic) { dynamic = true; continue; }
    end = Math.ceil(end / Math.max(1, v.align)) * Math.max(1, v.align);
    offsets.set(v.name, end);
    end += v.size;
  }
  const dynamicOffset = Math.ceil(end / 16) * 16;
  for (const v of vars) if (v.dynamic) offsets.set(v.name, dynamicOffset);
  return { view: viewOf(accesses, halves), staticBytes: dynamic ? dynamicOffset : Math.ceil(end / 4) * 4, offsets, dynamic, dynamicOffset, used };
}

function placed(fn: IrFunction): import('../src/ir/entities.js').InstId[] {
  const out: import('../src/ir/entities.js').InstId[] = [];
  for (const block of fn.blocks) for (const id of block.insts) out.push(id);
  return out;
}

/** The variables whose address a placed instruction takes. */
function addressedSymbols(fn: IrFunction): Set<string> {
  const names = new Set<string>();
  for (const block of fn.blocks) for (const id of block.insts) { const inst = fn.inst(id).inst; if (inst.op === 'address_of') names.add(inst.symbol); }
  return names;
}

function referencedVariables(all: readonly MemoryVariable[], space: MemoryVariable['space'], names: ReadonlySet<string>): MemoryVariable[] {
  return all.filter((v) => v.space === space && names.has(v.name));
}

export const addressSpaces: Pass = {
  name: 'address-spaces',
  run(fn: IrFunction, cx: PassContext): void {
    const pointerBits = cx.module.addressSize;
    const prov = provenance(fn, pointerBits);
    const aliasOf = aliasMap(cx.options.paramAliases ?? []);
    const slotAccess = new Map<number, Access[]>();
    const windowAccess = { shared: [] as Access[], local: [] as Access[], const: [] as Access[], 'module-global': [] as Access[] };
    const dynamicAccess: Access[] = [];
    let dynamicGeneric = false;
    const regionOf = (space: MemorySpace, address: ValueId): Region => {
      const p = prov.get(address) ?? NONE;
      if (space === 'shared' || space === 'local' || space === 'const') return space === 'const' ? { kind: 'const' } : { kind: space };
      if (p.kind === 'slot') return { kind: 'slot', slot: aliasOf(p.param) };
      if (p.kind === 'module-global') return { kind: 'module-global' };
      if (space === 'generic' && (p.kind === 'shared' || p.kind === 'local')) return { kind: p.kind };
      if (space === 'generic' && p.kind === 'const') return { kind: 'const' };
      if (space === 'generic') dynamicGeneric = true;
      return space === 'generic' ? { kind: 'generic-dynamic' } : { kind: 'global-dynamic' };
    };

    // Placed instructions only: earlier passes drop instructions from blocks, not from the arena.
    for (const id of placed(fn)) {
      const data = fn.inst(id);
      const inst = data.inst;
      if (inst.op !== 'load' && inst.op !== 'store' && inst.op !== 'atomic' && inst.op !== 'mbarrier' && inst.op !== 'mbarrier_wait' && inst.op !== 'matrix_load' && inst.op !== 'matrix_store' && inst.op !== 'matrix_ldmatrix') continue;
      if ((inst.op === 'load' || inst.op === 'store' || inst.op === 'atomic') && inst.space === 'generic' && prov.get(inst.address)?.kind === 'param' && parameterAccess(fn, data, id, cx)) continue;
      // An mbarrier object lives in shared memory (the ISA leaves any other generic address
      // undefined): an untraced generic address is taken as a shared one, its low word the offset.
      const region = inst.op === 'mbarrier' || inst.op === 'mbarrier_wait' ? { kind: 'shared' } as const : regionOf(inst.space, inst.address);
      const access = accessOf(inst);
      if (access.matrix && region.kind !== 'slot') throw new MatrixFallback(`a wmma fragment in ${region.kind} memory (the tensor-core path takes global buffers that are kernel parameters)`);
      if (region.kind === 'slot') push(slotAccess, region.slot, access);
      else if (region.kind === 'shared' || region.kind === 'local' || region.kind === 'const' || region.kind === 'module-global') windowAccess[region.kind].push(access);
      else {
        dynamicAccess.push(access);
        windowAccess['module-global'].push(access);
        if (region.kind === 'generic-dynamic') windowAccess.shared.push({ ...access, dynamic: true }), windowAccess.local.push(access), windowAccess.const.push({ ...access, store: false, atomic: false });
      }
      let address = inst.address;
      if (region.kind !== 'global-dynamic' && region.kind !== 'generic-dynamic') address = lowWord(fn, data.block, address, data.span, id);
      data.inst = { ...inst, region, address } as Inst;
    }

    const vars = cx.module.variables;
    const addressed = addressedSymbols(fn);
    const shared = layoutWindow(referencedVariables(vars, 'shared', addressed), windowAccess.shared, windowAccess.shared.length > 0, cx.options.sharedHalves === true);
    const local = layoutWindow(referencedVariables(vars, 'local', addressed), windowAccess.local, windowAccess.local.length > 0);
    const images = moduleMemory(cx.module);
    const constant = imageWindow(images.const, windowAccess.const, true);
    const moduleGlobal = imageWindow(images.global, windowAccess['module-global']);
    lowerAddressConstructors(fn, { shared, local, const: constant, global: moduleGlobal });
    const slots = assignSlots(fn, slotAccess, dynamicAccess, aliasOf, pointerBits, cx.options.paramAliases ?? []);
    fn.memory = { slots, shared, local, constant, moduleGlobal, dynamicGlobal: dynamicAccess.length > 0, dynamicGeneric } satisfies FunctionMemory;
  },
};

/** A module image as a window: used when some access may reach it (it has variables). */
function imageWindow(image: MemoryImage, accesses: readonly Access[], constant = false): WindowRegion {
  const view = viewOf(accesses);
  // `.const` within a uniform binding's reach is viewed as vec4 words: WGSL's uniform arrays have
  // a 16-byte stride (lowering/wgsl/emit-owned.ts binds it as a uniform buffer)
  const uniform = constant && image.bytes <= UNIFORM_CONST_BYTES && (view === 'u32' || view === 'vec2<u32>' || view === 'vec4<u32>');
  return { view: uniform ? 'vec4<u32>' : view, staticBytes: image.bytes, offsets: image.offsets, dynamic: false, dynamicOffset: image.bytes, used: image.bytes > 0 && accesses.length > 0, init: image.init };
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v); else m.set(k, [v]);
}

function aliasMap(groups: readonly (readonly number[])[]): (param: number) => number {
  const rep = new Map<number, number>();
  for (const g of groups) { const r = Math.min(...g); for (const p of g) rep.set(p, r); }
  return (p) => rep.get(p) ?? p;
}

function assignSlots(fn: IrFunction, direct: Map<number, Access[]>, dynamic: readonly Access[], aliasOf: (p: number) => number, pointerBits: number, groups: readonly (readonly number[])[]): GlobalSlot[] {
  const params = new Set(direct.keys());
  if (dynamic.length > 0) {
    fn.kernelParams.forEach((p, i) => { if (p.size * 8 === pointerBits && !p.arrayLength) params.add(aliasOf(i)); });
  }
  return [...params].sort((a, b) => a - b).map((param) => {
    const accesses = [...(direct.get(param) ?? []), ...dynamic];
    const aliases = (groups.find((g) => g.includes(param)) ?? []).filter((p) => p !== param);
    return { param, aliases, view: viewOf(accesses), writable: accesses.some((a) => a.store) };
  });
}

/** The i32 offset of an address: its low word (window offsets and slot offsets both live there). */
function lowWord(fn: IrFunction, block: import('../src/ir/entities.js').BlockId, address: ValueId, span: import('../src/diagnostics/span.js').Span, at: number): ValueId {
  if (T.bitWidth(fn.typeOf(address)) === 32) return address;
  const { id, results } = fn.createDetached(block, { op: 'truncate', type: T.i32, value: address }, span);
  const insts = fn.block(block).insts;
  insts.splice(insts.indexOf(at as import('../src/ir/entities.js').InstId), 0, id);
  return results[0] as ValueId;
}

/**
 * A generic access through a kernel parameter's generic address (`cvta.param`): a load reads
 * the launch uniform at the address's low word (the offset in the parameter space) and is
 * replaced (true); kernel parameters are read-only, so a store or atomic is an error.
 */
function parameterAccess(fn: IrFunction, data: import('../src/ir/function.js').InstData, id: import('../src/ir/entities.js').InstId, cx: PassContext): boolean {
  const inst = data.inst;
  if (inst.op !== 'load') {
    cx.diagnostics.push({ code: DiagnosticCode.LowerUnsupportedFeature, severity: 'error', span: data.span, message: 'a store or atomic through a kernel parameter\'s generic address: kernel parameters are read-only' });
    return false;
  }
  const offset = lowWord(fn, data.block, inst.address, data.span, id);
  data.inst = { op: 'kernel_param', type: inst.type, param: -1, offset: 0, dynamic: offset };
  return true;
}

/** `address_of` -> window offset constant; `cvta` -> add or strip the generic tag. */
function lowerAddressConstructors(fn: IrFunction, windows: Record<'shared' | 'local' | 'const' | 'global', WindowRegion>): void {
  for (const data of fn.insts) {
    const inst = data.inst;
    if (inst.op === 'address_of' && inst.space !== 'generic') {
      const offset = BigInt(windows[inst.space].offsets.get(inst.symbol) ?? 0);
      // A module `.global` variable's address is a global (and generic) address: tag it.
      const tag = inst.space === 'global' && T.bitWidth(inst.type) === 64 ? BigInt(MODULE_GLOBAL_TAG) << 32n : 0n;
      data.inst = { op: 'const', type: inst.type, bits: tag | offset };
    } else if (inst.op === 'cvta') {
      data.inst = cvtaArithmetic(fn, data, inst);
    }
  }
}

function cvtaArithmetic(fn: IrFunction, data: import('../src/ir/function.js').InstData, inst: Extract<Inst, { op: 'cvta' }>): Inst {
  const wide = T.bitWidth(inst.type) === 64;
  const tag = inst.space === 'shared' || inst.space === 'local' || inst.space === 'const' || inst.space === 'param' ? GENERIC_TAG[inst.space] : undefined;
  if (tag === undefined || !wide) return { op: 'bitcast', type: inst.type, value: inst.value };
  if (!inst.toGeneric) {
    // generic -> window: keep the low word (the window offset), as a 64-bit value
    const mask = constBefore(fn, data, inst.type, 0xffffffffn);
    return { op: 'ibinary', kind: 'and', type: inst.type, a: inst.value, b: mask };
  }
  const tagged = constBefore(fn, data, inst.type, BigInt(tag) << 32n);
  return { op: 'ibinary', kind: 'or', type: inst.type, a: inst.value, b: tagged };
}

function constBefore(fn: IrFunction, data: import('../src/ir/function.js').InstData, type: T.IrType, bits: bigint): ValueId {
  const { id, results } = fn.createDetached(fn.entry, { op: 'const', type, bits }, data.span);
  fn.block(fn.entry).insts.unshift(id);
  return results[0] as ValueId;
}
