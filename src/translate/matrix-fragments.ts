/**
 * The fragment layouts of `mma.sync.aligned` (ISA "Matrix Fragments for mma.m16n8k*" and
 * "mma.m8n8k*" figures), as data. A warp's 32 threads hold an M x K matrix A, a K x N matrix B
 * and M x N accumulators C/D; thread `lane` has groupID g = lane >> 2 and threadID_in_group
 * t = lane % 4, and every figure but m8n8k4 with .f16 (mma-quad-pair.ts) places its elements as:
 *  - A: row g + 8*mi (mi < M/8), column k = A.at(t, r, s).k: element s (the low bits first) of
 *    register r;
 *  - B: row k = B.at(t, r, s), column g;
 *  - C/D: row g + 8*mi, column 2t + j, for (mi, j) = C.at(r, s).
 * These figures differ only in how many elements a register packs, E = 32 / element bits (one
 * .tf32 or .f64, two .f16/.bf16, four .s8/.u8/.e4m3/.e5m2, eight .s4/.u4, 32 .b1): the four
 * threads of a group hold 4E consecutive columns of A (rows of B) per register, thread t the E
 * of them from 4E*block + E*t, and A's registers alternate between the row blocks first (a0 row
 * g, a1 row g + 8, a2 row g again, further along k). So one rule (`quadFragment`) gives every
 * shape of the table below; the ISA text of each figure is restated in tests/matrix/reference.ts,
 * which does not use this file.
 * So a thread computing D[g + 8mi][2t + j] needs row g + 8mi of A, held by the four threads
 * 4g..4g+3, and column 2t + j of B, held by the threads 4(2t + j)..4(2t + j) + 3: `sources`
 * inverts `at` to know which register of which of those lanes holds element k (mma-operands.ts).
 */

/** The element types of an mma's A and B operands (the ISA's .atype/.btype). */
export type MmaInput = 'f16' | 'bf16' | 'tf32' | 'f64' | 's8' | 'u8' | 's4' | 'u4' | 'b1' | 'e4m3' | 'e5m2';

/** Bits of one element in its register. */
export const INPUT_BITS: Readonly<Record<MmaInput, number>> = {
  f16: 16, bf16: 16, tf32: 32, f64: 64, s8: 8, u8: 8, s4: 4, u4: 4, b1: 1, e4m3: 8, e5m2: 8,
};

export interface InputFragment {
  /** Registers per thread, and elements per register (packed f16x2, bytes, nibbles, bits, or one). */
  readonly regs: number;
  readonly perReg: number;
  /** A: the row block mi and column k of element s of register r of thread t; B: k (and mi 0). */
  readonly at: (t: number, r: number, s: number) => { readonly mi: number; readonly k: number };
}

export interface AccumulatorFragment {
  readonly regs: number;
  readonly perReg: 1 | 2;
  /** Row g + 8*mi, column 2t + j of element s of register r. */
  readonly at: (r: number, s: number) => { readonly mi: number; readonly j: number };
}

export interface MmaShape {
  readonly m: 8 | 16;
  readonly n: 8;
  readonly k: number;
  readonly a: InputFragment;
  readonly b: InputFragment;
}

/** The fragment of `rowBlocks` x 8 rows by k columns (B: rowBlocks 1, k rows) with `perReg` elements a register. */
function quadFragment(rowBlocks: number, k: number, perReg: number): InputFragment {
  const span = 4 * perReg;
  return {
    regs: (rowBlocks * k) / span,
    perReg,
    at: (t, r, s) => ({ mi: r % rowBlocks, k: span * Math.floor(r / rowBlocks) + perReg * t + s }),
  };
}

/** The shapes each input type has in the ISA's syntax blocks (m8n8k4 .f16: mma-quad-pair.ts). */
const SHAPES: Readonly<Record<string, readonly MmaInput[]>> = {
  m16n8k4: ['tf32'],
  m16n8k8: ['f16', 'bf16', 'tf32'],
  m16n8k16: ['f16', 'bf16', 's8', 'u8', 'e4m3', 'e5m2'],
  m16n8k32: ['s8', 'u8', 's4', 'u4', 'e4m3', 'e5m2'],
  m16n8k64: ['s4', 'u4'],
  m16n8k128: ['b1'],
  m16n8k256: ['b1'],
  m8n8k4: ['f64'],
  m8n8k16: ['s8', 'u8'],
  m8n8k32: ['s4', 'u4'],
  m8n8k128: ['b1'],
};

export function mmaShape(shape: string, atype: MmaInput): MmaShape | undefined {
  const parsed = /^m(8|16)n8k(\d+)$/.exec(shape);
  if (!parsed || !SHAPES[shape]?.includes(atype)) return undefined;
  const m = Number(parsed[1]) as 8 | 16;
  const k = Number(parsed[2]);
  const perReg = Math.max(1, 32 / INPUT_BITS[atype]);
  return { m, n: 8, k, a: quadFragment(m / 8, k, perReg), b: quadFragment(1, k, perReg) };
}

/**
 * C/D of every m16n8 shape: c0..c3 at rows g, g, g+8, g+8 and columns 2t, 2t+1 (one f32 or s32
 * per register, or the pairs packed in two .f16x2 registers); m8n8: c0, c1 at row g.
 */
export function accumulator(m: 8 | 16, packedHalves: boolean): AccumulatorFragment {
  if (m === 8) return { regs: 2, perReg: 1, at: (r) => ({ mi: 0, j: r }) };
  return packedHalves
    ? { regs: 2, perReg: 2, at: (r, s) => ({ mi: r, j: s }) }
    : { regs: 4, perReg: 1, at: (r) => ({ mi: r >> 1, j: r & 1 }) };
}

/** Where (thread t of the source group, register, element) element (mi, k) of a fragment is. */
export interface Source { readonly t: number; readonly r: number; readonly s: number }

/** The inverse of `at`: sources[mi][k]. */
export function sources(f: InputFragment, rowBlocks: number, k: number): Source[][] {
  const out: Source[][] = Array.from({ length: rowBlocks }, () => new Array<Source>(k));
  for (let t = 0; t < 4; t++) {
    for (let r = 0; r < f.regs; r++) {
      for (let s = 0; s < f.perReg; s++) {
        const e = f.at(t, r, s);
        const row = out[e.mi];
        if (row) row[e.k] = { t, r, s };
      }
    }
  }
  return out;
}
