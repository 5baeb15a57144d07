/**
 * The convergence test kernels (tests/kernels/conv_*.cu): launch shapes, inputs and JS
 * references written from the CUDA/PTX semantics (barriers in divergent code since sm_70:
 * exited threads no longer count; arrivals are matched by count), shared by the WebGPU test
 * and the native recorder (tests/warps/record_conv_native.py).
 */
export interface ConvCase {
  readonly file: string;
  readonly kernel: string;
  readonly grid: number;
  readonly block: number;
  /** Words of the int32 input buffer. */
  readonly inputWords: number;
  /** Words of the output buffer (poisoned before the run). */
  readonly outputWords: number;
  /** Scalar int arguments after the two buffers. */
  readonly scalars: readonly number[];
  readonly reference: (input: Int32Array) => Uint32Array;
}

export const POISON = 0xdeadbeef;

/** Deterministic input in [-20, 100): small signed values for the predicates. */
export function convInput(words: number): Int32Array {
  const a = new Int32Array(words);
  let x = 12345;
  for (let k = 0; k < words; k++) { x = (Math.imul(x, 1103515245) + 12345) >>> 0; a[k] = ((x >>> 16) % 120) - 20; }
  return a;
}

const poisoned = (n: number): Uint32Array => new Uint32Array(n).fill(POISON);

function earlyReturn(input: Int32Array, grid: number, block: number, n: number): Uint32Array {
  const out = poisoned(grid * block);
  for (let b = 0; b < grid; b++) {
    let acc = 0;
    for (let t = 0; t < block && b * block + t < n; t++) { acc = (acc + (input[b * block + t] as number)) | 0; out[b * block + t] = acc >>> 0; }
  }
  return out;
}

function strideReduce(input: Int32Array, grid: number, block: number, n: number): Uint32Array {
  const out = poisoned(grid);
  for (let b = 0; b < grid; b++) {
    let sum = 0;
    for (let t = 0; t < block; t++) {
      for (let j = b * block + t; j < n; j += block * grid) sum = (sum + Math.imul(input[j] as number, (j % 7) + 1)) | 0;
    }
    out[b] = sum >>> 0;
  }
  return out;
}

function branchSync(input: Int32Array, grid: number, block: number): Uint32Array {
  const out = poisoned(grid * block);
  for (let b = 0; b < grid; b++) {
    const s = new Int32Array(128);
    for (let t = 0; t < block; t++) if (((t >> 5) & 1) === 0) s[t] = (Math.imul(input[b * block + t] as number, 3) + t) | 0;
    for (let t = 0; t < block; t++) if (((t >> 5) & 1) === 0) out[b * block + t] = ((s[(t + 64) & 127] as number) - (s[t] as number)) >>> 0;
  }
  return out;
}

function loopWarps(input: Int32Array, grid: number, block: number): Uint32Array {
  const out = poisoned(grid * block);
  for (let b = 0; b < grid; b++) {
    const s = new Int32Array(128);
    const acc = new Int32Array(block);
    const warps = block >> 5;
    for (let k = 0; k < warps; k++) {
      // Iteration k: the threads of warps w >= k write, meet at a barrier, read, meet again.
      for (let t = 0; t < block; t++) if ((t >> 5) >= k) s[t] = (Math.imul(input[b * block + t] as number, k + 1) + k) | 0;
      for (let t = 0; t < block; t++) if ((t >> 5) >= k) acc[t] = (Math.imul(acc[t] as number, 3) + (s[(t + 32) & 127] as number)) | 0;
    }
    for (let t = 0; t < block; t++) out[b * block + t] = (acc[t] as number) >>> 0;
  }
  return out;
}

