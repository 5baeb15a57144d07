// Warp-level and convergence kernels (issue 5).
import { defineCase, withOutputs, type E2ECase } from './case-kit.ts';
import { poison } from './reference.ts';
import { WARP_CASES, expected as warpExpected, outputWords as warpOutputWords } from '../warps/cases.ts';
import { warpInput } from '../warps/reference.ts';
import { CONV_FACTORIES, convInput } from '../warps/convergence-cases.ts';

const cases: E2ECase[] = [];

// ------------------------------------------------------------- warp-level kernels
// tests/kernels/warp_*.cu (tests/warps/cases.ts): shuffles, votes, match, redux, activemask,
// in uniform and warp-divergent control flow. Each host picks its own warp path (Deno: no
// subgroups; Chromium: subgroups of 4; lavapipe: 8), all emulated.
for (const w of WARP_CASES.flatMap((c) => [c, { ...c, grid: c.grid + 1 }])) {
  cases.push(defineCase({
    name: `warp/${w.kernel}/grid-${w.grid}`, ptxFile: `${w.ptx}.ptx`, entry: w.kernel, grid: w.grid, block: w.block,
    params: ['in', ...w.outputs.map((_, k) => `out${k}`)],
    build() {
      const outs = warpOutputWords(w).map((n) => poison(new Uint32Array(n)));
      const exp = Object.fromEntries(warpExpected(w).map((e, k) => [k + 1, e]));
      return withOutputs([warpInput(w.grid * w.block), ...outs], exp);
    },
  }));
}

// ------------------------------------------------------- convergence (issue 5)
// tests/kernels/conv_*.cu (tests/warps/convergence-cases.ts): barriers after early returns, in
// warp-divergent branches and loops, bar.red (__syncthreads_count/and/or), named barriers.
for (const f of CONV_FACTORIES) {
  for (const c of [f.make(f.grid), f.make(f.grid + 1)]) {
    cases.push(defineCase({
      name: `conv/${c.kernel}/grid-${c.grid}`, ptxFile: `${c.file}.ptx`, entry: c.kernel, grid: c.grid, block: c.block,
      params: ['in', 'out', ...c.scalars.map((_, k) => `n${k}`)],
      build() {
        const input = convInput(c.inputWords);
        return withOutputs([input, poison(new Uint32Array(c.outputWords)), ...c.scalars], { 1: c.reference(input) });
      },
    }));
  }
}

export { cases };
