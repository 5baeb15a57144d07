/**
 * Structured control flow: the statement tree the structurize pass builds from the CFG
 * and the emitter walks (Binaryen's Relooper output, naga `Statement`). It has exactly
 * WGSL's control constructs, so printing it needs no further control-flow decisions.
 */
import type { BlockId, ValueId } from './entities.js';

export type Stmt =
  /** The instructions of one basic block, in order (its terminator is expressed by the tree). */
  | { readonly kind: 'code'; readonly block: BlockId }
  /** Block-argument passing: a parallel copy `targets := sources`. */
  | { readonly kind: 'copy'; readonly targets: readonly ValueId[]; readonly sources: readonly ValueId[] }
  | { readonly kind: 'if'; readonly cond: ValueId; readonly then: readonly Stmt[]; readonly else: readonly Stmt[] }
  /** `if (index == value)`: one arm of a `brx.idx` jump table. */
  | { readonly kind: 'if-index'; readonly index: ValueId; readonly value: number; readonly then: readonly Stmt[]; readonly else: readonly Stmt[] }
  | { readonly kind: 'loop'; readonly body: readonly Stmt[] }
  | { readonly kind: 'break' }
  | { readonly kind: 'continue' }
  | { readonly kind: 'return'; readonly values: readonly ValueId[] }
  /** `at`: byte offset of the `trap` in the PTX source, recorded for the runtime's error. */
  /** `continues`: record the trap and go on as an inactive thread (convergence keeps it for barriers). */
  /** `reason`: completes the runtime's error message (a trap the compiler made, not a PTX `trap`). */
  | { readonly kind: 'trap'; readonly at: number; readonly continues?: boolean; readonly reason?: string }
  /** Multi-level exits: `exit_pending = target`. 0 means none pending. */
  | { readonly kind: 'set-exit'; readonly target: number }
  /** `if (exit_pending == target) { body }` (target 0: `if (exit_pending == 0)`). */
  | { readonly kind: 'if-exit'; readonly target: number; readonly body: readonly Stmt[] }
  /** Irreducible fallback: `state = block` before `continue` of the dispatch loop. */
  | { readonly kind: 'set-state'; readonly block: number }
  /** Irreducible fallback: `if (state == block) { body }`. */
  | { readonly kind: 'if-state'; readonly block: number; readonly body: readonly Stmt[] };

export interface StructuredBody {
  readonly body: readonly Stmt[];
  /** True when multi-level exits are used (the emitter declares `exit_pending`). */
  readonly usesExitFlag: boolean;
  /** True when the irreducible fallback dispatch loop is used (the emitter declares `state`). */
  readonly usesStateMachine: boolean;
  readonly entryState: number;
}
