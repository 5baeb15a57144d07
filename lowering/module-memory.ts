/**
 * The module's `.global` and `.const` variables as two memory images, laid out once per
 * module (every kernel of the module sees the same offsets, so a `__device__` variable keeps
 * its value across launches of different kernels, as in CUDA). The runtime creates one
 * buffer per image and module, fills it with `init`, and binds it to kernels that use it
 * (layout.ts, binding kind `module-memory`).
 *
 * Addresses: a `.global` variable's address is `MODULE_GLOBAL_TAG << 32 | offset` (a global
 * address, and so also its generic address); a `.const` variable's address in the const
 * window is its offset, its generic address carries GENERIC_TAG.const in the high word.
 * Initialisers that name a variable (`sym`, `generic(sym)`) are resolved here.
 */
import type { IrModule, MemoryVariable } from '../src/ir/function.js';
import { MODULE_GLOBAL_TAG, type MemoryImage, type ModuleMemory } from './layout.js';
import { GENERIC_TAG } from './pass.js';

const cache = new WeakMap<IrModule, ModuleMemory>();

export function moduleMemory(module: IrModule): ModuleMemory {
  let m = cache.get(module);
  if (!m) {
    const global = layout(module.variables.filter((v) => v.space === 'global'));
    const constant = layout(module.variables.filter((v) => v.space === 'const'));
    m = { global, const: constant };
    relocate(module, m);
    cache.set(module, m);
  }
  return m;
}

function layout(vars: readonly MemoryVariable[]): MemoryImage {
  const offsets = new Map<string, number>();
  let end = 0;
  for (const v of vars) {
    const align = Math.max(1, v.align);
    end = Math.ceil(end / align) * align;
    offsets.set(v.name, end);
    end += v.size;
  }
  const bytes = Math.ceil(end / 16) * 16;
  const init = new Uint8Array(bytes);
  for (const v of vars) if (v.init) init.set(v.init.subarray(0, v.size), offsets.get(v.name) ?? 0);
  return { offsets, bytes, init };
}

/** The address stored for `sym` / `generic(sym)` in an initialiser. */
export function symbolAddress(m: ModuleMemory, symbol: string, generic: boolean): bigint | undefined {
  const g = m.global.offsets.get(symbol);
  if (g !== undefined) return (BigInt(MODULE_GLOBAL_TAG) << 32n) | BigInt(g);
  const c = m.const.offsets.get(symbol);
  if (c !== undefined) return generic ? (BigInt(GENERIC_TAG.const) << 32n) | BigInt(c) : BigInt(c);
  return undefined;
}

function relocate(module: IrModule, m: ModuleMemory): void {
  const width = module.addressSize / 8;
  for (const v of module.variables) {
    if (v.space !== 'global' && v.space !== 'const') continue;
    const image = v.space === 'global' ? m.global : m.const;
    const base = image.offsets.get(v.name) ?? 0;
    for (const r of v.relocations ?? []) {
      const address = BigInt.asUintN(64, (symbolAddress(m, r.symbol, r.generic) ?? 0n) + BigInt(r.addend ?? 0));
      for (let i = 0; i < width && base + r.offset + i < image.init.length; i++) {
        image.init[base + r.offset + i] = Number((address >> BigInt(8 * i)) & 0xffn);
      }
    }
  }
}
