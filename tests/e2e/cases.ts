// End-to-end test cases: real nvcc-generated PTX (tests/kernels/*.ptx, built from
// the .cu next to them by tests/kernels/build.sh) with JS references computed
// from what the CUDA source specifies (never from any transpiler output).
//
// Host-agnostic: no Node, Deno or DOM imports; bundled into a browser page and run
// under Deno and vitest.
//
// Conventions for every case:
//  - makeArgs() returns fresh arguments in PTX parameter order (TypedArrays for
//    pointers, numbers for <=32-bit scalars, bigint for 64-bit scalars). Inputs
//    are deterministic (seeded from the case name). Pure outputs are POISONED
//    (0xDEADBEEF / 0xBEEF / 0xEF / 0xDEADBEEFDEADBEEF bit patterns); in-out buffers
//    (saxpy y, histogram bins) hold real initial values.
//  - check(args) compares EVERY pointer argument after the run: outputs against the
//    reference and inputs against their original contents (a stray write into an
//    input is caught too). Some outputs carry trailing guard elements past what the
//    kernel may write; they must keep their poison.
//  - All comparisons are exact (floats bitwise). Float kernels whose result could
//    depend on evaluation order use small-integer inputs so every partial sum is an
//    exactly representable integer (see each kernel).
//  - Every kernel runs with several blocks and a partial last block, plus a
//    one-block case; exceptions are documented at the case.

import type { E2ECase } from './case-kit.ts';
import { cases as foundation } from './cases-foundation.ts';
import { cases as scalar } from './cases-scalar.ts';
import { cases as warps } from './cases-warps.ts';
import { cases as realcode } from './cases-realcode.ts';
import { cases as frontend } from './cases-frontend.ts';

export type { E2ECase };

export const cases: readonly E2ECase[] = [...foundation, ...scalar, ...warps, ...realcode, ...frontend];

// Sanity: names are unique (cheap, runs at import).
{
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.name)) throw new Error(`duplicate e2e case name ${c.name}`);
    seen.add(c.name);
  }
}