function barRed(input: Int32Array, grid: number, block: number): Uint32Array {
  const out = poisoned(4 * grid * block);
  for (let b = 0; b < grid; b++) {
    const xs = Array.from({ length: block }, (_, t) => input[b * block + t] as number);
    const c = xs.filter((x) => x > 10).length;
    const a = xs.every((x) => x > 0) ? 1 : 0;
    const o = xs.some((x) => x > 90) ? 1 : 0;
    const cur = [...xs];
    const steps = new Array<number>(block).fill(0);
    while (cur.some((x) => x > 0)) for (let t = 0; t < block; t++) { cur[t] = (cur[t] as number) - 7; steps[t] = (steps[t] as number) + 1; }
    for (let t = 0; t < block; t++) {
      const i = b * block + t;
      out[4 * i] = c; out[4 * i + 1] = a; out[4 * i + 2] = o; out[4 * i + 3] = steps[t] as number;
    }
  }
  return out;
}

function barRedExit(input: Int32Array, grid: number, block: number, n: number): Uint32Array {
  const out = poisoned(3 * grid * block);
  for (let b = 0; b < grid; b++) {
    const live: number[] = [];
    for (let t = 0; t < block; t++) if (b * block + t < n) live.push(input[b * block + t] as number);
    const c = live.filter((x) => (x & 1) !== 0).length;
    const a = live.every((x) => x >= 0) ? 1 : 0;
    const o = live.some((x) => x === 42) ? 1 : 0;
    for (let t = 0; t < live.length; t++) { const i = b * block + t; out[3 * i] = c; out[3 * i + 1] = a; out[3 * i + 2] = o; }
  }
  return out;
}

function named(input: Int32Array, grid: number, block: number): Uint32Array {
  const out = poisoned(grid * block);
  for (let b = 0; b < grid; b++) {
    const at = (t: number): number => input[b * block + t] as number;
    for (let t = 0; t < 64; t++) out[b * block + t] = (at(63 - t) ^ 0x55) >>> 0;
    for (let t = 64; t < 128; t++) out[b * block + t] = ((Math.imul(at(t - 64), 5) + 1 + at(t)) | 0) >>> 0;
  }
  return out;
}

/**
 * Runs one block's threads as generators that yield at each barrier: every running thread
 * advances to its next barrier (or its end), then all pass it together. This is barrier
 * arrival counting with exited threads no longer counted (NVIDIA since sm_70).
 */
function simulateBlock(block: number, thread: (t: number) => Generator<void, void, void>): void {
  const running = Array.from({ length: block }, (_, t) => thread(t));
  let live = running.map(() => true);
  while (live.some((x) => x)) {
    live = running.map((g, t) => (live[t] ? !g.next().done : false));
  }
}

function loopContinue(input: Int32Array, grid: number, block: number): Uint32Array {
  const out = poisoned(grid * block);
  for (let b = 0; b < grid; b++) {
    const s = new Int32Array(128);
    simulateBlock(block, function* (t) {
      const i = b * block + t;
      let acc = 0;
      for (let k = 0; k < 6; k++) {
        if (((t >> 5) + k) % 3 === 0) continue;
        s[t] = ((input[i] as number) + k * 1000) | 0;
        yield;
        acc = (Math.imul(acc, 5) + (s[t ^ 32] as number) - (s[t] as number)) | 0;
        yield;
      }
      out[i] = acc >>> 0;
    });
  }
  return out;
}

function loopReturn(input: Int32Array, grid: number, block: number): Uint32Array {
  const out = poisoned(grid * block);
  for (let b = 0; b < grid; b++) {
    const s = new Int32Array(128);
    simulateBlock(block, function* (t) {
      const i = b * block + t;
      const x = input[i] as number;
      const stop = (x & 7) + 1;
      let acc = 0;
      for (let k = 0; k < 8; k++) {
        if (k === stop) { out[i] = acc >>> 0; return; }
        s[t] = (acc + x) | 0;
        yield;
        acc = (Math.imul(acc, 7) + (s[t ^ 1] as number)) | 0;
        yield;
      }
      out[i] = (acc + 1) >>> 0;
    });
  }
  return out;
}

function bothSides(input: Int32Array, grid: number, block: number): Uint32Array {
  const out = poisoned(grid * block);
  for (let b = 0; b < grid; b++) {
    const s = new Int32Array(128);
    simulateBlock(block, function* (t) {
      const i = b * block + t;
      const x = input[i] as number;
      let o: number;
      if ((t >> 5) & 1) { s[t] = Math.imul(x, 2); yield; o = ((s[t ^ 32] as number) + 1) | 0; }
      else { s[t] = (x - 5) | 0; yield; o = Math.imul(s[t ^ 32] as number, 3); }
      out[i] = o >>> 0;
    });
  }
  return out;
}

