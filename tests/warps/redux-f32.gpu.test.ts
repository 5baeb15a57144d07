// redux.sync.min/max.f32 with .abs and .NaN (sm_100a; no native recording: the GPU machine is
// sm_90) against a JS reference written from the ISA: min/max as min.f32/max.f32 (NaN inputs
// ignored, -0 below +0), .abs on each input, .NaN makes any NaN input give the canonical NaN.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/api.js';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { POISON } from './reference.js';

afterAll(() => releaseDefaultDevice());

const ptx = readFileSync(join(import.meta.dirname, '..', 'kernels', 'warp_redux_f32.ptx'), 'utf8');
const f = new Float32Array(1);
const u = new Uint32Array(f.buffer);
const bits = (x: number): number => { f[0] = x; return u[0] as number; };
const NAN = 0x7fffffff;

/** Lane values of the two warps: warp 0 without NaN (with -0 and +0), warp 1 with a NaN at lane 20. */
function input(): Uint32Array {
  const v = Array.from({ length: 64 }, (_, i) => bits(((i * 37) % 23 - 11) * 0.75));
  v[3] = 0x80000000; v[9] = 0; v[40] = 0x80000000; v[52] = 0x7fc00000;
  return Uint32Array.from(v);
}

const isNan = (b: number): boolean => (b & 0x7fffffff) > 0x7f800000;
const value = (b: number): number => { u[0] = b; return f[0] as number; };
function pick(a: number, b: number, max: boolean): number {
  if (isNan(a)) return b;
  if (isNan(b)) return a;
  const x = value(a); const y = value(b);
  if (x === y) return max ? (a & b) >>> 0 : (a | b) >>> 0;
  return (max ? x > y : x < y) ? a : b;
}
function reduce(lanes: number[], max: boolean, abs: boolean, nan: boolean): number {
  const xs = lanes.map((b) => (abs ? b & 0x7fffffff : b) >>> 0);
  if (nan && xs.some(isNan)) return NAN;
  return xs.reduce((a, b) => pick(a, b, max));
}

function reference(inp: Uint32Array): Uint32Array {
  const out = new Uint32Array(4 * inp.length);
  for (let t = 0; t < inp.length; t++) {
    const warp = Array.from(inp.subarray(t & ~31, (t & ~31) + 32));
    const half = warp.slice(t & 16, (t & 16) + 16);
    out.set([reduce(warp, false, false, false), reduce(warp, true, true, false), reduce(warp, false, false, true), reduce(half, true, true, true)], 4 * t);
  }
  return out;
}

describe.each(['auto', 'emulated'] as const)('redux.sync f32, warpPath %s', (warpPath) => {
  it('matches the ISA reference', async () => {
    const ctx = await createContext();
    try {
      const fn = ctx.loadModule(ptx, { warpPath }).getFunction('warp_redux_f32');
      const inp = input();
      const a = ctx.malloc(inp.byteLength);
      const b = ctx.malloc(4 * inp.byteLength);
      ctx.memcpyHtoD(a, inp);
      ctx.memcpyHtoD(b, new Uint32Array(4 * inp.length).fill(POISON));
      await fn.prepareAsync({ grid: 1, block: 64 }, [a, b]);
      fn.launch({ grid: 1, block: 64 }, [a, b]);
      const out = new Uint32Array(4 * inp.length);
      await ctx.memcpyDtoH(out, b);
      const want = reference(inp);
      expect(want[2]).not.toBe(want[4 * 40 + 2]); // the NaN warp differs: the test can fail
      expect([...out].map((x) => x.toString(16))).toEqual([...want].map((x) => x.toString(16)));
    } finally {
      ctx.destroy();
    }
  });
});
