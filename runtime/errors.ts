/**
 * Runtime failures are PtxErrors like compile failures, so callers handle one error type and
 * match on stable R00x codes. They have no source span: they belong to a launch, not a line.
 */
import { DiagnosticCode, type DiagnosticNote } from '../src/diagnostics/diagnostic.js';
import { PtxError } from '../src/diagnostics/ptx-error.js';

type RuntimeCode =
  | typeof DiagnosticCode.RuntimeLaunch
  | typeof DiagnosticCode.RuntimeArgument
  | typeof DiagnosticCode.RuntimeDevice
  | typeof DiagnosticCode.RuntimeTrap;

function runtimeError(code: RuntimeCode, message: string, notes: readonly string[]): PtxError {
  const diagnosticNotes: DiagnosticNote[] = notes.map((n) => ({ message: n }));
  return new PtxError([
    { code, severity: 'error', message, ...(notes.length > 0 ? { notes: diagnosticNotes } : {}) },
  ]);
}

/** R001: the launch configuration does not fit the kernel or the device. */
export function launchError(message: string, ...notes: string[]): PtxError {
  return runtimeError(DiagnosticCode.RuntimeLaunch, message, notes);
}

/** R002: a kernel argument or a memory operation's operand is wrong. */
export function argumentError(message: string, ...notes: string[]): PtxError {
  return runtimeError(DiagnosticCode.RuntimeArgument, message, notes);
}

/** R003: the WebGPU device is missing, lost, or reported an error. */
export function deviceError(message: string, ...notes: string[]): PtxError {
  return runtimeError(DiagnosticCode.RuntimeDevice, message, notes);
}

/** R004: a kernel executed `trap` (or a failed `assert`); the launch's results are undefined. */
export function trapError(message: string, ...notes: string[]): PtxError {
  return runtimeError(DiagnosticCode.RuntimeTrap, message, notes);
}

/** Formats an address the way CUDA tools print pointers. */
export function hex(address: bigint): string {
  return `0x${address.toString(16).padStart(16, '0')}`;
}