function loopLast(input: Int32Array, grid: number, block: number): Uint32Array {
  const out = poisoned(grid * block);
  for (let b = 0; b < grid; b++) {
    const s = new Int32Array(128);
    simulateBlock(block, function* (t) {
      const i = b * block + t;
      let last = 0;
      let k = 0;
      do {
        s[t] = ((input[i] as number) + k * 100) | 0;
        yield;
        last = s[t ^ 32] as number;
        yield;
        k++;
      } while (k <= t >> 5);
      out[i] = last >>> 0;
    });
  }
  return out;
}

/** A barrier operation a simulated thread yields: `bar.sync`/`bar.arrive id{, count}`. */
interface BarOp { readonly sync: boolean; readonly id: number; readonly count?: number }

/**
 * Runs one block's threads as generators yielding named-barrier operations, modelling the
 * hardware's barrier resources (PTX ISA, bar/barrier): each of the 16 barriers counts arriving
 * threads; `arrive` adds without waiting, `sync` adds and waits; when the count reaches the
 * barrier's thread count (all non-exited threads when it has none) the waiting threads go on
 * and the barrier is reset. Race-free kernels do not depend on the order threads run in.
 */
function simulateNamed(block: number, thread: (t: number) => Generator<BarOp, void, void>): void {
  const gens = Array.from({ length: block }, (_, t) => thread(t));
  const waitingOn = new Array<number>(block).fill(-1);
  const exited = new Array<boolean>(block).fill(false);
  const arrived = new Array<number>(16).fill(0);
  const need = new Array<number | undefined>(16).fill(undefined);
  // Arrivals count per warp: lane 0 of a trailing partial warp stands for its missing lanes.
  const weight = (t: number): number => 1 + (t === (block & ~31) ? -block & 31 : 0);
  const complete = (): void => {
    let live = 0;
    for (let t = 0; t < block; t++) if (!exited[t]) live += weight(t);
    for (let id = 0; id < 16; id++) {
      const n = need[id];
      if (n === undefined || arrived[id]! < (n === -1 ? live : n)) continue;
      arrived[id] = 0; need[id] = undefined;
      for (let t = 0; t < block; t++) if (waitingOn[t] === id) waitingOn[t] = -1;
    }
  };
  for (;;) {
    let progressed = false;
    for (let t = 0; t < block; t++) {
      if (exited[t] || waitingOn[t]! >= 0) continue;
      progressed = true;
      const r = gens[t]!.next();
      if (r.done) { exited[t] = true; complete(); continue; }
      const op = r.value;
      arrived[op.id] = arrived[op.id]! + weight(t);
      need[op.id] = op.count ?? -1;
      if (op.sync) waitingOn[t] = op.id;
      complete();
    }
    if (exited.every((x) => x)) return;
    if (!progressed) throw new Error('simulated block deadlocks');
  }
}

const bsync = (id: number, count?: number): BarOp => ({ sync: true, id, ...(count === undefined ? {} : { count }) });
const barrive = (id: number, count: number): BarOp => ({ sync: false, id, count });

function namedPipe(input: Int32Array, grid: number, block: number): Uint32Array {
  const out = poisoned(grid * block);
  for (let b = 0; b < grid; b++) {
    const buf = [new Int32Array(64), new Int32Array(64)];
    const fin = new Int32Array(64);
    simulateNamed(block, function* (t) {
      const i = b * block + t;
      const x = input[i] as number;
      let acc = 0;
      if (t < 64) {
        for (let k = 0; k < 6; k++) {
          const slot = k & 1;
          if (k >= 2) yield bsync(3 + slot, 128);
          buf[slot]![t] = (Math.imul(x, k + 1) + t) | 0;
          yield barrive(1 + slot, 128);
        }
        fin[t] = x ^ 0x3c;
      } else {
        for (let k = 0; k < 6; k++) {
          const slot = k & 1;
          yield bsync(1 + slot, 128);
          acc = (Math.imul(acc, 3) + (buf[slot]![63 - (t - 64)] as number)) | 0;
          yield barrive(3 + slot, 128);
        }
      }
      yield bsync(0);
      out[i] = (t < 64 ? Math.imul(fin[63 - t] as number, 2) : (acc + (fin[t - 64] as number)) | 0) >>> 0;
    });
  }
  return out;
}

