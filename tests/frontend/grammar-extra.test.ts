/**
 * Forms added to the frontend after the first corpus: video byte/half selectors, vmad's
 * negated sources, opaque `.texref/.samplerref/.surfref` declarations, `bar.cta`, array
 * elements as operands (`a[3]`, `a[%r1]`, `a[%r1-1]`), WARP_SZ and constant expressions, tex's
 * `{…}|p` destination, st.async/red.async, tcgen05, mma.sp and block-scaled mma. Each parses to the expected typed AST and round-trips through the printer.
 */
import { describe, expect, test } from 'vitest';
import { parsePtx } from '../../src/ptx/parse.js';
import { printInstruction, printPtx } from '../../src/ptx/printer.js';
import { HEADER, parseInstruction, stripSpans } from './helpers.js';

function roundTrip(src: string): void {
  const inst = parseInstruction(src);
  const again = parseInstruction(printInstruction(inst));
  expect(stripSpans(again)).toEqual(stripSpans(inst));
}

const FAMILIES: Record<string, string[]> = {
  'constant expressions and array elements': [
    'add.u32 %r1, %r1, WARP_SZ-1;', 'mul.lo.u32 %r1, %r2, (4+1)*2;', 'mov.u64 %rd1, table+8;',
    'ld.global.u32 %r1, a[%r2];', 'mov.u64 %rd1, a[%r2-1];', 'st.global.u32 a[1], %r1;', 'ld.global.u32 %r1, a[%r2+3];',
  ],
  'vector register elements': [
    'mov.u32 %r1, %v.x;', 'mov.u32 r, v.w;', 'add.u32 %r1, %v.y, %v.z;', 'mov.u32 %v.y, %r1;', 'st.global.b16 [%rd1], x16.y;',
  ],
  'scalar video': [
    'vadd.s32.u32.s32.sat %r1, %r2.b0, %r3.h1;', 'vadd.s32.u32.s32.sat.add %r1, %r2.b3, %r3.b2, %r4;',
    'vadd.u32.u32.u32 %r1.b1, %r2, %r3, %r4;', 'vsub.s32.s32.s32.min %r1, %r2.h0, %r3, %r4;',
    'vabsdiff.u32.u32.u32.sat %r1, %r2, %r3;', 'vmin.s32.s32.s32.max %r1, %r2.b1, %r3.b2, %r4;',
    'vmax.u32.u32.u32 %r1.h1, %r2.h0, %r3.h1, %r4;', 'vshl.u32.u32.u32.clamp.add %r1, %r2, %r3, %r4;',
    'vshr.s32.s32.u32.wrap %r1, %r2.b2, %r3;', 'vmad.s32.s32.u32.sat.shr15 %r1, -%r2.h1, %r3.h0, -%r4;',
    'vmad.u32.u32.u32.po %r1, %r2, %r3, %r4;', 'vset.s32.u32.lt %r1, %r2, %r3;', 'vset.s32.s32.ne.max %r1, %r2.b0, %r3.b1, %r4;',
  ],
  'SIMD video': [
    'vadd2.s32.s32.u32.sat %r1.h10, %r2.h32, %r3.h10, %r4;', 'vsub4.u32.u32.u32 %r1.b3210, %r2.b7654, %r3.b3210, %r4;',
    'vavrg2.u32.u32.u32 %r1, %r2, %r3, %r4;', 'vabsdiff4.s32.s32.s32.add %r1, %r2.b4321, %r3.b0123, %r4;',
    'vmin2.s32.s32.s32.add %r1.h1, %r2, %r3, %r4;', 'vmax4.u32.u32.u32.sat %r1.b20, %r2, %r3, %r4;',
    'vset2.u32.u32.ne %r1, %r2, %r3, %r4;', 'vset4.s32.s32.gt.add %r1, %r2, %r3, %r4;',
  ],
  'operands and synchronization': [
    'bar.cta.sync 1;', 'bar.cta.sync 1, 64;', 'bar.cta.red.and.pred p, 1, q;', 'bar.cta.red.popc.u32 %r1, 1, q;',
    'bar.cta.arrive 1, 64;', 'mov.u32 %r1, A[5];', 'ld.global.u32 %r1, a[0];', 'ld.global.u32 %r1, a[N-1];',
    'tex.3d.v4.s32.s32 {%r1, %r2, %r3, %r4}|p, [tex_a, {%f1, %f2, %f3, %f4}];',
    '@p call (d), h, (a, b);', '@!p call.uni f, ();',
  ],
  'async stores and tensor memory': [
    'st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];',
    'st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%r1], {%r2, %r3, %r4, %r5}, [%r6];',
    'red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r1], %r2, [%r3];',
    'red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.u32 [%r1], %r2, [%r3];',
    'st.bulk.weak.shared::cta [%rd1], 128, 0;',
    'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 32;', 'tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;',
    'tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;',
    'tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r1, %r2}, [%r3];', 'tcgen05.st.sync.aligned.16x64b.x1.unpack::16b.b32 [%r3], {%r1};',
    'tcgen05.wait::ld.sync.aligned;', 'tcgen05.wait::st.sync.aligned;',
    'tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%rd1];',
    'tcgen05.cp.cta_group::1.128x256b [%r1], %rd1;', 'tcgen05.shift.cta_group::1.down [%r1];',
    'tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, p;', 'tcgen05.fence::before_thread_sync;',
    'tcgen05.fence::after_thread_sync;',
  ],
  'single-bit mma': [
    'mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc {%r1, %r2}, {%r3}, {%r4}, {%r1, %r2};',
    'mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, {%r1, %r2, %r3, %r4};',
  ],
  'sparse and block-scaled mma': [
    'mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%f5, %f6, %f7, %f8}, %r9, 0x0;',
    'mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.satfinite.s32.s8.s8.s32 {%r1, %r2, %r3, %r4}, {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r1, %r2, %r3, %r4}, %r9, 0x1;',
    'mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e4m3.e5m2.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};',
    'mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1x2.e2m1x2.f32.ue8m0 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8}, %r7, {0, 0}, %r8, {0, 0};',
  ],
};

