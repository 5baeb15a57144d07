/**
 * What a command reads and writes: stdout for results (text, or one JSON document with
 * `--json`), a human channel for messages, files, and the driver logger of `--verbose`.
 * When the CLI runs device work in a child process (supervise.ts), the child's stderr belongs to
 * the driver, and the human channel is the file descriptor named by PTXW_CLI_MESSAGES_FD: the
 * parent's own stderr, handed down.
 */
import { readFileSync, writeFileSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { Logger } from '../index.js';

export interface CliIo {
  /** `--json`: stdout holds one JSON document. */
  readonly json: boolean;
  /** `--verbose`: driver messages are shown. */
  readonly log: Logger | undefined;
  out(text: string): void;
  outBytes(bytes: Uint8Array): void;
  /** A message for people (stderr). */
  message(text: string): void;
  /**
   * Writes to the human channel as is (no newline added), for a progress bar (progress.ts);
   * set only when that channel is a terminal and `--json` is not given.
   */
  readonly terminal: ((text: string) => void) | undefined;
  readFile(path: string): Uint8Array;
  writeFile(path: string, bytes: Uint8Array): void;
}

export const MESSAGES_FD_ENV = 'PTXW_CLI_MESSAGES_FD';

/** The file descriptor of the human channel: stderr, or the one supervise.ts handed down. */
function messagesFd(): number {
  const fd = Number(process.env[MESSAGES_FD_ENV]);
  return Number.isSafeInteger(fd) && fd > 2 ? fd : 2;
}

export function processIo(json: boolean, verbose: boolean): CliIo {
  const fd = messagesFd();
  const message = (text: string): void => void writeSync(fd, text.endsWith('\n') ? text : `${text}\n`);
  const terminal = !json && isatty(fd) && process.env['TERM'] !== 'dumb';
  return {
    json,
    log: verbose ? (level, text) => message(`ptx-wgsl: ${level}: ${text}`) : undefined,
    out: (text) => void process.stdout.write(text),
    outBytes: (bytes) => void process.stdout.write(bytes),
    message,
    terminal: terminal ? (text) => void writeSync(fd, text) : undefined,
    readFile: (path) => readFileSync(path),
    writeFile: (path, bytes) => writeFileSync(path, bytes),
  };
}

/** One line of JSON in which bigints (64-bit integers) are decimal strings and NaN/±Infinity are the strings "NaN", "Infinity", "-Infinity". */
export function jsonText(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
      return v;
    },
  );
}
