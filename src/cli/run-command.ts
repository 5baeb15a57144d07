/** `ptx-wgsl run`: one launch on the default adapter, buffers copied back and shown or saved. */
import { runPtx, type KernelLayout } from '../index.js';
import { formatElements } from './args.js';
import { compareBuffers, elementValues, readExpected, writeBuffer, type Comparison } from './buffers.js';
import { COMMON, COMMON_HELP, EXIT_HELP, LAUNCH, LAUNCH_HELP, flag, parseNumber, str, type Command } from './command.js';
import { EXIT, UsageError } from './exit.js';
import { jsonText, type CliIo } from './io.js';
import { paramName, parseBufferRefs, readLaunchInput, resolveBuffer, toRunArg, type LaunchInput } from './launch-input.js';

export const runCommand: Command = {
  name: 'run',
  help: `usage: ptx-wgsl run FILE.ptx [--entry NAME] [--grid X[,Y[,Z]]] [--block X[,Y[,Z]]] [--shared BYTES]
                    --arg SPEC ... [--print N|all] [--out ARG=PATH ...] [--expect ARG=PATH ...] [--json]

Compiles the kernel for the default WebGPU adapter, copies the buffer arguments in, launches
once, copies them back, and prints the first --print elements of each buffer.

${LAUNCH_HELP}
  --print N|all         elements shown per buffer (default 8)
  --out ARG=PATH        after the run, write buffer ARG (a position from 0, or a PTX parameter
                        name) to PATH: .npy (1-D, the element type's dtype), '-' for raw bytes on
                        stdout (then nothing else is printed there), or any other name for raw bytes
  --expect ARG=PATH     compare buffer ARG after the run with a .npy or raw file; exit 1 if they differ
  --atol X, --rtol Y    float tolerance of --expect: |got - expected| <= X + Y*|expected| (default 0:
                        equal values; NaN matches NaN)
  --time                also print the launch's time (submit to completion, host clock)
${COMMON_HELP}

--json prints {"command": "run", "ok", "file", "entry", "grid", "block", "sharedBytes", "timeMs",
"args": [{"index", "name", "kind", "type", "value" | "length", "values"}], "outputs": [{"index", "path"}],
"expect": [{"index", "path", "ok", "mismatches", "first"}]}; 64-bit integers are strings, and so are
NaN and infinities ("NaN", "Infinity", "-Infinity").
${EXIT_HELP}`,
  options: {
    ...COMMON,
    ...LAUNCH,
    print: { type: 'string' },
    out: { type: 'string', multiple: true },
    expect: { type: 'string', multiple: true },
    atol: { type: 'string' },
    rtol: { type: 'string' },
    time: { type: 'boolean' },
  },
  async run(values, positionals, io) {
    const input = readLaunchInput(values, positionals, io);
    const outs = parseBufferRefs(values, 'out');
    const expects = parseBufferRefs(values, 'expect');
    const tol = { atol: parseNumber(str(values, 'atol') ?? '0', '--atol'), rtol: parseNumber(str(values, 'rtol') ?? '0', '--rtol') };
    const printText = str(values, 'print') ?? '8';
    const count = printText === 'all' ? undefined : parseNumber(printText, '--print');
    if (count !== undefined && !Number.isSafeInteger(count)) throw new UsageError(`--print ${printText}: expected a count or 'all'`);
    const result = await runPtx(input.source, input.args.map(toRunArg), {
      fileName: input.file,
      grid: input.grid,
      block: input.block,
      sharedBytes: input.sharedBytes,
      ...(input.entry !== undefined ? { entry: input.entry } : {}),
      ...(io.log ? { log: io.log } : {}),
    });
    const layout = result.kernel.layout;
    const outputs = outs.map((ref) => {
      const { index, arg } = resolveBuffer(ref, 'out', input.args, layout);
      writeBuffer(arg, ref.path, io);
      return { index, path: ref.path };
    });
    const checks = expects.map((ref) => {
      const { index, arg } = resolveBuffer(ref, 'expect', input.args, layout);
      return { index, path: ref.path, ...compareBuffers(arg, readExpected(arg, ref.path, io), tol) };
    });
    const ok = checks.every((c) => c.mismatches === 0);
    if (io.json) io.out(`${jsonText(runJson(input, layout, result.timeMs, count, outputs, checks, ok))}\n`);
    else if (!outs.some((o) => o.path === '-')) printRun(input, layout, result.timeMs, count, checks, flag(values, 'time'), io);
    for (const c of checks) if (c.mismatches > 0 && !io.json) io.message(describeMismatch(c, layout));
    return ok ? EXIT.ok : EXIT.differ;
  },
};

type Check = { index: number; path: string } & Comparison;

function runJson(input: LaunchInput, layout: KernelLayout, timeMs: number, count: number | undefined, outputs: unknown[], checks: Check[], ok: boolean): unknown {
  return {
    command: 'run',
    ok,
    file: input.file,
    entry: layout.entry,
    grid: input.grid,
    block: input.block,
    sharedBytes: input.sharedBytes,
    timeMs,
    args: input.args.map((a, index) => ({
      index,
      name: paramName(layout, index),
      kind: a.kind,
      type: a.type,
      ...(a.kind === 'scalar' ? { value: a.value } : { length: a.data.length, values: elementValues(a, count) }),
    })),
    outputs,
    expect: checks.map((c) => ({ index: c.index, path: c.path, ok: c.mismatches === 0, mismatches: c.mismatches, first: c.first, ...(c.lengths ? { lengths: c.lengths } : {}) })),
  };
}

function printRun(input: LaunchInput, layout: KernelLayout, timeMs: number, count: number | undefined, checks: Check[], time: boolean, io: CliIo): void {
  input.args.forEach((a, i) => {
    if (a.kind !== 'buffer') return;
    const name = paramName(layout, i);
    const shown = count === 0 ? '' : `: ${formatElements(a, count ?? a.data.length)}`;
    io.out(`arg ${i}${name ? ` (${name})` : ''} ${a.type}[${a.data.length}]${shown}\n`);
  });
  for (const c of checks) io.out(`expect arg ${c.index} = ${c.path}: ${c.mismatches === 0 ? 'ok' : `${c.mismatches} elements differ`}\n`);
  if (time) io.out(`time: ${timeMs.toFixed(3)} ms (submit to completion, host clock)\n`);
}

function describeMismatch(c: Check, layout: KernelLayout): string {
  const name = paramName(layout, c.index);
  const lines = [`ptx-wgsl: arg ${c.index}${name ? ` (${name})` : ''} differs from ${c.path} in ${c.mismatches} elements`];
  if (c.lengths) lines.push(`  lengths: got ${c.lengths.got}, expected ${c.lengths.expected}`);
  for (const f of c.first) lines.push(`  [${f.index}] got ${String(f.got)}, expected ${String(f.expected)}`);
  return lines.join('\n');
}
