// Launches CUDA would refuse are refused before anything is dispatched (issue 12, item 9), with
// an R001 (configuration) or R002 (arguments) error saying what was expected: missing or
// malformed arguments, a missing launch configuration, grids and blocks over CUDA's or the
// device's limits, too much shared memory, and buffers shorter than what the kernel certainly
// accesses. Every rejected call leaves its buffers untouched; valid launches next to each limit
// still run. Kernels are real PTX through compile(), on the real WebGPU device.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { createContext, runPtx } from '../../src/api.js';
import { PtxError } from '../../src/diagnostics/ptx-error.js';
import { getDefaultDevice, getGpu, releaseDefaultDevice } from '../../runtime/device.js';
import { checkLaunch } from '../../runtime/launch-checks.js';

afterAll(() => releaseDefaultDevice());

const SAXPY = readFileSync(new URL('../../examples/saxpy.ptx', import.meta.url), 'utf8');
const POISON = 0xdeadbeef;

/** out[i] = i only where flag[i] != 0, for i < n: a store behind a data-dependent condition. */
const FLAGGED = `.version 8.0
.target sm_80
.address_size 64
.visible .entry flagged(.param .u64 pflag, .param .u64 pout, .param .u32 pn)
{
  .reg .pred %p<3>; .reg .b32 %r<7>; .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [pflag]; ld.param.u64 %rd2, [pout]; ld.param.u32 %r2, [pn];
  mov.u32 %r3, %ntid.x; mov.u32 %r4, %ctaid.x; mov.u32 %r5, %tid.x;
  mad.lo.s32 %r1, %r4, %r3, %r5;
  setp.ge.s32 %p1, %r1, %r2;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd3, %rd1;
  mul.wide.s32 %rd4, %r1, 4;
  add.s64 %rd5, %rd3, %rd4;
  ld.global.u32 %r6, [%rd5];
  setp.eq.s32 %p2, %r6, 0;
  @%p2 bra DONE;
  cvta.to.global.u64 %rd6, %rd2;
  add.s64 %rd7, %rd6, %rd4;
  st.global.u32 [%rd7], %r1;
DONE:
  ret;
}`;

/** out[tid] = dynamic shared word tid, written first (extern .shared). */
const DYNAMIC_SHARED = `.version 8.0
.target sm_80
.address_size 64
.extern .shared .align 4 .b8 smem[];
.visible .entry dyn(.param .u64 pout)
{
  .reg .b32 %r<4>; .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [pout];
  mov.u32 %r1, %tid.x; shl.b32 %r2, %r1, 2; mov.u32 %r3, smem; add.s32 %r3, %r3, %r2;
  st.shared.u32 [%r3], %r1; bar.sync 0; ld.shared.u32 %r1, [%r3];
  cvta.to.global.u64 %rd2, %rd1; mul.wide.u32 %rd3, %r1, 4; add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r1;
  ret;
}`;

async function rejection(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PtxError) return `${e.diagnostics[0]?.code}: ${e.diagnostics[0]?.message}`;
    throw e;
  }
  return 'no error';
}

const poisoned = (n: number): Float32Array => new Float32Array(new Uint32Array(n).fill(POISON).buffer);
const untouched = (a: Float32Array): boolean => new Uint32Array(a.buffer, a.byteOffset, a.length).every((w) => w === POISON);

describe('arguments', () => {
  it('rejects a missing argument list, a wrong count and wrong types (R002)', async () => {
    const y = poisoned(8);
    const cfg = { grid: 1, block: 8 };
    const run = (args: unknown): Promise<unknown> => runPtx(SAXPY, args as never, cfg);
    expect(await rejection(run(undefined))).toMatch(
      /^R002: .*kernel 'saxpy' takes its arguments as an array, one per parameter \(.u32 saxpy_param_0, .f32 saxpy_param_1, .u64 saxpy_param_2, .u64 saxpy_param_3\), got undefined/,
    );
    expect(await rejection(run([8, 2, y]))).toMatch(/^R002: .*takes 4 arguments .*got 3/);
    expect(await rejection(run([new Uint32Array([8]), 2, y, y]))).toMatch(/^R002: .*parameter 'saxpy_param_0' \(.u32\) takes a number or bigint, got a Uint32Array of 4 bytes/);
    expect(await rejection(run([8, 2n, y, y]))).toMatch(/^R002: .*saxpy_param_1.* is a float: pass a number, not a bigint/);
    expect(await rejection(run([8, 2, 'x', y]))).toMatch(/^R002: .*pointer parameter 'saxpy_param_2' \(.u64\) takes a device pointer .*got a string/);
    expect(await rejection(run([8, 2, undefined, y]))).toMatch(/^R002: .*pointer parameter 'saxpy_param_2' .*got undefined/);
    expect(untouched(y)).toBe(true);
  });
});

