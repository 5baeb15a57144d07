/**
 * The fragment layouts of `mma.sync.aligned` (ISA "Matrix Fragments for mma.m16n8k*" and
 * "mma.m8n8k4 with .f64" figures), as data. A warp's 32 threads hold an M x K matrix A, a
 * K x N matrix B and M x N accumulators C/D; thread `lane` has groupID g = lane >> 2 and
 * threadID_in_group t = lane % 4, and every figure places its elements as:
 *  - A: row g + 8*mi (mi < M/8), column k = A.at(t, r, s).k: element s (the low half or byte
 *    first) of register r;
 *  - B: row k = B.at(t, r, s), column g;
 *  - C/D: row g + 8*mi, column 2t + j, for (mi, j) = C.at(r, s).
 * So a thread computing D[g + 8mi][2t + j] needs row g + 8mi of A, held by the four threads
 * 4g..4g+3, and column 2t + j of B, held by the threads 4(2t + j)..4(2t + j) + 3: the lowering
 * (handlers-matrix.ts) inverts `at` to know which register of which of those lanes holds
 * element k.
 */

/** The element types of an mma's A and B operands (the ISA's .atype/.btype). */
export type MmaInput = 'f16' | 'bf16' | 'tf32' | 'f64' | 's8' | 'u8';

export interface InputFragment {
  /** Registers per thread, and elements per register (packed f16x2, four bytes, or one). */
  readonly regs: number;
  readonly perReg: 1 | 2 | 4;
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

const frag = (regs: number, perReg: 1 | 2 | 4, at: InputFragment['at']): InputFragment => ({ regs, perReg, at });

/** The shapes and input types this lowering knows, keyed `shape.atype-class`. */
const SHAPES: Readonly<Record<string, MmaShape>> = {
  // .f16/.bf16: A a0..a7 in four .f16x2 registers, B b0..b3 in two
  'm16n8k16.half': {
    m: 16, n: 8, k: 16,
    a: frag(4, 2, (t, r, s) => ({ mi: r & 1, k: 2 * t + s + 8 * (r >> 1) })),
    b: frag(2, 2, (t, r, s) => ({ mi: 0, k: 2 * t + s + 8 * r })),
  },
  'm16n8k8.half': {
    m: 16, n: 8, k: 8,
    a: frag(2, 2, (t, r, s) => ({ mi: r, k: 2 * t + s })),
    b: frag(1, 2, (t, _r, s) => ({ mi: 0, k: 2 * t + s })),
  },
  // .tf32: one element per .b32 register
  'm16n8k8.tf32': {
    m: 16, n: 8, k: 8,
    a: frag(4, 1, (t, r) => ({ mi: r & 1, k: t + 4 * (r >> 1) })),
    b: frag(2, 1, (t, r) => ({ mi: 0, k: t + 4 * r })),
  },
  'm16n8k4.tf32': {
    m: 16, n: 8, k: 4,
    a: frag(2, 1, (t, r) => ({ mi: r, k: t })),
    b: frag(1, 1, (t) => ({ mi: 0, k: t })),
  },
  // .s8/.u8: four bytes per .b32 register, the lowest byte first
  'm16n8k32.int8': {
    m: 16, n: 8, k: 32,
    a: frag(4, 4, (t, r, s) => ({ mi: r & 1, k: 4 * t + s + 16 * (r >> 1) })),
    b: frag(2, 4, (t, r, s) => ({ mi: 0, k: 4 * t + s + 16 * r })),
  },
  'm16n8k16.int8': {
    m: 16, n: 8, k: 16,
    a: frag(2, 4, (t, r, s) => ({ mi: r, k: 4 * t + s })),
    b: frag(1, 4, (t, _r, s) => ({ mi: 0, k: 4 * t + s })),
  },
  'm8n8k16.int8': {
    m: 8, n: 8, k: 16,
    a: frag(1, 4, (t, _r, s) => ({ mi: 0, k: 4 * t + s })),
    b: frag(1, 4, (t, _r, s) => ({ mi: 0, k: 4 * t + s })),
  },
  // .f64: one double per register
  'm8n8k4.f64': {
    m: 8, n: 8, k: 4,
    a: frag(1, 1, (t) => ({ mi: 0, k: t })),
    b: frag(1, 1, (t) => ({ mi: 0, k: t })),
  },
};

function inputClass(t: MmaInput): string {
  if (t === 'f16' || t === 'bf16') return 'half';
  if (t === 's8' || t === 'u8') return 'int8';
  return t;
}

export function mmaShape(shape: string, atype: MmaInput): MmaShape | undefined {
  return SHAPES[`${shape}.${inputClass(atype)}`];
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
