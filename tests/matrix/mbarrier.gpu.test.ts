// mbarrier objects, cp.async.bulk and cp.async.mbarrier.arrive on WebGPU (lavapipe; the
// widths test reruns this file with subgroups of 4):
//  - instruction level: scripts of mbarrier operations (mbarrier-script.ts) as hand PTX,
//    against a JS model of the ISA's object: phase flips, pending counts of tokens, tx-counts
//    going negative and back, arrive_drop, test_wait/try_wait by token and by parity before
//    and after completion; run by every thread (waits in uniform code) and by every third
//    thread (the step loop), and with many threads arriving on one object;
//  - kernels: mbarrier_pipeline.cu (nvcc -arch=sm_90): cuda::barrier + memcpy_async double
//    buffering, a warp-specialised cuda::ptx pipeline (bulk copies in, bulk group out, warp
//    shuffles), cp.async with cp.async.mbarrier.arrive, against JS references;
//  - a try_wait whose phase can never complete traps (R004) instead of hanging.
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/api.js';
import { getDefaultDevice, releaseDefaultDevice } from '../../runtime/device.js';
import { probeSubgroups } from '../../runtime/probe-subgroups.js';
import { compile } from '../../src/compile.js';
import { PtxError } from '../../src/diagnostics/ptx-error.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KERNELS, kernelSource, POISON, randomWords, runMatrixKernel } from './harness.js';
import { recordedCount, runScript, scriptKernel, scriptModule, type Step } from './mbarrier-script.js';

afterAll(() => releaseDefaultDevice());

// mbarrier-widths.gpu.test.ts reruns this file on lavapipe with subgroups of 4 (MBAR_EXPECT_SUBGROUP).
it('runs on the expected subgroup width', async () => {
  const want = process.env['MBAR_EXPECT_SUBGROUP'];
  const probe = await probeSubgroups(await getDefaultDevice());
  if (want !== undefined) expect(probe.size).toBe(Number(want));
});

/** Every observable of one object through a phase with transactions, negative tx, drops and waits. */
export const SCRIPT: readonly Step[] = [
  { op: 'init', count: 3 },
  { op: 'arrive', noComplete: true, count: 1, token: 0, record: true },
  { op: 'test_wait', token: 0 },
  { op: 'test_wait', parity: 0 },
  { op: 'test_wait', parity: 1 },
  { op: 'expect_tx', tx: 64 },
  { op: 'arrive', count: 2, token: 1 },
  { op: 'test_wait', token: 1 },
  { op: 'complete_tx', tx: 32 },
  { op: 'test_wait', parity: 0 },
  { op: 'complete_tx', tx: 32 },
  { op: 'test_wait', token: 1 },
  { op: 'try_wait', token: 0 },
  { op: 'test_wait', parity: 0 },
  { op: 'test_wait', parity: 1 },
  // phase 1: the copy's bytes complete before the expect-tx that announces them
  { op: 'complete_tx', tx: 16 },
  { op: 'arrive', noComplete: true, count: 3, token: 2, record: true },
  { op: 'test_wait', parity: 1 },
  { op: 'expect_tx', tx: 16 },
  { op: 'test_wait', token: 2 },
  // phase 2: a thread drops out, then the expected count stays lower
  { op: 'arrive', drop: true, noComplete: true, count: 1, token: 3, record: true },
  { op: 'arrive', noComplete: true, count: 1, token: 4, record: true },
  { op: 'arrive', token: 5 },
  { op: 'test_wait', parity: 0 },
  { op: 'try_wait', token: 5, hint: true },
  { op: 'arrive', noComplete: true, count: 1, token: 6, record: true },
  { op: 'arrive.expect_tx', tx: 48, token: 7 },
  { op: 'test_wait', parity: 1 },
  { op: 'test_wait', token: 7 },
  { op: 'complete_tx', tx: 48 },
  { op: 'try_wait', parity: 1, hint: true },
  { op: 'try_wait', token: 7 },
  // the object ends and a new one starts at the same address
  { op: 'inval' },
  { op: 'init', count: 1 },
  { op: 'test_wait', parity: 0 },
  { op: 'arrive' },
  { op: 'test_wait', parity: 0 },
  { op: 'try_wait', parity: 0 },
];

