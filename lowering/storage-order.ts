/**
 * Analysis `storage-order`: which barriers must also order global (storage) memory.
 *
 * `bar.sync` orders every memory access of the CTA's threads; WGSL splits that into
 * `workgroupBarrier()` (workgroup memory) and `storageBarrier()` (storage buffers), two barriers
 * where PTX has one (a block scan's two barriers took 5% of an H200's time). A barrier needs the
 * storage half only where some thread's global access before it and another's after it could
 * conflict: a write that can reach the barrier (a later read or write of another thread must see
 * it), or a read that can reach it while a write can follow (the write must not reach the read).
 * Reads of `ld.global.nc`/`ldu` do not count: PTX requires their data to stay unchanged while the
 * kernel runs. "Can reach" follows the CFG, loops included (a write after the barrier in a loop
 * reaches it again through the back edge).
 *
 * Global: any access whose region or space is not shared, local or const, so generic accesses
 * that may be global count. Any other instruction with effects on memory counts as a write
 * (what a later opcode adds stays ordered until this list learns it is not a global write).
 */
import type { BlockId } from '../src/ir/entities.js';
import { predecessors } from '../src/ir/cfg.js';
import type { IrFunction } from '../src/ir/function.js';
import { HAS_EFFECTS, type Inst } from '../src/ir/inst.js';

/** Effects that touch no global memory. */
const NO_GLOBAL_EFFECT: ReadonlySet<Inst['op']> = new Set(['barrier', 'fence', 'trap_if', 'shfl', 'vote', 'activemask', 'match', 'redux', 'warp_sync']);
const PRIVATE_REGIONS: ReadonlySet<string> = new Set(['shared', 'local', 'const']);

function isGlobal(inst: { readonly space: string; readonly region: { readonly kind: string } | null }): boolean {
  return inst.region ? !PRIVATE_REGIONS.has(inst.region.kind) : !PRIVATE_REGIONS.has(inst.space);
}

/** Kinds of global access as bits: an access, or what some path holds (a join is an or). */
type Access = number;
const NONE = 0;
const READ = 1;
const WRITE = 2;

function accessOf(inst: Inst): Access {
  switch (inst.op) {
    case 'load': return isGlobal(inst) && !inst.readOnly ? READ : NONE;
    case 'matrix_load': return isGlobal(inst) ? READ : NONE;
    case 'store': case 'atomic': case 'mbarrier': case 'matrix_store': return isGlobal(inst) ? WRITE : NONE;
    default: return HAS_EFFECTS[inst.op] && !NO_GLOBAL_EFFECT.has(inst.op) ? WRITE : NONE;
  }
}

/** The barrier instructions of `fn` that need storage ordering. */
export function barriersOrderingStorage(fn: IrFunction): Set<Inst> {
  const blocks = fn.blockIds();
  const own = new Map<BlockId, Access>(blocks.map((b) => [b, fn.block(b).insts.reduce((f, id) => f | accessOf(fn.inst(id).inst), NONE)]));
  const preds = predecessors(fn);
  // before[b]: accesses on some path into b; after[b]: accesses on some path out of b's end
  const before = fixpoint(blocks, (b, get) => (preds.get(b) ?? []).reduce((f, p) => f | get(p) | (own.get(p) as Access), NONE));
  // (visited last block first: in block order, what follows a block reached it one round per block)
  const after = fixpoint([...blocks].reverse(), (b, get) => fn.successors(b).reduce((f, s) => f | get(s.block) | (own.get(s.block) as Access), NONE));
  const out = new Set<Inst>();
  for (const b of blocks) {
    const ids = fn.block(b).insts;
    if (!ids.some((id) => fn.inst(id).inst.op === 'barrier')) continue;
    const insts = ids.map((id) => fn.inst(id).inst);
    // later[k]: accesses after instruction k in the block, then on paths out of it
    const later: Access[] = [];
    insts.reduceRight((f, inst, k) => { later[k] = f; return f | accessOf(inst); }, after.get(b) as Access);
    insts.reduce((seen, inst, k) => {
      if (inst.op === 'barrier' && ((seen & WRITE) !== 0 || ((seen & READ) !== 0 && ((later[k] as Access) & WRITE) !== 0))) out.add(inst);
      return seen | accessOf(inst);
    }, before.get(b) as Access);
  }
  return out;
}

function fixpoint(blocks: readonly BlockId[], step: (b: BlockId, get: (b: BlockId) => Access) => Access): Map<BlockId, Access> {
  const m = new Map<BlockId, Access>(blocks.map((b) => [b, NONE]));
  const get = (b: BlockId): Access => m.get(b) ?? NONE;
  for (let changed = true; changed;) {
    changed = false;
    for (const b of blocks) {
      const old = get(b); const f = old | step(b, get);
      if (f !== old) { m.set(b, f); changed = true; }
    }
  }
  return m;
}
