/**
 * How PTX types map onto IR types: registers keep their width; signedness and float-ness
 * of an instruction type decide the operation, not the value's type (except floats,
 * which get float IR types so WGSL sees f32 rather than bit patterns).
 */
import type { ScalarType } from '../ptx/ast.js';
import * as T from '../ir/types.js';
import type { IrType } from '../ir/types.js';

export function irTypeOf(t: ScalarType): IrType {
  switch (t) {
    case 'pred': return T.pred;
    case 'b8': case 'u8': case 's8': case 'e4m3': case 'e5m2': case 'e2m1x2': return T.i8; // e2m1x2: two 4-bit lanes
    case 'b16': case 'u16': case 's16': case 'bf16': case 'e4m3x2': case 'e5m2x2':
    case 'e2m3x2': case 'e3m2x2': case 'ue8m0x2': case 'e2m1x4': return T.i16;
    case 'f16': return T.f16;
    case 'e4m3x4': case 'e5m2x4': case 'e2m3x4': case 'e3m2x4':
    case 'b32': case 'u32': case 's32': case 's16x2': case 'u16x2': case 'f16x2': case 'bf16x2': case 'tf32': return T.i32;
    case 'b64': case 'u64': case 's64': return T.i64;
    case 'b128': return T.int(128);
    case 'f32': return T.f32;
    case 'f64': return T.f64;
    case 's4': case 'u4': case 'b1': case 's2': case 'u2': return T.i8;
  }
}

export function isSigned(t: ScalarType): boolean {
  return t.startsWith('s');
}

export function isFloatType(t: ScalarType): boolean {
  return t === 'f16' || t === 'f32' || t === 'f64' || t === 'bf16';
}

/** Size in bytes of one element of a PTX type (packed types count whole). */
export function sizeOf(t: ScalarType): number {
  switch (t) {
    case 'pred': return 1;
    case 'b128': return 16;
    default: {
      const bits = T.bitWidth(irTypeOf(t));
      return Math.max(1, bits / 8);
    }
  }
}
