/**
 * What `run` and `bench` share: the PTX file, the launch shape and the `--arg` values, and the
 * buffer arguments named by `--out`/`--expect` (by position or by PTX parameter name).
 */
import type { KernelLayout, RunArg } from '../index.js';
import { parseArgSpec, type CliArg } from './args.js';
import { list, oneFile, parseCount, parseDims, str, type Values } from './command.js';
import { UsageError } from './exit.js';
import type { CliIo } from './io.js';

export type BufferArg = Extract<CliArg, { kind: 'buffer' }>;

export interface LaunchInput {
  readonly file: string;
  readonly source: string;
  readonly entry: string | undefined;
  readonly grid: [number, number, number];
  readonly block: [number, number, number];
  readonly sharedBytes: number;
  readonly args: readonly CliArg[];
}

export function readLaunchInput(values: Values, positionals: readonly string[], io: CliIo): LaunchInput {
  const file = oneFile(positionals);
  const gridText = str(values, 'grid');
  const blockText = str(values, 'block');
  // As runPtx and launch do (runtime/launch-checks.ts): one alone defaults the other to 1.
  if (gridText === undefined && blockText === undefined) {
    throw new UsageError('needs --grid and --block (kernel<<<grid, block>>>); neither was given, which would run a single thread (a missing one alone is 1)');
  }
  const source = new TextDecoder().decode(io.readFile(file));
  return {
    file,
    source,
    entry: str(values, 'entry'),
    grid: parseDims(gridText, 'grid'),
    block: parseDims(blockText, 'block'),
    sharedBytes: parseCount(str(values, 'shared') ?? '0', '--shared'),
    args: list(values, 'arg').map((spec) => parseArgSpec(spec, (path) => io.readFile(path))),
  };
}

export function toRunArg(a: CliArg): RunArg {
  return a.kind === 'buffer' ? a.data : a.value;
}

/** `REF=PATH` of `--out`/`--expect`: REF is an argument's position (0-based) or its PTX parameter name. */
export interface BufferRef {
  readonly ref: string;
  readonly path: string;
}

export function parseBufferRefs(values: Values, option: string): BufferRef[] {
  return list(values, option).map((text) => {
    const eq = text.indexOf('=');
    if (eq <= 0 || eq === text.length - 1) throw new UsageError(`--${option} ${text}: expected ARG=PATH (ARG: a position or parameter name)`);
    return { ref: text.slice(0, eq), path: text.slice(eq + 1) };
  });
}

/** The buffer argument `ref` names, and its position. */
export function resolveBuffer(ref: BufferRef, option: string, args: readonly CliArg[], layout: KernelLayout): { index: number; arg: BufferArg } {
  const index = /^\d+$/.test(ref.ref) ? Number(ref.ref) : layout.params.findIndex((p) => p.name === ref.ref);
  const arg = args[index];
  if (index < 0) throw new UsageError(`--${option} ${ref.ref}=...: kernel '${layout.entry}' has no parameter '${ref.ref}' (${layout.params.map((p) => p.name).join(', ')})`);
  if (!arg || arg.kind !== 'buffer') throw new UsageError(`--${option} ${ref.ref}=...: argument ${index} is not a buffer`);
  return { index, arg };
}

/** Parameter names by position, for messages. */
export function paramName(layout: KernelLayout, index: number): string | undefined {
  return layout.params[index]?.name;
}
