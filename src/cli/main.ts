#!/usr/bin/env node
/**
 * The `ptx-wgsl` command:
 *   ptx-wgsl compile k.ptx [--entry NAME] [--dump-after=PASS] [--layout]
 *   ptx-wgsl run k.ptx [--entry NAME] [--grid G] [--block B] [--shared BYTES] --arg SPEC... [--print N] [--time]
 * G and B are `x`, `x,y` or `x,y,z`; SPEC is described in args.ts.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { compile, PtxError, releaseDefaultDevice, runPtx, type CompileOptions, type RunArg } from '../index.js';
import { ArgSpecError, formatElements, parseArgSpec, type CliArg } from './args.js';

const USAGE = `usage:
  ptx-wgsl compile FILE.ptx [--entry NAME] [--dump-after=PASS] [--layout]
  ptx-wgsl run FILE.ptx [--entry NAME] [--grid X[,Y[,Z]]] [--block X[,Y[,Z]]] [--shared BYTES]
               --arg SPEC [--arg SPEC ...] [--print N] [--time]
arg SPECs: f32=2.5  u64=123  f32:n=1024:linear  f32:n=1024:random:seed=1  f32:n=1024:zero  u8:file=data.bin`;

class UsageError extends Error {}

const OPTIONS = {
  entry: { type: 'string' },
  'dump-after': { type: 'string' },
  layout: { type: 'boolean' },
  grid: { type: 'string' },
  block: { type: 'string' },
  shared: { type: 'string' },
  arg: { type: 'string', multiple: true },
  print: { type: 'string' },
  time: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

async function main(argv: readonly string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true });
  const [command, file, ...extra] = positionals;
  if (values.help || !command) return void console.log(USAGE);
  if (!file || extra.length > 0) throw new UsageError(`expected one PTX file, got ${positionals.length - 1}`);
  const source = readFileSync(file, 'utf8');
  if (command === 'compile') return compileCommand(source, file, values);
  if (command === 'run') return runCommand(source, file, values);
  throw new UsageError(`unknown command '${command}'`);
}

function compileCommand(source: string, fileName: string, values: Values): void {
  const dump = values['dump-after'];
  const options: CompileOptions = {
    fileName,
    ...(values.entry !== undefined ? { entry: values.entry } : {}),
    ...(dump !== undefined ? { dumpAfter: { pass: dump, sink: (text: string) => process.stdout.write(`${text}\n`) } } : {}),
  };
  const { kernels } = compile(source, options);
  for (const k of kernels) {
    if (kernels.length > 1) console.log(`// ---- entry ${k.layout.entry}`);
    console.log(k.wgsl);
    if (values.layout) console.log(JSON.stringify(k.layout, null, 2));
  }
}

async function runCommand(source: string, fileName: string, values: Values): Promise<void> {
  const args = (values.arg ?? []).map((spec) => parseArgSpec(spec, (path) => readFileSync(path)));
  const result = await runPtx(source, args.map(toRunArg), {
    fileName,
    // Left out when not given: a launch needs at least one (runtime/launch-checks.ts).
    ...(values.grid !== undefined ? { grid: parseDims(values.grid, 'grid') } : {}),
    ...(values.block !== undefined ? { block: parseDims(values.block, 'block') } : {}),
    sharedBytes: parseCount(values.shared ?? '0', '--shared'),
    ...(values.entry !== undefined ? { entry: values.entry } : {}),
  });
  const count = parseCount(values.print ?? '8', '--print');
  args.forEach((a, i) => {
    if (a.kind === 'buffer') console.log(`arg ${i} ${a.type}[${a.data.length}]: ${formatElements(a, count)}`);
  });
  if (values.time) console.log(`time: ${result.timeMs.toFixed(3)} ms (submit to completion, host clock)`);
}

function toRunArg(a: CliArg): RunArg {
  return a.kind === 'buffer' ? a.data : a.value;
}

function parseDims(text: string, what: string): [number, number, number] {
  const parts = text.split(/[,x]/).map(Number);
  if (parts.length > 3 || parts.some((d) => !Number.isSafeInteger(d) || d < 0)) {
    throw new UsageError(`--${what} ${text}: expected X, X,Y or X,Y,Z`);
  }
  const [x = 1, y = 1, z = 1] = parts;
  return [x, y, z];
}

function parseCount(text: string, what: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new UsageError(`${what} ${text}: expected a non-negative integer`);
  return n;
}

/** Exit code 1 for errors in the kernel or its launch, 2 for a malformed command line. */
function report(e: unknown): number {
  if (e instanceof PtxError) console.error(e.message);
  else if (e instanceof UsageError || e instanceof ArgSpecError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`ptx-wgsl: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  } else if ((e as { code?: string }).code === 'ENOENT') console.error(`ptx-wgsl: ${(e as Error).message}`);
  else console.error(e);
  return 1;
}

// Dawn keeps Node alive while a device exists, so exit explicitly once done.
main(process.argv.slice(2))
  .then(() => 0, report)
  .then(async (code) => {
    await releaseDefaultDevice().catch(() => undefined);
    process.exit(code);
  });
