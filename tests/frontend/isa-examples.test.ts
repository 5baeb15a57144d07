/**
 * The ISA text's own examples (isa-examples.json, extracted by isa-examples.mjs from the
 * English ISA and the 7.8 translation): every statement parses inside a kernel and
 * round-trips through the printer, except the ones listed below, which are not valid PTX
 * as printed in the documents (prose, placeholders, typos, missing `;`) and must be
 * rejected with a PtxError — never a crash.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { PtxError } from '../../src/diagnostics/ptx-error.js';
import { printInstruction } from '../../src/ptx/printer.js';
import { parseBody, parseInstruction, stripSpans } from './helpers.js';

const examples = JSON.parse(readFileSync(new URL('./isa-examples.json', import.meta.url), 'utf8')) as { source: string; code: string }[];

/** Statement → why it is not PTX. */
const NOT_PTX: Record<string, string> = {
  'is equivalent to: .global .texref tex_a;': 'prose',
  'this can be used to initialize a jump table to be used with indirect branches. Device function names appearing in initializers represent the address of the first instruction in the function;': 'prose',
  'char c[4];': 'C struct member', 'struct { double dbl;': 'C struct', 'break;': 'C pseudo-code',
  'i < 4;': 'C loop', 'i < 2;': 'C loop', 'i < 2 * size;': 'C loop',
  'bfe.b32 d,a,start,len;': 'bfe accepts .u32/.u64/.s32/.s64 only (ptxas 13 agrees: "Unexpected instruction types")',
  'or.b32 mask mask,0x00010001 or.pred p,q,r;': 'two statements with missing `,` and `;`',
  'st.release [M];': 'memory-model notation', 'atom.acq_rel [M];': 'memory-model notation', 'st.relaxed [M];': 'memory-model notation',
  'ld.acquire [M];': 'memory-model notation', 'ld.relaxed [M];': 'memory-model notation',
  '@p opcode;': 'placeholder opcode', '@p opcode a;': 'placeholder opcode', '@p opcode d, a;': 'placeholder opcode',
  '@p opcode d, a, b;': 'placeholder opcode', '@p opcode d, a, b, c;': 'placeholder opcode',
  'setp.CmpOp.bf16 p, a, b;': 'placeholder modifier', 'setp.CmpOp.BoolOp.bf16 p, a, b, {!}c;': 'placeholder modifier',
  'setp.CmpOp.bf16x2 p|q, a, b;': 'placeholder modifier', 'setp.CmpOp.BoolOp.bf16x2 p|q, a, b, {!}c;': 'placeholder modifier',
  'ld.gloal.nc.L1::evict_last.u32 d, [a];': 'typo `.gloal`',
  'createpolicy.cvt.L2.b64 cache-policy, access-property;': 'placeholder operands', 'createpolicy.cvt.L2.b64 policy, access-prop;': 'placeholder operands',
  'isspacep.shared::cluster ishrdany sptr;': 'missing `,`', 'cvt.frnd2.relu.bf16.f32 d, a;': 'placeholder modifier',
  'cvt.rz.relu.bf16.f3 2 b, f;': 'typo `.f3 2`',
  'cvt.bf16.f16.rz b, f cvt.bf16.u64.rz b, u cvt.s8.bf16.rpi s, b cvt.bf16.bf16.rpi b1, b2 cvt.rn.satfinite.e4m3x2.f32 d, a, b;': 'statements without `;`',
  'cvt.pack.sat.convertType.abType d, a, b;': 'placeholder modifiers',
  'cp.async.cg.shared.global.L2::chache_hint [%r0], [%r2], 16, q, cache-policy;': 'typo `chache_hint`',
  '@!p div.f32 ratio,x,y @q bra L23;': 'two statements without `;`', 'fence.proxy.proxykind;': 'placeholder modifier',
  'membar.proxy.proxykind;': 'placeholder modifier', 'vote.sync.ballot.b32 d, {!}a, membermask;': 'placeholder `{!}`',
  'griddepcontrol.action;': 'placeholder modifier',
};

describe('ISA examples', () => {
  test('the extraction found the examples', () => expect(examples.length).toBeGreaterThan(500));
  test.each(examples.filter((e) => !(e.code in NOT_PTX)).map((e) => [e.source, e.code]))('%s: %s', (_source, code) => {
    const m = parseBody(code);
    const f = m.items[0];
    const inst = f?.kind === 'function' ? f.body?.find((s) => s.kind === 'instruction') : undefined;
    if (inst?.kind === 'instruction') {
      expect(stripSpans(parseInstruction(printInstruction(inst)))).toEqual(stripSpans(inst));
    }
  });
  test.each(Object.keys(NOT_PTX))('not PTX, rejected with a PtxError: %s', (code) => {
    expect(() => parseBody(code)).toThrow(PtxError);
  });
});
