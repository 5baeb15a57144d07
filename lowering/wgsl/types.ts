/**
 * IR types as WGSL types. Integers up to 32 bits are `u32` (narrow ones keep their upper
 * bits zero); 64-bit integers are `vec2<u32>` (low, high); predicates are `bool`.
 */
import { invariant } from '../../src/diagnostics/ptx-error.js';
import type { IrType } from '../../src/ir/types.js';
import { typeName } from '../../src/ir/types.js';

export function wgslType(t: IrType): string {
  switch (t.kind) {
    case 'pred': return 'bool';
    case 'int':
      if (t.bits <= 32) return 'u32';
      if (t.bits === 64) return 'vec2<u32>';
      return 'vec4<u32>';
    case 'float':
      if (t.bits === 32) return 'f32';
      if (t.bits === 64) return 'vec2<u32>';
      return 'u32';
    case 'vector': {
      const e = wgslType(t.element);
      if (t.count <= 4 && (e === 'u32' || e === 'f32' || e === 'f16' || e === 'bool')) return `vec${t.count}<${e}>`;
      return `array<${e}, ${t.count}>`;
    }
    case 'pointer': return 'u32';
    case 'matrix': return `subgroup_matrix_${t.use}<${t.element.bits === 16 ? 'f16' : 'f32'}, ${t.cols}, ${t.rows}>`;
  }
  invariant(false, `no WGSL type for ${typeName(t)}`);
}