function namedSubset(input: Int32Array, grid: number, block: number): Uint32Array {
  const out = poisoned(grid * block);
  for (let b = 0; b < grid; b++) {
    const a = new Int32Array(32);
    const bb = new Int32Array(64);
    const c = new Int32Array(64);
    simulateNamed(block, function* (t) {
      const i = b * block + t;
      const w = t >> 5;
      const lane = t & 31;
      let v = input[i] as number;
      if (w === 0) {
        for (let k = 0; k < 3; k++) {
          c[lane] = (v + k) | 0;
          yield bsync(3, 64);
          v = (Math.imul(v, 3) + (c[32 + (lane ^ k)] as number)) | 0;
          yield bsync(3, 64);
        }
        a[lane] = (Math.imul(v, 7) + 3) | 0;
        yield barrive(1, 96);
        out[i] = v >>> 0;
      } else if (w === 3) {
        for (let k = 0; k < 3; k++) {
          c[32 + lane] = (v - k) | 0;
          yield bsync(3, 64);
          v = Math.imul(v, 5) ^ (c[lane ^ (k + 1)] as number);
          yield bsync(3, 64);
        }
        out[i] = v >>> 0;
      } else {
        const u = t - 32;
        bb[u] = (v + 11) | 0;
        yield bsync(2, 64);
        v = (v + (bb[63 - u] as number)) | 0;
        yield bsync(1, 96);
        out[i] = ((Math.imul(v, 2) + (a[u & 31] as number)) | 0) >>> 0;
      }
    });
  }
  return out;
}

function namedLag(input: Int32Array, grid: number, block: number): Uint32Array {
  const out = poisoned(grid * block);
  for (let b = 0; b < grid; b++) {
    const buf = [new Int32Array(64), new Int32Array(64)];
    const pex = new Int32Array(64);
    simulateNamed(block, function* (t) {
      const i = b * block + t;
      const x = input[i] as number;
      let acc = 0;
      if (t < 64) {
        for (let k = 0; k < 4; k++) {
          const slot = k & 1;
          pex[t] = (x + k) | 0;
          yield bsync(5, 64);
          const v = pex[63 - t] as number;
          yield bsync(5, 64);
          if (k >= 2) yield bsync(3 + slot, 128);
          buf[slot]![t] = (Math.imul(v, k + 2) - t) | 0;
          yield barrive(1 + slot, 128);
        }
        acc = x;
      } else {
        const u = t - 64;
        for (let k = 0; k < 4; k++) {
          const slot = k & 1;
          yield bsync(1 + slot, 128);
          acc = (Math.imul(acc ^ (buf[slot]![u] as number), 5) + (buf[slot]![63 - u] as number)) | 0;
          yield barrive(3 + slot, 128);
        }
      }
      out[i] = acc >>> 0;
    });
  }
  return out;
}

function namedPartial(input: Int32Array, grid: number, block: number): Uint32Array {
  const out = poisoned(grid * block);
  for (let b = 0; b < grid; b++) {
    const sh = new Int32Array(48);
    simulateNamed(block, function* (t) {
      const i = b * block + t;
      let v = input[i] as number;
      if (t >= 32) {
        sh[t] = (Math.imul(v, 9) - 4) | 0;
        yield barrive(1, 64);
      } else {
        yield bsync(1, 64);
        v = (v + (sh[32 + (t & 15)] as number)) | 0;
        sh[t] = v;
      }
      yield bsync(0);
      out[i] = (t >= 32 ? (sh[t - 32] as number) ^ v : v) >>> 0;
    });
  }
  return out;
}

