/**
 * Runs a kernel batch (batch.ts KernelBatch: the warp suite) in a context on one warp path and
 * compares every output word with the NVIDIA recording. Each kernel is a "form" of the result:
 * its failures name the entry and the first differing word.
 */
import type { Context, DeviceBuffer } from '../api.js';
import type { KernelBatch, KernelCase } from './batch.js';
import type { BatchResult, FormFailure, WarpPathRequest } from './result.js';

/** Runs every kernel; a PtxError (other than a device error) propagates for runBatch to report. */
export async function runKernelBatch(batch: KernelBatch, ctx: Context, warpPath: WarpPathRequest): Promise<BatchResult> {
  const failures: FormFailure[] = [];
  const taken = new Set<string>();
  let cases = 0;
  for (const c of batch.cases) {
    const source = batch.sources[c.source];
    if (source === undefined) throw new Error(`kernel batch ${batch.name}: no source '${c.source}'`);
    const { outputs, path } = await launch(ctx, source, c, batch.poison, warpPath);
    taken.add(path);
    const words = c.native.reduce((n, o) => n + o.length, 0);
    cases += words;
    const failure = compare(c, outputs, words);
    if (failure) failures.push(failure);
  }
  const warpPathTaken = taken.has('subgroups') ? 'subgroups' : taken.has('emulated') ? 'emulated' : 'none';
  return {
    name: batch.name, warpPath: warpPathTaken, forms: batch.cases.length, cases, approximateForms: 0,
    failedForms: failures.length, failedCases: failures.reduce((n, f) => n + f.failed, 0), failures,
  };

}

async function launch(ctx: Context, source: string, c: KernelCase, poison: number, warpPath: WarpPathRequest): Promise<{ outputs: Uint32Array[]; path: string }> {
  const fn = ctx.loadModule(source, { fileName: `${c.source}.ptx`, warpPath }).getFunction(c.entry);
  const input = Int32Array.from(c.input);
  const outputs = c.native.map((o) => new Uint32Array(o.length).fill(poison));
  const buffers: DeviceBuffer[] = [];
  try {
    for (const host of [input, ...outputs]) {
      const b = ctx.malloc(Math.max(host.byteLength, 4));
      buffers.push(b);
      ctx.memcpyHtoD(b, host);
    }
    const config = { grid: c.grid, block: c.block };
    const kernel = await fn.prepareAsync(config, buffers);
    fn.launch(config, buffers);
    for (const [k, host] of outputs.entries()) await ctx.memcpyDtoH(host, buffers[k + 1] as DeviceBuffer);
    return { outputs, path: kernel.layout.warp.path };
  } finally {
    for (const b of buffers) try { ctx.free(b); } catch { /* gone with a lost device, whose error is thrown already */ }
  }
}

/** The kernel's failure: how many words differ, and the first of them (output buffer and word). */
function compare(c: KernelCase, outputs: readonly Uint32Array[], words: number): FormFailure | undefined {
  let failed = 0;
  let first: FormFailure['first'] | undefined;
  const hex = (v: number): string => `0x${(v >>> 0).toString(16)}`;
  c.native.forEach((want, k) => {
    const got = outputs[k];
    want.forEach((w, i) => {
      const g = got?.[i] ?? 0;
      if (g === w >>> 0) return;
      failed++;
      first ??= { index: i, inputs: [`output ${k}`, `grid ${c.grid}`, `block ${c.block}`], got: [hex(g)], native: [hex(w)] };
    });
  });
  return first ? { form: `${c.source}.ptx ${c.entry}`, approximate: false, failed, cases: words, first } : undefined;
}
