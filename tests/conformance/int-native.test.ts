// The ISA-text references (ref/int.ts) against outputs recorded on an NVIDIA H100
// (tests/conformance/native/int-*, recorded with record_native.py). No WebGPU needed.
import { describe, expect, it } from 'vitest';
import { referenceVsNative } from './harness.js';
import { INT_BATCHES, casesOf } from './int-cases.forms.js';

// int-extra holds forms newer than the recording (sm_100) or added after it.
const RECORDED = ['int-arith16', 'int-arith32', 'int-arith64', 'int-bits32', 'int-carry', 'int-lop3', 'int-simd16', 'int-cvt8'];

describe.each(INT_BATCHES.filter((b) => RECORDED.includes(b.name)).map((b) => [b.name, b] as const))('%s', (name, batch) => {
  it('reference matches the hardware recording', () => {
    expect(referenceVsNative(name, casesOf(batch), (f, ins) => (batch.forms[f] as (typeof batch.forms)[number]).ref(ins))).toEqual([]);
  });
});
