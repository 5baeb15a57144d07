// The video references (ref/video.ts) against outputs recorded on an NVIDIA GPU
// (tests/conformance/native/video-*, recorded with record_native.py). No WebGPU needed.
import { describe, expect, it } from 'vitest';
import { referenceVsNative } from './harness.js';
import { VIDEO_BATCHES, casesOf } from './video.forms.js';

describe.each(VIDEO_BATCHES.map((b) => [b.name, b] as const))('%s', (name, batch) => {
  it('reference matches the hardware recording', () => {
    expect(referenceVsNative(name, casesOf(batch), (f, ins) => (batch.forms[f] as (typeof batch.forms)[number]).ref(ins))).toEqual([]);
  });
});