describe('mbarrier instruction scripts', () => {
  const expected = runScript(SCRIPT);
  const n = recordedCount(SCRIPT);
  const ptx = kernelSource('mbarrier_forms');

  it('mbarrier_forms.ptx holds the script kernels (regenerate: MBAR_WRITE_FORMS=1)', () => {
    const text = formsModule();
    if (process.env['MBAR_WRITE_FORMS'] === '1') writeFileSync(join(KERNELS, 'mbarrier_forms.ptx'), text);
    expect(ptx).toBe(text);
  });

  it('the reference follows the ISA', () => {
    // spot checks of the model itself: the first token saw 3 pending; phase 0 completes only
    // when its transactions do; a dropped arrival lowers the next phase's count to 2
    expect(expected.slice(0, 4)).toEqual([3, 0, 0, 1]);
    expect(expected.filter((_, i) => i === 4 || i === 5 || i === 6)).toEqual([0, 0, 1]);
    expect(expected.length).toBe(n);
  });

  it.each([['script_all', false], ['script_some', true]] as const)('%s', async (kernel, guard) => {
    const block = 96;
    const c = await createContext();
    try {
      const fn = c.loadModule(ptx, { fileName: 'mbarrier-script.ptx' }).getFunction(kernel);
      const out = c.malloc(4 * n * block);
      c.memcpyHtoD(out, new Uint32Array(n * block).fill(POISON));
      const prepared = await fn.prepareAsync({ grid: 2, block }, [out]);
      expect(prepared.wgsl.includes('ptx_bar_waiting')).toBe(guard); // the step loop only where the waits diverge
      fn.launch({ grid: 2, block }, [out]);
      const got = new Uint32Array(n * block);
      await c.memcpyDtoH(got, out);
      const want = new Uint32Array(n * block).fill(POISON);
      for (let t = 0; t < block; t++) if (!guard || t % 3 === 1) want.set(expected, t * n);
      expect([...got]).toEqual([...want]);
    } finally {
      c.destroy();
    }
  });
});

/**
 * Every thread of a block arrives on one object (init n + 1) with `.noComplete`; the tokens'
 * pending counts are n + 1 ... 2 in some order and no wait succeeds until thread 0's extra
 * arrival after a barrier. In phase 1 thread 0 arrives with count 2 and every thread spins on
 * try_wait until the last arrival, which no barrier orders before the waits.
 */
const CROWD = `.visible .entry crowd(.param .u64 out_param) {
  .reg .b32 %t, %n, %bar, %v, %c; .reg .b64 %out, %rd<4>, %tok, %tok1; .reg .pred %p, %first;
  .shared .align 8 .b64 bar;
  mov.u32 %t, %tid.x;
  mov.u32 %n, %ntid.x;
  setp.eq.u32 %first, %t, 0;
  mov.u32 %bar, bar;
  ld.param.u64 %rd1, [out_param];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %v, %ctaid.x;
  mad.lo.u32 %v, %v, %n, %t;
  mul.wide.u32 %rd2, %v, 20;
  add.u64 %out, %rd1, %rd2;
  add.u32 %c, %n, 1;
  @%first mbarrier.init.shared.b64 [%bar], %c;
  bar.sync 0;
  mbarrier.arrive.noComplete.shared.b64 %tok, [%bar], 1;
  mbarrier.pending_count.b64 %v, %tok;
  st.global.u32 [%out], %v;
  mbarrier.test_wait.shared.b64 %p, [%bar], %tok;
  selp.u32 %v, 1, 0, %p;
  st.global.u32 [%out+4], %v;
  bar.sync 0;
  @%first mbarrier.arrive.shared::cta.b64 %rd3, [%bar];
  bar.sync 0;
  mbarrier.test_wait.shared.b64 %p, [%bar], %tok;
  selp.u32 %v, 1, 0, %p;
  st.global.u32 [%out+8], %v;
  mbarrier.test_wait.parity.shared.b64 %p, [%bar], 0;
  selp.u32 %v, 1, 0, %p;
  st.global.u32 [%out+12], %v;
  selp.u32 %c, 2, 1, %first;
  mbarrier.arrive.shared.b64 %tok1, [%bar], %c;
WAIT:
  mbarrier.try_wait.shared.b64 %p, [%bar], %tok1;
  @!%p bra WAIT;
  mbarrier.test_wait.parity.shared.b64 %p, [%bar], 1;
  selp.u32 %v, 1, 0, %p;
  st.global.u32 [%out+16], %v;
  ret;
}
`;

/** The committed mbarrier_forms.ptx: the script kernels and crowd (record_mbarrier.py runs them natively). */
function formsModule(): string {
  return `${scriptModule([scriptKernel('script_all', SCRIPT, false), scriptKernel('script_some', SCRIPT, true), CROWD.trim()])}\n`;
}

