/**
 * Which buffer each binding of a kernel gets, and the aliasing that decides which compiled
 * variant to use: WebGPU rejects a dispatch that binds one buffer twice when either binding is
 * writable, so pointer parameters that point into the same allocation (in-place
 * `saxpy(x, y, y)`) must share one binding, which the compiler provides as a variant.
 */
import type { BindingLayout, KernelLayout } from '../lowering/layout.js';
import { launchError } from './errors.js';
import type { DeviceBuffer } from './memory.js';

type SlotBinding = Extract<BindingLayout, { kind: 'global-slot' }>;
/** Bindings of buffers the runtime owns per module: `.global`/`.const` variables and the trap record. */
export type OwnedBinding = Extract<BindingLayout, { kind: 'module-memory' | 'trap' }>;

/** The placeholder key of the lock table of emulated 64-bit global atomics (16 bytes, zeroed). */
const ATOMIC_LOCKS_KEY = -1;

export function slotBindings(layout: KernelLayout): SlotBinding[] {
  return layout.bindings.filter((b): b is SlotBinding => b.kind === 'global-slot');
}

/**
 * Groups of parameter indices (each sorted, groups ordered by first index) whose allocations
 * are the same; `allocationOf` returns null for a null pointer, which aliases nothing.
 */
export function aliasGroups(params: readonly number[], allocationOf: (param: number) => DeviceBuffer | null): number[][] {
  const byAddress = new Map<bigint, number[]>();
  for (const p of [...params].sort((a, b) => a - b)) {
    const a = allocationOf(p);
    if (!a) continue;
    const group = byAddress.get(a.address);
    if (group) group.push(p);
    else byAddress.set(a.address, [p]);
  }
  return [...byAddress.values()].filter((g) => g.length > 1);
}

/** A stable text key for an alias pattern, for caches. */
export function aliasKey(groups: readonly (readonly number[])[]): string {
  return groups.map((g) => g.join('=')).join(',');
}

/** The explicit bind group layout for a kernel: binding 0 uniform, then one storage buffer per slot. */
export function bindGroupLayoutEntries(layout: KernelLayout): GPUBindGroupLayoutEntry[] {
  return layout.bindings.map((b) => ({
    binding: b.binding,
    visibility: GPUShaderStage.COMPUTE,
    buffer: { type: b.kind === 'launch-params' || b.access === 'uniform' ? 'uniform' : b.access === 'read' ? 'read-only-storage' : 'storage' },
  }));
}

/**
 * Bind group entries for one launch. A null pointer still needs some buffer bound: it gets a
 * private placeholder (`placeholder(i)`, distinct per slot so placeholders never alias).
 */
export function bindGroupEntries(
  layout: KernelLayout,
  uniform: GPUBuffer,
  allocationOf: (param: number) => DeviceBuffer | null,
  placeholder: (slot: number) => GPUBuffer,
  maxBindingSize: number,
  owned?: (b: OwnedBinding) => GPUBuffer,
  deferredAdds?: () => GPUBuffer,
): GPUBindGroupEntry[] {
  return layout.bindings.map((b, i) => {
    if (b.kind === 'launch-params') return { binding: b.binding, resource: { buffer: uniform } };
    // The context's zeroed 16-byte placeholders fit the lock table exactly; the key -1 is no
    // slot's, so a kernel writing through a null pointer can never leave a lock held.
    if (b.kind === 'atomic-locks') return { binding: b.binding, resource: { buffer: placeholder(ATOMIC_LOCKS_KEY) } };
    if (b.kind === 'deferred-adds') {
      if (!deferredAdds) throw launchError(`kernel '${layout.entry}' needs deferred-add slots that this launch does not provide`);
      return { binding: b.binding, resource: { buffer: deferredAdds() } };
    }
    if (b.kind === 'module-memory' || b.kind === 'trap') {
      if (!owned) throw launchError(`kernel '${layout.entry}' needs module memory that this launch does not provide`);
      return { binding: b.binding, resource: { buffer: owned(b) } };
    }
    const allocation = allocationOf(b.param);
    const buffer = allocation?.buffer ?? placeholder(i);
    if (buffer.size > maxBindingSize) {
      const name = layout.params[b.param]?.name ?? String(b.param);
      throw launchError(
        `parameter '${name}' points into a ${buffer.size}-byte allocation; ` +
          `the device binds at most ${maxBindingSize} bytes (maxStorageBufferBindingSize)`,
      );
    }
    return { binding: b.binding, resource: { buffer } };
  });
}
