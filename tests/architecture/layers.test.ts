// The layering of docs/ARCHITECTURE.md, as the "never" arrows of .dependency-cruiser.cjs: the
// project must have no violation, and every rule must be able to fail (a throw-away tree with
// one forbidden import per rule breaks each of them).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

async function cruiseTree(baseDir: string): Promise<ICruiseResult> {
  const options = await extractDepcruiseOptions(CONFIG);
  const tsConfig = extractTSConfig(join(ROOT, 'tsconfig.json'));
  const { output } = await cruise(['src', 'lowering', 'runtime', 'demo'], { ...options, baseDir, validate: true }, {}, { tsConfig });
  return output as ICruiseResult;
}

const describeViolation = (v: IViolation): string =>
  `${v.rule.name}: ${v.from} -> ${v.to}${v.cycle ? ` (cycle ${v.cycle.map((c) => c.name).join(' -> ')})` : ''}`;

/** One forbidden import per rule, in a tree shaped like the project's. */
const VIOLATING_TREE: Record<string, string> = {
  'src/diagnostics/span.ts': `export const span = 0;\n`,
  'src/ptx/ast.ts': `import { span } from '../diagnostics/span.js';\nexport const ast = span;\n`,
  // parser-knows-no-ir, frontend-not-lowering-or-runtime
  'src/ptx/parse.ts': `import { inst } from '../ir/inst.js';\nimport { emit } from '../../lowering/wgsl/emit-a.js';\nexport const parse = inst + emit;\n`,
  // ir-imports-only-diagnostics, frontend-not-driver
  'src/ir/inst.ts': `import { ast } from '../ptx/ast.js';\nimport { compile } from '../compile.js';\nexport const inst = ast + compile;\n`,
  'src/translate/build.ts': `import { launch } from '../../runtime/launch.js';\nexport const build = launch;\n`,
  'src/compile.ts': `export const compile = 1;\n`,
  // no-circular (emit-a <-> emit-b), lowering-not-runtime, lowering-not-frontend, lowering-not-driver
  'lowering/wgsl/emit-a.ts': `import { b } from './emit-b.js';\nexport const emit = b;\n`,
  'lowering/wgsl/emit-b.ts': `import { emit } from './emit-a.js';\nimport { launch } from '../../runtime/launch.js';\nexport const b = () => emit + launch;\n`,
  'lowering/pass.ts': `import { build } from '../src/translate/build.js';\nimport { compile } from '../src/compile.js';\nexport const pass = build + compile;\n`,
  // runtime-takes-compiled-modules
  'runtime/launch.ts': `export const launch = 1;\n`,
  'runtime/module.ts': `import { parse } from '../src/ptx/parse.js';\nimport { inst } from '../src/ir/inst.js';\nexport const mod = parse + inst;\n`,
  // demo-uses-public-api
  'demo/main.ts': `import { launch } from '../runtime/launch.js';\nexport const page = launch;\n`,
};

describe('layering (.dependency-cruiser.cjs)', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'ptx-wgsl-layers-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('the project breaks no rule', async () => {
    const { summary } = await cruiseTree(ROOT);
    expect(summary.totalCruised).toBeGreaterThan(100);
    expect(summary.violations.map(describeViolation)).toEqual([]);
  });

  it('every rule fires on a tree that breaks it', async () => {
    for (const [path, text] of Object.entries(VIOLATING_TREE)) {
      mkdirSync(dirname(join(scratch, path)), { recursive: true });
      writeFileSync(join(scratch, path), text);
    }
    writeFileSync(join(scratch, 'tsconfig.json'), '{}');
    const fired = new Set((await cruiseTree(scratch)).summary.violations.map((v) => v.rule.name));
    const options = await extractDepcruiseOptions(CONFIG);
    const rules = (options.ruleSet?.forbidden ?? []).map((r) => r.name);
    expect(rules.length).toBeGreaterThanOrEqual(9);
    expect([...fired].sort()).toEqual([...rules].sort());
  });
});
