/**
 * The fragments of `wmma` (ISA "Matrix multiply-accumulate operation using wmma instructions"):
 * which matrix element each register piece of each lane holds. The ISA leaves these layouts
 * unspecified, so they are NVIDIA's as recorded on the hardware (tests/matrix/record_wmma_layout.py
 * -> wmma-layouts.generated.ts, scripts/gen-wmma-layouts.mjs) and kept here as data.
 *
 * A fragment of a rows x cols matrix gives each lane `regs` registers of `per` elements
 * (f16/bf16 two per .b32, s8/u8 four, s4/u4 eight, b1 thirty-two, the lowest bits first; f64,
 * f32, s32, tf32 one per register); element e of a lane is element e % per of register e / per.
 * Inputs (A, B) depend on the layout they are loaded with, which wmma.mma names again
 * (`.alayout.blayout`); accumulators do not (the generator checks it), and f16 accumulators
 * differ from f32 and s32 ones only in their packing.
 */
import { WMMA_LAYOUTS, type RecordedLayout } from './wmma-layouts.generated.js';

export interface FragmentLayout {
  readonly rows: number;
  readonly cols: number;
  readonly regs: number;
  readonly per: number;
  /** at[lane][e]: the index row * cols + col of element e of lane. */
  readonly at: readonly (readonly number[])[];
}

/** The element types of wmma inputs and accumulators. */
export type WmmaInput = 'f16' | 'bf16' | 'tf32' | 'f64' | 's8' | 'u8' | 's4' | 'u4' | 'b1';
export type WmmaAccumulator = 'f16' | 'f32' | 's32' | 'f64';
export type WmmaElement = WmmaInput | WmmaAccumulator;

export const ELEMENT_BITS: Readonly<Record<WmmaElement, number>> = {
  f16: 16, bf16: 16, tf32: 32, f32: 32, s32: 32, f64: 64, s8: 8, u8: 8, s4: 4, u4: 4, b1: 1,
};

/** m, n, k of each wmma shape, and the input types it takes. */
export const WMMA_SHAPES: Readonly<Record<string, { readonly m: number; readonly n: number; readonly k: number; readonly inputs: readonly WmmaInput[] }>> = {
  m16n16k16: { m: 16, n: 16, k: 16, inputs: ['f16', 'bf16', 's8', 'u8'] },
  m32n8k16: { m: 32, n: 8, k: 16, inputs: ['f16', 'bf16', 's8', 'u8'] },
  m8n32k16: { m: 8, n: 32, k: 16, inputs: ['f16', 'bf16', 's8', 'u8'] },
  m16n16k8: { m: 16, n: 16, k: 8, inputs: ['tf32'] },
  m8n8k4: { m: 8, n: 8, k: 4, inputs: ['f64'] },
  m8n8k32: { m: 8, n: 8, k: 32, inputs: ['s4', 'u4'] },
  m8n8k128: { m: 8, n: 8, k: 128, inputs: ['b1'] },
};

/** The accumulator types of an input type. */
export function accumulatorsOf(t: WmmaInput): readonly WmmaAccumulator[] {
  if (t === 'f16') return ['f16', 'f32'];
  if (t === 'f64') return ['f64'];
  if (t === 'bf16' || t === 'tf32') return ['f32'];
  return ['s32'];
}

/** The sub-byte inputs exist only as row-major A and column-major B. */
export const isSubByte = (t: WmmaInput): boolean => t === 's4' || t === 'u4' || t === 'b1';

function decode(r: RecordedLayout): FragmentLayout {
  const count = r.regs * r.per;
  let at: number[][];
  if ('table' in r) {
    const bytes = Uint8Array.from(atob(r.table), (c) => c.charCodeAt(0));
    const flat = Array.from({ length: bytes.length / 2 }, (_, i) => (bytes[2 * i] as number) | ((bytes[2 * i + 1] as number) << 8));
    at = Array.from({ length: 32 }, (_, lane) => flat.slice(lane * count, (lane + 1) * count));
  } else {
    const image = (bits: readonly number[], x: number): number => bits.reduce((v, b, i) => ((x >> i) & 1 ? v ^ b : v), 0);
    at = Array.from({ length: 32 }, (_, lane) => Array.from({ length: count }, (_, e) => r.origin ^ image(r.lane, lane) ^ image(r.element, e)));
  }
  return { rows: r.rows, cols: r.cols, regs: r.regs, per: r.per, at };
}

const decoded = new Map<string, FragmentLayout>();

function lookup(key: string): FragmentLayout | undefined {
  let f = decoded.get(key);
  if (f) return f;
  const r = WMMA_LAYOUTS[key];
  if (!r) return undefined;
  decoded.set(key, (f = decode(r)));
  return f;
}

/** The fragment of input `use` (A or B) of `shape`, loaded with `layout`. */
export function inputLayout(use: 'a' | 'b', shape: string, t: WmmaInput, layout: 'row' | 'col'): FragmentLayout | undefined {
  return lookup(`${use}.${shape}.${t}.${layout}`);
}

/** The accumulator fragment (C or D) of `shape` with elements of type t. */
export function accumulatorLayout(shape: string, t: WmmaAccumulator): FragmentLayout | undefined {
  return lookup(`acc.${shape}.${t}`);
}
