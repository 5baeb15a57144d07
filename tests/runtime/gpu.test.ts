/**
 * The runtime end to end on a real WebGPU device (Dawn; lavapipe on CI), with hand-written WGSL
 * fixtures standing in for the compiler. Output buffers are poisoned first so a kernel or copy
 * that skips or overruns an element is caught.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PtxError } from '../../src/diagnostics/ptx-error.js';
import { createContextWith, type Context } from '../../runtime/context.js';
import { getGpu, releaseDefaultDevice, requestKernelDevice } from '../../runtime/device.js';
import { runPtxWith } from '../../runtime/run.js';
import { fakeCompiler, SOURCES } from './fixtures.js';
import { firstDifference } from '../e2e/reference.js';

process.env['XDG_RUNTIME_DIR'] ??= '/tmp';
const POISON = 0xabababab;

let ctx: Context;
const compiler = fakeCompiler();

beforeAll(async () => {
  ctx = await createContextWith(compiler);
});

afterAll(async () => {
  ctx?.destroy();
  await releaseDefaultDevice();
});

async function rejection(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    if (e instanceof PtxError) return `${e.diagnostics[0]?.code}: ${e.message}`;
    throw e;
  }
  return 'no error';
}

/** The uniform words echo must see, computed independently of runtime/params.ts. */
function expectedEchoWords(grid: number[], dispatchX: number, outAddress: bigint, agg: Uint8Array): number[] {
  const v = new DataView(new ArrayBuffer(64));
  grid.forEach((g, i) => v.setUint32(i * 4, g, true));
  v.setUint32(12, dispatchX, true);
  v.setBigUint64(16, outAddress, true);
  v.setUint8(24, 255);
  v.setInt16(26, -300, true);
  v.setFloat32(28, 0.1, true);
  v.setFloat64(32, Math.PI, true);
  v.setBigUint64(40, 0x0123_4567_89ab_cdefn, true);
  new Uint8Array(v.buffer, 48, 12).set(agg);
  v.setUint32(60, 77, true);
  return [...new Uint32Array(v.buffer)];
}

describe('launch through a context', () => {
  it('packs the header and parameters as the kernel reads them', async () => {
    const fn = ctx.loadModule(SOURCES.echo).getFunction('echo');
    const d = ctx.malloc(128);
    ctx.memset(d, 0xab, 128);
    const agg = new Uint8Array([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 255, 128]);
    const out = d.at(16);
    fn.launch({ grid: [3, 2, 1], block: 16 }, [out, 255, -300, 0.1, Math.PI, 0x0123_4567_89ab_cdefn, agg, 77]);
    const host = new Uint32Array(32);
    await ctx.memcpyDtoH(host, d);
    expect([...host.slice(0, 4)]).toEqual(Array(4).fill(POISON));
    expect([...host.slice(4, 20)]).toEqual(expectedEchoWords([3, 2, 1], 3, out.address, agg));
    expect([...host.slice(20)]).toEqual(Array(12).fill(POISON));
    ctx.free(d);
  });

  it('reuses compiled kernels and pipelines across launches', async () => {
    const mod = ctx.loadModule(SOURCES.saxpy);
    const fn = mod.getFunction('saxpy');
    const n = 100;
    const [x, y, o] = [ctx.malloc(n * 4), ctx.malloc(n * 4), ctx.malloc(n * 4)];
    ctx.memcpyHtoD(x, Float32Array.from({ length: n }, (_, i) => i));
    ctx.memcpyHtoD(y, new Float32Array(n).fill(1));
    const before = compiler.calls.length;
    for (let a = 1; a <= 3; a++) fn.launch({ grid: Math.ceil(n / 32), block: 32 }, [x, y, o, a, n]);
    expect(compiler.calls.length).toBe(before);
    const host = new Float32Array(n);
    await ctx.memcpyDtoH(host, o);
    expect([...host]).toEqual(Array.from({ length: n }, (_, i) => 3 * i + 1));
    [x, y, o].forEach((d) => ctx.free(d));
  });

  it('sizes dynamic shared memory from sharedBytes', async () => {
    const fn = ctx.loadModule(SOURCES.smem).getFunction('smem');
    const d = ctx.malloc(8);
    fn.launch({ block: 10, sharedBytes: 40 }, [d]);
    const host = new Uint32Array(2);
    await ctx.memcpyDtoH(host, d);
    expect([...host]).toEqual([10, 27]);
    ctx.free(d);
  });

  it('binds a placeholder for a null pointer', async () => {
    const fn = ctx.loadModule(SOURCES.blocks).getFunction('blocks');
    const d = ctx.malloc(16);
    fn.launch({ grid: [2, 2] }, [d, 0n]);
    const host = new Uint32Array(4);
    await ctx.memcpyDtoH(host, d);
    expect([...host]).toEqual([0, 1, 1000, 1001]);
    ctx.free(d);
  });
});

