// Kernels that exercise PTX forms nvcc emits for everyday CUDA (issue 12): CUDA's reserved
// shared memory (reserved_smem.cu), a __grid_constant__ parameter read through its address and
// generic address (param_address.cu), function pointers and C++ virtual functions
// (fn_pointers.cu).
import { defineCase, poisoned, poisonedCopy, withOutputs, type E2ECase } from './case-kit.ts';
import { fmaf32, type Rng } from './reference.ts';

const cases: E2ECase[] = [];

// ------------------------------------------------------------ reserved_smem.cu
// reserved_block_sum(in, sums, copy, flags, n): block sums whose per-warp partials live in the
// reserved shared memory (%reserved_smem_offset_1, as cooperative groups finds it), a copy of
// the input through an ordinary __shared__ array next to it, and four checks of the bounds that
// must all hold (1).

function reservedBlockSum(name: string, n: number, block: number): E2ECase {
  const grid = Math.ceil(n / block);
  return defineCase({
    name, ptxFile: 'reserved_smem.ptx', entry: 'reserved_block_sum', grid, block,
    params: ['in', 'sums', 'copy', 'flags', 'n'],
    build(rng) {
      const input = Int32Array.from({ length: n }, () => rng.i32());
      const sums = poisoned((m) => new Int32Array(m), grid, 1);
      const copy = poisoned((m) => new Int32Array(m), n, 3);
      const expSums = poisonedCopy(sums);
      const expCopy = poisonedCopy(copy);
      expCopy.set(input);
      for (let b = 0; b < grid; b++) expSums[b] = input.subarray(b * block, (b + 1) * block).reduce((x, y) => (x + y) | 0, 0);
      const flags = poisoned((m) => new Int32Array(m), 4, 1);
      const expFlags = poisonedCopy(flags);
      expFlags.fill(1, 0, 4);
      return withOutputs([input, sums, copy, flags, n], { 1: expSums, 2: expCopy, 3: expFlags });
    },
  });
}

cases.push(
  reservedBlockSum('reserved_block_sum/one-block', 100, 128),
  reservedBlockSum('reserved_block_sum/partial-blocks', 1000, 256),
);

// ------------------------------------------------------------ param_address.cu
// struct Coeffs { float c[8]; int n; } passed by value (36 bytes). poly_eval (__grid_constant__,
// read through the parameter's address): y[i] = Horner over c[n-1..0] with fma.rn; poly_eval_fn:
// the same in a device function given the parameter's generic address; pick_coeff:
// y[i] = c[idx[i] & 7] + n.

function coeffs(rng: Rng, n: number): { bytes: Uint8Array; c: Float32Array } {
  const bytes = new Uint8Array(36);
  const c = Float32Array.from({ length: 8 }, () => rng.f32(-4, 4));
  new Float32Array(bytes.buffer, 0, 8).set(c);
  new DataView(bytes.buffer).setInt32(32, n, true);
  return { bytes, c };
}

function polyEval(name: string, n: number, block: number, terms: number, entry = 'poly_eval'): E2ECase {
  const grid = Math.ceil(n / block);
  return defineCase({
    name, ptxFile: 'param_address.ptx', entry, grid, block,
    params: ['k', 'x', 'y', 'n'],
    build(rng) {
      const { bytes, c } = coeffs(rng, terms);
      const x = Float32Array.from({ length: n }, () => rng.f32(-2, 2));
      const y = poisoned((m) => new Float32Array(m), n, 2);
      const exp = poisonedCopy(y);
      for (let i = 0; i < n; i++) {
        let acc = 0;
        for (let j = terms - 1; j >= 0; j--) acc = fmaf32(acc, x[i] as number, c[j] as number);
        exp[i] = acc;
      }
      return withOutputs([bytes, x, y, n], { 2: exp });
    },
  });
}

function pickCoeff(name: string, n: number, block: number): E2ECase {
  const grid = Math.ceil(n / block);
  return defineCase({
    name, ptxFile: 'param_address.ptx', entry: 'pick_coeff', grid, block,
    params: ['k', 'idx', 'y', 'n'],
    build(rng) {
      const { bytes, c } = coeffs(rng, rng.int(-1000, 1000));
      const kn = new DataView(bytes.buffer).getInt32(32, true);
      const idx = Int32Array.from({ length: n }, () => rng.i32());
      const y = poisoned((m) => new Float32Array(m), n, 2);
      const exp = poisonedCopy(y);
      for (let i = 0; i < n; i++) exp[i] = Math.fround((c[(idx[i] as number) & 7] as number) + kn);
      return withOutputs([bytes, idx, y, n], { 2: exp });
    },
  });
}