describe('mbarrier with every thread of a block on one object', () => {
  it.each([[2, 96], [1, 256]])('grid %i, block %i', async (grid, block) => {
    const run = await runMatrixKernelSource(kernelSource('mbarrier_forms'), 'crowd', { grid, block }, [], [grid * block * 5]);
    expect(crowdProblems(run[0] as Uint32Array, grid, block)).toEqual([]);
  });
});

/** What in crowd's output breaks the ISA's rules (see CROWD), per block. */
function crowdProblems(got: Uint32Array, grid: number, block: number): string[] {
  const problems: string[] = [];
  for (let b = 0; b < grid; b++) {
    const rows = Array.from({ length: block }, (_, t) => [...got.subarray((b * block + t) * 5, (b * block + t) * 5 + 5)]);
    const pending = rows.map((r) => r[0] ?? 0).sort((x, y) => x - y).join(',');
    if (pending !== Array.from({ length: block }, (_, i) => i + 2).join(',')) problems.push(`block ${b}: pending counts ${pending}`);
    rows.forEach((r, t) => { if (r.slice(1).join(',') !== '0,1,1,1') problems.push(`block ${b} thread ${t}: waits ${r.slice(1).join(',')}`); });
  }
  return problems;
}

/** Runs `kernel` of a PTX text with input buffers and poisoned outputs (u32 scalars last). */
async function runMatrixKernelSource(ptx: string, kernel: string, launch: { grid: number; block: number }, inputs: readonly Uint32Array[], outputWords: readonly number[], scalars: readonly number[] = []): Promise<Uint32Array[]> {
  const c = await createContext();
  try {
    const fn = c.loadModule(ptx, { fileName: `${kernel}.ptx` }).getFunction(kernel);
    const ins = inputs.map((w) => { const b = c.malloc(Math.max(4, w.byteLength)); c.memcpyHtoD(b, w); return b; });
    const outs = outputWords.map((w) => { const b = c.malloc(4 * w); c.memcpyHtoD(b, new Uint32Array(w).fill(POISON)); return b; });
    fn.launch(launch, [...ins, ...outs, ...scalars]);
    const outputs = outputWords.map((w) => new Uint32Array(w));
    for (let i = 0; i < outs.length; i++) await c.memcpyDtoH(outputs[i] as Uint32Array, outs[i] as never);
    return outputs;
  } finally {
    c.destroy();
  }
}

describe('a try_wait that can never succeed', () => {
  it('traps (R004) naming the try_wait, instead of hanging', async () => {
    const ptx = `.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry stuck(.param .u64 out) {\n.reg .b32 %bar; .reg .b64 %tok; .reg .pred %p;\n.shared .align 8 .b64 bar;\nmov.u32 %bar, bar;\nmbarrier.init.shared.b64 [%bar], 1000;\nmbarrier.arrive.shared.b64 %tok, [%bar];\nW:\nmbarrier.try_wait.shared.b64 %p, [%bar], %tok;\n@!%p bra W;\nret;\n}\n`;
    const err = await runMatrixKernelSource(ptx, 'stuck', { grid: 1, block: 64 }, [], [1]).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(PtxError);
    expect((err as PtxError).message).toMatch(/R004.*trapped at stuck\.ptx:11:1 \(64 threads executed a trap\): the mbarrier phase this try_wait waits for can never complete/s);
  });
});

/** Small integers as f32 bits: every sum and product of the kernels stays exact. */
function smallFloats(n: number, seed: number): Uint32Array {
  const f = new Float32Array(n);
  const r = randomWords(n, seed);
  for (let i = 0; i < n; i++) f[i] = ((r[i] ?? 0) % 41) - 20;
  return new Uint32Array(f.buffer);
}

const f32 = (w: Uint32Array): Float32Array => new Float32Array(w.buffer, w.byteOffset, w.length);

/** tile_pipeline: thread t of block b sums buf[i] * (k + 1) over tiles k and i = t, t + block, ... */
function tileReference(input: Float32Array, grid: number, block: number, tiles: number): Float32Array {
  const out = new Float32Array(grid * block);
  for (let b = 0; b < grid; b++) {
    for (let t = 0; t < block; t++) {
      let acc = 0;
      for (let k = 0; k < tiles; k++) for (let i = t; i < 256; i += block) acc += (input[(b * tiles + k) * 256 + i] ?? 0) * (k + 1);
      out[b * block + t] = acc;
    }
  }
  return out;
}

