/**
 * Entry of the browser/Deno test bundle (built by scripts/bundle.mjs into dist/browser/tests.js
 * and dist/deno/tests.js): the public API, the shared cases and every tests/kernels/*.ptx as text.
 */
import { runPtx } from '../../src/index.js';
import { cases } from '../e2e/cases.js';
import kernels from 'virtual:ptx-kernels';
import { runAllCases, type HostCase, type RunAllResult, type RunPtx } from './run-cases.js';

export { kernels };

export async function runAll(opts: { filter?: string; log?: (line: string) => void } = {}): Promise<RunAllResult> {
  const gpu = (globalThis as { navigator?: { gpu?: GPU } }).navigator?.gpu;
  if (!gpu) throw new Error('navigator.gpu is missing on this host');
  return runAllCases({
    cases: cases as unknown as readonly HostCase[],
    kernels,
    runPtx: runPtx as unknown as RunPtx,
    gpu,
    ...(opts.filter !== undefined ? { filter: opts.filter } : {}),
    ...(opts.log !== undefined ? { log: opts.log } : {}),
  });
}