cases.push(
  polyEval('poly_eval/one-block', 60, 64, 8),
  // 7 terms: the loop's remainder and unrolled parts both read the parameter at run-time offsets
  polyEval('poly_eval/partial-blocks', 900, 128, 7),
  polyEval('poly_eval_fn/one-block', 60, 64, 5, 'poly_eval_fn'),
  polyEval('poly_eval_fn/partial-blocks', 700, 128, 8, 'poly_eval_fn'),
  pickCoeff('pick_coeff/one-block', 50, 64),
  pickCoeff('pick_coeff/partial-blocks', 600, 128),
);

// ------------------------------------------------------------ fn_pointers.cu
// apply_activation(a, b, which, out, n): out[i] = activations[w % 4](operators[w / 4 % 3](a[i], b[i]))
// through two __device__ tables of function pointers of different signatures; apply_local(in,
// out, n, k): out[i] = {relu, square}[(i + k) & 1](in[i]) from a local array of pointers.

const f32 = Math.fround;
const ACTIVATIONS = [(x: number) => (x > 0 ? x : 0), (x: number) => (x > 0 ? x : f32(0.125 * x)), (x: number) => f32(x * x), (x: number) => -x];
const OPERATORS = [(x: number, y: number) => f32(x + y), (x: number, y: number) => f32(x - y), (x: number, y: number) => Math.max(x, y)];

function applyActivation(name: string, n: number, block: number): E2ECase {
  const grid = Math.ceil(n / block);
  return defineCase({
    name, ptxFile: 'fn_pointers.ptx', entry: 'apply_activation', grid, block,
    params: ['a', 'b', 'which', 'out', 'n'],
    build(rng) {
      const a = Float32Array.from({ length: n }, () => rng.f32(-100, 100));
      const b = Float32Array.from({ length: n }, () => rng.f32(-100, 100));
      const which = Int32Array.from({ length: n }, () => rng.int(0, 11));
      const out = poisoned((m) => new Float32Array(m), n, 2);
      const exp = poisonedCopy(out);
      for (let i = 0; i < n; i++) {
        const w = which[i] as number;
        const op = OPERATORS[Math.floor(w / 4) % 3] as (x: number, y: number) => number;
        const act = ACTIVATIONS[w % 4] as (x: number) => number;
        exp[i] = act(op(a[i] as number, b[i] as number));
      }
      return withOutputs([a, b, which, out, n], { 3: exp });
    },
  });
}

function applyLocal(name: string, n: number, block: number, k: number): E2ECase {
  const grid = Math.ceil(n / block);
  return defineCase({
    name, ptxFile: 'fn_pointers.ptx', entry: 'apply_local', grid, block,
    params: ['in', 'out', 'n', 'k'],
    build(rng) {
      const input = Float32Array.from({ length: n }, () => rng.f32(-100, 100));
      const out = poisoned((m) => new Float32Array(m), n, 2);
      const exp = poisonedCopy(out);
      for (let i = 0; i < n; i++) exp[i] = ((i + k) & 1 ? ACTIVATIONS[2] : ACTIVATIONS[0])?.(input[i] as number) ?? 0;
      return withOutputs([input, out, n, k], { 1: exp });
    },
  });
}

// shapes(in, kind, out, n): out[i] = 2 * area for circles (3a^2) and triangles (a^2/2), 2 + area
// for squares (a^2), through virtual area() and scale(); kind may be negative (k = kind % 3 < 0
// picks the triangle, as the kernel's conditional does).
function shapes(name: string, n: number, block: number): E2ECase {
  const grid = Math.ceil(n / block);
  return defineCase({
    name, ptxFile: 'fn_pointers.ptx', entry: 'shapes', grid, block,
    params: ['in', 'kind', 'out', 'n'],
    build(rng) {
      const input = Float32Array.from({ length: n }, () => rng.f32(-50, 50));
      const kind = Int32Array.from({ length: n }, () => rng.int(-5, 5));
      const out = poisoned((m) => new Float32Array(m), n, 2);
      const exp = poisonedCopy(out);
      for (let i = 0; i < n; i++) {
        const a = input[i] as number;
        const k = (kind[i] as number) % 3;
        const area = k === 0 ? f32(f32(3 * a) * a) : k === 1 ? f32(a * a) : f32(f32(0.5 * a) * a);
        exp[i] = k === 1 ? f32(2 + area) : f32(2 * area);
      }
      return withOutputs([input, kind, out, n], { 2: exp });
    },
  });
}

cases.push(
  shapes('shapes/one-block', 90, 128),
  shapes('shapes/partial-blocks', 800, 128),
  applyActivation('apply_activation/one-block', 100, 128),
  applyActivation('apply_activation/partial-blocks', 1000, 128),
  applyLocal('apply_local/one-block', 50, 64, 3),
  applyLocal('apply_local/partial-blocks', 700, 128, 0),
);

export { cases };
