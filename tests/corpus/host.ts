/**
 * Host-agnostic driver of the corpus: runs one (case, variant) on a context and compares it with
 * its native recording (default) or with the JS reference (`expect: 'ref'`, for development where
 * no recording exists yet). Used by the Node test one run at a time, and whole by the Deno,
 * Chromium and GPU-machine runners (host-entry.ts). No Node, Deno or DOM imports here.
 */
import { createContext, type Context, type Module } from '../../src/index.js';
import { compareRun, type ExpectMode } from './compare.ts';
import { loadRecording, type FileLoader, type NativeManifest } from './native.ts';
import { referenceOutputs } from './reference/index.ts';
import { runCorpusCase, type RunOptions } from './run.ts';
import { dim3, flatLaunches, runsOf, type CorpusRun, type CorpusTable } from './table.ts';
import tableJson from './cases.json' with { type: 'json' };

export const table = tableJson as unknown as CorpusTable;
export const runs: readonly CorpusRun[] = runsOf(table);

export interface RunResult {
  id: string;
  /**
   * pass; fail (wrong or missing results); error (compile or launch threw); skip (ref mode without a
   * reference, or blocks larger than the device allows).
   */
  status: 'pass' | 'fail' | 'error' | 'skip';
  message: string | null;
  ms: number;
}

/** Why `device` cannot run `run`'s launch shapes (WebGPU's default allows 256 threads a block), or null. */
function exceedsDevice(run: CorpusRun, device: GPUDevice): string | null {
  const lim = device.limits;
  for (const l of flatLaunches(run.c.launches)) {
    const [x, y, z] = dim3(l.block);
    if (x * y * z > lim.maxComputeInvocationsPerWorkgroup || x > lim.maxComputeWorkgroupSizeX || y > lim.maxComputeWorkgroupSizeY || z > lim.maxComputeWorkgroupSizeZ) {
      return `${l.entry}'s block [${x}, ${y}, ${z}] exceeds this device's workgroup limits (${lim.maxComputeInvocationsPerWorkgroup} threads)`;
    }
  }
  return null;
}

export interface Expectations {
  mode: ExpectMode;
  manifest: NativeManifest | undefined;
  load: FileLoader;
}