const N_EARLY = 3 * 128 + 77;
const N_STRIDE = 5000;
const N_RED = 2 * 128 + 45;

const conv = (file: string, kernel: string, block: number, inputWords: (g: number) => number, outputWords: (g: number) => number,
  scalars: readonly number[], reference: (x: Int32Array, g: number) => Uint32Array) =>
  (grid: number): ConvCase => ({ file, kernel, grid, block, inputWords: inputWords(grid), outputWords: outputWords(grid), scalars, reference: (x) => reference(x, grid) });

/** Each kernel as a function of the grid size (the e2e cases run two grids). */
export const CONV_FACTORIES: readonly { readonly grid: number; readonly make: (grid: number) => ConvCase }[] = [
  { grid: 4, make: conv('conv_early_return', 'conv_early_return', 128, (g) => g * 128, (g) => g * 128, [N_EARLY], (x, g) => earlyReturn(x, g, 128, N_EARLY)) },
  { grid: 3, make: conv('conv_early_return', 'conv_stride_reduce', 128, () => N_STRIDE, (g) => g, [N_STRIDE], (x, g) => strideReduce(x, g, 128, N_STRIDE)) },
  { grid: 2, make: conv('conv_divergent', 'conv_branch_sync', 128, (g) => g * 128, (g) => g * 128, [], (x, g) => branchSync(x, g, 128)) },
  { grid: 2, make: conv('conv_divergent', 'conv_loop_warps', 128, (g) => g * 128, (g) => g * 128, [], (x, g) => loopWarps(x, g, 128)) },
  { grid: 2, make: conv('conv_divergent', 'conv_loop_continue', 128, (g) => g * 128, (g) => g * 128, [], (x, g) => loopContinue(x, g, 128)) },
  { grid: 2, make: conv('conv_more', 'conv_loop_once', 128, (g) => g * 128, (g) => g * 128, [], (x, g) => loopWarps(x, g, 128)) },
  { grid: 2, make: conv('conv_more', 'conv_loop_return', 128, (g) => g * 128, (g) => g * 128, [], (x, g) => loopReturn(x, g, 128)) },
  { grid: 2, make: conv('conv_more', 'conv_both_sides', 128, (g) => g * 128, (g) => g * 128, [], (x, g) => bothSides(x, g, 128)) },
  { grid: 2, make: conv('conv_more', 'conv_loop_last', 128, (g) => g * 128, (g) => g * 128, [], (x, g) => loopLast(x, g, 128)) },
  { grid: 3, make: conv('conv_bar_red', 'conv_bar_red', 128, (g) => g * 128, (g) => 4 * g * 128, [], (x, g) => barRed(x, g, 128)) },
  { grid: 3, make: conv('conv_bar_red', 'conv_bar_red_exit', 128, (g) => g * 128, (g) => 3 * g * 128, [N_RED], (x, g) => barRedExit(x, g, 128, N_RED)) },
  { grid: 2, make: conv('conv_named', 'conv_named', 128, (g) => g * 128, (g) => g * 128, [], (x, g) => named(x, g, 128)) },
  { grid: 3, make: conv('conv_named2', 'conv_named_pipe', 128, (g) => g * 128, (g) => g * 128, [], (x, g) => namedPipe(x, g, 128)) },
  { grid: 3, make: conv('conv_named2', 'conv_named_subset', 128, (g) => g * 128, (g) => g * 128, [], (x, g) => namedSubset(x, g, 128)) },
  { grid: 3, make: conv('conv_named2', 'conv_named_lag', 128, (g) => g * 128, (g) => g * 128, [], (x, g) => namedLag(x, g, 128)) },
  { grid: 3, make: conv('conv_named2', 'conv_named_partial', 48, (g) => g * 48, (g) => g * 48, [], (x, g) => namedPartial(x, g, 48)) },
];

/** The shapes recorded natively (tests/warps/native/conv_record.py mirrors them). */
export const CONV_CASES: readonly ConvCase[] = CONV_FACTORIES.map((f) => f.make(f.grid));