/** ws_pipeline: res[c * 32 + k % 32] += the sum over the 32 lanes of column block c of tile k, times k + 1. */
function wsReference(input: Float32Array, grid: number, tiles: number): Float32Array {
  const out = new Float32Array(grid * 128);
  for (let b = 0; b < grid; b++) {
    for (let k = 0; k < tiles; k++) {
      for (let c = 0; c < 4; c++) {
        let v = 0;
        for (let lane = 0; lane < 32; lane++) v += (input[(b * tiles + k) * 128 + c * 32 + lane] ?? 0) * (k + 1);
        out[b * 128 + c * 32 + (k % 32)] = (out[b * 128 + c * 32 + (k % 32)] ?? 0) + v;
      }
    }
  }
  return out;
}

/** cp_async_arrive: round r, thread t reads the 16 bytes thread t' copied, (t' * 7) % n == t. */
function cpArriveReference(input: Uint32Array, grid: number, n: number): Uint32Array {
  const out = new Uint32Array(2 * grid * n * 4);
  for (let r = 0; r < 2; r++) {
    for (let b = 0; b < grid; b++) {
      for (let src = 0; src < n; src++) {
        const t = (src * 7) % n;
        for (let w = 0; w < 4; w++) out[((r * grid + b) * n + t) * 4 + w] = input[r * grid * n * 4 + (b * n + src) * 4 + w] ?? 0;
      }
    }
  }
  return out;
}

describe('producer/consumer kernels (mbarrier_pipeline.cu, nvcc -arch=sm_90)', () => {
  it.each([[2, 128, 5], [3, 96, 4], [1, 256, 1]])('tile_pipeline: grid %i, block %i, %i tiles', async (grid, block, tiles) => {
    const input = smallFloats(grid * tiles * 256, 0x7a11 + block);
    const run = await runMatrixKernel('mbarrier_pipeline', 'tile_pipeline', { grid, block }, [input], [grid * block], 'auto', [{ u32: tiles }]);
    expect([...f32(run.outputs[0] as Uint32Array)]).toEqual([...tileReference(f32(input), grid, block, tiles)]);
  });

  it.each([
    ['ws_pipeline', 2, 160, 7, 'auto'], ['ws_pipeline', 1, 96, 40, 'emulated'], ['ws_pipeline3', 2, 96, 9, 'auto'], ['ws_pipeline3', 1, 160, 2, 'emulated'],
  ] as const)('%s: grid %i, block %i, %i tiles, warps %s', async (kernel, grid, block, tiles, warps) => {
    const input = smallFloats(grid * tiles * 128, 0x3e5 + tiles);
    const run = await runMatrixKernel('mbarrier_pipeline', kernel, { grid, block }, [input], [grid * 128], warps, [{ u32: tiles }]);
    expect([...f32(run.outputs[0] as Uint32Array)]).toEqual([...wsReference(f32(input), grid, tiles)]);
  });

  it.each([[2, 96], [1, 128]])('cp_async_arrive: grid %i, block %i', async (grid, block) => {
    const input = randomWords(2 * grid * block * 4, 0xa55 + block);
    const run = await runMatrixKernel('mbarrier_pipeline', 'cp_async_arrive', { grid, block }, [input], [2 * grid * block * 4], 'auto');
    expect([...(run.outputs[0] as Uint32Array)]).toEqual([...cpArriveReference(input, grid, block)]);
  });
});

describe('mbarrier and bulk copy diagnostics', () => {
  const wrap = (body: string): string => `.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p) {\n.reg .b32 %r<4>; .reg .b64 %rd<4>;\n${body}\n}\n`;
  const error = (body: string): string => {
    try { compile(wrap(body)); } catch (e) { if (e instanceof PtxError) return e.message; throw e; }
    return '';
  };
  it('names the forms that stay unsupported, and why', () => {
    expect(error('cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1], %r2, [%r3], 3;'))
      .toMatch(/L001\]: instruction `cp\.async\.bulk\.shared::cluster\.global\.mbarrier::complete_tx::bytes\.multicast::cluster` is not supported yet \(`\.multicast::cluster` writes the shared memory of several CTAs/);
    expect(error('cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r3];'))
      .toMatch(/L001\]: instruction `cp\.async\.bulk\.tensor\.2d[^`]*` is not supported yet \(tensor copies are described by a tensor map/);
    expect(error('mbarrier.init.global.b64 [%rd1], 2;')).toMatch(/L002\]: `mbarrier\.init\.global\.b64` addresses an mbarrier object outside shared memory/);
    expect(error('cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r1], %r2;')).toMatch(/L001\]: instruction `cp\.reduce\.async\.bulk/);
  });
  it('accepts the fences around mbarriers', () => {
    expect(error('fence.mbarrier_init.release.cluster;\nfence.proxy.async.shared::cta;\nfence.proxy.async;')).toBe('');
  });
});

