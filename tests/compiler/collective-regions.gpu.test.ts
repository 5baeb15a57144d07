// Collective replay regions (lowering/wgsl/replay-regions.ts): on the native warp path a shuffle
// reduction or scan is one region whose shuffles are members, replayed by the whole subgroup when
// any lane's test fails (`subgroupAny`). A warp butterfly sum and a shfl.up scan run on values
// that make lanes fail while their partners pass (subnormals, exact cancellation, sums around the
// 2^-100 threshold, next to ordinary values), against the same butterfly and scan in JS with
// exact f32 rounding; on the GPU machine (32-lane subgroups) they take the collective regions, on
// lavapipe the emulated warp path. The WGSL for an H100's facts is checked for the shape.
import { afterAll, describe, expect, it } from 'vitest';
import { compile, createContext, getDefaultDevice, releaseDefaultDevice } from '../../src/index.js';
import { runtimeCompiler } from '../../src/runtime-compiler.js';
import { Context } from '../../runtime/context.js';
import { NO_NATIVE_FLOAT } from '../../lowering/wgsl/native-float.js';
import { H100_FLOAT } from './f32-triples.ts';
import { readFileSync } from 'node:fs';

process.env['XDG_RUNTIME_DIR'] ??= '/tmp';
afterAll(() => releaseDefaultDevice());

const butterfly = [16, 8, 4, 2, 1].map((d, k) => `  shfl.sync.bfly.b32 %r${20 + k}, %r${10 + k}, ${d}, 31, -1;
  mov.b32 %f${20 + k}, %r${20 + k}; add.f32 %f${11 + k}, %f${10 + k}, %f${20 + k}; mov.b32 %r${11 + k}, %f${11 + k};`).join('\n');
const scan = [1, 2, 4, 8, 16].map((d, k) => `  shfl.sync.up.b32 %r${40 + k}, %r${30 + k}, ${d}, 0, -1;
  mov.b32 %f${40 + k}, %r${40 + k}; setp.ge.u32 %p${1 + k}, %r5, ${d};
  add.f32 %f${50 + k}, %f${30 + k}, %f${40 + k}; selp.f32 %f${31 + k}, %f${50 + k}, %f${30 + k}, %p${1 + k}; mov.b32 %r${31 + k}, %f${31 + k};`).join('\n');

const PTX = `.version 8.0
.target sm_80
.address_size 64
.visible .entry warp_sum_scan(.param .u64 pin, .param .u64 psum, .param .u64 pscan)
{
  .reg .pred %p<8>; .reg .f32 %f<60>; .reg .b32 %r<50>; .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [pin]; ld.param.u64 %rd2, [psum]; ld.param.u64 %rd3, [pscan];
  cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2; cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mad.lo.s32 %r4, %r2, %r3, %r1;
  and.b32 %r5, %r1, 31;
  mul.wide.s32 %rd4, %r4, 4; add.s64 %rd5, %rd1, %rd4; add.s64 %rd6, %rd2, %rd4; add.s64 %rd7, %rd3, %rd4;
  ld.global.f32 %f10, [%rd5]; mov.b32 %r10, %f10;
${butterfly}
  st.global.f32 [%rd6], %f15;
  mov.f32 %f30, %f10; mov.b32 %r30, %f30;
${scan}
  st.global.f32 [%rd7], %f35;
  ret;
}`;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const val = (b: number): number => { u32[0] = b >>> 0; return f32[0] as number; };
const bits = (x: number): number => { f32[0] = x; return u32[0] as number; };
/** PTX's add.f32 (round to nearest even, subnormals kept, NaN canonical). */
const add = (a: number, b: number): number => { const r = bits(Math.fround(val(a) + val(b))); return (r & 0x7fffffff) > 0x7f800000 ? 0x7fffffff : r; };

/** Per warp one of seven patterns of values that make some lanes' sums fail the test and others not. */
function inputs(warps: number): Uint32Array {
  let s = 0x9e3779b9;
  const rnd = (): number => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
  const at = (e: number): number => (((rnd() & 1) << 31) | (e << 23) | (rnd() & 0x7fffff)) >>> 0;
  const x = new Uint32Array(32 * warps);
  for (let w = 0; w < warps; w++) {
    for (let l = 0; l < 32; l++) {
      const p = w % 7;
      x[32 * w + l] = p === 0 ? at(100 + (rnd() % 50))
        : p === 1 ? (rnd() & 0x807fffff) >>> 0 // subnormal
          : p === 2 ? (l < 16 ? (rnd() & 0x800fffff) >>> 0 : at(110 + (rnd() % 20))) // tiny partners of ordinary values
            : p === 3 ? at(1 + (rnd() % 4)) // smallest normals: sums that cancel to subnormals
              : p === 4 ? at(25 + (rnd() % 4)) // around the 2^-100 threshold
                : p === 5 ? (l < 16 ? at(120 + (rnd() % 10)) : 0) // a partial sum of lane ^ 16 that is exact zero below
                  : (rnd() & 3) === 0 ? (rnd() & 0x807fffff) >>> 0 : at(1 + (rnd() % 3));
    }
    if (w % 7 === 5) for (let l = 16; l < 32; l++) x[32 * w + l] = ((x[32 * w + l - 16] as number) ^ 0x80000000) >>> 0; // x + -x = +0
  }
  return x;
}

