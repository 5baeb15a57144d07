#!/usr/bin/env node
/**
 * Checks the opcode table's per-opcode type lists against ptxas: for every row with a
 * restricted `types` group, one kernel per row has one line per PTX type (operands are
 * registers declared with that type, the row's minimum operand count), and ptxas's
 * "Unexpected instruction types" errors, by line, say which types it refuses. Reports
 * rows where the table refuses a type ptxas accepts (the parser would reject valid PTX)
 * and where it accepts one ptxas refuses. Other ptxas errors on a line (operand shapes the
 * generic line cannot satisfy) make that type inconclusive.
 *
 * Run: node tests/frontend/ptxas-types.mjs   (needs ptxas on PATH)
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('../../', import.meta.url);
const tmp = mkdtempSync(join(tmpdir(), 'ptxas-types-'));
await build({ entryPoints: [new URL('src/ptx/index.ts', root).pathname], bundle: true, format: 'esm', platform: 'node', outfile: join(tmp, 'ptx.mjs'), logLevel: 'error' });
const { OPCODES, SCALAR_TYPES } = await import(pathToFileURL(join(tmp, 'ptx.mjs')).href);

const TYPES = SCALAR_TYPES.filter((t) => !/^(e\d|ue|s4|u4|s2|u2|b1|tf32)/.test(t));
const SAMPLE_MODS = { mul: 'lo', mad: 'lo', mul24: 'lo', mad24: 'lo', madc: 'lo', fma: 'rn', rcp: 'rn', sqrt: 'rn', rsqrt: 'approx', sin: 'approx', cos: 'approx', lg2: 'approx', ex2: 'approx', tanh: 'approx', setp: 'lt', testp: 'finite', shf: 'l.wrap', shfl: 'sync.idx', vote: 'sync.ballot', match: 'any.sync', dp2a: 'lo', szext: 'wrap', bmsk: 'wrap', cvta: 'to.global', mapa: 'shared::cluster', getctarank: 'shared::cluster' };
const IMM_TAIL = { lop3: ['0x96'], shfl: ['0', '31', '-1'], vote: ['-1'], match: ['-1'] };
/** Registers are declared with a type ptxas allows for registers of that size. */
const REG_TYPE = (t) => (t === 'pred' ? 'pred' : t === 'f32' || t === 'f64' ? t : /8|16$/.test(t) && !/x2$/.test(t) ? 'b16' : /64/.test(t) ? 'b64' : 'b32');
const report = [];
// Rows with memory, texture or mbarrier operands are checked by ptxas-type-lines.mjs instead.
const { TEMPLATES } = await import('./ptxas-type-lines.mjs');
for (const row of OPCODES.values()) {
  const group = row.groups.find((g) => g.field === 'types');
  if (!group || group.words.length === SCALAR_TYPES.length || row.name in TEMPLATES) continue;
  const lines = [];
  const decls = TYPES.map((t, i) => `.reg .${REG_TYPE(t)} %v${i}_<8>;`).join('\n');
  for (const [i, t] of TYPES.entries()) {
    const mods = [row.name, SAMPLE_MODS[row.name], t === 'f16x2' || t === 'bf16x2' ? undefined : undefined, t].filter(Boolean).join('.');
    const tail = IMM_TAIL[row.name] ?? [];
    const n = Math.max(0, row.minOperands - tail.length);
    const ops = [...Array.from({ length: n }, (_, k) => `%v${i}_${k}`), ...tail];
    lines.push(`${mods} ${ops.join(', ')};`);
  }
  const head = `.version 8.7\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n${decls}\n`;
  const first = head.split('\n').length;
  const file = join(tmp, `${row.name}.ptx`);
  writeFileSync(file, `${head}${lines.join('\n')}\nret;\n}\n`);
  let stderr = '';
  try {
    execFileSync('ptxas', ['-arch=sm_90a', file, '-o', '/dev/null'], { stdio: 'pipe' });
  } catch (e) {
    stderr = String(e.stderr ?? '');
  }
  if (/fatal\s*: Parsing error/.test(stderr)) {
    report.push(`${row.name}: inconclusive (${/fatal.*$/m.exec(stderr)?.[0]})`);
    continue;
  }
  const errs = new Map();
  for (const m of stderr.matchAll(/line (\d+); error\s*: (.*)/g)) {
    const idx = Number(m[1]) - first;
    if (!errs.has(idx)) errs.set(idx, m[2]);
  }
  const overStrict = [];
  const underStrict = [];
  for (const [i, t] of TYPES.entries()) {
    const e = errs.get(i);
    const ours = group.words.includes(t);
    if (e === undefined && !ours) overStrict.push(t);
    else if (e !== undefined && /Unexpected instruction types|not supported|requires/.test(e) && /instruction types/.test(e) && ours) underStrict.push(t);
  }
  if (overStrict.length || underStrict.length) report.push(`${row.name}: ptxas accepts but the table refuses [${overStrict.join(' ')}]; table accepts but ptxas refuses [${underStrict.join(' ')}]`);
}
console.log(report.length ? report.join('\n') : 'every typed row agrees with ptxas');
