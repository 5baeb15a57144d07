/**
 * The CLI's exit codes (README and `--help` list them) and how a failure maps onto one.
 */
import { PtxError } from '../diagnostics/ptx-error.js';
import { ArgSpecError } from './args.js';
import { NpyError } from './npy.js';

export const EXIT = {
  /** Success. */
  ok: 0,
  /** The command ran, and results differ from what was expected (`run --expect`, `conformance`). */
  differ: 1,
  /** Bad input: malformed PTX (a PtxError), a bad command line, a launch or argument that does not fit the kernel, a missing file. */
  badInput: 2,
  /** The PTX uses an instruction or feature ptx-wgsl does not support (L001, L002). */
  unsupported: 3,
  /** No WebGPU device, a lost device, a device error, or a kernel that trapped (R003, R004). */
  device: 4,
  /** A ptx-wgsl bug: an internal error. */
  internal: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A malformed command line (exit 2; the usage text follows the message). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const UNSUPPORTED = new Set(['L001', 'L002']);
const DEVICE = new Set(['R003', 'R004']);

export function exitCodeOf(e: unknown): ExitCode {
  if (e instanceof PtxError) {
    const codes = e.diagnostics.map((d) => d.code);
    if (codes.some((c) => DEVICE.has(c))) return EXIT.device;
    if (codes.length > 0 && codes.every((c) => UNSUPPORTED.has(c))) return EXIT.unsupported;
    return EXIT.badInput;
  }
  if (e instanceof UsageError || e instanceof ArgSpecError || e instanceof NpyError) return EXIT.badInput;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('ERR_PARSE_ARGS') || ['ENOENT', 'EISDIR', 'EACCES', 'ENOTDIR'].includes(code))) return EXIT.badInput;
  return EXIT.internal;
}

/** The error as `--json` reports it. */
export function errorJson(e: unknown): { kind: string; message: string; codes?: string[] } {
  if (e instanceof PtxError) return { kind: 'PtxError', message: e.message, codes: e.diagnostics.map((d) => d.code) };
  const err = e instanceof Error ? e : new Error(String(e));
  return { kind: err.name, message: err.message };
}
