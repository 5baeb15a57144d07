/**
 * The conformance run over families and warp paths, as `ptx-wgsl conformance` and the
 * playground's Conformance tab run it: each family's kernel on the first warp path, then on the
 * others only where that makes another kernel: a kernel without warp instructions compiles to
 * the same WGSL on every path, and `auto` may have taken the path asked for next, so there the
 * first result stands for the others.
 */
import type { Context } from '../api.js';
import { suiteOf } from './batch.js';
import type { ConformanceData } from './data.js';
import type { BatchResult, WarpPathRequest } from './result.js';
import { runBatch } from './run.js';

export interface PathResult {
  readonly warpPath: WarpPathRequest;
  readonly result: BatchResult;
  /** The family has no warp instructions: this is the first path's result, not another run. */
  readonly same: boolean;
}

export interface FamilyResult {
  readonly name: string;
  /** The instruction family's suite: int, float, f64, video. */
  readonly suite: string;
  readonly paths: readonly PathResult[];
  readonly ok: boolean;
}

export interface ConformanceStep {
  /** Kernel runs finished (a family's skipped paths count as finished), of `total`. */
  readonly done: number;
  readonly total: number;
  /** What runs now. */
  readonly family: string;
  readonly warpPath: WarpPathRequest;
}

export interface ConformanceOptions {
  /** Families to run, by name (default: every one the data has). */
  readonly families?: readonly string[];
  /** Default: the device's own choice only (`auto`). */
  readonly warpPaths?: readonly WarpPathRequest[];
  /** Before each kernel run. */
  readonly onStep?: (step: ConformanceStep) => void;
  /** After each family, on every path. */
  readonly onFamily?: (family: FamilyResult) => void;
}

/** The path `auto` gives warp instructions on this context's device (lowering/warp-path.ts: native needs 32-lane subgroups). */
export function deviceWarpPath(ctx: Context): 'subgroups' | 'emulated' {
  return ctx.subgroups?.size === 32 ? 'subgroups' : 'emulated';
}

export function passed(r: BatchResult): boolean {
  return r.failedCases === 0 && r.error === undefined;
}

/** The families whose names start with one of `prefixes` (every family when none is given). */
export function selectFamilies(data: ConformanceData, prefixes: readonly string[]): string[] {
  return data.index.batches.filter((n) => prefixes.length === 0 || prefixes.some((p) => n.startsWith(p)));
}

/** Runs the families in `ctx`; device errors propagate (the context is then unusable). */
export async function runConformance(data: ConformanceData, ctx: Context, options: ConformanceOptions = {}): Promise<FamilyResult[]> {
  const names = options.families ?? data.index.batches;
  const paths = options.warpPaths?.length ? options.warpPaths : (['auto'] as const);
  const total = names.length * paths.length;
  const results: FamilyResult[] = [];
  for (const [f, name] of names.entries()) {
    const batch = await data.batch(name);
    const runs: PathResult[] = [];
    for (const [p, warpPath] of paths.entries()) {
      const first = runs[0];
      if (first && (first.result.warpPath === 'none' || first.result.warpPath === warpPath)) {
        runs.push({ warpPath, result: first.result, same: true });
        continue;
      }
      options.onStep?.({ done: f * paths.length + p, total, family: name, warpPath });
      runs.push({ warpPath, result: await runBatch(batch, ctx, warpPath), same: false });
    }
    const family = { name, suite: suiteOf(name), paths: runs, ok: runs.every((r) => passed(r.result)) };
    results.push(family);
    options.onFamily?.(family);
  }
  return results;
}
