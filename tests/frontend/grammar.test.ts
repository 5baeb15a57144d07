/**
 * Grammar tests per instruction family, from the ISA's syntax examples: each line parses
 * (inside a kernel), decodes into the expected typed modifiers and operands, and
 * round-trips through the printer.
 */
import { describe, expect, test } from 'vitest';
import { printInstruction } from '../../src/ptx/printer.js';
import { parseInstruction, stripSpans } from './helpers.js';

const DECLS = '.reg .pred p, q, %p<4>;\n.reg .b32 r, %r<9>;\n.reg .b64 %rd<9>;\n.reg .f32 %f<9>;\n';

function roundTrip(src: string): void {
  const inst = parseInstruction(DECLS + src);
  const again = parseInstruction(DECLS + printInstruction(inst));
  expect(stripSpans(again)).toEqual(stripSpans(inst));
}

const FAMILIES: Record<string, string[]> = {
  'integer arithmetic': [
    'add.s32 %r1, %r2, %r3;', 'add.sat.s32 %r1, %r2, -5;', 'add.cc.u32 %r1, %r2, %r3;', 'addc.cc.u32 %r1, %r2, %r3;',
    'sub.u64 %rd1, %rd2, 0xFFFFFFFFFFFFFFFF;', 'mul.wide.s32 %rd1, %r1, 4;', 'mul.hi.u32 %r1, %r2, %r3;',
    'mad.lo.s32 %r1, %r2, %r3, %r4;', 'mad.lo.cc.u32 %r1, %r2, %r3, %r4;', 'madc.hi.cc.u32 %r1, %r2, %r3, %r4;',
    'mul24.lo.s32 %r1, %r2, %r3;', 'mad24.hi.sat.s32 %r1, %r2, %r3, %r4;', 'sad.u32 %r1, %r2, %r3, %r4;',
    'div.s32 %r1, %r2, %r3;', 'rem.u32 %r1, %r2, 7;', 'abs.s32 %r1, %r2;', 'neg.s32 %r1, %r2;',
    'min.u32 %r1, %r2, %r3;', 'max.s32 %r1, %r2, %r3;', 'popc.b32 %r1, %r2;', 'clz.b64 %r1, %rd2;',
    'bfind.shiftamt.u32 %r1, %r2;', 'fns.b32 %r1, %r2, %r3, 1;', 'brev.b32 %r1, %r2;', 'bfe.u32 %r1, %r2, 4, 8;',
    'bfi.b32 %r1, %r2, %r3, 4, 8;', 'szext.wrap.u32 %r1, %r2, 4;', 'bmsk.clamp.b32 %r1, %r2, 4;',
    'dp4a.u32.s32 %r1, %r2, %r3, %r4;', 'dp2a.lo.s32.s32 %r1, %r2, %r3, %r4;',
  ],
  'logic and shift': [
    'and.b32 %r1, %r2, %r3;', 'or.pred p, p, q;', 'xor.b64 %rd1, %rd2, %rd3;', 'not.b32 %r1, %r2;', 'cnot.b32 %r1, %r2;',
    'lop3.b32 %r1, %r2, %r3, %r4, 0x96;', 'shf.l.wrap.b32 %r1, %r2, %r3, %r4;', 'shl.b32 %r1, %r2, 3;', 'shr.s32 %r1, %r2, %r3;',
    'prmt.b32.f4e %r1, %r2, %r3, %r4;', 'prmt.b32 %r1, %r2, %r3, 0x3210;',
  ],
  'floating point': [
    'add.rn.ftz.f32 %f1, %f2, %f3;', 'mul.rz.f32 %f1, %f2, 0f3F800000;', 'fma.rn.sat.f32 %f1, %f2, %f3, %f4;',
    'fma.rn.relu.bf16 %r1, %r2, %r3, %r4;', 'div.approx.ftz.f32 %f1, %f2, %f3;', 'div.full.f32 %f1, %f2, %f3;',
    'div.rn.f64 %rd1, %rd2, 0d4000000000000000;', 'rcp.approx.ftz.f64 %rd1, %rd2;', 'sqrt.rn.f32 %f1, %f2;',
    'rsqrt.approx.f32 %f1, %f2;', 'sin.approx.ftz.f32 %f1, %f2;', 'cos.approx.f32 %f1, %f2;', 'lg2.approx.f32 %f1, %f2;',
    'ex2.approx.ftz.f32 %f1, %f2;', 'tanh.approx.f32 %f1, %f2;', 'min.NaN.f32 %f1, %f2, %f3;', 'max.xorsign.abs.f32 %f1, %f2, %f3;',
    'testp.finite.f32 p, %f1;', 'copysign.f32 %f1, %f2, %f3;', 'abs.ftz.f32 %f1, %f2;', 'neg.f64 %rd1, %rd2;',
  ],
  'compare and select': [
    'setp.lt.s32 %p1, %r1, %r2;', 'setp.ne.and.u32 p|q, %r1, 0, !%p2;', 'setp.gtu.ftz.f32 %p1, %f1, 0f00000000;',
    'set.lt.u32.s32 %r1, %r2, %r3;', 'selp.b32 %r1, %r2, %r3, %p1;', 'slct.ftz.f32.s32 %f1, %f2, %f3, %r1;',
  ],
  'data movement': [
    'mov.u32 %r1, %tid.x;', 'mov.u32 %r1, %laneid;', 'mov.u64 %rd1, %clock64;', 'mov.u32 %r1, %envreg3;',
    'mov.b64 %rd1, {%r1, %r2};', 'mov.b32 {%r1, _}, %r2;', 'ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];',
    'ld.global.nc.f32 %f1, [%rd1];', 'ld.param.u64 %rd1, [k_param_0];', 'ld.shared.u32 %r1, [%rd1+-4];',
    'ld.relaxed.gpu.global.L1::no_allocate.b32 %r1, [%rd1];', 'ld.global.L2::cache_hint.b32 %r1, [%rd1], %rd2;',
    'ld.acquire.sys.global.b32 %r1, [%rd1];', 'ld.volatile.shared.u8 %r1, [%rd1];', 'ldu.global.f32 %f1, [%rd1];',
    'st.global.v2.f32 [%rd1], {%f1, %f2};', 'st.release.cta.shared::cta.b32 [%rd1], %r1;', 'st.global.wt.u32 [%rd1+8], %r1;',
    'st.local.u32 [__local_depot0+4], %r1;', 'prefetch.global.L2 [%rd1];', 'prefetchu.L1 [%rd1];',
    'isspacep.shared p, %rd1;', 'cvta.to.global.u64 %rd1, %rd2;', 'cvta.shared.u64 %rd1, smem;',
    'mapa.shared::cluster.u32 %r1, %r2, %r3;', 'getctarank.shared::cluster.u32 %r1, %r2;',
  ],
  conversion: [
    'cvt.rn.f32.s32 %f1, %r1;', 'cvt.rzi.s32.f32 %r1, %f1;', 'cvt.u64.u32 %rd1, %r1;', 'cvt.rn.satfinite.e4m3x2.f32 %r1, %f1, %f2;',
    'cvt.rn.relu.f16x2.f32 %r1, %f1, %f2;', 'cvt.pack.sat.u8.s32.b32 %r1, %r2, %r3, %r4;', 'cvt.rna.tf32.f32 %r1, %f1;',
  ],
  'control flow': [
    'bra.uni $L__BB0_2;', '@%p1 bra $L__BB0_2;', '@!%p1 bra $L__BB0_2;', '@p ret;', 'exit;', 'ret.uni;',
    'call.uni (retval0), _Z3fooi, (param0, param1);', 'call.uni _Z3barv, ();', 'call (retval0), %rd1, (param0), prototype_0;',
    'brx.idx %r1, $L_table;',
  ],
  synchronization: [
    'bar.sync 0;', 'bar.sync 1, 128;', 'bar.arrive 2, 64;', 'bar.red.popc.u32 %r1, 0, p;', 'bar.red.and.pred p, 0, q;',
    'bar.warp.sync -1;', 'barrier.sync.aligned 0;', 'barrier.cluster.arrive.release.aligned;', 'barrier.cluster.wait;',
    'membar.gl;', 'membar.cta;', 'fence.acq_rel.gpu;', 'fence.sc.sys;', 'fence.proxy.async;', 'fence.mbarrier_init.release.cluster;',
    'griddepcontrol.wait;', 'griddepcontrol.launch_dependents;', 'nanosleep.u32 100;', 'trap;', 'brkpt;',
  ],
  atomics: [
    'atom.global.add.u32 %r1, [%rd1], 1;', 'atom.global.cas.b32 %r1, [%rd1], %r2, %r3;', 'atom.shared.exch.b64 %rd1, [%rd2], %rd3;',
    'atom.acq_rel.gpu.global.max.s32 %r1, [%rd1], %r2;', 'atom.global.add.noftz.f16 %r1, [%rd1], %r2;',
    'red.global.add.f32 [%rd1], %f1;', 'red.relaxed.sys.global.inc.u32 [%rd1], 10;',
  ],
  warp: [
    'shfl.sync.down.b32 %r1, %r2, 16, 31, -1;', 'shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 0x1f, 0xffffffff;', 'shfl.up.b32 %r1, %r2, 1, 0;',
    'vote.sync.ballot.b32 %r1, %p1, -1;', 'vote.all.pred %p1, %p2;', 'vote.sync.any.pred %p1, !%p2, %r1;',
    'match.any.sync.b32 %r1, %r2, -1;', 'activemask.b32 %r1;', 'redux.sync.add.s32 %r1, %r2, -1;', 'elect.sync %r1|%p1, -1;',
  ],
  'matrix and async': [
    'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};',
    'ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%rd1];',
    'ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r1, %r2}, [%rd1];',
    'stmatrix.sync.aligned.m8n8.x1.shared.b16 [%rd1], {%r1};', 'movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;',
    'wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], %r1;',
    'wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1, %f2}, {%r1}, {%r2}, {%f3, %f4};',
    'wgmma.fence.sync.aligned;', 'wgmma.commit_group.sync.aligned;', 'wgmma.wait_group.sync.aligned 0;',
    'cp.async.ca.shared.global [%rd1], [%rd2], 4;', 'cp.async.cg.shared.global.L2::128B [%rd1], [%rd2], 16, %r1;',
    'cp.async.commit_group;', 'cp.async.wait_group 0;', 'cp.async.wait_all;',
    'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd2], %r1, [%rd3];',
    'cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd1], [%rd2, {%r1, %r2}], [%rd3];',
    'mbarrier.init.shared.b64 [%rd1], 32;', 'mbarrier.arrive.shared.b64 %rd1, [%rd2];',
    'mbarrier.try_wait.parity.shared::cta.b64 %p1, [%rd1], %r1;', 'mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%rd1], %r1;',
  ],
  'textures, surfaces, misc': [
    'tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex_A, {%f5, %f6}];', 'tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex_A, smp, {%f5, %f6}];',
    'txq.width.b32 %r1, [tex_A];', 'suld.b.2d.v4.b32.trap {%r1, %r2, %r3, %r4}, [surf_B, {%r5, %r6}];',
    'sust.b.1d.b32.clamp [surf_B, {%r1}], %r2;', 'suq.width.b32 %r1, [surf_A];', 'istypep.texref p, tex_A;',
    'stacksave.u64 %rd1;', 'stackrestore.u64 %rd1;', 'alloca.u64 %rd1, %rd2;', 'discard.global.L2 [%rd1], 128;',
    'createpolicy.fractional.L2::evict_last.b64 %rd1, 0f3F800000;', 'applypriority.global.L2::evict_normal [%rd1], 128;',
    'setmaxnreg.inc.sync.aligned.u32 232;', 'pmevent 1;', 'vadd.s32.u32.s32.sat %r1, %r2, %r3;',
  ],
};

