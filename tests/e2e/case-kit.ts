// Plumbing shared by the e2e case tables (tests/e2e/cases-*.ts); conventions in tests/e2e/cases.ts.
import { Rng, cloneArray, compareArray, isNumArray, poison, type NumArray } from './reference.ts';

export interface E2ECase {
  name: string;
  ptxFile: string;
  entry?: string;
  grid: number | [number, number?, number?];
  block: number | [number, number?, number?];
  sharedBytes?: number;
  /**
   * Outputs are compared within this relative tolerance instead of exactly (results that rest
   * on .approx functions or a kernel-chosen summation order); the self-tests then corrupt by more.
   */
  tolerance?: number;
  makeArgs(): unknown[];
  check(args: unknown[]): string | null;
  /** Self-test helper: overwrites the pointer arguments of `args` (from makeArgs) with the expected post-run contents. */
  expected?(args: unknown[]): void;
}

// ----------------------------------------------------------------- plumbing

type Dim = number | [number, number?, number?];

interface Built {
  /** Arguments as passed to the kernel (fresh, outputs poisoned). */
  args: unknown[];
  /** Expected post-run value of each argument: arrays are compared, scalars ignored. */
  expected: unknown[];
}

export interface CaseSpec {
  name: string;
  ptxFile: string;
  entry: string;
  grid: Dim;
  block: Dim;
  sharedBytes?: number;
  /** Parameter names, in order (for messages). */
  params: string[];
  /** Optional index descriptions per parameter name (e.g. a 2D position or struct field). */
  where?: Record<string, (i: number) => string>;
  build(rng: Rng): Built;
}

export function defineCase(spec: CaseSpec): E2ECase {
  const build = (): Built => spec.build(new Rng(spec.name));
  const c: E2ECase = {
    name: spec.name,
    ptxFile: spec.ptxFile,
    entry: spec.entry,
    grid: spec.grid,
    block: spec.block,
    makeArgs: () => build().args,
    check(args: unknown[]): string | null {
      const { expected } = build();
      if (args.length !== expected.length) {
        return `${spec.name}: ${args.length} arguments, expected ${expected.length}`;
      }
      const problems: string[] = [];
      for (let j = 0; j < expected.length; j++) {
        const exp = expected[j];
        if (!isNumArray(exp)) continue;
        const label = spec.params[j] ?? `arg${j}`;
        const msg = compareArray(`${spec.name}: ${label}`, args[j], exp, spec.where?.[label]);
        if (msg !== null) problems.push(msg);
      }
      return problems.length === 0 ? null : problems.join('\n');
    },
    expected(args: unknown[]): void {
      const { expected } = build();
      for (let j = 0; j < expected.length; j++) {
        const exp = expected[j];
        const dst = args[j];
        if (isNumArray(exp) && isNumArray(dst) && dst.length === exp.length) {
          (dst as unknown as { set(a: ArrayLike<unknown>): void }).set(exp as ArrayLike<unknown>);
        }
      }
    },
  };
  if (spec.sharedBytes !== undefined) c.sharedBytes = spec.sharedBytes;
  return c;
}

/** Builds `expected` from `args`: inputs are expected unchanged; `outputs` maps an arg index to its expected array. */
export function withOutputs(args: unknown[], outputs: Record<number, NumArray>): Built {
  const expected = args.map((a, j) => {
    const out = outputs[j];
    if (out !== undefined) return out;
    return isNumArray(a) ? cloneArray(a) : a;
  });
  return { args, expected };
}

export const ceilDiv = (a: number, b: number): number => Math.ceil(a / b);

/** A poisoned array of `len` elements plus `guard` trailing guard elements. */
export function poisoned<T extends NumArray>(make: (n: number) => T, len: number, guard = 0): T {
  return poison(make(len + guard));
}

/** Expected contents of a poisoned output: starts as all poison (so guards stay poison). */
export function poisonedCopy<T extends NumArray>(arr: T): T {
  return poison(cloneArray(arr));
}

