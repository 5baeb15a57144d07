/**
 * What each `ptx-wgsl` command declares (its options, help text, whether it needs a device)
 * and the option helpers they share.
 */
import type { ParseArgsConfig } from 'node:util';
import type { ExitCode } from './exit.js';
import { UsageError } from './exit.js';
import type { CliIo } from './io.js';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

export interface Command {
  readonly name: string;
  /** `--help`: usage line(s), then the options. */
  readonly help: string;
  readonly options: Options;
  run(values: Values, positionals: readonly string[], io: CliIo): Promise<ExitCode>;
}

/** Options every command takes. */
export const COMMON: Options = {
  json: { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
};

export const COMMON_HELP = `  --json          print one JSON document on stdout instead of text
  -v, --verbose   show driver messages (adapter, Dawn's and the WGSL compiler's warnings) on stderr
  -h, --help      this help`;

export const EXIT_HELP = `exit codes: 0 ok, 1 results differ, 2 bad input (malformed PTX, command line, launch or file),
  3 unsupported instruction or feature (L001/L002), 4 device error or trap (R003/R004), 5 internal error`;

/** The launch options of `run` and `bench`. */
export const LAUNCH: Options = {
  entry: { type: 'string' },
  grid: { type: 'string' },
  block: { type: 'string' },
  shared: { type: 'string' },
  arg: { type: 'string', multiple: true },
};

export const LAUNCH_HELP = `  --entry NAME          the .entry to run (default: the module's only one)
  --grid X[,Y[,Z]]      blocks (default 1 when --block is given)
  --block X[,Y[,Z]]     threads per block (default 1 when --grid is given; one of the two is needed)
  --shared BYTES        dynamic shared memory (default 0)
  --arg SPEC            one per kernel parameter, in order:
      f32=2.5  u64=0x10            a scalar
      f32:n=1024:linear            a buffer holding 0, 1, 2, ...
      f32:n=1024:random:seed=1     seeded random values (floats in [0, 1), integers any bits)
      f32:n=1024:zero  f32:n=1024:fill=1
      f32:file=x.npy  u8:file=x.bin  a buffer holding a .npy file's elements or a raw file's bytes
    element types: u8 s8 b8 u16 s16 b16 f16 u32 s32 b32 f32 u64 s64 b64 f64`;

export function str(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

export function list(values: Values, name: string): string[] {
  const v = values[name];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function flag(values: Values, name: string): boolean {
  return values[name] === true;
}

/** `X`, `X,Y` or `X,Y,Z` (also `XxY`). */
export function parseDims(text: string | undefined, what: string): [number, number, number] {
  const parts = (text ?? '1').split(/[,x]/).map(Number);
  if (parts.length > 3 || parts.some((d) => !Number.isSafeInteger(d) || d < 0)) {
    throw new UsageError(`--${what} ${text}: expected X, X,Y or X,Y,Z`);
  }
  const [x = 1, y = 1, z = 1] = parts;
  return [x, y, z];
}

export function parseCount(text: string, what: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(n) || n < 0) throw new UsageError(`${what} ${text}: expected a non-negative integer`);
  return n;
}

export function parseNumber(text: string, what: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0) throw new UsageError(`${what} ${text}: expected a non-negative number`);
  return n;
}

/** The one PTX file a command takes. */
export function oneFile(positionals: readonly string[]): string {
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new UsageError(`expected one PTX file, got ${positionals.length}`);
  return file;
}
