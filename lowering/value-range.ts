/**
 * Analysis `value-range`: bounds of a u32 value computed without wrapping, so that its u32 value
 * is its true value, from constants, thread indices and sizes, and adds, multiplies, shifts and
 * masks of them; undefined when not known. The emitter folds positive address constants into a
 * memory access only where the base cannot have wrapped (lowering/wgsl/emit-memory.ts): shared
 * memory tile addresses built from %tid are the case that matters.
 */
import type { ValueId } from '../src/ir/entities.js';
import type { IrFunction } from '../src/ir/function.js';
import * as T from '../src/ir/types.js';

const MAX_DEPTH = 12;

export function u32Range(fn: IrFunction, v: ValueId, depth = 0): readonly [number, number] | undefined {
  const def = fn.defOf(v);
  if (def === undefined || depth > MAX_DEPTH || !T.isInt(def.type, 32)) return undefined;
  switch (def.op) {
    case 'const': { const c = Number(BigInt.asUintN(32, def.bits)); return [c, c]; }
    case 'special':
      // generous bounds (blocks have at most 1024 threads): only wrapping matters here
      if (def.register === 'tid') return [0, 0xffff];
      if (def.register === 'ntid') return [1, 0x10000];
      if (def.register === 'laneid') return [0, 31];
      return undefined;
    case 'ibinary': {
      const a = u32Range(fn, def.a, depth + 1);
      const b = a && u32Range(fn, def.b, depth + 1);
      if (!a || !b) return undefined;
      const r: [number, number] | undefined =
        def.kind === 'add' ? [a[0] + b[0], a[1] + b[1]]
          : def.kind === 'mul' ? [a[0] * b[0], a[1] * b[1]]
            : def.kind === 'shl' && b[0] === b[1] && b[0] < 32 ? [a[0] * 2 ** b[0], a[1] * 2 ** b[0]]
              : def.kind === 'shr_u' && b[0] === b[1] && b[0] < 32 ? [Math.floor(a[0] / 2 ** b[0]), Math.floor(a[1] / 2 ** b[0])]
                : def.kind === 'and' ? [0, Math.min(a[1], b[1])]
                  : undefined;
      return r && r[1] < 2 ** 32 ? r : undefined;
    }
    default: return undefined;
  }
}
