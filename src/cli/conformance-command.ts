/**
 * `ptx-wgsl conformance`: the instruction-level suites' batches (src/conformance/) on the
 * default adapter, each output compared bit for bit with the NVIDIA recording; one row per
 * family and warp path.
 */
import { pathToFileURL } from 'node:url';
import { readConformance } from '../conformance/node-data.js';
import { deviceWarpPath, passed, runConformance, selectFamilies, type FamilyResult } from '../conformance/suite.js';
import type { WarpPathRequest } from '../conformance/result.js';
import { createContext } from '../index.js';
import { COMMON, COMMON_HELP, EXIT_HELP, list, type Command } from './command.js';
import { EXIT, UsageError } from './exit.js';
import { jsonText, type CliIo } from './io.js';
import { progressBar } from './progress.js';

/** Reads the data from another folder laid out as dist/conformance/ (tests use a doctored copy). */
const DATA_ENV = 'PTXW_CONFORMANCE_DIR';

const WARP_PATHS: readonly WarpPathRequest[] = ['auto', 'emulated'];

export const conformanceCommand: Command = {
  name: 'conformance',
  help: `usage: ptx-wgsl conformance [--only PREFIX ...] [--warp PATH ...] [--json]

Runs the instruction-level conformance suites (integer, f32/f16/bf16, f64 and video
instructions: the batches of the repository's tests/conformance/*.forms.ts; and the warp
kernels of tests/warps/) on the default adapter. Each instruction family is one kernel running
hundreds of single-instruction forms, each over the first cases of its inputs (edge values
first, then seeded random ones); the warp family is a set of kernels (shfl, vote, match, redux,
elect, activemask, bar.warp.sync). Every output is compared bit for bit with what an NVIDIA GPU
computed for the same kernel and inputs (recorded with CUDA). Approximate instructions
(.approx, div.full), whose bits the ISA leaves to the implementation, are compared within a
loose bound instead (src/conformance/approx.ts; the suites check each function's own ISA bound). Prints one row per family as it finishes (a progress bar
on stderr when it is a terminal), then the first differing case of each failing form. Exit 1 if
any output differs.

  --only PREFIX         run only the families whose name starts with PREFIX (repeatable, or
                        comma-separated: --only int,video-simd)
  --warp PATH           the warp path to run each family on: auto (default: what this device
                        gives warp instructions: native subgroups where they are 32 lanes in
                        thread order, else the emulation) or emulated (workgroup memory);
                        repeatable or comma-separated. A family whose kernels have no warp
                        instructions, or where auto took the emulation too, runs once.
${COMMON_HELP}

The data is the package's dist/conformance/ (PTXW_CONFORMANCE_DIR=DIR reads another copy).

--json prints {"command": "conformance", "ok", "casesPerForm", "deviceWarpPath", "warpPaths",
"families": [{"name", "suite", "ok", "paths": [{"warp", "same", "warpPath", "forms", "cases",
"failedForms", "failedCases", "approximateForms", "failures": [{"form", "approximate", "failed",
"cases", "first": {"index", "inputs", "got", "native"}}], "error"}]}], "skipped": [{"name", "why"}]}:
"warp" is the path asked for, "warpPath" the one the kernel took (none: it has no warp
instructions), "same" that the first path's run stands for this one.
${EXIT_HELP}`,
  options: { ...COMMON, only: { type: 'string', multiple: true }, warp: { type: 'string', multiple: true } },
  async run(values, _positionals, io) {
    const dir = process.env[DATA_ENV];
    const data = await readConformance(dir ? pathToFileURL(dir.endsWith('/') ? dir : `${dir}/`) : undefined);
    if (!data) throw new UsageError('the conformance data is missing (npm run build writes dist/conformance/)');
    const split = (name: string): string[] => list(values, name).flatMap((p) => p.split(',')).filter((p) => p !== '');
    const prefixes = split('only');
    const families = selectFamilies(data, prefixes);
    if (families.length === 0) throw new UsageError(`--only ${prefixes.join(',')}: no family matches (${data.index.batches.join(', ')})`);
    const warpPaths = [...new Set(split('warp'))];
    const bad = warpPaths.find((p) => !(WARP_PATHS as readonly string[]).includes(p));
    if (bad !== undefined) throw new UsageError(`--warp ${bad}: expected ${WARP_PATHS.join(', ')}`);
    const paths = (warpPaths.length > 0 ? warpPaths : ['auto']) as WarpPathRequest[];
    const ctx = await createContext(io.log ? { log: io.log } : {});
    const device = deviceWarpPath(ctx);
    if (!io.json) io.out(`warp instructions on this device: ${device}; paths run: ${paths.join(', ')}\n${header()}\n`);
    const bar = progressBar(io);
    const results = await runConformance(data, ctx, {
      families,
      warpPaths: paths,
      onStep: (s) => bar.update(s.done, s.total, `${s.family} (${s.warpPath})`),
      onFamily: (f) => {
        bar.clear();
        if (!io.json) io.out(rows(f));
      },
    });
    bar.clear();
    const ok = results.every((r) => r.ok);
    if (io.json) {
      const json = results.map((f) => ({ name: f.name, suite: f.suite, ok: f.ok, paths: f.paths.map(({ warpPath: warp, same, result: { name: _, ...r } }) => ({ warp, same, ...r })) }));
      io.out(`${jsonText({ command: 'conformance', ok, casesPerForm: data.index.cases, deviceWarpPath: device, warpPaths: paths, families: json, skipped: data.index.skipped })}\n`);
    } else printSummary(results, data.index.skipped, io);
    return ok ? EXIT.ok : EXIT.differ;
  },
};

