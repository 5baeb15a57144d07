/**
 * Operands and conversions the emitters share for the integer-exact float helpers: the rounding
 * mode operand, and the exact widening of half formats to f32 bits.
 */
import type { FloatRounding, IntRoundingMode } from '../../src/ir/inst.js';
import type { IrType } from '../../src/ir/types.js';
import type { ExprContext } from './expr-context.js';

/**
 * The rounding-mode operand every integer-exact float helper takes (shaders/round32.wgsl,
 * cvt32.wgsl, f64.wgsl): 0 nearest-even, 1 toward zero, 2 down, 3 up.
 */
export function roundingOperand(r: FloatRounding | IntRoundingMode): string {
  switch (r) {
    case 'rz': case 'rzi': return '1u';
    case 'rm': case 'rmi': return '2u';
    case 'rp': case 'rpi': return '3u';
    default: return '0u';
  }
}

/** f32 bits of the bits `h` of half type `t`, exactly (NaNs keep their payload, quieted). */
export function widenHalf(cx: ExprContext, h: string, t: IrType): string {
  return cx.call(t.kind === 'float' && t.format === 'bf16' ? 'bf16_widen' : 'f16_widen', h);
}
