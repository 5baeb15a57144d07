// The shape of a JS reference: it receives the case's buffers as generated (outputs poisoned) and
// its dims, and writes the expected final contents of the buffers the kernels write, in place.
import type { NumArray } from '../inputs.ts';

export class Bufs {
  constructor(private readonly map: ReadonlyMap<string, NumArray>) {}
  has(name: string): boolean {
    return this.map.has(name);
  }
  get(name: string): NumArray {
    const a = this.map.get(name);
    if (!a) throw new Error(`reference: no buffer ${name}`);
    return a;
  }
  f32(name: string): Float32Array { return this.typed(name, Float32Array); }
  f64(name: string): Float64Array { return this.typed(name, Float64Array); }
  i32(name: string): Int32Array { return this.typed(name, Int32Array); }
  u32(name: string): Uint32Array { return this.typed(name, Uint32Array); }
  u8(name: string): Uint8Array { return this.typed(name, Uint8Array); }
  /** f16 buffers hold their bits. */
  u16(name: string): Uint16Array { return this.typed(name, Uint16Array); }
  u64(name: string): BigUint64Array { return this.typed(name, BigUint64Array); }
  private typed<T>(name: string, ctor: new (...a: never[]) => T): T {
    const a = this.get(name);
    if (!(a instanceof ctor)) throw new Error(`reference: ${name} is a ${a.constructor.name}, not a ${ctor.name}`);
    return a as T;
  }
}

/** The dims the references read (cases.json `dims`); a missing one throws when read. */
export type DimName =
  | 'B' | 'BT' | 'C' | 'K' | 'M' | 'N' | 'NH' | 'OC' | 'T' | 'V' | 'alpha' | 'beta' | 'block' | 'cols' | 'h' | 'hi'
  | 'lo' | 'n' | 'n2' | 'nbins' | 'nnz' | 'npix' | 'nx' | 'ny' | 'nz' | 'r' | 'radius' | 'rows' | 'samples' | 'steps'
  | 'threads' | 'tiles' | 'w';
export type Dims = { readonly [K in DimName]: number };
export type Ref = (b: Bufs, d: Dims) => void;

/** `dims` as a Dims that throws on a name the case does not define. */
export function strictDims(dims: Readonly<Record<string, number>>, caseName: string): Dims {
  return new Proxy(dims, {
    get(target, key) {
      const v = target[key as string];
      if (v === undefined) throw new Error(`reference of ${caseName}: the case has no dim ${String(key)}`);
      return v;
    },
  }) as unknown as Dims;
}