function header(): string {
  return `${'family'.padEnd(22)}${'warp'.padEnd(16)}${'forms'.padStart(6)}${'cases'.padStart(8)}  failed forms  failed cases`;
}

/** A row per path that ran (a path whose run another stands for adds none). */
function rows(f: FamilyResult): string {
  return f.paths.filter((p) => !p.same).map(({ warpPath, result: r }) => {
    const status = r.error ? 'error' : passed(r) ? 'pass' : 'FAIL';
    const warp = r.warpPath === 'none' ? 'any' : `${warpPath}:${r.warpPath}`;
    return `${r.name.padEnd(22)}${warp.padEnd(16)}${String(r.forms).padStart(6)}${String(r.cases).padStart(8)}${String(r.failedForms).padStart(14)}${String(r.failedCases).padStart(14)}  ${status}\n`;
  }).join('');
}

function printSummary(results: readonly FamilyResult[], skipped: readonly { name: string; why: string }[], io: CliIo): void {
  const suites = [...new Set(results.map((r) => r.suite))];
  const lines = suites.map((s) => {
    const rs = results.filter((r) => r.suite === s);
    return `${s}: ${rs.filter((r) => r.ok).length}/${rs.length} families pass`;
  });
  for (const { warpPath, same, result: r } of results.flatMap((f) => f.paths)) {
    if (same) continue;
    const where = r.warpPath === 'none' ? r.name : `${r.name} (warp path ${warpPath})`;
    if (r.error) lines.push(`${where}: did not run: ${r.error.message}`);
    for (const f of r.failures) {
      const how = f.approximate ? 'is outside the approximation bound' : 'differs';
      lines.push(`${where}: ${f.form} ${how} in ${f.failed}/${f.cases} cases; first: case ${f.first.index} (${f.first.inputs.join(', ')}) -> ${f.first.got.join(', ')}, NVIDIA ${f.first.native.join(', ')}`);
    }
  }
  for (const s of skipped) lines.push(`${s.name}: not shipped (${s.why})`);
  io.out(`${lines.join('\n')}\n`);
}