describe('new instruction forms parse and round-trip', () => {
  for (const [family, lines] of Object.entries(FAMILIES)) {
    test.each(lines)(`${family}: %s`, (line) => roundTrip(line));
  }
});

describe('typed results of the new forms', () => {
  test('byte selectors live on the register operand', () => {
    const i = parseInstruction('vadd.s32.u32.s32.sat %r1, %r2.b0, %r3.h1;');
    expect(stripSpans(i.operands)).toEqual([
      { kind: 'register', name: '%r1' },
      { kind: 'register', name: '%r2', selector: 'b0' },
      { kind: 'register', name: '%r3', selector: 'h1' },
    ]);
  });
  test('vmad negated source is a neg expression', () => {
    const i = parseInstruction('vmad.s32.s32.u32 %r1, -%r2.h1, %r3, %r4;');
    expect(stripSpans(i.operands[1])).toEqual({ kind: 'expression', op: 'neg', args: [{ kind: 'register', name: '%r2', selector: 'h1' }] });
  });
  test('WARP_SZ is a name; constant expressions stay expressions', () => {
    expect(stripSpans(parseInstruction('mov.u32 %r1, WARP_SZ;').operands[1])).toEqual({ kind: 'symbol', name: 'WARP_SZ' });
    expect(stripSpans(parseInstruction('add.u32 %r1, %r1, WARP_SZ-1;').operands[2])).toEqual({
      kind: 'expression', op: '-', args: [{ kind: 'symbol', name: 'WARP_SZ' }, { kind: 'integer', value: 1n }],
    });
  });
  test('WARP_SZ as an array dimension', () => {
    const m = parsePtx(`${HEADER}.visible .entry k()\n{\n.shared .u32 s[WARP_SZ];\nret;\n}\n`);
    const f = m.items[0];
    expect(f?.kind === 'function' && f.body?.[0]).toMatchObject({ kind: 'variable', name: 's', arrayDims: [32] });
  });
  test('array element with a register index, plus or minus a constant', () => {
    expect(stripSpans(parseInstruction('ld.global.u32 %r1, a[%r2];').operands[1])).toEqual({
      kind: 'expression', op: 'index', args: [{ kind: 'symbol', name: 'a' }, { kind: 'register', name: '%r2' }],
    });
    expect(stripSpans(parseInstruction('mov.u64 %rd1, a[%r2-1];').operands[1])).toEqual({
      kind: 'expression', op: 'index', args: [{ kind: 'symbol', name: 'a' }, { kind: 'expression', op: '-', args: [{ kind: 'register', name: '%r2' }, { kind: 'integer', value: 1n }] }],
    });
  });
  test('array element operand', () => {
    const i = parseInstruction('mov.u32 %r1, A[5];');
    expect(stripSpans(i.operands[1])).toEqual({ kind: 'expression', op: 'index', args: [{ kind: 'symbol', name: 'A' }, { kind: 'integer', value: 5n }] });
  });
  test('tex vector|predicate destination', () => {
    const i = parseInstruction('tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}|%p1, [t, {%f5, %f6}];');
    expect(stripSpans(i.operands[0])).toMatchObject({ kind: 'vector', predicate: { kind: 'register', name: '%p1' } });
  });
  test('bar.cta carries its scope', () => {
    expect(parseInstruction('bar.cta.sync 1;').modifiers).toMatchObject({ scope: 'cta', barrier: 'sync' });
  });
  test('opaque texture, sampler and surface declarations', () => {
    const src = `${HEADER}.global .texref tex1;\n.global .surfref surf1;\n` +
      `.global .samplerref tsamp1 = { addr_mode_0 = clamp_to_border, filter_mode = nearest };\n` +
      `.visible .entry k(.param .texref t, .param .samplerref s, .param .surfref u)\n{\n\tret;\n}\n`;
    const m = parsePtx(src);
    expect(stripSpans(m.items.slice(0, 3))).toEqual([
      { kind: 'variable', space: { space: 'global' }, type: 'b64', opaque: 'texref', name: 'tex1' },
      { kind: 'variable', space: { space: 'global' }, type: 'b64', opaque: 'surfref', name: 'surf1' },
      {
        kind: 'variable', space: { space: 'global' }, type: 'b64', opaque: 'samplerref', name: 'tsamp1',
        fields: [{ name: 'addr_mode_0', value: 'clamp_to_border' }, { name: 'filter_mode', value: 'nearest' }],
      },
    ]);
    const f = m.items[3];
    expect(f?.kind === 'function' && f.params.map((p) => p.opaque)).toEqual(['texref', 'samplerref', 'surfref']);
    expect(stripSpans(parsePtx(printPtx(m)))).toEqual(stripSpans(m));
  });
});

