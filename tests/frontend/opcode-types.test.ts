/**
 * Per-opcode type lists of the rows with memory, texture, mbarrier and conversion operands
 * (min/max/add with their packed 16-bit integer lanes, set, mov, ld/ldu/st, cvt, cvt.pack, atom/red/redux, bar/barrier.red, mbarrier.*, tex,
 * tld4, txq, su*, createpolicy, setmaxnreg, cp.async.mbarrier.arrive). The reference is
 * what ptxas 13 accepts (tests/frontend/ptxas-type-lines.txt, recorded by
 * ptxas-type-lines.mjs), which contains the ISA text's lists plus its later additions
 * (`.b128`, half types for set/atom/red/tex, fp8 pairs for cvt).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { PtxError } from '../../src/diagnostics/ptx-error.js';
import { OPCODES } from '../../src/ptx/opcodes.js';
import { HEADER, parseInstruction } from './helpers.js';

const log = readFileSync(new URL('./ptxas-type-lines.txt', import.meta.url), 'utf8');
const ptxas = [...log.matchAll(/^(\S+): ptxas accepts \[([^\]]*)\](.*)$/gm)].map((m) => ({
  row: m[1] ?? '', types: (m[2] ?? '').split(' ').filter(Boolean), rest: m[3] ?? '',
}));

describe('the opcode table types agree with ptxas', () => {
  test('the log covers the rows', () => expect(ptxas.length).toBeGreaterThanOrEqual(31));
  test.each(ptxas)('$row', ({ row, types, rest }) => {
    expect(rest).toBe(''); // the recording itself saw no disagreement
    const group = OPCODES.get(row)?.groups.find((g) => g.field === 'types');
    expect([...(group?.words ?? [])].sort()).toEqual([...types].sort());
  });
});

const hasPtxas = (() => {
  try {
    execFileSync('ptxas', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** With ptxas on PATH, the recording is redone: ptxas must still accept exactly the table's types. */
describe.skipIf(!hasPtxas)('ptxas agrees now', () => {
  test('every templated row', () => {
    const script = new URL('./ptxas-type-lines.mjs', import.meta.url).pathname;
    const now = execFileSync('node', [script], { encoding: 'utf8' });
    expect(now).not.toContain('the table');
    expect(now).not.toContain('inconclusive');
    expect(now.trim().split('\n').length).toBe(ptxas.length);
  }, 120_000);
});

function diagnosticOf(src: string): { code: string; message: string; start: number } {
  try {
    parseInstruction(src);
  } catch (e) {
    if (!(e instanceof PtxError)) throw e;
    const d = e.diagnostics[0];
    if (!d) throw new Error('no diagnostic');
    return { code: d.code, message: d.message, start: d.span?.start ?? -1 };
  }
  throw new Error(`expected an error for ${src}`);
}

const list = (ts: string): string => ts.split(' ').map((t) => `\`.${t}\``).join(' ');
const MEM = 'b8 b16 b32 b64 b128 u8 u16 u32 u64 s8 s16 s32 s64 f32 f64';

