/**
 * The `ptx-wgsl` commands, listed without loading them: the parent of a device command
 * (supervise.ts) needs only the names and which ones open a device.
 */
import type { Command } from './command.js';

export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  /** Opens a WebGPU device (runs in a child process). */
  readonly device: boolean;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'compile',
    summary: 'PTX to WGSL, with each kernel\'s binding and parameter layout (no GPU needed)',
    device: false,
    load: async () => (await import('./compile-command.js')).compileCommand,
  },
  {
    name: 'run',
    summary: 'run a kernel once and show, save (.npy, raw) or check its buffers',
    device: true,
    load: async () => (await import('./run-command.js')).runCommand,
  },
  {
    name: 'bench',
    summary: 'time a kernel: median, min and max per launch, GB/s with --bytes',
    device: true,
    load: async () => (await import('./bench-command.js')).benchCommand,
  },
  {
    name: 'info',
    summary: 'the default adapter, its features and limits, and the path each feature takes on it',
    device: true,
    load: async () => (await import('./info-command.js')).infoCommand,
  },
  {
    name: 'conformance',
    summary: 'run the instruction-level conformance suites on this adapter: pass/fail per family',
    device: true,
    load: async () => (await import('./conformance-command.js')).conformanceCommand,
  },
];
