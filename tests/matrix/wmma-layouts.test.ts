// The translator's wmma layouts (src/translate/wmma-layouts.generated.ts, compacted by
// scripts/gen-wmma-layouts.mjs) decode to exactly the recording (kernels/wmma_layout.json), for
// every load and store the H100 ran: regenerate after re-recording.
import { describe, expect, it } from 'vitest';
import { accumulatorLayout, inputLayout, type WmmaAccumulator, type WmmaInput } from '../../src/translate/wmma-fragments.js';
import { LAYOUTS } from './wmma-reference.js';

describe('recorded wmma layouts', () => {
  it.each(Object.keys(LAYOUTS.fragments))('%s', (key) => {
    const [use, shape, type, order] = key.split('_') as [string, string, string, 'row' | 'col'];
    const f = LAYOUTS.fragments[key] as (typeof LAYOUTS.fragments)[string];
    const ours = use === 'a' || use === 'b' ? inputLayout(use, shape, type as WmmaInput, order) : accumulatorLayout(shape, type as WmmaAccumulator);
    expect(ours && { rows: ours.rows, cols: ours.cols, regs: ours.regs, per: ours.per, at: ours.at }).toEqual({ rows: f.rows, cols: f.cols, regs: f.regs, per: f.per, at: f.at });
  });
});