describe('a wrong type is P005 naming the accepted types', () => {
  test.each([
    ['ld.global.f16 %rs1, [%rd1];', 'ld', '.f16', MEM],
    ['ld.global.nc.v2.bf16x2 {%r1, %r2}, [%rd1];', 'ld', '.bf16x2', MEM],
    ['st.shared.pred [%r1], %p1;', 'st', '.pred', MEM],
    ['ldu.global.f16x2 %r1, [%rd1];', 'ldu', '.f16x2', MEM],
    ['mov.f16 %rs1, %rs2;', 'mov', '.f16', 'pred b16 b32 b64 b128 u16 u32 u64 s16 s32 s64 f32 f64'],
    ['mov.u8 %rs1, %rs2;', 'mov', '.u8', 'pred b16 b32 b64 b128 u16 u32 u64 s16 s32 s64 f32 f64'],
    ['set.lt.u8.f32 %r1, %f1, %f2;', 'set', '.u8', 'b16 b32 b64 u16 u32 u64 s16 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64'],
    ['cvt.rn.f32.b32 %f1, %r1;', 'cvt', '.b32', 'u8 u16 u32 u64 s8 s16 s32 s64 f16 f16x2 bf16 bf16x2 tf32 f32 f64 e4m3x2 e5m2x2 e2m1x2 e2m3x2 e3m2x2 ue8m0x2 e4m3x4 e5m2x4 e2m3x4 e3m2x4 e2m1x4'],
    ['cvt.pred.u32 %p1, %r1;', 'cvt', '.pred', 'u8 u16 u32 u64 s8 s16 s32 s64 f16 f16x2 bf16 bf16x2 tf32 f32 f64 e4m3x2 e5m2x2 e2m1x2 e2m3x2 e3m2x2 ue8m0x2 e4m3x4 e5m2x4 e2m3x4 e3m2x4 e2m1x4'],
    ['cvt.pack.sat.u16.u32 %r1, %r2, %r3;', 'cvt.pack', '.u32', 'u16 s16 u8 s8 u4 s4 u2 s2 s32 b32'],
    ['atom.global.add.u16 %rs1, [%rd1], %rs2;', 'atom', '.u16', 'b16 b32 b64 b128 u32 u64 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64'],
    ['red.global.add.u8 [%rd1], %rs1;', 'red', '.u8', 'b32 b64 u32 u64 s32 s64 f16 f16x2 bf16 bf16x2 f32 f64'],
    ['redux.sync.add.u64 %rd1, %rd2, -1;', 'redux', '.u64', 'b32 u32 s32 f32'],
    ['bar.red.popc.u64 %rd1, 0, %p1;', 'bar', '.u64', 'u32 pred'],
    ['barrier.red.or.b32 %r1, 0, %p1;', 'barrier', '.b32', 'u32 pred'],
    ['mbarrier.init.shared.b32 [%r1], 4;', 'mbarrier.init', '.b32', 'b64'],
    ['mbarrier.arrive.shared.u64 %rd1, [%r1];', 'mbarrier.arrive', '.u64', 'b64'],
    ['mbarrier.try_wait.parity.shared.b32 %p1, [%r1], %r2;', 'mbarrier.try_wait', '.b32', 'b64'],
    ['mbarrier.pending_count.b32 %r1, %rd1;', 'mbarrier.pending_count', '.b32', 'b64'],
    ['cp.async.mbarrier.arrive.shared.b32 [%r1];', 'cp.async.mbarrier.arrive', '.b32', 'b64'],
    ['createpolicy.fractional.L2::evict_last.b32 %r1, 0f3F800000;', 'createpolicy', '.b32', 'b64'],
    ['setmaxnreg.inc.sync.aligned.u64 64;', 'setmaxnreg', '.u64', 'u32 s32'],
    ['tex.2d.v4.u64.f32 {%rd1, %rd2, %rd3, %rd4}, [t, {%f1, %f2}];', 'tex', '.u64', 'u32 s32 f16 f16x2 f32'],
    ['tld4.r.2d.v4.f64.f32 {%fd1, %fd2, %fd3, %fd4}, [t, {%f1, %f2}];', 'tld4', '.f64', 'u32 s32 f32'],
    ['txq.width.u32 %r1, [t];', 'txq', '.u32', 'b32'],
    ['suld.b.1d.u32.trap %r1, [s, {%r2}];', 'suld', '.u32', 'b8 b16 b32 b64'],
    ['sust.b.1d.f32.trap [s, {%r2}], %f1;', 'sust', '.f32', 'b8 b16 b32 b64'],
    ['sured.b.add.1d.f32.trap [s, {%r2}], %f1;', 'sured', '.f32', 'b32 b64 u32 u64 s32'],
    ['suq.width.u32 %r1, [s];', 'suq', '.u32', 'b32'],
  ])('%s', (src, row, bad, accepted) => {
    const d = diagnosticOf(src);
    expect(d.code).toBe('P005');
    expect(d.message).toBe(`\`${row}\` does not accept type \`${bad}\`; it accepts ${list(accepted)}`);
    // The caret is on the offending type word (parseInstruction puts the line after HEADER and the entry line).
    expect(d.start).toBe(`${HEADER}.visible .entry k()\n{\n`.length + src.indexOf(bad));
  });
});

describe('the accepted forms still parse', () => {
  test.each([
    'ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];', 'ld.global.b128 %rq1, [%rd1];', 'st.shared.v2.u8 [%r1], {%rs1, %rs2};',
    'ldu.global.u64 %rd1, [%rd2];', 'mov.b128 %rq1, {%rd1, %rd2};', 'mov.pred %p1, 1;', 'set.eq.u32.b64 %r1, %rd1, %rd2;',
    'set.lt.f16.f16 %rs1, %rs2, %rs3;', 'cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;', 'cvt.rna.tf32.f32 %r1, %f1;',
    'cvt.rzi.s32.f64 %r1, %fd1;', 'cvt.pack.sat.u4.s32.b32 %r1, %r2, %r3, %r4;', 'atom.global.cas.b128 %rq1, [%rd1], %rq2, %rq3;',
    'atom.global.add.noftz.bf16x2 %r1, [%rd1], %r2;', 'red.global.add.f64 [%rd1], %fd1;', 'redux.sync.min.s32 %r1, %r2, -1;',
    'redux.sync.max.NaN.f32 %f1, %f2, -1;', 'bar.red.and.pred %p1, 0, %p2;', 'barrier.red.popc.u32 %r1, 0, %p2;',
    'mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;', 'mbarrier.expect_tx.relaxed.cta.shared.b64 [%r1], 16;',
    'setmaxnreg.dec.sync.aligned.u32 40;', 'tex.2d.v2.f16x2.f32 {%r1, %r2}, [t, {%f1, %f2}];', 'suld.b.1d.v2.b64.trap {%rd1, %rd2}, [s, {%r1}];',
    'sured.b.add.1d.u64.trap [s, {%r1}], %rd1;', 'bar.sync 0;', 'barrier.sync.aligned 0;',
  ])('%s', (src) => expect(() => parseInstruction(src)).not.toThrow());
});
