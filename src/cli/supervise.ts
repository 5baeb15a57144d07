/**
 * Runs a device command in a child process and keeps the child's stderr for the driver.
 *
 * Dawn writes warnings to stderr from native code while it discovers adapters (on lavapipe and
 * RADV: "maxDynamicUniformBuffersPerPipelineLayout artificially reduced ..." and the storage
 * one; runtime/log.ts says why nothing in-process can stop or route them), and Vulkan drivers
 * may add their own lines. So the parent hands the child its real stderr as fd 3 for the
 * CLI's own messages (io.ts: PTXW_CLI_MESSAGES_FD) and reads the child's fd 2 itself: shown as
 * `driver: ...` lines with --verbose, otherwise kept and printed only if the child dies of
 * something other than a reported error (a crash, an internal error), where it may explain it.
 * stdout is the parent's, so results stream through unchanged.
 */
import { spawn } from 'node:child_process';
import { EXIT } from './exit.js';
import { MESSAGES_FD_ENV } from './io.js';

/** Set in the child: run the command in this process. */
export const CHILD_ENV = 'PTXW_CLI_CHILD';

const KEPT_BYTES = 64 * 1024;
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const REPORTED: ReadonlySet<number> = new Set(Object.values(EXIT).filter((c) => c !== EXIT.internal));

/** Runs this same CLI (`process.argv[1]`) with `argv` in a child; resolves to its exit code. */
export function supervise(argv: readonly string[], verbose: boolean): Promise<number> {
  const script = process.argv[1] ?? '';
  const child = spawn(process.execPath, [...process.execArgv, script, ...argv], {
    stdio: ['inherit', 'inherit', 'pipe', 2],
    env: { ...process.env, [CHILD_ENV]: '1', [MESSAGES_FD_ENV]: '3' },
  });
  const forward = (signal: NodeJS.Signals): void => void child.kill(signal);
  for (const s of FORWARDED) process.on(s, forward);
  let kept = '';
  let partial = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    if (!verbose) {
      kept = (kept + chunk).slice(-KEPT_BYTES);
      return;
    }
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) process.stderr.write(`driver: ${line}\n`);
  });
  return new Promise((resolve) => {
    child.on('error', (e) => {
      process.stderr.write(`ptx-wgsl: could not start the device process: ${e.message}\n`);
      resolve(EXIT.internal);
    });
    child.on('close', (code, signal) => {
      for (const s of FORWARDED) process.off(s, forward);
      if (verbose && partial) process.stderr.write(`driver: ${partial}\n`);
      const failed = signal !== null || code === null || !REPORTED.has(code);
      if (failed && kept) process.stderr.write(`ptx-wgsl: the device process's stderr:\n${kept}${kept.endsWith('\n') ? '' : '\n'}`);
      if (signal) process.stderr.write(`ptx-wgsl: the device process was killed by ${signal}\n`);
      resolve(code ?? EXIT.internal);
    });
  });
}