describe('launch checks', () => {
  const blocks = () => ctx.loadModule(SOURCES.blocks).getFunction('blocks');
  const smem = () => ctx.loadModule(SOURCES.smem).getFunction('smem');

  it('rejects shapes the device cannot run (R001)', async () => {
    const d = ctx.malloc(16);
    const fn = blocks();
    expect(await rejection(() => fn.launch({ block: 2048 }, [d, d]))).toMatch(/^R001: .*2048 threads in x; CUDA allows at most \[1024, 1024, 64\]/);
    expect(await rejection(() => fn.launch({ block: [512, 4] }, [d, d]))).toMatch(/^R001: .*2048 threads/);
    expect(await rejection(() => fn.launch({ grid: [4, 0] }, [d, d]))).toMatch(/^R001: .*no blocks/);
    expect(await rejection(() => fn.launch({ grid: [65536, 65535] }, [d, d]))).toMatch(/^R001: .*fit in one dispatch/);
    // the device's whole workgroup memory as dynamic shared memory, plus the kernel's 1024 static bytes
    const all = ctx.device.limits.maxComputeWorkgroupStorageSize;
    expect(await rejection(() => smem().launch({ block: 1, sharedBytes: all }, [d]))).toMatch(/^R001: .*1024 static/);
    ctx.free(d);
  });

  it('rejects wrong arguments (R002)', async () => {
    const d = ctx.malloc(16);
    const fn = blocks();
    expect(await rejection(() => fn.launch({ grid: 1, block: 1 }, [d]))).toMatch(/^R002: .*takes 2 arguments \(.u64 out, .u64 count\), got 1/);
    expect(await rejection(() => fn.launch({ grid: 1, block: 1 }, [d, new Float32Array(4)]))).toMatch(/^R002: .*host memory/);
    expect(await rejection(() => fn.launch({ grid: 1, block: 1 }, [d, 99n << 40n]))).toMatch(/^R002: .*not point into a live allocation/);
    expect(await rejection(() => fn.launch({ grid: 1, block: 1 }, [d, 1.5]))).toMatch(/^R002: .*not an address/);
    ctx.free(d);
    expect(await rejection(() => fn.launch({ grid: 1, block: 1 }, [d, d]))).toMatch(/^R002: .*live allocation/);
  });

  it('asks for an entry when the module has several', async () => {
    expect(await rejection(runPtxWith(compiler, SOURCES.two, []))).toMatch(/^R002: .*2 entries \(echo, blocks\)/);
  });
});

describe('memory copies', () => {
  it('reads any byte range into exactly the host view', async () => {
    const d = ctx.malloc(13);
    const src = Uint8Array.from({ length: 13 }, (_, i) => i + 1);
    ctx.memcpyHtoD(d, src); // unaligned size is fine at the end of an allocation
    const host = new Uint8Array(12).fill(0xee);
    await ctx.memcpyDtoH(new Uint8Array(host.buffer, 3, 5), d.at(7));
    expect([...host]).toEqual([0xee, 0xee, 0xee, 8, 9, 10, 11, 12, 0xee, 0xee, 0xee, 0xee]);
    ctx.free(d);
  });

  it('rejects unaligned writes inside an allocation and out-of-bounds ranges', async () => {
    const d = ctx.malloc(16);
    expect(await rejection(() => ctx.memcpyHtoD(d.at(2), new Uint8Array(4)))).toMatch(/^R002: .*aligned/);
    expect(await rejection(() => ctx.memcpyHtoD(d, new Uint8Array(3)))).toMatch(/^R002: .*aligned/);
    expect(await rejection(() => ctx.memcpyHtoD(d.at(8), new Uint8Array(12)))).toMatch(/^R002: .*past the end/);
    expect(await rejection(ctx.memcpyDtoH(new Uint8Array(17), d))).toMatch(/^R002: .*past the end/);
    ctx.free(d);
  });

  it('copies device to device in queue order', async () => {
    const [a, b] = [ctx.malloc(16), ctx.malloc(16)];
    ctx.memcpyHtoD(a, new Uint32Array([1, 2, 3, 4]));
    ctx.memcpyDtoD(b.at(4), a, 8);
    const host = new Uint32Array(4).fill(7);
    await ctx.memcpyDtoH(host, b);
    expect([...host]).toEqual([0, 1, 2, 0]);
    [a, b].forEach((d) => ctx.free(d));
  });
});

