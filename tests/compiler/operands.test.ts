// operandsOf reads the common instruction shapes by field name (src/ir/inst.ts); OPERANDS stays
// the one list of operand fields that the printer, mapOperands and someOperand read. Both ways
// must name the same operands in the same order for every op, on synthetic instructions (every
// op, every field filled) and on the IR of real kernels; someOperand visits them in that order.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SourceFile } from '../../src/diagnostics/source.js';
import { parsePtx } from '../../src/ptx/parse.js';
import { buildModule } from '../../src/translate/build-module.js';
import { OPERANDS, operandFields, operandsOf, someOperand, type Inst } from '../../src/ir/inst.js';
import type { ValueId } from '../../src/ir/entities.js';

describe('operandsOf', () => {
  it('agrees with OPERANDS for every op, each field holding a distinct value', () => {
    for (const [op, fields] of Object.entries(OPERANDS)) {
      const inst: Record<string, unknown> = { op, type: { kind: 'int', bits: 32 } };
      (fields as readonly string[]).forEach((f, k) => { inst[f] = 100 + k; });
      const expected = (fields as readonly string[]).map((_, k) => 100 + k);
      expect(operandsOf(inst as unknown as Inst), op).toEqual(expected);
      expect(operandFields(inst as unknown as Inst), op).toEqual(expected);
      const visited: ValueId[] = [];
      expect(someOperand(inst as unknown as Inst, (v) => { visited.push(v); return false; }), op).toBe(false);
      expect(visited, op).toEqual(expected);
      // it stops at the first operand that holds
      if (expected.length > 1) expect(someOperand(inst as unknown as Inst, (v) => { visited.push(v); return v === 100; }), op).toBe(true);
      expect(visited.length, op).toBe(expected.length + (expected.length > 1 ? 1 : 0));
    }
  });

  it('agrees with OPERANDS on every instruction of real kernels', () => {
    let checked = 0;
    for (const file of ['tests/kernels/block_reduce.ptx', 'tests/corpus/kernels/mathlib.sm80.ptx', 'tests/kernels/warp_shfl.ptx']) {
      const text = readFileSync(file, 'utf8');
      const module = buildModule(parsePtx(text, file), new SourceFile(file, text), []);
      for (const fn of module.functions) {
        for (const d of fn.insts) {
          const ops = operandsOf(d.inst);
          expect(ops).toEqual(operandFields(d.inst));
          expect(someOperand(d.inst, () => true)).toBe(ops.length > 0);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('returns a fresh array (callers may keep or change it)', () => {
    const inst = { op: 'ibinary', kind: 'add', type: { kind: 'int', bits: 32 }, a: 1 as ValueId, b: 2 as ValueId } as Inst;
    const a = operandsOf(inst);
    a.push(3 as ValueId);
    expect(operandsOf(inst)).toEqual([1, 2]);
  });
});