describe('per-opcode type checking (from the opcode table)', () => {
  const errorOf = (src: string): string => {
    try {
      parseInstruction(src);
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error(`expected an error for ${src}`);
  };
  test.each([
    ['add.b8 %r1, %r2, %r3;', '`add` does not accept type `.b8`; it accepts `.u16` `.u32` `.u64` `.s16` `.s32` `.s64` `.u16x2` `.s16x2` `.f16` `.f16x2` `.bf16` `.bf16x2` `.f32` `.f64`'],
    ['popc.u32 %r1, %r2;', '`popc` does not accept type `.u32`; it accepts `.b32` `.b64`'],
    ['sin.approx.f64 %rd1, %rd2;', '`sin` does not accept type `.f64`; it accepts `.f32`'],
    ['shfl.sync.idx.f32 %f1, %f2, 0, 31, -1;', '`shfl` does not accept type `.f32`; it accepts `.b32`'],
    ['lop3.b64 %rd1, %rd2, %rd3, %rd4, 0x96;', '`lop3` does not accept type `.b64`; it accepts `.b32`'],
  ])('%s', (src, message) => {
    const m = errorOf(src);
    expect(m).toContain('error[P005]');
    expect(m).toContain(message);
  });
  test.each(['add.f16x2 %r1, %r2, %r3;', 'setp.lt.bf16 %p1, %rs1, %rs2;', 'and.pred p, p, q;', 'shr.s64 %rd1, %rd2, 3;'])(
    'accepted: %s',
    (src) => expect(() => parseInstruction(src)).not.toThrow(),
  );
});

describe('vector register elements', () => {
  test('`.x .y .z .w` and `.r .g .b .a` name elements 0..3, with or without `%`', () => {
    const elements = (src: string) => parseInstruction(src).operands.map((o) => (o.kind === 'register' ? [o.name, o.component] : o.kind));
    expect(elements('add.u32 %v.x, %v.w, q.b;')).toEqual([['%v', 0], ['%v', 3], ['q', 2]]);
    expect(elements('mov.u32 a.g, b.a;')).toEqual([['a', 1], ['b', 3]]);
    // a video selector is not an element
    expect(parseInstruction('vadd.s32.u32.s32 %r1, %r2.b0, %r3.h1;').operands.map((o) => (o.kind === 'register' ? o.component : o.kind))).toEqual([undefined, undefined, undefined]);
  });
});
