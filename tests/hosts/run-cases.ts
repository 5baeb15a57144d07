/**
 * Host-agnostic driver for the shared end-to-end cases (tests/e2e/cases.ts): runs every case on
 * one device and reports per-case results. Used by the Deno runner and the Chromium page (through
 * the bundle built by scripts/bundle.mjs); the Node vitest file drives cases one `it` at a time
 * with `runOneCase`. No Node, Deno or DOM imports here.
 */
import { requestKernelDevice } from '../../runtime/device.js';

/** The shape of one shared case (structurally matches `E2ECase` in tests/e2e/cases.ts). */
export interface HostCase {
  name: string;
  ptxFile: string;
  entry?: string;
  grid: unknown;
  block: unknown;
  sharedBytes?: number;
  makeArgs(): unknown[];
  check(args: unknown[]): string | null;
}

export type RunPtx = (ptx: string, args: unknown[], opts: Record<string, unknown>) => Promise<unknown> | unknown;

export interface CaseResult {
  name: string;
  ok: boolean;
  /** The check's complaint or the thrown error; null when the case passed. */
  message: string | null;
  ms: number;
}

export interface HostDeviceInfo {
  vendor: string;
  architecture: string;
  description: string;
  subgroupMinSize: number | undefined;
  subgroupMaxSize: number | undefined;
  isFallbackAdapter: boolean | undefined;
  adapterFeatures: string[];
  deviceFeatures: string[];
}

/** Requests an adapter and a kernel device (wanted features, raised limits) from `gpu`. */
export async function openTestDevice(gpu: GPU): Promise<{ device: GPUDevice; info: HostDeviceInfo }> {
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('requestAdapter() returned null: no WebGPU adapter on this host');
  const device = await requestKernelDevice(adapter);
  const ai = adapter.info as unknown as Record<string, unknown>;
  const info: HostDeviceInfo = {
    vendor: String(ai['vendor'] ?? ''),
    architecture: String(ai['architecture'] ?? ''),
    description: String(ai['description'] ?? ''),
    subgroupMinSize: ai['subgroupMinSize'] as number | undefined,
    subgroupMaxSize: ai['subgroupMaxSize'] as number | undefined,
    isFallbackAdapter: ai['isFallbackAdapter'] as boolean | undefined,
    adapterFeatures: [...adapter.features].map(String).sort(),
    deviceFeatures: [...device.features].map(String).sort(),
  };
  return { device, info };
}

export function describeDevice(info: HostDeviceInfo): string {
  const sg = info.subgroupMinSize === undefined ? 'n/a' : `${info.subgroupMinSize}..${info.subgroupMaxSize}`;
  return (
    `adapter: ${info.vendor}/${info.architecture} "${info.description}" fallback=${String(info.isFallbackAdapter)} ` +
    `subgroups=${sg} device features: ${info.deviceFeatures.join(', ') || '(none)'}`
  );
}

function errorText(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}${e.stack ? `\n${e.stack}` : ''}`;
  return String(e);
}

/** The options object for `runPtx`, leaving out keys the case does not set. */
export function launchOptions(c: HostCase, device: GPUDevice): Record<string, unknown> {
  const opts: Record<string, unknown> = { grid: c.grid, block: c.block, device };
  if (c.entry !== undefined) opts['entry'] = c.entry;
  if (c.sharedBytes !== undefined) opts['sharedBytes'] = c.sharedBytes;
  return opts;
}

/** Runs one case; never throws. */
export async function runOneCase(c: HostCase, ptx: string, device: GPUDevice, runPtx: RunPtx): Promise<CaseResult> {
  const t0 = Date.now();
  try {
    const args = c.makeArgs();
    await runPtx(ptx, args, launchOptions(c, device));
    const message = c.check(args);
    return { name: c.name, ok: message === null, message, ms: Date.now() - t0 };
  } catch (e) {
    return { name: c.name, ok: false, message: errorText(e), ms: Date.now() - t0 };
  }
}

export interface RunAllOptions {
  cases: readonly HostCase[];
  /** PTX text by file name in tests/kernels (e.g. 'saxpy.ptx'). */
  kernels: Readonly<Record<string, string>>;
  runPtx: RunPtx;
  gpu: GPU;
  /** Only cases whose name contains this string. */
  filter?: string;
  /** Cases skipped on this host, by name prefix, with the reason printed. */
  skip?: Readonly<Record<string, string>>;
  log?: (line: string) => void;
}

export interface RunAllResult {
  info: HostDeviceInfo;
  results: CaseResult[];
}

/** Runs every case on one shared device, destroyed at the end. */
export async function runAllCases(o: RunAllOptions): Promise<RunAllResult> {
  const log = o.log ?? (() => {});
  const { device, info } = await openTestDevice(o.gpu);
  log(describeDevice(info));
  const results: CaseResult[] = [];
  try {
    for (const c of o.cases) {
      if (o.filter && !c.name.includes(o.filter)) continue;
      const skipped = Object.entries(o.skip ?? {}).find(([prefix]) => c.name.startsWith(prefix));
      if (skipped) { log(`SKIP ${c.name}: ${skipped[1]}`); continue; }
      const ptx = o.kernels[c.ptxFile];
      const r =
        ptx === undefined
          ? { name: c.name, ok: false, message: `kernel file tests/kernels/${c.ptxFile} is not in the bundle`, ms: 0 }
          : await runOneCase(c, ptx, device, o.runPtx);
      results.push(r);
      log(`${r.ok ? 'PASS' : 'FAIL'} ${r.name} (${r.ms} ms)${r.ok ? '' : `\n  ${String(r.message).replace(/\n/g, '\n  ')}`}`);
    }
  } finally {
    device.destroy();
  }
  return { info, results };
}
