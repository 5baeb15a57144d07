/** `ptx-wgsl bench`: times repeated launches of one kernel on the default adapter. */
import { createContext, type Context, type LaunchArg } from '../index.js';
import { COMMON, COMMON_HELP, EXIT_HELP, LAUNCH, LAUNCH_HELP, parseCount, parseNumber, str, type Command } from './command.js';
import { EXIT, UsageError } from './exit.js';
import { jsonText } from './io.js';
import { readLaunchInput, type LaunchInput } from './launch-input.js';
import { progressBar, type Progress } from './progress.js';

export const benchCommand: Command = {
  name: 'bench',
  help: `usage: ptx-wgsl bench FILE.ptx [launch options as for run] [--iters N] [--warmup N] [--batch N]
                      [--bytes BYTES] [--json]

Copies the buffer arguments to the device once, compiles the pipeline, runs --warmup launches,
then takes --iters samples: each queues --batch launches and waits for them (host clock, from
the first launch call to the completion of the last). A sample divided by --batch is one time
per launch; the median, min and max of those are printed. Batching amortises WebGPU's submit
and completion latency, which dominates short kernels.

${LAUNCH_HELP}
  --iters N             samples (default 20)
  --warmup N            launches before timing (default 3)
  --batch N             launches per sample (default 1)
  --bytes BYTES         bytes one launch reads and writes: also prints GB/s (BYTES / time per launch)
${COMMON_HELP}

--json prints {"command": "bench", "ok", "file", "entry", "grid", "block", "sharedBytes", "iters",
"warmup", "batch", "ms": {"median", "min", "max"}, "bytes", "gbps": {"median", "max"}} (bytes and
gbps with --bytes).
${EXIT_HELP}`,
  options: {
    ...COMMON,
    ...LAUNCH,
    iters: { type: 'string' },
    warmup: { type: 'string' },
    batch: { type: 'string' },
    bytes: { type: 'string' },
  },
  async run(values, positionals, io) {
    const input = readLaunchInput(values, positionals, io);
    const iters = parseCount(str(values, 'iters') ?? '20', '--iters');
    const warmup = parseCount(str(values, 'warmup') ?? '3', '--warmup');
    const batch = parseCount(str(values, 'batch') ?? '1', '--batch');
    if (iters < 1 || batch < 1) throw new UsageError('--iters and --batch must be at least 1');
    const bytesText = str(values, 'bytes');
    const bytes = bytesText === undefined ? undefined : parseNumber(bytesText, '--bytes');
    const ctx = await createContext(io.log ? { log: io.log } : {});
    const bar = progressBar(io);
    const { entry, perLaunch } = await timeLaunches(ctx, input, { iters, warmup, batch }, bar).finally(() => bar.clear());
    const sorted = [...perLaunch].sort((a, b) => a - b);
    const ms = { median: median(sorted), min: sorted[0] ?? 0, max: sorted[sorted.length - 1] ?? 0 };
    const gbps = bytes === undefined ? undefined : { median: bytes / ms.median / 1e6, max: bytes / ms.min / 1e6 };
    if (io.json) {
      const { file, grid, block, sharedBytes } = input;
      io.out(`${jsonText({ command: 'bench', ok: true, file, entry, grid, block, sharedBytes, iters, warmup, batch, ms, ...(gbps ? { bytes, gbps } : {}) })}\n`);
      return EXIT.ok;
    }
    io.out(`${entry}: grid ${input.grid.join('x')}, block ${input.block.join('x')}, ${iters} samples of ${batch} launch${batch > 1 ? 'es' : ''}\n`);
    io.out(`per launch: median ${ms.median.toFixed(4)} ms, min ${ms.min.toFixed(4)} ms, max ${ms.max.toFixed(4)} ms (host clock)\n`);
    if (gbps) io.out(`bandwidth: ${gbps.median.toFixed(2)} GB/s at the median, ${gbps.max.toFixed(2)} GB/s best (${bytes} bytes per launch)\n`);
    return EXIT.ok;
  },
};

interface Counts { readonly iters: number; readonly warmup: number; readonly batch: number }

async function timeLaunches(ctx: Context, input: LaunchInput, { iters, warmup, batch }: Counts, bar: Progress): Promise<{ entry: string; perLaunch: number[] }> {
  const mod = ctx.loadModule(input.source, { fileName: input.file });
  const entry = input.entry ?? mod.defaultEntry();
  const fn = mod.getFunction(entry);
  const args: LaunchArg[] = input.args.map((a) => {
    if (a.kind === 'scalar') return a.value;
    const buffer = ctx.malloc(Math.max(a.data.byteLength, 4));
    ctx.memcpyHtoD(buffer, a.data);
    return buffer;
  });
  const config = { grid: input.grid, block: input.block, sharedBytes: input.sharedBytes };
  bar.update(0, iters, 'compiling');
  await fn.prepareAsync(config, args);
  bar.update(0, iters, 'warming up');
  for (let i = 0; i < warmup; i++) fn.launch(config, args);
  await ctx.synchronize();
  const perLaunch: number[] = [];
  for (let s = 0; s < iters; s++) {
    bar.update(s, iters, 'samples');
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) fn.launch(config, args);
    await ctx.synchronize();
    perLaunch.push((performance.now() - t0) / batch);
  }
  return { entry, perLaunch };
}

function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