describe('instruction families parse and round-trip', () => {
  for (const [family, lines] of Object.entries(FAMILIES)) {
    test.each(lines)(`${family}: %s`, (line) => roundTrip(line));
  }
});

describe('decoded modifiers and operands', () => {
  const cases: [string, object][] = [
    ['cvt.rn.f32.s32 %f1, %r1;', { opcode: 'cvt', modifiers: { types: ['f32', 's32'], rounding: 'rn' } }],
    ['ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];', { opcode: 'ld', modifiers: { space: { space: 'global' }, vector: 4, types: ['f32'] } }],
    ['setp.lt.s32 %p1, %r1, %r2;', { modifiers: { compare: 'lt', types: ['s32'] } }],
    ['mul.wide.s32 %rd1, %r1, %r2;', { modifiers: { mulMode: 'wide', types: ['s32'] } }],
    ['atom.global.add.u32 %r1, [%rd1], 1;', { modifiers: { space: { space: 'global' }, atomicOp: 'add', types: ['u32'] } }],
    ['bar.sync 0;', { opcode: 'bar', modifiers: { barrier: 'sync', types: [] } }],
    ['barrier.sync.aligned 0;', { opcode: 'barrier', modifiers: { barrier: 'sync', aligned: true } }],
    ['bar.warp.sync -1;', { opcode: 'bar', modifiers: { mode: 'warp', barrier: 'sync' } }],
    ['cvta.to.global.u64 %rd1, %rd2;', { modifiers: { to: true, space: { space: 'global' }, types: ['u64'] } }],
    ['shfl.sync.down.b32 %r1, %r2, 16, 31, -1;', { modifiers: { sync: true, shfl: 'down', types: ['b32'] } }],
    ['ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];', { modifiers: { cache: 'nc', vector: 4 } }],
    ['st.shared::cta.b32 [%rd1], %r1;', { modifiers: { space: { space: 'shared', qualifier: 'cta' } } }],
    ['cvt.pack.sat.u8.s32.b32 %r1, %r2, %r3, %r4;', { opcode: 'cvt.pack', modifiers: { sat: true, types: ['u8', 's32', 'b32'] } }],
    ['cp.async.wait_group 0;', { opcode: 'cp', modifiers: { mode: 'async.wait_group' } }],
    ['min.NaN.f32 %f1, %f2, %f3;', { modifiers: { nan: true } }],
    ['ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r1, %r2, %r3, %r4}, [%rd1];', { modifiers: { shape: 'm8n8', count: 4, trans: true } }],
    ['mov.u32 %r1, %tid.x;', { operands: [{ kind: 'register', name: '%r1' }, { kind: 'special', name: 'tid', component: 'x' }] }],
    ['mov.u32 %r1, %envreg3;', { operands: [{}, { kind: 'special', name: 'envreg', index: 3 }] }],
    ['mov.f32 %f1, 0f3F800000;', { operands: [{}, { kind: 'float', bits: 0x3f800000n, width: 32 }] }],
    ['mov.f64 %rd1, 1.5;', { operands: [{}, { kind: 'float', bits: 0x3ff8000000000000n, width: 64 }] }],
    ['mov.b64 %rd1, 0xFFFFFFFFFFFFFFFF;', { operands: [{}, { kind: 'integer', value: 0xffffffffffffffffn }] }],
    ['add.s32 %r1, %r2, -1;', { operands: [{}, {}, { kind: 'integer', value: -1n }] }],
    ['ld.shared.u32 %r1, [%rd1+-4];', { operands: [{}, { kind: 'address', base: { name: '%rd1' }, offset: -4n }] }],
    ['@!%p1 bra.uni L;', { guard: { negated: true, register: { name: '%p1' } }, modifiers: { uni: true }, operands: [{ kind: 'symbol', name: 'L' }] }],
    ['setp.ne.and.u32 p|_, %r1, 0, !q;', { operands: [{ kind: 'pair', first: { name: 'p' }, second: { kind: 'sink' } }, {}, {}, { kind: 'negated' }] }],
    ['call.uni (retval0), f, (a, b);', { opcode: 'call', operands: [{ kind: 'vector', elements: [{ name: 'retval0' }] }, { kind: 'symbol', name: 'f' }, { kind: 'vector', elements: [{}, {}] }] }],
    ['mov.u32 %r1, 4*8+2;', { operands: [{}, { kind: 'expression', op: '+', args: [{ kind: 'expression', op: '*' }, { kind: 'integer', value: 2n }] }] }],
  ];
  test.each(cases)('%s', (src, expected) => {
    expect(stripSpans(parseInstruction(DECLS + src))).toMatchObject(expected);
  });
});
