// The warp kernels under test: launch shape, output sizes and JS reference. The same table is
// in tests/warps/record_native.py, which records the native CUDA results.
import * as R from './reference.ts';

export interface WarpCase {
  readonly ptx: 'warp_shfl' | 'warp_vote' | 'warp_legacy' | 'warp_elect';
  readonly kernel: string;
  readonly grid: number;
  readonly block: number;
  /** Words per thread of each output buffer; 'blocks': one word per block. */
  readonly outputs: readonly (number | 'blocks')[];
  readonly reference: (input: Int32Array, block: number) => readonly ArrayLike<number>[];
  /** Warp operations inside control flow that diverges between warps (needs the convergence pass). */
  readonly divergent?: boolean;
}

const one = (f: (i: Int32Array, b: number) => ArrayLike<number>) => (i: Int32Array, b: number) => [f(i, b)];

export const WARP_CASES: readonly WarpCase[] = [
  { ptx: 'warp_shfl', kernel: 'warp_reduce_down', grid: 2, block: 128, outputs: [1], reference: one(R.reduceDown) },
  { ptx: 'warp_shfl', kernel: 'warp_scan_up', grid: 2, block: 128, outputs: [1], reference: one(R.scanUp) },
  { ptx: 'warp_shfl', kernel: 'warp_xor_allreduce', grid: 2, block: 128, outputs: [3], reference: one(R.xorAllreduce) },
  { ptx: 'warp_shfl', kernel: 'warp_shfl_width', grid: 2, block: 64, outputs: [8], reference: one(R.shflWidth) },
  { ptx: 'warp_legacy', kernel: 'warp_shfl_legacy', grid: 1, block: 64, outputs: [2], reference: one(R.shflLegacy) },
  { ptx: 'warp_legacy', kernel: 'warp_vote_legacy', grid: 1, block: 64, outputs: [2], reference: one(R.voteLegacy) },
  { ptx: 'warp_shfl', kernel: 'warp_block_reduce', grid: 3, block: 256, outputs: ['blocks'], reference: one(R.blockReduce), divergent: true },
  { ptx: 'warp_shfl', kernel: 'warp_loop_trip', grid: 2, block: 128, outputs: [1], reference: one(R.loopTrip), divergent: true },
  { ptx: 'warp_vote', kernel: 'warp_ballot_compact', grid: 2, block: 80, outputs: [1, 8], reference: (i, b) => { const r = R.ballotCompact(i, b); return [r.out, r.counts]; } },
  { ptx: 'warp_vote', kernel: 'warp_syncwarp', grid: 2, block: 64, outputs: [1], reference: one(R.syncwarp) },
  { ptx: 'warp_vote', kernel: 'warp_match', grid: 2, block: 64, outputs: [6], reference: one(R.match) },
  { ptx: 'warp_vote', kernel: 'warp_redux', grid: 2, block: 64, outputs: [10], reference: one(R.redux) },
  { ptx: 'warp_vote', kernel: 'warp_activemask', grid: 2, block: 80, outputs: [2], reference: one(R.activemask), divergent: true },
  { ptx: 'warp_elect', kernel: 'warp_elect', grid: 2, block: 80, outputs: [8], reference: one(R.elect), divergent: true },
];

export function outputWords(c: WarpCase): number[] {
  return c.outputs.map((o) => (o === 'blocks' ? c.grid : o * c.grid * c.block));
}

export function expected(c: WarpCase): Uint32Array[] {
  const input = R.warpInput(c.grid * c.block);
  return c.reference(input, c.block).map((a) => Uint32Array.from(a as ArrayLike<number>, (x) => x >>> 0));
}