describe('launch configuration', () => {
  it('needs grid or block, defaulting only the one left out (R001)', async () => {
    const x = new Float32Array(64).fill(1);
    const y = poisoned(64);
    expect(await rejection(runPtx(SAXPY, [64, 2, x, y]))).toMatch(/^R001: .*needs `grid` and `block` \(kernel<<<grid, block>>>\); neither was given/);
    expect(await rejection(runPtx(SAXPY, [64, 2, x, y], { sharedBytes: 0 }))).toMatch(/^R001: .*neither was given/);
    expect(untouched(y)).toBe(true);
    await runPtx(SAXPY, [64, 2, x, new Float32Array(64)], { block: 64 }); // grid 1
  });

  it('rejects grids and blocks over CUDA\'s limits even where the device would run them (R001)', async () => {
    const x = new Float32Array(4);
    const y = poisoned(4);
    const run = (cfg: object): Promise<string> => rejection(runPtx(SAXPY, [4, 2, x, y], cfg));
    expect(await run({ grid: 2 ** 31, block: 1 })).toMatch(/^R001: grid \[2147483648, 1, 1\] has 2147483648 blocks in x; CUDA allows at most \[2147483647, 65535, 65535\]/);
    expect(await run({ grid: [1, 65536], block: 1 })).toMatch(/^R001: .*65536 blocks in y; CUDA allows/);
    expect(await run({ grid: [1, 1, 65536], block: 1 })).toMatch(/^R001: .*65536 blocks in z; CUDA allows/);
    // lavapipe and most GPUs take 1024 threads in z; CUDA takes 64.
    expect(await run({ grid: 1, block: [1, 1, 128] })).toMatch(/^R001: block \[1, 1, 128\] has 128 threads in z; CUDA allows at most \[1024, 1024, 64\] in x, y, z/);
    expect(await run({ grid: 1, block: 1025 })).toMatch(/^R001: .*1025 threads in x; CUDA allows at most/);
    expect(await run({ grid: 1, block: [64, 32] })).toMatch(/^R001: block \[64, 32, 1\] has 2048 threads; CUDA allows at most 1024 per block/);
    expect(untouched(y)).toBe(true);
    await runPtx(SAXPY, [4, 2, x, new Float32Array(4)], { grid: [1, 1, 2], block: [4, 2, 64] });
  });

  it('accepts CUDA\'s largest grid where the device can dispatch it (checked, not launched)', async () => {
    const { limits } = await getDefaultDevice();
    const layout = compile(SAXPY).kernels[0]!.layout;
    expect(() => checkLaunch(layout, { grid: [2 ** 31 - 1, 1, 1], block: [1, 1, 1], sharedBytes: 0 }, limits)).not.toThrow();
  });

  it('names the device limit where the device allows less than CUDA (R001)', async () => {
    const adapter = await (await getGpu()).requestAdapter();
    const device = await adapter!.requestDevice(); // WebGPU's default limits: 256 threads, 256 x 256 x 64
    try {
      const x = new Float32Array(4);
      const y = poisoned(4);
      const run = (cfg: object): Promise<string> => rejection(runPtx(SAXPY, [4, 2, x, y], { device, ...cfg }));
      const max = device.limits.maxComputeWorkgroupSizeX;
      expect(await run({ grid: 1, block: max + 1 })).toMatch(
        new RegExp(`^R001: .*${max + 1} threads in x; CUDA allows 1024, but this device at most ${max} \\(maxComputeWorkgroupSizeX\\)`),
      );
      const invocations = device.limits.maxComputeInvocationsPerWorkgroup;
      expect(await run({ grid: 1, block: [16, invocations / 8] })).toMatch(
        new RegExp(`^R001: .*has ${invocations * 2} threads; CUDA allows 1024 per block, but this device at most ${invocations} \\(maxComputeInvocationsPerWorkgroup\\)`),
      );
      expect(untouched(y)).toBe(true);
    } finally {
      device.destroy();
    }
  });

  it('rejects dynamic shared memory over the device limit (R001)', async () => {
    const { limits } = await getDefaultDevice();
    const max = limits.maxComputeWorkgroupStorageSize;
    const out = new Uint32Array(32).fill(POISON);
    expect(await rejection(runPtx(DYNAMIC_SHARED, [out], { grid: 1, block: 32, sharedBytes: max + 4 }))).toMatch(
      new RegExp(`^R001: kernel 'dyn' needs ${max + 4} bytes of shared memory \\(0 static \\+ ${max + 4} dynamic\\); the device allows ${max} \\(maxComputeWorkgroupStorageSize\\)`),
    );
    expect(out.every((w) => w === POISON)).toBe(true);
    await runPtx(DYNAMIC_SHARED, [out], { grid: 1, block: 32, sharedBytes: max });
    expect([...out]).toEqual(Array.from({ length: 32 }, (_, i) => i));
  });
});

