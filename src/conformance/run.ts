/**
 * Runs one shipped conformance batch (batch.ts) in a context and compares every output with the
 * NVIDIA recording, bit for bit. suite.ts runs the families on each warp path.
 */
import type { Context, KernelFunction } from '../api.js';
import { PtxError } from '../diagnostics/ptx-error.js';
import { approxAgrees, isApproximate } from './approx.js';
import { formSlots, isKernelBatch, outputBits, type AnyBatch, type ConformanceBatch } from './batch.js';
import type { BatchResult, FormFailure, WarpPathRequest } from './result.js';
import { runKernelBatch } from './run-kernels.js';

const POISON = 0xdeadbeefdeadbeefn;
const BLOCK = 128;

/** Runs one batch and compares it with its recording. Device errors propagate; a kernel the compiler rejects is a failed batch. */
export async function runBatch(batch: AnyBatch, ctx: Context, warpPath: WarpPathRequest = 'auto'): Promise<BatchResult> {
  try {
    return isKernelBatch(batch) ? await runKernelBatch(batch, ctx, warpPath) : await runFormBatch(batch, ctx, warpPath);
  } catch (e) {
    if (!(e instanceof PtxError) || e.diagnostics.some((d) => d.code === 'R003')) throw e;
    const base = summary(batch);
    return { ...base, warpPath: 'none', failedForms: base.forms, failedCases: base.cases, failures: [], error: { message: e.message, codes: e.diagnostics.map((d) => d.code) } };
  }
}

/** A batch's size: forms (kernels, for a kernel batch) and cases (output words). */
function summary(batch: AnyBatch): Pick<BatchResult, 'name' | 'forms' | 'cases' | 'approximateForms'> {
  if (isKernelBatch(batch)) {
    const cases = batch.cases.reduce((n, c) => n + c.native.reduce((m, o) => m + o.length, 0), 0);
    return { name: batch.name, forms: batch.cases.length, cases, approximateForms: 0 };
  }
  const { manifest } = batch;
  const cases = formSlots(manifest.forms, manifest.keep).reduce((n, s) => n + s.cases, 0);
  return { name: manifest.name, forms: manifest.forms.length, cases, approximateForms: manifest.forms.filter((f) => isApproximate(f.body)).length };
}

async function runFormBatch(batch: ConformanceBatch, ctx: Context, warpPath: WarpPathRequest): Promise<BatchResult> {
  const { manifest } = batch;
  const output = new BigUint64Array(Math.max(manifest.outSlots, 1)).fill(POISON);
  const fn = ctx.loadModule(batch.ptx, { fileName: `${manifest.name}.ptx`, warpPath }).getFunction('conformance');
  const path = await launch(ctx, fn, manifest.threads, batch.inputs.length > 0 ? batch.inputs : new BigUint64Array(1), output);
  const failures = compare(batch, output);
  return { ...summary(batch), warpPath: path, failedForms: failures.length, failedCases: failures.reduce((n, f) => n + f.failed, 0), failures };
}

/** One launch over `threads` threads reading `input` and writing `output` back; the warp path taken. */
async function launch(ctx: Context, fn: KernelFunction, threads: number, input: BigUint64Array, output: BigUint64Array): Promise<BatchResult['warpPath']> {
  const config = { grid: Math.max(1, Math.ceil(threads / BLOCK)), block: BLOCK };
  const inBuf = ctx.malloc(input.byteLength);
  const outBuf = ctx.malloc(output.byteLength);
  try {
    ctx.memcpyHtoD(inBuf, input);
    ctx.memcpyHtoD(outBuf, output);
    const kernel = await fn.prepareAsync(config, [inBuf, outBuf]);
    fn.launch(config, [inBuf, outBuf]);
    await ctx.memcpyDtoH(output, outBuf);
    return kernel.layout.warp.path;
  } finally {
    for (const b of [inBuf, outBuf]) try { ctx.free(b); } catch { /* gone with a lost device, whose error is thrown already */ }
  }
}

function compare(batch: ConformanceBatch, got: BigUint64Array): FormFailure[] {
  const { manifest, native, inputs } = batch;
  const slots = formSlots(manifest.forms, manifest.keep);
  const hex = (v: bigint): string => `0x${v.toString(16)}`;
  const failures: FormFailure[] = [];
  manifest.forms.forEach((form, f) => {
    const s = slots[f];
    if (!s) return;
    const masks = form.outs.map((t) => (1n << BigInt(outputBits(t))) - 1n);
    const approximate = isApproximate(form.body);
    const agrees = (g: bigint, n: bigint): boolean => g === n || (approximate && approxAgrees(form.body, g, n));
    let failed = 0;
    let first: FormFailure['first'] | undefined;
    for (let i = 0; i < s.cases; i++) {
      const at = (m: number): number => s.outOff + i * form.outs.length + m;
      const differs = masks.some((mask, m) => !agrees((got[at(m)] ?? 0n) & mask, (native[at(m)] ?? 0n) & mask));
      if (!differs) continue;
      failed++;
      first ??= {
        index: i,
        inputs: form.ins.map((_, k) => hex(inputs[s.inOff + i * form.ins.length + k] ?? 0n)),
        got: masks.map((mask, m) => hex((got[at(m)] ?? 0n) & mask)),
        native: masks.map((mask, m) => hex((native[at(m)] ?? 0n) & mask)),
      };
    }
    if (first) failures.push({ form: form.body, approximate, failed, cases: s.cases, first });
  });
  return failures;
}
