/** `ptx-wgsl compile`: PTX to WGSL (and each kernel's layout) without a GPU. */
import { readFileSync } from 'node:fs';
import { compile, type CompileOptions } from '../index.js';
import { COMMON, COMMON_HELP, EXIT_HELP, flag, oneFile, str, type Command } from './command.js';
import { PASSES } from '../pipeline.js';
import { EXIT, UsageError } from './exit.js';
import { jsonText } from './io.js';

export const compileCommand: Command = {
  name: 'compile',
  help: `usage: ptx-wgsl compile FILE.ptx [--entry NAME] [-o FILE.wgsl] [--layout] [--dump-after=PASS] [--json]

Prints the WGSL of every .entry (or of --entry), separated by '// ---- entry NAME' lines when
there are several. No GPU is needed: the warp path is the emulated one, and f32 arithmetic and
fma.rn.f32 take the exact helpers, as on a device that was not probed.

  --entry NAME          compile only this entry
  -o, --output FILE     write the WGSL to FILE instead of stdout
  --layout              also print each kernel's layout (bindings, parameters, shared memory) as JSON
  --dump-after=PASS     print the IR after the named pass, one of:
                        ${passNames().join(' ')}
${COMMON_HELP}

--json prints {"command": "compile", "file", "kernels": [{"entry", "wgsl", "layout"}], "dumps": [text]}.
${EXIT_HELP}`,
  options: {
    ...COMMON,
    entry: { type: 'string' },
    output: { type: 'string', short: 'o' },
    layout: { type: 'boolean' },
    'dump-after': { type: 'string' },
  },
  async run(values, positionals, io) {
    const file = oneFile(positionals);
    const source = readFileSync(file, 'utf8');
    const dump = str(values, 'dump-after');
    if (dump !== undefined && !passNames().includes(dump)) throw new UsageError(`--dump-after=${dump}: no such pass (${passNames().join(', ')})`);
    const entry = str(values, 'entry');
    const dumps: string[] = [];
    const options: CompileOptions = {
      fileName: file,
      ...(entry !== undefined ? { entry } : {}),
      ...(dump !== undefined ? { dumpAfter: { pass: dump, sink: (text: string) => void dumps.push(text) } } : {}),
    };
    const { kernels } = compile(source, options);
    if (io.json) {
      io.out(`${jsonText({ command: 'compile', ok: true, file, kernels: kernels.map((k) => ({ entry: k.layout.entry, wgsl: k.wgsl, layout: k.layout })), dumps })}\n`);
      return EXIT.ok;
    }
    for (const text of dumps) io.out(`${text}\n`);
    const wgsl = kernels.map((k) => (kernels.length > 1 ? `// ---- entry ${k.layout.entry}\n` : '') + k.wgsl).join('\n');
    const output = str(values, 'output');
    if (output !== undefined) io.writeFile(output, new TextEncoder().encode(wgsl.endsWith('\n') ? wgsl : `${wgsl}\n`));
    else io.out(wgsl.endsWith('\n') ? wgsl : `${wgsl}\n`);
    if (flag(values, 'layout')) for (const k of kernels) io.out(`${jsonText(k.layout)}\n`);
    return EXIT.ok;
  },
};

/** What `--dump-after` takes: the SSA construction, then each pass in order. */
function passNames(): string[] {
  return ['ssa-build', ...new Set(PASSES.map((p) => p.name))];
}
