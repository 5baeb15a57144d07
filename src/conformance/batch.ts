/**
 * A conformance batch as the package ships it (scripts/build-conformance.mjs writes them from
 * tests/conformance/*.forms.ts and the native recordings in tests/conformance/native/): one
 * PTX kernel running many single-instruction forms, its packed inputs, and the outputs an
 * NVIDIA GPU produced for them. Plain data, so any host can load it.
 *
 * Slot layout (tests/conformance/harness.ts writes the kernel): 8-byte slots; the forms follow
 * each other, and inside form f, operand k of case i is slot `inOff(f) + i*ins(f) + k` (outputs
 * likewise), for the first min(keep, count) cases of each form.
 */

export interface BatchForm {
  /** The PTX body: `%a<k>` inputs, `%d<m>` outputs. */
  readonly body: string;
  /** Register types of the inputs and outputs (`b32`, `f32`, `pred`, ...). */
  readonly ins: readonly string[];
  readonly outs: readonly string[];
  /** Cases the suite runs; the batch holds the first `keep` of them. */
  readonly count: number;
}

export interface BatchManifest {
  readonly name: string;
  /** Cases kept per form. */
  readonly keep: number;
  readonly forms: readonly BatchForm[];
  readonly inSlots: number;
  readonly outSlots: number;
  /** Threads the kernel needs: the most cases of any form. */
  readonly threads: number;
}

export interface ConformanceBatch {
  readonly manifest: BatchManifest;
  /** The kernel: `.entry conformance(.param .u64 in, .param .u64 out)`. */
  readonly ptx: string;
  readonly inputs: BigUint64Array;
  /** The slots the NVIDIA GPU wrote. */
  readonly native: BigUint64Array;
}

export interface FormSlots {
  readonly cases: number;
  readonly inOff: number;
  readonly outOff: number;
}

/** Where each form's slots start, for its first `keep` cases. */
export function formSlots(forms: readonly BatchForm[], keep: number): FormSlots[] {
  let inOff = 0;
  let outOff = 0;
  return forms.map((f) => {
    const slots = { cases: Math.min(keep, f.count), inOff, outOff };
    inOff += slots.cases * f.ins.length;
    outOff += slots.cases * f.outs.length;
    return slots;
  });
}

/** Bits of an output that carry its value: a predicate comes back as a 0/1 word. */
export function outputBits(type: string): number {
  if (type === 'pred') return 32;
  return Number(/(\d+)$/.exec(type)?.[1] ?? 64);
}

/** The family a batch belongs to: its suite, the name's first word (int, float, f64, video). */
export function suiteOf(name: string): string {
  return name.split('-')[0] ?? name;
}

/**
 * A batch of whole kernels (the warp suite, tests/warps/: shuffles, votes, match, redux, elect
 * across the lanes of a warp), which single-instruction forms cannot test: each case launches
 * one entry on its own grid and block with `(in, out0, out1, ...)`, the outputs poisoned with
 * `poison` as they were on the NVIDIA GPU, and every output word is compared with the recording.
 */
export interface KernelBatch {
  readonly kind: 'kernels';
  readonly name: string;
  /** PTX modules by name. */
  readonly sources: Readonly<Record<string, string>>;
  readonly poison: number;
  readonly cases: readonly KernelCase[];
}

export interface KernelCase {
  /** Its module in `sources`, and the entry. */
  readonly source: string;
  readonly entry: string;
  readonly grid: number;
  readonly block: number;
  /** The `in` buffer: 32-bit words. */
  readonly input: readonly number[];
  /** What the NVIDIA GPU left in each output buffer, as unsigned 32-bit words. */
  readonly native: readonly (readonly number[])[];
}

export type AnyBatch = ConformanceBatch | KernelBatch;

export function isKernelBatch(b: AnyBatch): b is KernelBatch {
  return (b as { kind?: string }).kind === 'kernels';
}

/** A form batch from its files' contents (gunzipped): `<name>.json` parsed, `<name>.in.bin`, `<name>.out.bin`. */
export function parseBatch(json: { manifest: BatchManifest; ptx: string }, inputs: Uint8Array, native: Uint8Array): ConformanceBatch {
  const words = (bytes: Uint8Array): BigUint64Array => new BigUint64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return { manifest: json.manifest, ptx: json.ptx, inputs: words(inputs), native: words(native) };
}