describe('runPtx', () => {
  it('copies buffer arguments back into exactly the caller\'s views', async () => {
    const backing = new Uint32Array(40).fill(POISON);
    const view = new Uint32Array(backing.buffer, 8 * 4, 24); // echo writes words 0..15 of the view
    const agg = new Uint8Array(12).fill(3);
    const res = await runPtxWith(compiler, SOURCES.echo, [view, 255, -300, 0.1, Math.PI, 0x0123_4567_89ab_cdefn, agg, 77], {
      grid: 5,
      block: 32,
    });
    expect(res.kernel.layout.entry).toBe('echo');
    const words = [...backing];
    expect(words.slice(0, 8)).toEqual(Array(8).fill(POISON));
    const address = BigInt(words[12] ?? 0) | (BigInt(words[13] ?? 0) << 32n); // whatever allocation it got
    expect(address & 0xffff_ffffn).toBe(0n);
    expect(words.slice(8, 24)).toEqual(expectedEchoWords([5, 1, 1], 5, address, agg));
    expect(words.slice(24, 32)).toEqual(Array(8).fill(POISON)); // rest of the view: copied back unchanged
    expect(words.slice(32)).toEqual(Array(8).fill(POISON));
  });

  it('runs an in-place launch through an aliased variant', async () => {
    const n = 1000;
    const x = Float32Array.from({ length: n }, (_, i) => i);
    const y = Float32Array.from({ length: n }, (_, i) => 2 * i);
    compiler.calls.length = 0;
    await runPtxWith(compiler, SOURCES.saxpy, [x, y, y, 0.5, n], { grid: Math.ceil(n / 64), block: 64 });
    expect(compiler.calls.map((c) => c.paramAliases)).toContainEqual([[1, 2]]);
    expect([...y]).toEqual(Array.from({ length: n }, (_, i) => 0.5 * i + 2 * i));
    expect([...x]).toEqual(Array.from({ length: n }, (_, i) => i));
  });

  // the first two are dispatched as they are, the third is linearised (70000 > 65535 in x)
  it('gives every block of 2D and 3D grids its %ctaid, dispatched directly or linearised', async () => {
    for (const grid of [[300, 250, 1], [50, 40, 41], [70000, 1, 2]] as const) {
      const blocks = grid[0] * grid[1] * grid[2];
      const out = new Uint32Array(blocks + 64).fill(POISON);
      const count = new Uint32Array(4);
      await runPtxWith(compiler, SOURCES.blocks, [out, count], { grid: [...grid], block: 32 });
      const expected = new Uint32Array(blocks + 64).fill(POISON);
      let lin = 0;
      for (let z = 0; z < grid[2]; z++)
        for (let y = 0; y < grid[1]; y++) for (let x = 0; x < grid[0]; x++) expected[lin++] = x + 1000 * y + 1000000 * z;
      expect(firstDifference(out, expected)).toBe('none');
      expect(count[0]).toBe(blocks);
    }
  });
});

describe('device errors', () => {
  it('reports WGSL that fails to compile from runPtx, with the compiler messages', async () => {
    const msg = await rejection(runPtxWith(compiler, SOURCES.broken, [], { grid: 1, block: 1 }));
    expect(msg).toMatch(/^R003: .*the WGSL generated for kernel 'broken' does not compile/);
    expect(msg).toMatch(/WGSL 5:\d+: unresolved value .undefined_thing./);
  });

  it('reports a launch whose WGSL does not compile once, at synchronize, and keeps the context usable', async () => {
    const own = await createContextWith(compiler);
    own.loadModule(SOURCES.broken).getFunction('broken').launch({ grid: 1, block: 1 }, []);
    expect(await rejection(own.synchronize())).toMatch(/^R003: .*kernel 'broken'.*undefined_thing/s);
    expect(await rejection(() => own.malloc(4))).toBe('no error');
    expect(await rejection(own.synchronize())).toBe('no error');
    own.destroy();
  });

  it('turns device loss into an error on the next call', async () => {
    const adapter = await (await getGpu()).requestAdapter();
    const device = await requestKernelDevice(adapter!);
    const own = await createContextWith(compiler, { device });
    const d = own.malloc(16);
    device.destroy();
    await device.lost;
    expect(await rejection(own.memcpyDtoH(new Uint8Array(16), d))).toMatch(/^R003: .*the WebGPU device was lost/);
    // A device fault is sticky, as in CUDA: every later call reports it.
    expect(await rejection(() => own.malloc(4))).toMatch(/^R003: .*the WebGPU device was lost/);
    expect(await rejection(own.synchronize())).toMatch(/^R003: .*the WebGPU device was lost/);
  });
});
