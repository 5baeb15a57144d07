/**
 * The opcode handler table: PTX opcode -> handler. Opcodes whose meaning depends on the
 * instruction type (add.s32 vs add.f32) dispatch on it here.
 */
import type { Handler } from './handler.js';
import { cp } from './handlers-async-copy.js';
import { MATRIX_HANDLERS } from './handlers-matrix.js';
import { mbarrier } from './handlers-mbarrier.js';
import { mma } from './handlers-mma.js';
import { wmma } from './handlers-wmma.js';
import { wmmaSubgroupMatrix } from './wmma-subgroup-matrix.js';
import { DATA_HANDLERS } from './handlers-data.js';
import { FLOAT_HANDLERS, isFloatInstruction } from './handlers-float.js';
import { INT_HANDLERS } from './handlers-int.js';
import { MEMORY_HANDLERS } from './handlers-memory.js';
import { MISC_HANDLERS } from './handlers-misc.js';
import { VIDEO_HANDLERS } from './handlers-video.js';
import { WARP_HANDLERS, warpSync } from './handlers-warp.js';

function byType(intHandler: Handler | undefined, floatHandler: Handler | undefined): Handler | undefined {
  if (!intHandler) return floatHandler;
  if (!floatHandler) return intHandler;
  return (cx, inst) => (isFloatInstruction(inst) ? floatHandler(cx, inst) : intHandler(cx, inst));
}

const names = new Set([...Object.keys(INT_HANDLERS), ...Object.keys(FLOAT_HANDLERS)]);
const arithmetic: Record<string, Handler> = {};
for (const name of names) {
  const h = byType(INT_HANDLERS[name], FLOAT_HANDLERS[name]);
  if (h) arithmetic[name] = h;
}

/** `bar.warp.sync` is the `bar` row with the fixed word `warp`: a warp operation. */
function withWarpSync(bar: Handler | undefined): Handler {
  return (cx, inst) => (inst.modifiers.mode === 'warp' ? warpSync(cx, inst) : bar?.(cx, inst));
}

export const HANDLERS: Readonly<Record<string, Handler>> = {
  ...arithmetic,
  ...DATA_HANDLERS,
  ...MEMORY_HANDLERS,
  ...WARP_HANDLERS,
  ...MISC_HANDLERS,
  ...VIDEO_HANDLERS,
  cp,
  mbarrier,
  ...MATRIX_HANDLERS,
  mma,
  wmma: (cx, inst) => (cx.symbols.fragments ? wmmaSubgroupMatrix : wmma)(cx, inst),
  bar: withWarpSync(MEMORY_HANDLERS['bar']),
};
