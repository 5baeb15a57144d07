/**
 * `ptx-wgsl conformance`: the instruction-level suites' batches (src/conformance/) on the
 * default adapter, each output compared bit for bit with the NVIDIA recording; one row per
 * family.
 */
import { readBatch, readIndex } from '../conformance/node-data.js';
import { runBatch, type BatchResult } from '../conformance/run.js';
import { suiteOf } from '../conformance/batch.js';
import { getDefaultDevice } from '../index.js';
import { COMMON, COMMON_HELP, EXIT_HELP, list, type Command } from './command.js';
import { EXIT, UsageError } from './exit.js';
import { jsonText, type CliIo } from './io.js';

export const conformanceCommand: Command = {
  name: 'conformance',
  help: `usage: ptx-wgsl conformance [--only PREFIX ...] [--json]

Runs the instruction-level conformance suites (integer, f32/f16/bf16, f64 and video
instructions: the batches of the repository's tests/conformance/*.forms.ts) on the default
adapter. Each family is one kernel running hundreds of single-instruction forms, each over the
first cases of its inputs (edge values first, then seeded random ones); every output is compared
bit for bit with what an NVIDIA GPU computed for the same kernel and inputs (recorded with
CUDA). Approximate instructions (.approx, div.full), whose bits the ISA leaves to the
implementation, are compared within a loose bound instead (src/conformance/approx.ts; the suites
check each function's own ISA bound). Prints one row per family as it finishes, then the first
differing case of each failing form. Exit 1 if any output differs.

  --only PREFIX         run only the families whose name starts with PREFIX (repeatable, or
                        comma-separated: --only int,video-simd)
${COMMON_HELP}

--json prints {"command": "conformance", "ok", "casesPerForm", "families": [{"name", "suite",
"forms", "cases", "failedForms", "failedCases", "approximateForms", "failures": [{"form", "approximate",
"failed", "cases", "first":
{"index", "inputs", "got", "native"}}], "error"}], "skipped": [{"name", "why"}]}.
${EXIT_HELP}`,
  options: { ...COMMON, only: { type: 'string', multiple: true } },
  async run(values, _positionals, io) {
    const index = readIndex();
    if (!index) throw new UsageError('the conformance data is missing (npm run build writes dist/conformance/)');
    const prefixes = list(values, 'only').flatMap((p) => p.split(',')).filter((p) => p !== '');
    const names = index.batches.filter((n) => prefixes.length === 0 || prefixes.some((p) => n.startsWith(p)));
    if (names.length === 0) throw new UsageError(`--only ${prefixes.join(',')}: no family matches (${index.batches.join(', ')})`);
    const device = await getDefaultDevice();
    if (!io.json) io.out(`${'family'.padEnd(22)}${'forms'.padStart(6)}${'cases'.padStart(8)}  failed forms  failed cases\n`);
    const results: BatchResult[] = [];
    for (const name of names) {
      const result = await runBatch(readBatch(name), { device, ...(io.log ? { log: io.log } : {}) });
      results.push(result);
      if (!io.json) io.out(`${row(result)}\n`);
    }
    const ok = results.every((r) => r.failedCases === 0 && !r.error);
    if (io.json) {
      const families = results.map((r) => ({ ...r, suite: suiteOf(r.name) }));
      io.out(`${jsonText({ command: 'conformance', ok, casesPerForm: index.cases, families, skipped: index.skipped })}\n`);
    } else printSummary(results, index.skipped, io);
    return ok ? EXIT.ok : EXIT.differ;
  },
};

function row(r: BatchResult): string {
  const status = r.error ? 'error' : r.failedCases === 0 ? 'pass' : 'FAIL';
  return `${r.name.padEnd(22)}${String(r.forms).padStart(6)}${String(r.cases).padStart(8)}${String(r.failedForms).padStart(14)}${String(r.failedCases).padStart(14)}  ${status}`;
}

function printSummary(results: readonly BatchResult[], skipped: readonly { name: string; why: string }[], io: CliIo): void {
  const suites = [...new Set(results.map((r) => suiteOf(r.name)))];
  const lines = suites.map((s) => {
    const rs = results.filter((r) => suiteOf(r.name) === s);
    return `${s}: ${rs.filter((r) => r.failedCases === 0 && !r.error).length}/${rs.length} families pass`;
  });
  for (const r of results) {
    if (r.error) lines.push(`${r.name}: did not run: ${r.error.message}`);
    for (const f of r.failures) {
      const how = f.approximate ? 'is outside the approximation bound' : 'differs';
      lines.push(`${r.name}: ${f.form} ${how} in ${f.failed}/${f.cases} cases; first: case ${f.first.index} (${f.first.inputs.join(', ')}) -> ${f.first.got.join(', ')}, NVIDIA ${f.first.native.join(', ')}`);
    }
  }
  for (const s of skipped) lines.push(`${s.name}: not shipped (${s.why})`);
  io.out(`${lines.join('\n')}\n`);
}
