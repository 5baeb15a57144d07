#!/usr/bin/env node
/**
 * Generates docs/COVERAGE.md: every row of the PTX opcode table (src/ptx/opcodes.ts) with
 *  - tests: how many PTX sources under tests/ use it (.ptx files are parsed and matched
 *    through the table; PTX inside .ts/.cu test files is matched by name),
 *  - lowering: whether compile() accepts a minimal kernel using one form of it (a sample
 *    below, or one built from the row: first preferred type, register operands), and the
 *    diagnostic that says why when it does not,
 *  - status: supported (lowering accepts it and a test outside tests/frontend uses it),
 *    partial (lowering accepts it but only parser tests or no tests use it), unsupported
 *    (the lowering rejects it, with the diagnostic as the why).
 * Re-runnable at any time (npm run coverage): nothing here is written by hand.
 */
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('../', import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), 'ptx-coverage-'));
await build({
  entryPoints: { ptx: join(root, 'src/ptx/index.ts'), compile: join(root, 'src/compile.ts') },
  bundle: true, format: 'esm', platform: 'node', outdir: tmp, logLevel: 'error', external: ['webgpu'], splitting: true,
});
const { OPCODES, parsePtx, rowOf } = await import(pathToFileURL(join(tmp, 'ptx.js')).href);
const { compile } = await import(pathToFileURL(join(tmp, 'compile.js')).href);

// ------------------------------------------------------------ which rows the tests use
function walk(dir, out = []) {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ptx|ts|cu)$/.test(f)) out.push(p);
  }
  return out;
}
const used = new Map([...OPCODES.keys()].map((k) => [k, new Set()]));
function visit(body, file) {
  for (const s of body) {
    if (s.kind === 'instruction') used.get(rowOf(s.opcode, s.modifiers.mode)?.name)?.add(file);
    else if (s.kind === 'scope') visit(s.body, file);
  }
}
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
for (const path of walk(join(root, 'tests'))) {
  const file = relative(root, path);
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.ptx')) {
    try {
      for (const it of parsePtx(text, file).items) if (it.kind === 'function' && it.body) visit(it.body, file);
      continue;
    } catch { /* fall back to matching names */ }
  }
  for (const name of OPCODES.keys()) {
    if (new RegExp(`(^|[\\s"'\`;{@])${escape(name)}(\\.|\\s)`, 'm').test(text)) used.get(name).add(file);
  }
}