// Native recordings (record_mbarrier.py on an sm_90 GPU, named in the file): the JS references must agree with NVIDIA's
// hardware on the recorded inputs, so the ISA reading behind them is checked where it matters.
interface NativeCase { entry: string; grid: number; block: number; scalars: number[]; inputs: string[]; outputs: string[] }
const NATIVE = join(KERNELS, 'mbarrier_native.json');
const native: Record<string, NativeCase> = existsSync(NATIVE) ? (JSON.parse(readFileSync(NATIVE, 'utf8')) as { cases: Record<string, NativeCase> }).cases : {};
const words = (hex: string): Uint32Array => { const b = Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16)); return new Uint32Array(b.buffer); };

describe.skipIf(Object.keys(native).length === 0)('the JS references agree with native recordings', () => {
  it.each(Object.entries(native))('%s', (_name, c) => {
    const input = c.inputs[0] !== undefined ? words(c.inputs[0]) : new Uint32Array();
    const got = words(c.outputs[0] ?? '');
    const tiles = c.scalars[0] ?? 0;
    switch (c.entry) {
      case 'script_all': case 'script_some': {
        const n = recordedCount(SCRIPT);
        const want = new Uint32Array(n * c.block).fill(POISON);
        for (let t = 0; t < c.block; t++) if (c.entry === 'script_all' || t % 3 === 1) want.set(runScript(SCRIPT), t * n);
        expect([...got]).toEqual([...want]);
        break;
      }
      case 'crowd': expect(crowdProblems(got, c.grid, c.block)).toEqual([]); break;
      case 'tile_pipeline': expect([...f32(got)]).toEqual([...tileReference(f32(input), c.grid, c.block, tiles)]); break;
      case 'ws_pipeline': case 'ws_pipeline3': expect([...f32(got)]).toEqual([...wsReference(f32(input), c.grid, tiles)]); break;
      default: expect([...got]).toEqual([...cpArriveReference(input, c.grid, c.block)]);
    }
  });
});

/**
 * mbarrier_probe.ptx, one thread: pending_count of a .noComplete token (3), parity 1 done at
 * phase 0 (1), all arrived but 64 tx bytes outstanding (0), completed by complete_tx (1), tx-count
 * at -16 with every arrival in (3, then 0), completed by expect_tx 16 (1), arrive_drop's token (3)
 * and the next phase's pending count after the drop (2). Recorded on an H100 (its header).
 */
const H100_PROBE = [3, 1, 0, 1, 3, 0, 1, 3, 2];
const PROBE_SCRIPT: readonly Step[] = [
  { op: 'init', count: 3 },
  { op: 'arrive', noComplete: true, count: 1, record: true },
  { op: 'test_wait', parity: 1 },
  { op: 'expect_tx', tx: 64 },
  { op: 'arrive', count: 2, token: 2 },
  { op: 'test_wait', token: 2 },
  { op: 'complete_tx', tx: 64 },
  { op: 'test_wait', token: 2 },
  { op: 'complete_tx', tx: 16 },
  { op: 'arrive', noComplete: true, count: 3, record: true },
  { op: 'test_wait', parity: 1 },
  { op: 'expect_tx', tx: 16 },
  { op: 'test_wait', parity: 1 },
  { op: 'arrive', drop: true, noComplete: true, count: 1, record: true },
  { op: 'arrive', count: 2 },
  { op: 'arrive', noComplete: true, count: 1, record: true },
];

describe('mbarrier_probe.ptx, recorded on an H100', () => {
  it('the JS model gives the H100 values', () => expect(runScript(PROBE_SCRIPT)).toEqual(H100_PROBE));
  it('WebGPU gives the H100 values', async () => {
    const [out] = await runMatrixKernelSource(kernelSource('mbarrier_probe'), 'k', { grid: 1, block: 1 }, [], [9]);
    expect([...(out as Uint32Array)]).toEqual(H100_PROBE);
  });
});