function reference(x: Uint32Array): { sum: Uint32Array; scan: Uint32Array } {
  const sum = new Uint32Array(x.length); const scanOut = new Uint32Array(x.length);
  for (let w = 0; w < x.length / 32; w++) {
    let v = Array.from(x.subarray(32 * w, 32 * w + 32));
    for (const d of [16, 8, 4, 2, 1]) v = v.map((a, l) => add(a, v[l ^ d] as number));
    let t = Array.from(x.subarray(32 * w, 32 * w + 32));
    for (const d of [1, 2, 4, 8, 16]) t = t.map((a, l) => (l >= d ? add(a, t[l - d] as number) : a));
    sum.set(v, 32 * w); scanOut.set(t, 32 * w);
  }
  return { sum, scan: scanOut };
}

async function run(ctx: Context, x: Uint32Array): Promise<{ sum: Uint32Array; scan: Uint32Array }> {
  const mod = ctx.loadModule(PTX, { fileName: 'collective.ptx' });
  const n = x.length;
  const inp = ctx.malloc(4 * n), sum = ctx.malloc(4 * n), scanBuf = ctx.malloc(4 * n);
  ctx.memcpyHtoD(inp, x);
  ctx.memcpyHtoD(sum, new Uint32Array(n).fill(0xdeadbeef));
  ctx.memcpyHtoD(scanBuf, new Uint32Array(n).fill(0xdeadbeef));
  mod.getFunction('warp_sum_scan').launch({ grid: [n / 256], block: [256] }, [inp, sum, scanBuf]);
  const a = new Uint32Array(n); const b = new Uint32Array(n);
  await ctx.memcpyDtoH(a, sum); await ctx.memcpyDtoH(b, scanBuf);
  return { sum: a, scan: b };
}

describe('collective replay regions', () => {
  const x = inputs(7 * 64);
  const want = reference(x);
  const contexts: [string, (device: GPUDevice) => Promise<Context>][] = [
    ['the device\'s own facts', (device) => createContext({ device })],
    ['native arithmetic flushing subnormals', async (device) => new Context(device, runtimeCompiler.compileModule, { nativeFloat: NO_NATIVE_FLOAT, replayRegions: 'flushing' })],
  ];
  for (const [name, make] of contexts) {
    it(`gives every lane the exact butterfly sum and scan: ${name}`, async () => {
      const ctx = await make(await getDefaultDevice());
      try {
        const got = await run(ctx, x);
        const bad: string[] = [];
        for (const k of ['sum', 'scan'] as const) {
          for (let i = 0; i < x.length && bad.length < 6; i++) {
            if (got[k][i] !== want[k][i]) bad.push(`${k} warp ${Math.floor(i / 32)} lane ${i % 32}: got ${(got[k][i] as number).toString(16)} want ${(want[k][i] as number).toString(16)}`);
          }
        }
        expect(bad).toEqual([]);
      } finally {
        ctx.destroy();
      }
    }, 120_000);
  }

  it('puts the shuffles of a reduction in one region decided for the whole subgroup (H100 facts, 32-lane subgroups)', () => {
    const options = { fusedFma: true, nativeFloat: H100_FLOAT, subgroupSize: 32, warpPath: 'subgroups' as const };
    const body = (src: string, entry: string): string => { const w = compile(src, { ...options, entry }).kernels[0]?.wgsl ?? ''; return w.slice(w.indexOf('@compute')); };
    const mine = body(PTX, 'warp_sum_scan');
    // the butterfly's five adds and the scan's five: one region each way or together, no lone checks
    expect(mine.match(/subgroupAny\(/g)?.length).toBeGreaterThanOrEqual(1);
    expect(mine).not.toMatch(/f32r_add_rn/);
    const layernorm = body(readFileSync(new URL('../kernels/layernorm_rows.ptx', import.meta.url), 'utf8'), 'layernorm_rows');
    // each lane's second chance (exact zeros: the lanes past the warp count add 0 + 0) before the vote
    expect(layernorm).toMatch(/var (fail_\d+) = !ok_\d+;\n {2}if \(\1\) \{\n[^]*?\n {4}\1 = !zs_\d+;\n {2}\}\n {2}if \(subgroupAny\(\1\)\) \{/);
    // the replay shuffles again, inside the subgroup-uniform branch
    const replay = layernorm.slice(layernorm.indexOf('if (subgroupAny('));
    expect(replay.slice(0, replay.indexOf('\n  }\n'))).toMatch(/subgroupShuffleXor\(rv_\d+, 8u\)/);
  });
});
