// The video references (ref/video.ts) against outputs recorded on an NVIDIA GPU
// (tests/conformance/native/video-*, recorded with record_native.py). No WebGPU needed.
import { describe, expect, it } from 'vitest';
import { loadNative, mismatches } from './harness.js';
import { VIDEO_BATCHES, casesOf } from './video.forms.js';


describe.each(VIDEO_BATCHES.map((b) => [b.name, b] as const))('%s', (name, batch) => {
  it('reference matches the hardware recording', () => {
    const cases = casesOf(batch);
    const native = loadNative(name, cases);
    expect(native, `tests/conformance/native/${name}.bin.gz is missing`).not.toBeNull();
    const cut = cases.map((c, f) => ({ form: c.form, inputs: c.inputs.map((a) => a.slice(0, native?.[f]?.[0]?.length ?? 0)) }));
    expect(mismatches(cut, native ?? [], (f, ins) => (batch.forms[f] as (typeof batch.forms)[number]).ref(ins), 30)).toEqual([]);
  });
});