describe('buffer sizes', () => {
  it('rejects a buffer shorter than the guarded `i < n` accesses (R002), naming the access', async () => {
    const n = 1000;
    const x = new Float32Array(n).fill(1);
    const y = poisoned(n - 1);
    const msg = await rejection(runPtx(SAXPY, [n, 2, x, y], { grid: 4, block: 256, fileName: 'saxpy.ptx' }));
    expect(msg).toMatch(/^R002: kernel 'saxpy' accesses 4000 bytes from parameter 'saxpy_param_3', but its argument points to 3996 \(a 3996-byte allocation\)/);
    expect(msg).toMatch(/thread ctaid.x \* ntid.x \+ tid.x = 999 \(the last with ctaid.x \* ntid.x \+ tid.x < saxpy_param_0 = 1000\) accesses bytes 3996..3999 at saxpy.ptx:45:2: ld.global.f32 %f3, \[%rd7\];/);
    expect(untouched(y)).toBe(true);
    expect(await rejection(runPtx(SAXPY, [n, 2, new Float32Array(10), new Float32Array(n)], { grid: 4, block: 256 }))).toMatch(
      /^R002: .*parameter 'saxpy_param_2', but its argument points to 40 /,
    );
  });

  it('accepts every launch that stays inside its buffers', async () => {
    // Exactly n elements; fewer threads than n (only grid*block elements are touched); n <= 0.
    const cases: [number, number, number, number][] = [[1000, 1000, 4, 256], [1000, 200, 2, 100], [-5, 0, 4, 256], [0, 0, 1, 32]];
    for (const [n, length, grid, block] of cases) {
      const x = Float32Array.from({ length }, (_, i) => i);
      const y = new Float32Array(length).fill(1);
      await runPtx(SAXPY, [n, 2, x, y], { grid, block });
      expect([...y]).toEqual(Array.from({ length }, (_, i) => 2 * i + 1));
    }
  });

  it('does not reject accesses behind a data-dependent condition, which may not happen', async () => {
    const n = 64;
    const flags = new Uint32Array(n); // no flag set: nothing is stored to `out`
    const out = new Uint32Array(4).fill(POISON);
    await runPtx(FLAGGED, [flags, out, n], { grid: 2, block: 32 });
    expect(out.every((w) => w === POISON)).toBe(true);
    flags[2] = 1;
    await runPtx(FLAGGED, [flags, out, n], { grid: 2, block: 32 });
    expect([...out]).toEqual([POISON, POISON, 2, POISON]);
    // The flag loads themselves happen for every i < n: a short `flags` is rejected.
    expect(await rejection(runPtx(FLAGGED, [flags.subarray(0, n - 1), out, n], { grid: 2, block: 32 }))).toMatch(
      /^R002: .*accesses 256 bytes from parameter 'pflag', but its argument points to 252/,
    );
  });

  it('counts from where a device pointer points inside its allocation (context API)', async () => {
    const ctx = await createContext();
    try {
      const fn = ctx.loadModule(SAXPY).getFunction('saxpy');
      const n = 64;
      const x = ctx.malloc(n * 4);
      const y = ctx.malloc(n * 4 + 16);
      ctx.memcpyHtoD(x, Float32Array.from({ length: n }, (_, i) => i));
      ctx.memset(y, 0, n * 4 + 16);
      fn.launch({ grid: 1, block: n }, [n, 1, x, y.at(16)]); // fits exactly
      expect(await rejection(Promise.resolve().then(() => fn.launch({ grid: 1, block: n }, [n, 1, x, y.at(20)])))).toMatch(
        /^R002: .*accesses 256 bytes from parameter 'saxpy_param_3', but its argument points to 252 \(20 bytes into a 272-byte allocation\)/,
      );
      const host = new Float32Array(n + 4);
      await ctx.memcpyDtoH(host, y);
      expect([...host]).toEqual([0, 0, 0, 0, ...Array.from({ length: n }, (_, i) => i)]);
    } finally {
      ctx.destroy();
    }
  });
});
