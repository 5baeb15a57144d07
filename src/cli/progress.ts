/**
 * A progress bar for long commands (conformance, bench) on the human channel, one line redrawn
 * in place: only on a terminal and without --json (io.ts `terminal`), so pipes, files and
 * JSON consumers never see it. Clear it before writing to stdout, which may share the terminal.
 */
import type { CliIo } from './io.js';

const WIDTH = 24;
const CLEAR = '\r\x1b[2K';

export interface Progress {
  /** Shows `done` of `total` finished, and what runs now. */
  update(done: number, total: number, label: string): void;
  /** Removes the bar (it comes back with the next update). */
  clear(): void;
}

const NONE: Progress = { update: () => undefined, clear: () => undefined };

export function progressBar(io: CliIo): Progress {
  const write = io.terminal;
  if (!write) return NONE;
  let shown = false;
  return {
    update(done, total, label) {
      const filled = total > 0 ? Math.round((WIDTH * Math.min(done, total)) / total) : 0;
      const count = `${String(done).padStart(String(total).length)}/${total}`;
      const columns = (process.stderr as { columns?: number }).columns ?? 80;
      const line = `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${count} ${label}`;
      write(`${CLEAR}${line.slice(0, columns - 1)}`);
      shown = true;
    },
    clear() {
      if (shown) write(CLEAR);
      shown = false;
    },
  };
}
