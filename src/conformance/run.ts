/**
 * Runs shipped conformance batches (batch.ts) on a WebGPU device and compares every output
 * with the NVIDIA recording, bit for bit: `ptx-wgsl conformance` prints the result per family.
 */
import { runPtx, type RunOptions } from '../api.js';
import { PtxError } from '../diagnostics/ptx-error.js';
import { approxAgrees, isApproximate } from './approx.js';
import { formSlots, outputBits, type ConformanceBatch } from './batch.js';

export interface FormFailure {
  readonly form: string;
  /** An approximate form (approx.ts): it failed the loose bound, not a bit comparison. */
  readonly approximate: boolean;
  readonly failed: number;
  readonly cases: number;
  /** The first differing case: inputs, what this device computed and what the GPU did, as hex. */
  readonly first: { readonly index: number; readonly inputs: readonly string[]; readonly got: readonly string[]; readonly native: readonly string[] };
}

export interface BatchResult {
  readonly name: string;
  readonly forms: number;
  readonly cases: number;
  readonly failedForms: number;
  readonly failedCases: number;
  /** Forms compared within approx.ts's bound instead of bit for bit. */
  readonly approximateForms: number;
  readonly failures: readonly FormFailure[];
  /** Set when the batch did not run (an error compiling or launching it). */
  readonly error?: { readonly message: string; readonly codes?: readonly string[] };
}

const POISON = 0xdeadbeefdeadbeefn;
const BLOCK = 128;

/** Runs one batch and compares it with its recording. Device errors propagate; a kernel the compiler rejects is a failed batch. */
export async function runBatch(batch: ConformanceBatch, options: Pick<RunOptions, 'device' | 'log'> = {}): Promise<BatchResult> {
  const { manifest } = batch;
  const cases = formSlots(manifest.forms, manifest.keep).reduce((n, s) => n + s.cases, 0);
  const approximateForms = manifest.forms.filter((f) => isApproximate(f.body)).length;
  const base = { name: manifest.name, forms: manifest.forms.length, cases, approximateForms };
  const output = new BigUint64Array(Math.max(manifest.outSlots, 1)).fill(POISON);
  try {
    const grid = Math.max(1, Math.ceil(manifest.threads / BLOCK));
    await runPtx(batch.ptx, [batch.inputs.length > 0 ? batch.inputs : new BigUint64Array(1), output], { ...options, grid, block: BLOCK, fileName: `${manifest.name}.ptx` });
  } catch (e) {
    if (!(e instanceof PtxError) || e.diagnostics.some((d) => d.code === 'R003')) throw e;
    return { ...base, failedForms: base.forms, failedCases: cases, failures: [], error: { message: e.message, codes: e.diagnostics.map((d) => d.code) } };
  }
  const failures = compare(batch, output);
  return { ...base, failedForms: failures.length, failedCases: failures.reduce((n, f) => n + f.failed, 0), failures };
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