// ------------------------------------------------------------ does the lowering accept it
/** One form per row where the generic one cannot work (memory operands, special shapes). */
const SAMPLES = {
  mul: 'mul.lo.s32 %r0, %r1, %r2;', mad: 'mad.lo.s32 %r0, %r1, %r2, %r3;', mul24: 'mul24.lo.s32 %r0, %r1, %r2;',
  mad24: 'mad24.lo.s32 %r0, %r1, %r2, %r3;', madc: 'madc.lo.cc.u32 %r0, %r1, %r2, %r3;', div: 'div.s32 %r0, %r1, %r2;',
  fma: 'fma.rn.f32 %f0, %f1, %f2, %f3;', rcp: 'rcp.rn.f32 %f0, %f1;', sqrt: 'sqrt.rn.f32 %f0, %f1;',
  rsqrt: 'rsqrt.approx.f32 %f0, %f1;', sin: 'sin.approx.f32 %f0, %f1;', cos: 'cos.approx.f32 %f0, %f1;',
  lg2: 'lg2.approx.f32 %f0, %f1;', ex2: 'ex2.approx.f32 %f0, %f1;', tanh: 'tanh.approx.f32 %f0, %f1;',
  testp: 'testp.finite.f32 %p0, %f1;', copysign: 'copysign.f32 %f0, %f1, %f2;',
  setp: 'setp.lt.s32 %p0, %r1, %r2;', set: 'set.lt.u32.s32 %r0, %r1, %r2;', selp: 'selp.b32 %r0, %r1, %r2, %p1;',
  slct: 'slct.s32.s32 %r0, %r1, %r2, %r3;', mov: 'mov.u32 %r0, %r1;', shf: 'shf.l.wrap.b32 %r0, %r1, %r2, %r3;',
  lop3: 'lop3.b32 %r0, %r1, %r2, %r3, 0x96;', prmt: 'prmt.b32 %r0, %r1, %r2, %r3;', bfi: 'bfi.b32 %r0, %r1, %r2, %r3, %r4;',
  dp2a: 'dp2a.lo.u32.u32 %r0, %r1, %r2, %r3;', dp4a: 'dp4a.u32.u32 %r0, %r1, %r2, %r3;', szext: 'szext.wrap.u32 %r0, %r1, %r2;',
  bmsk: 'bmsk.wrap.b32 %r0, %r1, %r2;', addc: 'addc.u32 %r0, %r1, %r2;', subc: 'subc.u32 %r0, %r1, %r2;',
  ld: 'ld.global.u32 %r0, [%rd2+4];', ldu: 'ldu.global.u32 %r0, [%rd2+4];', st: 'st.global.u32 [%rd2+4], %r1;',
  prefetch: 'prefetch.global.L2 [%rd2];', prefetchu: 'prefetchu.L1 [%rd2];', isspacep: 'isspacep.global %p0, %rd2;',
  cvta: 'cvta.to.global.u64 %rd0, %rd1;', cvt: 'cvt.rn.f32.s32 %f0, %r1;', 'cvt.pack': 'cvt.pack.sat.u8.s32.b32 %r0, %r1, %r2, %r3;',
  mapa: 'mapa.u64 %rd0, %rd1, %r1;', getctarank: 'getctarank.u64 %r0, %rd1;',
  shfl: 'shfl.sync.idx.b32 %r0, %r1, 0, 31, -1;', vote: 'vote.sync.ballot.b32 %r0, %p1, -1;',
  match: 'match.any.sync.b32 %r0, %r1, -1;', activemask: 'activemask.b32 %r0;', redux: 'redux.sync.add.u32 %r0, %r1, -1;',
  elect: 'elect.sync %r0|%p0, -1;', bar: 'bar.sync 0;', 'bar.warp': 'bar.warp.sync -1;', barrier: 'barrier.sync 0;',
  membar: 'membar.gl;', 'membar.proxy': 'membar.proxy.alias;', fence: 'fence.acq_rel.gpu;', 'fence.proxy': 'fence.proxy.alias;',
  'fence.mbarrier_init': 'fence.mbarrier_init.release.cluster;',
  atom: 'atom.global.add.u32 %r0, [%rd2], %r1;', red: 'red.global.add.u32 [%rd2], %r1;',
  nanosleep: 'nanosleep.u32 100;', griddepcontrol: 'griddepcontrol.wait;', setmaxnreg: 'setmaxnreg.inc.sync.aligned.u32 232;',
  pmevent: 'pmevent 1;', bra: 'bra.uni L_end;', brx: 'BRX', call: 'CALL', ret: 'ret;', exit: 'exit;', trap: 'trap;', brkpt: 'brkpt;',
  stacksave: 'stacksave.u64 %rd0;', stackrestore: 'stackrestore.u64 %rd1;', alloca: 'alloca.u64 %rd0, 16;',
  'mbarrier.init': 'mbarrier.init.shared.b64 [%rd1], 32;', 'mbarrier.arrive': 'mbarrier.arrive.shared.b64 %rd0, [%rd1];',
  'mbarrier.test_wait': 'mbarrier.test_wait.shared.b64 %p0, [%rd1], %rd3;',
  'mbarrier.try_wait': 'mbarrier.try_wait.parity.shared.b64 %p0, [%rd1], %r1;',
  'mbarrier.inval': 'mbarrier.inval.shared.b64 [%rd1];', 'mbarrier.pending_count': 'mbarrier.pending_count.b64 %r0, %rd1;',
  'mbarrier.expect_tx': 'mbarrier.expect_tx.shared.b64 [%rd1], %r1;', 'mbarrier.complete_tx': 'mbarrier.complete_tx.shared.b64 [%rd1], %r1;',
  'mbarrier.arrive_drop': 'mbarrier.arrive_drop.shared.b64 %rd0, [%rd1];',
  'cp.async': 'cp.async.ca.shared.global [%rd1], [%rd2], 4;', 'cp.async.commit_group': 'cp.async.commit_group;',
  'cp.async.wait_group': 'cp.async.wait_group 0;', 'cp.async.wait_all': 'cp.async.wait_all;',
  'cp.async.bulk': 'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 64, [%r2];',
  'cp.async.bulk.prefetch': 'cp.async.bulk.prefetch.L2.global [%rd1], 64;',
  'cp.async.bulk.wait_group': 'cp.async.bulk.wait_group.read 0;',
  'cp.async.mbarrier.arrive': 'cp.async.mbarrier.arrive.noinc.shared.b64 [%r1];',
  'ldmatrix': 'ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r0}, [%rd1];', 'stmatrix': 'stmatrix.sync.aligned.m8n8.x1.shared.b16 [%rd1], {%r1};',
  'movmatrix': 'movmatrix.sync.aligned.m8n8.trans.b16 %r0, %r1;',
  mma: 'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r1, %r2}, {%r3}, {%f4, %f5, %f6, %f7};',
  'wmma.load': 'wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [%rd2], 16;',
  'wmma.store': 'wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd2], {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, 16;',
  'wmma.mma': 'wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15}, {%f8, %f9, %f10, %f11, %f12, %f13, %f14, %f15};',
  'wgmma.fence': 'wgmma.fence.sync.aligned;', 'wgmma.commit_group': 'wgmma.commit_group.sync.aligned;', 'wgmma.wait_group': 'wgmma.wait_group.sync.aligned 0;',
  tex: 'tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5}];', tld4: 'tld4.r.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5}];',
  txq: 'txq.width.b32 %r0, [%rd1];', suld: 'suld.b.1d.b32.trap {%r0}, [%rd1, {%r1}];', sust: 'sust.b.1d.b32.trap [%rd1, {%r1}], {%r2};',
  suq: 'suq.width.b32 %r0, [%rd1];', istypep: 'istypep.texref %p0, %rd1;',
  discard: 'discard.global.L2 [%rd2], 128;', applypriority: 'applypriority.global.L2::evict_normal [%rd2], 128;',
  createpolicy: 'createpolicy.fractional.L2::evict_last.b64 %rd0, 0f3F800000;',
  'st.async': 'st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];',
  'red.async': 'red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r1], %r2, [%r3];',
  'st.bulk': 'st.bulk.weak.shared::cta [%rd1], 64, 0;',
  vadd: 'vadd.s32.s32.s32 %r0, %r1.b0, %r2.h1;', vset: 'vset.s32.s32.lt %r0, %r1, %r2;', vmad: 'vmad.s32.s32.s32 %r0, %r1, %r2, %r3;',
  ...Object.fromEntries(['vsub', 'vabsdiff', 'vmin', 'vmax'].map((op) => [op, `${op}.s32.u32.s32.sat %r0, %r1.b1, %r2.h0;`])),
  vshl: 'vshl.u32.u32.u32.clamp.add %r0, %r1, %r2, %r3;', vshr: 'vshr.s32.s32.u32.wrap %r0, %r1.h1, %r2;',
  ...Object.fromEntries(['vadd', 'vsub', 'vavrg', 'vabsdiff', 'vmin', 'vmax'].flatMap((op) => [
    [`${op}2`, `${op}2.s32.s32.s32.sat %r0, %r1.h10, %r2.h32, %r3;`], [`${op}4`, `${op}4.u32.u32.u32.add %r0, %r1.b3210, %r2.b7654, %r3;`]])),
  vset2: 'vset2.s32.s32.ne %r0, %r1, %r2, %r3;', vset4: 'vset4.u32.u32.lt.add %r0, %r1, %r2, %r3;',
};
const PREFERRED = ['s32', 'u32', 'b32', 'f32', 'pred', 'u64', 'b64'];
const REG = (t) => (t === 'pred' ? '%p' : /64/.test(t) && t !== 'f64' ? '%rd' : t === 'f32' ? '%f' : t === 'f64' ? '%fd' : /16|8$/.test(t) && !/x2/.test(t) ? '%rs' : '%r');
function generic(row) {
  const types = row.groups.find((g) => g.field === 'types');
  const t = types ? (PREFERRED.find((p) => types.words.includes(p)) ?? types.words[0]) : undefined;
  const words = [row.name, ...(t ? [t] : [])].join('.');
  const r = t ? REG(t) : '%r';
  const ops = Array.from({ length: row.minOperands }, (_, i) => `${r}${i}`);
  return `${words}${ops.length ? ' ' + ops.join(', ') : ''};`;
}
const KERNEL = (snippet) => `.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 k_p0)
{
\t.reg .pred %p<8>; .reg .b16 %rs<8>; .reg .b32 %r<16>; .reg .b64 %rd<16>; .reg .f32 %f<16>; .reg .f64 %fd<8>;
\t.shared .align 8 .b8 smem[64];
\tld.param.u64 %rd1, [k_p0];
\tcvta.to.global.u64 %rd2, %rd1;
\tld.global.u32 %r1, [%rd2]; ld.global.u32 %r2, [%rd2+4]; ld.global.u32 %r3, [%rd2+8]; ld.global.u32 %r4, [%rd2+12];
\tld.global.f32 %f1, [%rd2+16]; ld.global.f32 %f2, [%rd2+20]; ld.global.f32 %f3, [%rd2+24]; ld.global.f32 %f4, [%rd2+28];
\tld.global.u64 %rd3, [%rd2+32]; ld.global.u16 %rs1, [%rd2+40]; ld.global.u16 %rs2, [%rd2+42]; ld.global.f64 %fd1, [%rd2+48];
\tsetp.ne.s32 %p1, %r1, 0;
\t${snippet}
L_end:
\tst.global.u32 [%rd2+64], %r0; st.global.f32 [%rd2+68], %f0; st.global.u64 [%rd2+72], %rd0; st.global.u16 [%rd2+80], %rs0;
\tselp.u32 %r15, 1, 0, %p0; st.global.u32 [%rd2+84], %r15; st.global.f64 [%rd2+88], %fd0;
\tret;
}
`;
// call and brx.idx need a callee or a branch table around the kernel body.
const CALLEE = `.func (.param .b32 r) twice(.param .b32 x)
{
\t.reg .b32 %t<2>;
\tld.param.b32 %t0, [x]; add.s32 %t1, %t0, %t0; st.param.b32 [r], %t1;
\tret;
}
`;
const WHOLE = {
  CALL: { sample: 'call.uni (r), twice, (x);', text: (k) => k.replace('.address_size 64\n', `.address_size 64\n${CALLEE}`).replace('\tCALL', '\t{ .param .b32 x; .param .b32 r; st.param.b32 [x], %r1; call.uni (r), twice, (x); ld.param.b32 %r0, [r]; }') },
  BRX: { sample: 'brx.idx %r1, T;', text: (k) => k.replace('\tBRX', '\tT: .branchtargets L_a, L_end;\n\tand.b32 %r5, %r1, 1;\n\tbrx.idx %r5, T;\nL_a:\n\tmov.u32 %r0, 7;') },
};
function lower(row, given) {
  const sample = given ?? (row.name in SAMPLES ? SAMPLES[row.name] : generic(row));
  const whole = WHOLE[sample];
  try {
    compile(whole ? whole.text(KERNEL(sample)) : KERNEL(sample), { fileName: 'sample.ptx' });
    if (whole) return { ok: true, sample: whole.sample };
    return { ok: true, sample };
  } catch (e) {
    const lines = String(e.message ?? e).split('\n');
    const first = lines.find((l) => /error\[/.test(l)) ?? lines[0] ?? '';
    const why = first.replace(/^.*?error\[/, '[').replace(/\|/g, '\\|');
    return { ok: false, sample, why, parse: /error\[P/.test(first) };
  }
}

// Supported rows with a form that is still rejected: the script compiles it too and the table
// says why, so a row's "supported" does not hide it.
const ALSO = {
  mma: 'mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, {%f4, %f5, %f6, %f7}, %r5, 0x0;',
};

// ------------------------------------------------------------ the table
const rows = [...OPCODES.values()].sort((a, b) => a.name.localeCompare(b.name));
const counts = { supported: 0, partial: 0, unsupported: 0 };
const out = [];
for (const row of rows) {
  const files = [...(used.get(row.name) ?? [])].sort();
  const l = lower(row);
  let status;
  let note;
  const runTests = files.filter((f) => !f.startsWith('tests/frontend/'));
  if (l.ok && runTests.length) [status, note] = ['supported', ''];
  else if (l.ok && files.length) [status, note] = ['partial', 'lowering accepts the sample, but only parser tests (tests/frontend) use it'];
  else if (l.ok) [status, note] = ['partial', 'lowering accepts the sample, but no test under tests/ uses it'];
  else if (l.parse) [status, note] = ['partial', `sample did not parse (coverage script sample needs fixing): ${l.why}`];
  else [status, note] = ['unsupported', l.why];
  const also = ALSO[row.name] ? lower({ ...row, name: `${row.name} (also)` }, ALSO[row.name]) : undefined;
  if (also && !also.ok) note = `${note ? `${note}; ` : ''}not yet: ${also.why}`;
  counts[status]++;
  const tests = files.length ? `${files.length} (${files.slice(0, 2).map((f) => f.replace(/^tests\//, '')).join(', ')}${files.length > 2 ? ', …' : ''})` : '0';
  out.push(`| \`${row.name}\` | ${status} | ${tests} | \`${l.sample.replace(/\|/g, '\\|')}\` | ${note} |`);
}
const date = new Date().toISOString().slice(0, 10);
const doc = `# PTX instruction coverage

Generated by \`npm run coverage\` (scripts/gen-coverage.mjs) on ${date}; do not edit by hand.

One row per entry of the opcode table (\`src/ptx/opcodes.ts\`). Every row **parses** (the table
drives the parser). *Tests* counts the PTX sources under \`tests/\` using the instruction (parsed
\`.ptx\` files; PTX text in \`.ts\`/\`.cu\` files matched by name). *Sample* is the one form the script
compiles through \`compile()\`; a row is **supported** when the lowering accepts it and a test
outside \`tests/frontend\` (the parser's own tests) uses it, **partial** when the lowering accepts it
but only parser tests or no tests use it (other forms or modifiers of the same
opcode may still be rejected: the lowering reports those with L002 naming the instruction), and
**unsupported** when the lowering rejects it, with the diagnostic that says why.

Totals: ${counts.supported} supported, ${counts.partial} partial, ${counts.unsupported} unsupported, of ${rows.length} rows.

| instruction | status | tests | sample | why / what is missing |
| --- | --- | --- | --- | --- |
${out.join('\n')}
`;
writeFileSync(join(root, 'docs/COVERAGE.md'), doc);
console.log(`docs/COVERAGE.md: ${counts.supported} supported, ${counts.partial} partial, ${counts.unsupported} unsupported (${rows.length} rows)`);
