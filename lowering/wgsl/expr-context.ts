/**
 * What expression emitters may ask of the function being emitted: the WGSL text of an
 * operand, its IR type, calls into the helper library (recorded for linking), and
 * statements written before the current one (for the few instructions that need loops).
 */
import type { ValueId } from '../../src/ir/entities.js';
import type { IrFunction } from '../../src/ir/function.js';
import type { IrType } from '../../src/ir/types.js';
import type { NativeFloat } from './native-float.js';

export interface ExprContext {
  ref(v: ValueId): string;
  typeOf(v: ValueId): IrType;
  /** `name(args)`, linking `name` from the helper library. */
  call(name: string, ...args: string[]): string;
  /** Writes a statement line at the current position. */
  line(text: string): void;
  /** A fresh local name. */
  temp(prefix: string): string;
  /** Whether WGSL fma() is known to be fused on the target device (else it is emulated exactly). */
  readonly nativeFma: boolean;
  /** f32 operations the target computes natively exactly as PTX does (runtime probe). */
  readonly nativeFloat: NativeFloat;
  /**
   * Whether the device has WGSL subgroup operations (any size): 64-bit atomics then take their
   * lock once per subgroup (emit-atomic.ts), independently of the kernel's warp path.
   */
  readonly subgroupOps: boolean;
  /** Whether nothing reads `v`. */
  valueUnused(v: ValueId): boolean;
  /**
   * Whether f32 value `v` is known never to be a nonzero subnormal where it is read: the result
   * of an `.ftz` operation, or a checked result inside a replay region, whose test replays the
   * region exactly when it is not (emit-replay.ts).
   */
  notSubnormal(v: ValueId): boolean;
  /**
   * Address `v` as a value that can be referenced here plus a byte constant, following adds of
   * constants (PTX's `[%r+imm]`): memory accesses index with the base's shifted word index plus a
   * constant, which drivers fold into the access's immediate offset. A shift does not distribute
   * over a wrapping add, so drivers cannot do this themselves. `noWrap`: the base is known to be
   * computed without wrapping and base + bytes stays within u32 (thread-index arithmetic).
   */
  addressParts(v: ValueId): { readonly base: ValueId; readonly bytes: number; readonly noWrap: boolean };
  /** Whether nothing reads the results of the instruction being emitted. */
  resultUnused(): boolean;
  /** Reports something the emitter cannot express exactly (an L002 diagnostic at the instruction). */
  unsupported(what: string): string;
}

/**
 * What the instruction table (emit-inst.ts) and the emitters of whole-function concerns (warps,
 * barriers, traps) may ask besides: the function, the launch-time shared size, and the trap
 * record. FunctionEmitter (emit-function.ts) implements it; the instruction emitters import
 * this interface, not the class, so the emitter has no import cycle.
 */
export interface InstContext extends ExprContext {
  readonly fn: IrFunction;
  /** WGSL expression for the dynamic shared memory size in bytes. */
  readonly dynamicSmemBytes: string;
  /** Set when the body traps: the kernel then binds the trap record (emit-module.ts). */
  traps: boolean;
  /** Why the compiler's own checks trap, by PTX source offset (KernelLayout.trapReasons). */
  readonly trapReasons: Map<number, string>;
  /**
   * Emulated warp path: the values the last shuffles published in ptx_warp, oldest first, while
   * nothing emitted since can have published anything else (FunctionEmitter empties it). Every
   * thread of the workgroup runs the same straight-line code in between, so a further shuffle of
   * one of them needs no second publication and no barrier: a read of the lane's slot suffices.
   */
  readonly publishedWarpValues: ValueId[];
}
