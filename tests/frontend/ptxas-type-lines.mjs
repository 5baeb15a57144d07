#!/usr/bin/env node
/**
 * Checks the per-opcode type lists of rows whose operands the generic line of
 * ptxas-types.mjs cannot express (memory operands, textures, mbarriers, conversions):
 * per row, instruction templates in which `T` is the type under test and `%x0..3` are
 * registers declared for it. ptxas accepts a type when some template line of it
 * assembles without error. Prints, per row, the types ptxas accepts, and where the
 * opcode table disagrees.
 *
 * Run: node tests/frontend/ptxas-type-lines.mjs [row ...]   (needs ptxas on PATH; the
 * recording tests/frontend/opcode-types.test.ts checks against is ptxas-type-lines.txt)
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';


const V4 = '{%x0, %x1, %x2, %x3}';
const atomLines = (d) => ['add', 'exch', 'min', 'and', 'add.noftz'].map((op) => `${d ? 'atom' : 'red'}.global.${op}.T ${d ? '%x0, ' : ''}[%rd0], %x1;`)
  .concat(d ? ['atom.global.cas.T %x0, [%rd0], %x1, %x2;'] : []);
export const TEMPLATES = {
  // min/max/add take packed 16-bit integer lanes too (.s16x2/.u16x2, PTX 8.0)
  min: ['min.T %x0, %x1, %x2;'],
  max: ['max.T %x0, %x1, %x2;'],
  add: ['add.T %x0, %x1, %x2;'],
  mov: ['mov.T %x0, %x1;'],
  ld: ['ld.global.T %x0, [%rd0];'],
  ldu: ['ldu.global.T %x0, [%rd0];'],
  st: ['st.global.T [%rd0], %x0;'],
  set: ['set.lt.u32.T %r0, %x0, %x1;', 'set.eq.u32.T %r0, %x0, %x1;', 'set.lt.T.f32 %x0, %f0, %f1;', 'set.lt.T.T %x0, %x1, %x2;', 'set.lt.T.f16 %x0, %h0, %h1;'],
  cvt: [
    'cvt.T.f32 %x0, %f0;', 'cvt.rn.T.f32 %x0, %f0;', 'cvt.rzi.T.f32 %x0, %f0;', 'cvt.f32.T %f0, %x0;', 'cvt.rn.f32.T %f0, %x0;',
    'cvt.rn.satfinite.T.f32 %x0, %f0, %f1;', 'cvt.rz.satfinite.T.f32 %x0, %f0, %f1;', 'cvt.rna.T.f32 %x0, %f0;',
    'cvt.rn.f16x2.T %r0, %x0;', 'cvt.rn.bf16x2.T %r0, %x0;', 'cvt.rn.satfinite.T.f16x2 %x0, %r0;', 'cvt.u32.T %r0, %x0;', 'cvt.rs.satfinite.T.f32 %x0, {%f0, %f1, %f2, %f3}, %r0;',
  ],
  'cvt.pack': ['cvt.pack.sat.T.s32 %r0, %r1, %r2;', 'cvt.pack.sat.T.s32.b32 %r0, %r1, %r2, %r3;', 'cvt.pack.sat.u16.T %r0, %x0, %x1;', 'cvt.pack.sat.u8.s32.T %r0, %r1, %r2, %x0;'],
  atom: atomLines(true),
  red: atomLines(false),
  redux: ['add', 'and', 'min', 'max.NaN', 'min.abs'].map((op) => `redux.sync.${op}.T %x0, %x1, -1;`),
  bar: ['bar.red.popc.T %x0, 0, %p0;', 'bar.red.and.T %x0, 0, %p0;'],
  barrier: ['barrier.red.popc.T %x0, 0, %p0;', 'barrier.red.and.T %x0, 0, %p0;'],
  'mbarrier.init': ['mbarrier.init.shared.T [%rd0], %r0;'],
  'mbarrier.inval': ['mbarrier.inval.shared.T [%rd0];'],
  'mbarrier.expect_tx': ['mbarrier.expect_tx.relaxed.cta.shared.T [%rd0], %r0;'],
  'mbarrier.complete_tx': ['mbarrier.complete_tx.relaxed.cta.shared.T [%rd0], %r0;'],
  'mbarrier.arrive': ['mbarrier.arrive.shared.T %x0, [%rd0];'],
  'mbarrier.arrive_drop': ['mbarrier.arrive_drop.shared.T %x0, [%rd0];'],
  'mbarrier.test_wait': ['mbarrier.test_wait.shared.T %p0, [%rd0], %x0;', 'mbarrier.test_wait.parity.shared.T %p0, [%rd0], %r0;'],
  'mbarrier.try_wait': ['mbarrier.try_wait.shared.T %p0, [%rd0], %x0;', 'mbarrier.try_wait.parity.shared.T %p0, [%rd0], %r0;'],
  'mbarrier.pending_count': ['mbarrier.pending_count.T %r0, %x0;'],
  'cp.async.mbarrier.arrive': ['cp.async.mbarrier.arrive.shared.T [%rd0];'],
  createpolicy: ['createpolicy.fractional.L2::evict_last.T %x0, 0f3F800000;'],
  setmaxnreg: ['setmaxnreg.inc.sync.aligned.T 64;'],
  tex: [`tex.2d.v4.T.f32 ${V4}, [tex0, {%f0, %f1}];`, `tex.2d.v4.T.s32 ${V4}, [tex0, {%r0, %r1}];`, 'tex.2d.v4.f32.T {%f0, %f1, %f2, %f3}, [tex0, {%x0, %x1}];', 'tex.2d.v2.T.f32 {%x0, %x1}, [tex0, {%f0, %f1}];'],
  tld4: [`tld4.r.2d.v4.T.f32 ${V4}, [tex0, {%f0, %f1}];`],
  txq: ['txq.width.T %x0, [tex0];'],
  suld: ['suld.b.1d.T.trap %x0, [surf0, {%r0}];', `suld.p.1d.v4.T.trap ${V4}, [surf0, {%r0}];`],
  sust: ['sust.b.1d.T.trap [surf0, {%r0}], %x0;', `sust.p.1d.v4.T.trap [surf0, {%r0}], ${V4};`],
  sured: ['sured.b.add.1d.T.trap [surf0, {%r0}], %x0;', 'sured.p.min.1d.T.trap [surf0, {%r0}], %x0;'],
  suq: ['suq.width.T %x0, [surf0];'],
};

/** Registers for a type: the widths ptxas allows registers of that type to have. */
function regType(t) {
  if (t === 'pred' || t === 'f32' || t === 'f64' || t === 'b128') return t;
  if (t === 'e2m1x2') return 'b8';
  if (t === 'e2m1x4') return 'b16';
  if (/x4$/.test(t)) return 'b32';
  if (/^(e\d|ue)/.test(t)) return 'b16';
  if (/x2$/.test(t) || t === 'tf32') return 'b32';
  if (/(8|16)$/.test(t)) return 'b16';
  if (/64$/.test(t)) return 'b64';
  return 'b32';
}

