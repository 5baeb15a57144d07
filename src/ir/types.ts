/**
 * IR value types: a closed union (naga `TypeInner`). Integers carry only their width;
 * signedness lives on the operations, as in PTX's `.b32` registers used by `add.s32` and
 * `shr.u32` alike. Types are interned, so `===` compares them.
 */

export type IntBits = 8 | 16 | 32 | 64 | 128;
export type FloatBits = 16 | 32 | 64;

export interface PredType { readonly kind: 'pred' }
export interface IntType { readonly kind: 'int'; readonly bits: IntBits }
/** `bf16` is a float of 16 bits with format 'bf16'; `f16` has format 'ieee'. */
export interface FloatType { readonly kind: 'float'; readonly bits: FloatBits; readonly format: 'ieee' | 'bf16' }
/** A small vector: `ld.v4.f32` results, `.f16x2` halves unpacked, matrix fragments. */
export interface VectorType { readonly kind: 'vector'; readonly element: ScalarIrType; readonly count: 2 | 3 | 4 | 8 }
/** A pointer into one memory region, produced by address-space lowering (byte offset inside). */
export interface PointerType { readonly kind: 'pointer'; readonly space: AddressSpace }

/**
 * A WGSL subgroup matrix (`chromium_experimental_subgroup_matrix`): a whole wmma fragment of a
 * warp on the tensor-core path, opaque to everything but the matrix instructions. `use` is
 * WGSL's left (A, rows x k), right (B, k x cols) or result (C/D).
 */
export interface MatrixType {
  readonly kind: 'matrix'; readonly use: 'left' | 'right' | 'result';
  readonly element: FloatType; readonly rows: number; readonly cols: number;
}

export type ScalarIrType = PredType | IntType | FloatType;
export type IrType = ScalarIrType | VectorType | PointerType | MatrixType;

export type AddressSpace = 'global' | 'shared' | 'local' | 'const' | 'param' | 'generic';

export const pred: PredType = { kind: 'pred' };
const ints = new Map<IntBits, IntType>();
const floats = new Map<string, FloatType>();
const vectors = new Map<string, VectorType>();
const pointers = new Map<AddressSpace, PointerType>();
const matrices = new Map<string, MatrixType>();

export function int(bits: IntBits): IntType {
  let t = ints.get(bits);
  if (!t) ints.set(bits, (t = { kind: 'int', bits }));
  return t;
}

export function float(bits: FloatBits, format: 'ieee' | 'bf16' = 'ieee'): FloatType {
  const key = `${bits}${format}`;
  let t = floats.get(key);
  if (!t) floats.set(key, (t = { kind: 'float', bits, format }));
  return t;
}

export function vector(element: ScalarIrType, count: VectorType['count']): VectorType {
  const key = `${typeName(element)}x${count}`;
  let t = vectors.get(key);
  if (!t) vectors.set(key, (t = { kind: 'vector', element, count }));
  return t;
}

export function pointer(space: AddressSpace): PointerType {
  let t = pointers.get(space);
  if (!t) pointers.set(space, (t = { kind: 'pointer', space }));
  return t;
}

export function matrix(use: MatrixType['use'], element: FloatType, rows: number, cols: number): MatrixType {
  const key = `${use}.${typeName(element)}.${rows}x${cols}`;
  let t = matrices.get(key);
  if (!t) matrices.set(key, (t = { kind: 'matrix', use, element, rows, cols }));
  return t;
}

export const i8 = int(8);
export const i16 = int(16);
export const i32 = int(32);
export const i64 = int(64);
export const f16 = float(16);
export const bf16 = float(16, 'bf16');
export const f32 = float(32);
export const f64 = float(64);

/** Width in bits of a scalar or vector type (pointers: 32, the offset). */
export function bitWidth(t: IrType): number {
  switch (t.kind) {
    case 'pred': return 1;
    case 'int': return t.bits;
    case 'float': return t.bits;
    case 'vector': return bitWidth(t.element) * t.count;
    case 'pointer': return 32;
    case 'matrix': return bitWidth(t.element) * t.rows * t.cols;
  }
}

export function typeName(t: IrType): string {
  switch (t.kind) {
    case 'pred': return 'pred';
    case 'int': return `i${t.bits}`;
    case 'float': return t.format === 'bf16' ? 'bf16' : `f${t.bits}`;
    case 'vector': return `${typeName(t.element)}x${t.count}`;
    case 'pointer': return `ptr.${t.space}`;
    case 'matrix': return `matrix.${t.use}.${typeName(t.element)}.${t.rows}x${t.cols}`;
  }
}

export function isInt(t: IrType, bits?: IntBits): t is IntType {
  return t.kind === 'int' && (bits === undefined || t.bits === bits);
}

export function isFloat(t: IrType, bits?: FloatBits): t is FloatType {
  return t.kind === 'float' && (bits === undefined || t.bits === bits);
}
