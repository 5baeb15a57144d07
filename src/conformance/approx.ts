/**
 * Approximate instructions (`.approx`, `div.full`): the ISA bounds their error instead of
 * defining their bits, and ptx-wgsl computes them with exact helpers that meet the bounds
 * without copying NVIDIA's tables, so their results legitimately differ from a recording in
 * the last bits. The conformance suites check each function's own bound against exact math
 * (tests/conformance/float-approx.gpu.test.ts, f64-conformance); the command compares with the
 * recording within a bound looser than any of them: both results NaN, or the same infinity, or
 * |got - native| <= rel*|native| + abs per format (f32/f64: 2^-9 and 2^-19, f16: 2^-8 and
 * 2^-14, bf16: 2^-5 and 2^-20). That catches a wrong function, range or special value, not an
 * ulp.
 */
import { fromHalfBits } from '../../runtime/half.js';

export function isApproximate(body: string): boolean {
  return /\.approx\b/.test(body) || /^\s*div\.full\./.test(body);
}

interface Format {
  readonly bits: 16 | 32 | 64;
  readonly decode: (bits: bigint) => number;
  readonly rel: number;
  readonly abs: number;
}

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

const f32 = (b: bigint): number => ((U32[0] = Number(b & 0xffffffffn)), F32[0] ?? NaN);
const FORMATS: Readonly<Record<string, Format>> = {
  f32: { bits: 32, decode: f32, rel: 2 ** -9, abs: 2 ** -19 },
  f64: { bits: 64, decode: (b) => ((U64[0] = b), F64[0] ?? NaN), rel: 2 ** -9, abs: 2 ** -19 },
  f16: { bits: 16, decode: (b) => fromHalfBits(Number(b & 0xffffn)), rel: 2 ** -8, abs: 2 ** -14 },
  bf16: { bits: 16, decode: (b) => f32((b & 0xffffn) << 16n), rel: 2 ** -5, abs: 2 ** -20 },
};

/** The result format of a form: the last float type of its body (`.f16x2` packs two halves). */
function formatOf(body: string): { format: Format; lanes: number } | undefined {
  const types = [...body.matchAll(/\.(bf16|f16|f32|f64)(x2)?\b/g)];
  const last = types[types.length - 1];
  const format = last ? FORMATS[last[1] ?? ''] : undefined;
  return format && last ? { format, lanes: last[2] ? 2 : 1 } : undefined;
}

/** Whether an approximate form's output `got` agrees with the recorded `native` (both masked to the output's width). */
export function approxAgrees(body: string, got: bigint, native: bigint): boolean {
  if (got === native) return true;
  const f = formatOf(body);
  if (!f) return false;
  for (let lane = 0; lane < f.lanes; lane++) {
    const shift = BigInt(lane * f.format.bits);
    const mask = (1n << BigInt(f.format.bits)) - 1n;
    if (!close(f.format, f.format.decode((got >> shift) & mask), f.format.decode((native >> shift) & mask))) return false;
  }
  return true;
}

function close(f: Format, got: number, native: number): boolean {
  if (Number.isNaN(got) || Number.isNaN(native)) return Number.isNaN(got) && Number.isNaN(native);
  if (!Number.isFinite(got) || !Number.isFinite(native)) return got === native;
  return Math.abs(got - native) <= f.rel * Math.abs(native) + f.abs;
}
