/** `ptx-wgsl conformance`: not yet. */
import { COMMON, COMMON_HELP, EXIT_HELP, type Command } from './command.js';
import { EXIT } from './exit.js';
import { jsonText } from './io.js';

export const conformanceCommand: Command = {
  name: 'conformance',
  help: `usage: ptx-wgsl conformance [--json]

Not yet: the instruction-level suites run from the repository's tests (npm test).
${COMMON_HELP}
${EXIT_HELP}`,
  options: { ...COMMON },
  device: false,
  async run(_values, _positionals, io) {
    if (io.json) io.out(`${jsonText({ command: 'conformance', ok: true, status: 'not yet' })}\n`);
    else io.out('ptx-wgsl conformance: not yet\n');
    return EXIT.ok;
  },
};
