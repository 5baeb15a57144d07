import type { FloatRounding, IntRoundingMode } from '../../src/ir/inst.js';

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