// Imported by ptxas-types.mjs for TEMPLATES only.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

async function main() {
const root = new URL('../../', import.meta.url);
const tmp = mkdtempSync(join(tmpdir(), 'ptxas-type-lines-'));
await build({ entryPoints: [new URL('src/ptx/index.ts', root).pathname], bundle: true, format: 'esm', platform: 'node', outfile: join(tmp, 'ptx.mjs'), logLevel: 'error' });
const { OPCODES, SCALAR_TYPES } = await import(pathToFileURL(join(tmp, 'ptx.mjs')).href);
const TYPES = SCALAR_TYPES;
const only = process.argv.slice(2);
const out = [];
for (const [name, templates] of Object.entries(TEMPLATES)) {
  if (only.length && !only.includes(name)) continue;
  const row = OPCODES.get(name);
  const group = row?.groups.find((g) => g.field === 'types');
  const lines = [];
  const owner = [];
  const decls = [];
  for (const [i, t] of TYPES.entries()) {
    decls.push(`.reg .${regType(t)} %t${i}_<4>;`);
    for (const tpl of templates) {
      lines.push(tpl.replaceAll('%x', `%t${i}_`).replace(/\.T\b/g, `.${t}`));
      owner.push(t);
    }
  }
  const head = '.version 8.7\n.target sm_100a\n.address_size 64\n.global .texref tex0;\n.global .surfref surf0;\n' +
    `.visible .entry k()\n{\n.reg .b64 %rd<4>;\n.reg .b32 %r<4>;\n.reg .f32 %f<4>;\n.reg .b16 %h<4>;\n.reg .pred %p<4>;\n${decls.join('\n')}\n`;
  const first = head.split('\n').length;
  const file = join(tmp, `${name}.ptx`);
  writeFileSync(file, `${head}${lines.join('\n')}\nret;\n}\n`);
  let stderr = '';
  try {
    execFileSync('ptxas', ['-arch=sm_100a', file, '-o', '/dev/null'], { stdio: 'pipe' });
  } catch (e) {
    stderr = String(e.stderr ?? '');
  }
  if (/fatal\s*: Parsing error/.test(stderr) && !/line \d+; error/.test(stderr)) {
    out.push(`${name}: inconclusive (${/fatal.*$/m.exec(stderr)?.[0]})`);
    continue;
  }
  const bad = new Set();
  for (const m of stderr.matchAll(/line (\d+); error/g)) bad.add(Number(m[1]) - first);
  const accepted = new Set();
  owner.forEach((t, i) => { if (!bad.has(i)) accepted.add(t); });
  const ours = new Set(group ? group.words : []);
  const refuses = [...accepted].filter((t) => !ours.has(t));
  const extra = [...ours].filter((t) => !accepted.has(t));
  out.push(`${name}: ptxas accepts [${[...accepted].join(' ')}]` +
    (refuses.length ? `; the table refuses [${refuses.join(' ')}]` : '') + (extra.length ? `; the table also accepts [${extra.join(' ')}]` : ''));
}
console.log(out.join('\n'));
}
