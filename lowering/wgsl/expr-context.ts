/**
 * What expression emitters may ask of the function being emitted: the WGSL text of an
 * operand, its IR type, calls into the helper library (recorded for linking), and
 * statements written before the current one (for the few instructions that need loops).
 */
import type { ValueId } from '../../src/ir/entities.js';
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
  /** Reports something the emitter cannot express exactly (an L002 diagnostic at the instruction). */
  unsupported(what: string): string;
}
