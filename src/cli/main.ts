#!/usr/bin/env node
/**
 * The `ptx-wgsl` command: `ptx-wgsl COMMAND [options]`, commands in commands.ts, each with its
 * own `--help`; exit codes in exit.ts. On Node, commands that open a device run in a child
 * process that keeps the driver's stderr (supervise.ts), so a run prints only what was asked for.
 * Deno runs the same file (`deno run --allow-read --allow-env dist/src/cli/main.js ...`) on its
 * own WebGPU.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { EXIT_HELP } from './command.js';
import { COMMANDS } from './commands.js';
import { errorJson, EXIT, exitCodeOf, UsageError } from './exit.js';
import { jsonText, processIo, type CliIo } from './io.js';
import { CHILD_ENV, supervise } from './supervise.js';

const USAGE = `usage: ptx-wgsl COMMAND [options]      ptx-wgsl COMMAND --help

commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(12)} ${c.summary}`).join('\n')}

every command takes --json (one JSON document on stdout) and -v/--verbose (driver messages).
${EXIT_HELP}`;

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (name === '--version') {
    process.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  const json = rest.includes('--json');
  const verbose = rest.includes('--verbose') || rest.includes('-v');
  const io = processIo(json, verbose);
  const entry = COMMANDS.find((c) => c.name === name);
  try {
    if (!entry) throw new UsageError(`unknown command '${name}'`);
    const wantsHelp = rest.includes('--help') || rest.includes('-h');
    if (entry.device && !wantsHelp && process.env[CHILD_ENV] === undefined && !onDeno()) return await supervise(argv, verbose);
    const command = await entry.load();
    const { values, positionals } = parseArgs({ args: [...rest], options: command.options, allowPositionals: true, strict: true });
    if (values['help'] === true) {
      io.out(`${command.help}\n`);
      return EXIT.ok;
    }
    return await command.run(values, positionals, io);
  } catch (e) {
    return report(e, name, io);
  }
}

/** Deno runs device work in-process: its WebGPU is its own, not Dawn's, and writes nothing on stderr. */
function onDeno(): boolean {
  return (globalThis as { Deno?: unknown }).Deno !== undefined;
}

function report(e: unknown, command: string, io: CliIo): number {
  const code = exitCodeOf(e);
  if (io.json) io.out(`${jsonText({ command, ok: false, exitCode: code, error: errorJson(e) })}\n`);
  const message = e instanceof Error ? e.message : String(e);
  if (code === EXIT.internal) io.message(`ptx-wgsl: internal error: ${e instanceof Error ? (e.stack ?? message) : message}`);
  else if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    io.message(`ptx-wgsl: ${message}\n(ptx-wgsl ${COMMANDS.some((c) => c.name === command) ? `${command} ` : ''}--help for usage)`);
  } else io.message(e instanceof Error && e.name === 'PtxError' ? message : `ptx-wgsl: ${message}`);
  return code;
}

function version(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** Waits for stdout to drain (pipes are asynchronous on some platforms), then exits. */
function exit(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

process.on('uncaughtException', (e) => {
  processIo(false, false).message(`ptx-wgsl: internal error: ${e.stack ?? e.message}`);
  process.exit(EXIT.internal);
});

// Dawn keeps Node alive while a device exists, so release it and exit explicitly once done.
void main(process.argv.slice(2)).then(async (code) => {
  await releaseDefaultDevice().catch(() => undefined);
  exit(code);
});
