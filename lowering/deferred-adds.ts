/**
 * Analysis `deferred-adds`: which float atomic adds may be applied after the kernel has run.
 *
 * WGSL has no float atomics, so `red.global.add.f32` is a compare-exchange loop; when every
 * block of a reduction adds its partial sum to one word, the loops of thousands of blocks
 * serialise on that word at one L2 round trip per success (an H200 spent 1.1 ms where CUDA's
 * atomics take 0.1). PTX fixes no order among the adds of different threads, so the word's
 * final value may be the result of any sequence of them, each rounded in turn. If nothing in
 * the kernel reads or writes the word otherwise, nobody can tell when an add happened: a block
 * can leave its contribution in a slot of its own (the first such add of the block; later ones
 * apply at once) and a second dispatch applies the slots in block order once all blocks are
 * done (lowering/wgsl/emit-deferred-adds.ts). The word ends as if the immediate adds ran first
 * and the slots' adds after them, one by one in block order: a valid order of the same adds.
 *
 * Deferred: `atom.add.f32` / `red.add.f32` on a global slot or the module's `.global`
 * variables whose old value nothing reads, when every access of the kernel to that region is
 * such an add, and no access can reach the region through an address resolved only at run time
 * (no dynamic regions, no calls left). One region per kernel: the first in block order.
 */
import { useLists } from '../src/ir/cfg.js';
import type { ValueId } from '../src/ir/entities.js';
import type { IrFunction } from '../src/ir/function.js';
import type { Inst, InstOf, Region } from '../src/ir/inst.js';
import * as T from '../src/ir/types.js';

/** The region whose float adds are deferred, and those adds. */
export interface DeferredAdds {
  readonly region: Extract<Region, { kind: 'slot' | 'module-global' }>;
  readonly adds: ReadonlySet<Inst>;
}

type Regioned = Extract<Inst, { readonly region: Region | null }>;

const hasRegion = (i: Inst): i is Regioned => 'region' in i;
const sameRegion = (a: Region, b: Region): boolean => a.kind === b.kind && (a.kind !== 'slot' || (b.kind === 'slot' && a.slot === b.slot));

export function deferredAdds(fn: IrFunction): DeferredAdds | undefined {
  const memory = fn.memory;
  if (!memory || memory.dynamicGlobal || memory.dynamicGeneric) return undefined;
  // most kernels have no float add at all: no instruction list and no use lists for them (2.5%
  // of a compile otherwise)
  let floatAdd = false;
  for (const b of fn.blockIds()) for (const id of fn.block(b).insts) {
    const i = fn.inst(id).inst;
    if (i.op === 'call') return undefined;
    floatAdd ||= i.op === 'atomic' && i.kind === 'add' && i.isFloat;
  }
  if (!floatAdd) return undefined;
  const insts = fn.blockIds().flatMap((b) => fn.block(b).insts.map((id) => fn.inst(id)));
  const uses = useLists(fn);
  const deferrable = (i: Inst, results: readonly ValueId[]): i is InstOf<'atomic'> =>
    i.op === 'atomic' && i.kind === 'add' && i.isFloat && i.half === null && T.isFloat(i.type, 32) &&
    (i.region?.kind === 'slot' || i.region?.kind === 'module-global') && results.every((r) => (uses.get(r)?.length ?? 0) === 0);
  const first = insts.find((d) => deferrable(d.inst, d.results));
  const region = first && (first.inst as InstOf<'atomic'>).region;
  if (!region || (region.kind !== 'slot' && region.kind !== 'module-global')) return undefined;
  const adds = new Set<Inst>();
  for (const d of insts) {
    if (!hasRegion(d.inst) || !d.inst.region || !sameRegion(d.inst.region, region)) continue;
    if (!deferrable(d.inst, d.results)) return undefined;
    adds.add(d.inst);
  }
  return { region, adds };
}
