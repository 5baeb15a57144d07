/**
 * PTX special registers (ISA "Special Registers") as IR `special` instructions. Most are
 * 32-bit; `%clock64`, `%globaltimer` and `%gridid` are 64-bit. The emitter decides where
 * each comes from (WGSL builtins, the launch header, or a constant; `%clock`, `%clock64`
 * and `%globaltimer` are per-thread counters, lowering/wgsl/emit-owned.ts says why).
 */
import type * as Ast from '../ptx/ast.js';
import type { InstOf, SpecialRegister } from '../ir/inst.js';
import * as T from '../ir/types.js';

const KNOWN: ReadonlySet<string> = new Set<SpecialRegister>([
  'tid', 'ntid', 'ctaid', 'nctaid', 'laneid', 'warpid', 'nwarpid', 'warpsize', 'smid', 'nsmid', 'gridid',
  'lanemask_eq', 'lanemask_lt', 'lanemask_le', 'lanemask_gt', 'lanemask_ge', 'clock', 'clock64',
  'globaltimer', 'dynamic_smem_size', 'total_smem_size', 'clusterid', 'nclusterid', 'cluster_ctaid',
  'cluster_nctaid', 'cluster_ctarank', 'cluster_nctarank', 'is_explicit_cluster',
]);

const WIDE: ReadonlySet<string> = new Set(['clock64', 'globaltimer', 'gridid']);

/**
 * The shared memory CUDA reserves per block (1 KB on sm_80 and later), which its own libraries
 * address through `%reserved_smem_offset_*` (cooperative groups' reductions over tiles wider than
 * a warp keep barrier words and partial sums there). A module that reads those registers gets
 * this much shared memory as a variable of its own (build-module.ts), so it is laid out with the
 * kernel's other shared memory. `_0` and `_1` split it in halves (the ISA leaves their layout to
 * the driver; cooperative groups uses under 300 bytes from `_1`).
 */
export const RESERVED_SMEM_SYMBOL = '__ptx_reserved_smem';
export const RESERVED_SMEM_BYTES = 1024;

/** Byte offset within the reserved region of `%reserved_smem_offset_<which>`; the cap is a size, not an offset. */
export function reservedSmemOffset(which: string): number | 'cap' | undefined {
  switch (which) {
    case 'begin': case '0': case 'reserved': return 0;
    case '1': return RESERVED_SMEM_BYTES / 2;
    case 'end': return RESERVED_SMEM_BYTES;
    case 'cap': return 'cap';
    default: return undefined;
  }
}

/** The `special` instruction reading `op`, or undefined for a register the IR does not know (L002 at the caller). */
export function specialRegister(op: Ast.SpecialRegisterOperand): InstOf<'special'> | undefined {
  const name = op.name === 'WARP_SZ' ? 'warpsize' : op.name;
  if (!KNOWN.has(name)) return undefined;
  const component = op.component === 'y' ? 1 : op.component === 'z' ? 2 : 0;
  const type = WIDE.has(name) ? T.i64 : name === 'is_explicit_cluster' ? T.pred : T.i32;
  return { op: 'special', type, register: name as SpecialRegister, component };
}