function errorText(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

/** Runs `run` on `ctx` and judges it; never throws. */
export async function runOne(
  ctx: Context,
  run: CorpusRun,
  ptx: string | undefined,
  expect: Expectations,
  opts: RunOptions = {},
): Promise<RunResult> {
  const t0 = Date.now();
  const done = (status: RunResult['status'], message: string | null): RunResult => ({ id: run.id, status, message, ms: Date.now() - t0 });
  if (ptx === undefined) return done('error', `kernels/${run.ptxFile} is missing`);
  const tooBig = exceedsDevice(run, ctx.device);
  if (tooBig) return done('skip', tooBig);
  let expected: Map<string, import('./inputs.ts').NumArray> | string;
  if (expect.mode === 'ref') {
    expected = referenceOutputs(run.c) ?? 'no JS reference';
    if (typeof expected === 'string') return done('skip', expected);
  } else {
    expected = await loadRecording(run, expect.manifest, expect.load);
  }
  let got;
  try {
    got = await runCorpusCase(ctx, run.c, ptx, run.ptxFile, opts);
  } catch (e) {
    return done('error', errorText(e));
  }
  if (typeof expected === 'string') return done('fail', `ran, but ${expected}`);
  const problems = compareRun(run.c, run.variant, got, expected, expect.mode);
  return done(problems.length === 0 ? 'pass' : 'fail', problems.length === 0 ? null : problems.join('\n'));
}

/**
 * The context the runs share. A run that throws may leave a sticky device error in its context
 * (an invalid shader, a lost device), so `discard` drops the context after one, and a lost device
 * is reopened.
 */
export class Session {
  private device: GPUDevice | undefined;
  private ctx: Context | undefined;
  private modules = new Map<string, Module>();
  private lost = false;

  constructor(
    private readonly open: () => Promise<GPUDevice>,
    private readonly close: (device: GPUDevice) => void,
    /** How the session's context is made on its device (default: createContext, every probe). */
    private readonly makeContext: (device: GPUDevice) => Promise<Context> = (device) => createContext({ device }),
  ) {}

  async context(): Promise<Context> {
    if (this.lost) this.discard();
    if (!this.device) {
      const device = await this.open();
      this.lost = false;
      void device.lost.then(() => {
        if (this.device === device) this.lost = true;
      });
      this.device = device;
    }
    this.ctx ??= await this.makeContext(this.device);
    return this.ctx;
  }

  /** Drops the context and the device (each context listens on its device for errors). */
  discard(): void {
    this.ctx?.destroy();
    this.ctx = undefined;
    this.modules = new Map();
    if (this.device) this.close(this.device);
    this.device = undefined;
  }

  end(): void {
    this.discard();
  }

  /** Runs `run` in this session's context, discarding the context if the run threw. */
  async run(run: CorpusRun, ptx: string | undefined, expect: Expectations, opts: RunOptions = {}): Promise<RunResult> {
    const r = await runOne(await this.context(), run, ptx, expect, { ...opts, modules: this.modules });
    if (r.status === 'error') this.discard();
    return r;
  }
}

/** Runs every run whose id contains `filter` (or one of its comma-separated parts) in `session`, logging a line per run. */
export async function runAll(
  session: Session,
  kernels: (file: string) => string | undefined,
  expect: Expectations,
  o: { filter?: string; log?: (line: string) => void; warpPath?: RunOptions['warpPath']; slow?: boolean } = {},
): Promise<RunResult[]> {
  const log = o.log ?? (() => {});
  const results: RunResult[] = [];
  for (const run of runs) {
    if (o.filter && !o.filter.split(',').some((f) => run.id.includes(f))) continue;
    const r =
      run.c.slow !== undefined && !o.slow
        ? { id: run.id, status: 'skip' as const, message: slowMessage(run), ms: 0 }
        : await session.run(run, kernels(run.ptxFile), expect, o.warpPath ? { warpPath: o.warpPath } : {});
    results.push(r);
    log(`${r.status.toUpperCase()} ${r.id} (${r.ms} ms)${r.message && r.status !== 'pass' ? `\n  ${r.message.replace(/\n/g, '\n  ')}` : ''}`);
  }
  return results;
}

export function slowMessage(run: CorpusRun): string {
  return `left out as slow (${run.c.slow ?? ''}); PTXW_CORPUS_SLOW=1 runs it`;
}

/** Whether any kernel `run` launches uses warp-level instructions (or warpSize). */
export function usesWarpOps(run: CorpusRun, ptx: string): boolean {
  const entries = new Set(flatLaunches(run.c.launches).map((l) => l.entry));
  return [...entries].some((entry) => {
    const at = ptx.search(new RegExp(`\\.entry\\s+${entry}\\s*\\(`));
    if (at < 0) return false;
    const end = ptx.indexOf('\n}', at);
    return /\b(shfl|vote|match|redux|elect)\.|activemask|WARP_SZ|bar\.warp/.test(ptx.slice(at, end < 0 ? undefined : end));
  });
}

/** A one-line description of a device (adapter info where the host has it). */
export function describeDevice(device: GPUDevice): string {
  const info = (device as unknown as { adapterInfo?: Record<string, unknown> }).adapterInfo;
  if (!info) return 'device (no adapter info)';
  const sg = info['subgroupMinSize'] === undefined ? 'n/a' : `${String(info['subgroupMinSize'])}..${String(info['subgroupMaxSize'])}`;
  return `${String(info['vendor'])}/${String(info['architecture'])} "${String(info['description'])}" subgroups=${sg}`;
}

/** Pass/fail table, one row per run, and a summary line. */
export function summaryTable(results: readonly RunResult[]): string {
  const width = Math.max(10, ...results.map((r) => r.id.length));
  const rows = results.map((r) => {
    const first = r.message?.split('\n')[0] ?? '';
    return `${r.id.padEnd(width)}  ${r.status.padEnd(5)} ${String(r.ms).padStart(6)} ms  ${first.slice(0, 160)}`;
  });
  const count = (s: RunResult['status']) => results.filter((r) => r.status === s).length;
  rows.push(`corpus: ${count('pass')} pass, ${count('fail')} fail, ${count('error')} error, ${count('skip')} skip of ${results.length}`);
  return rows.join('\n');
}
