// Kernels that exercise PTX forms nvcc emits for everyday CUDA (issue 12): a __grid_constant__
// parameter read through its address and generic address (param_address.cu), function pointers
// and C++ virtual functions (fn_pointers.cu).
import { defineCase, poisoned, poisonedCopy, withOutputs, type E2ECase } from './case-kit.ts';
import { fmaf32, type Rng } from './reference.ts';

const cases: E2ECase[] = [];

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

export { cases };
