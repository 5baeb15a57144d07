// A kernel whose generated WGSL the device rejects fails only its own launches (issue 12, items
// 6 and 7): other kernels, copies and synchronize of the same context go on, and every path
// (launch + synchronize, prepareAsync, runPtx) reports the same text with Tint's messages.
// The broken WGSL comes from a test hook around the real compile(), so the test does not depend
// on which PTX the compiler happens to get wrong.
import { afterAll, describe, expect, it } from 'vitest';
import { compileModule } from '../../src/compile-module.js';
import type { RuntimeCompiler } from '../../src/compile-types.js';
import type { CompiledKernel } from '../../lowering/layout.js';
import { runtimeCompiler } from '../../src/runtime-compiler.js';
import { PtxError } from '../../src/diagnostics/ptx-error.js';
import { createContextWith } from '../../runtime/context.js';
import { getDefaultDevice, releaseDefaultDevice } from '../../runtime/device.js';
import { runPtxWith } from '../../runtime/run.js';

afterAll(() => releaseDefaultDevice());

const PTX = `.version 8.0
.target sm_80
.address_size 64

// a[i] *= s for i < n
.visible .entry scale(.param .u64 pa, .param .f32 ps, .param .u32 pn)
{
  .reg .pred %p<2>; .reg .f32 %f<4>; .reg .b32 %r<6>; .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [pa]; ld.param.f32 %f1, [ps]; ld.param.u32 %r2, [pn];
  mov.u32 %r3, %ctaid.x; mov.u32 %r4, %ntid.x; mov.u32 %r5, %tid.x;
  mad.lo.s32 %r1, %r3, %r4, %r5;
  setp.ge.u32 %p1, %r1, %r2;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  mul.rn.f32 %f3, %f2, %f1;
  st.global.f32 [%rd4], %f3;
DONE:
  ret;
}

// a[tid] = tid (its WGSL is broken by the test's compiler)
.visible .entry broken(.param .u64 pa)
{
  .reg .b32 %r<2>; .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pa]; mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
`;

const UNDEFINED = 'ptx_test_undefined_value';

/** The real compiler, with each compiled kernel passed through `change`. */
function compilerWith(change: (k: CompiledKernel) => CompiledKernel): RuntimeCompiler {
  return {
    compileModule: (source, options) => {
      const m = compileModule(source, options);
      return { ...m, kernels: (o) => m.kernels(o).map(change) };
    },
  };
}

/** Kernel `broken`'s WGSL made invalid the way a compiler bug would make it. */
const breakingCompiler = compilerWith((k) =>
  k.layout.entry === 'broken' ? { ...k, wgsl: `${k.wgsl}\nfn ptx_test_broken() -> u32 { return ${UNDEFINED}; }\n` } : k,
);

/** The WGSL line the hook appended, where Tint's message points. */
function brokenLine(): number {
  const k = breakingCompiler.compileModule(PTX).kernels({ entry: 'broken' })[0];
  return (k?.wgsl ?? '').split('\n').findIndex((l) => l.includes(UNDEFINED)) + 1;
}

async function errorOf(p: Promise<unknown> | (() => unknown)): Promise<PtxError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    if (e instanceof PtxError) return e;
    throw e;
  }
  throw new Error('expected a PtxError');
}

function expectBrokenKernelError(e: PtxError): void {
  expect(e.diagnostics[0]?.code).toBe('R003');
  expect(e.message).toContain("the WGSL generated for kernel 'broken' does not compile");
  expect(e.message).toContain('please report it with the PTX input:');
  // Tint's own message, at its WGSL line:column, and the line itself.
  expect(e.message).toMatch(new RegExp(`WGSL ${brokenLine()}:\\d+: unresolved value '${UNDEFINED}'`));
  expect(e.message).toContain(`return ${UNDEFINED};`);
}

describe('a kernel whose WGSL does not compile', () => {
  it('fails only its own launches: other kernels, copies and synchronize go on', async () => {
    const ctx = await createContextWith(breakingCompiler);
    try {
      const mod = ctx.loadModule(PTX);
      const scale = mod.getFunction('scale');
      const broken = mod.getFunction('broken');
      const n = 100;
      const a = ctx.malloc(n * 4);
      const b = ctx.malloc(64 * 4);
      ctx.memcpyHtoD(a, Float32Array.from({ length: n }, (_, i) => i));
      // Recorded in the same task as launches of a good kernel, before and after it.
      scale.launch({ grid: 4, block: 32 }, [a, 2, n]);
      broken.launch({ grid: 1, block: 64 }, [b]);
      scale.launch({ grid: 4, block: 32 }, [a, 3, n]);
      const first = await errorOf(ctx.synchronize());
      expectBrokenKernelError(first);

      // Reported once, not sticky: the context works, and both good launches ran.
      await ctx.synchronize();
      const host = new Float32Array(n);
      await ctx.memcpyDtoH(host, a);
      expect([...host]).toEqual(Array.from({ length: n }, (_, i) => 6 * i));
      ctx.memcpyHtoD(a, Float32Array.from({ length: n }, (_, i) => i));
      scale.launch({ grid: 4, block: 32 }, [a, 0.5, n]);
      const c = ctx.malloc(n * 4);
      ctx.memcpyDtoD(c, a, n * 4);
      await ctx.memcpyDtoH(host, c);
      expect([...host]).toEqual(Array.from({ length: n }, (_, i) => 0.5 * i));

      // The broken kernel's later launches throw its error at once.
      const again = await errorOf(() => broken.launch({ grid: 1, block: 64 }, [b]));
      expect(again.message).toBe(first.message);
      expect((await errorOf(broken.prepareAsync({ grid: 1, block: 32 }, [b]))).message).toBe(first.message);
      await ctx.synchronize();
    } finally {
      ctx.destroy();
    }
  });

  it('reports the same text, with Tint\'s messages, through runPtx and through the module API', async () => {
    const ctx = await createContextWith(breakingCompiler);
    let moduleMessage: string;
    try {
      const broken = ctx.loadModule(PTX).getFunction('broken');
      const b = ctx.malloc(64 * 4);
      broken.launch({ grid: 1, block: 64 }, [b]);
      moduleMessage = (await errorOf(ctx.synchronize())).message;
      expect((await errorOf(broken.prepareAsync({ grid: 2, block: 64 }, [b]))).message).toBe(moduleMessage);
    } finally {
      ctx.destroy();
    }
    const out = new Uint32Array(64);
    const viaRun = await errorOf(runPtxWith(breakingCompiler, PTX, [out], { entry: 'broken', grid: 1, block: 64 }));
    expectBrokenKernelError(viaRun);
    expect(viaRun.message).toBe(moduleMessage);
    // runPtx's shared context is not poisoned either: the next call runs.
    const a = new Float32Array([1, 2, 3, 4, 5]);
    await runPtxWith(breakingCompiler, PTX, [a, 10, 5], { entry: 'scale', grid: 1, block: 32 });
    expect([...a]).toEqual([10, 20, 30, 40, 50]);
  });
});

/**
 * Every kernel given a workgroup array sized by the block-size override: the shader module
 * compiles, and the pipeline for a block of 64 threads (16 MiB of workgroup memory) is rejected
 * only when it is created.
 */
const overflowingCompiler = compilerWith((k) => {
  const body = k.wgsl.indexOf('{', k.wgsl.indexOf(`fn ${k.entryPoint}(`)) + 1;
  const wgsl = `${k.wgsl.slice(0, body)}\n  ptx_test_big[0] = 1u;${k.wgsl.slice(body)}\nvar<workgroup> ptx_test_big: array<u32, ptx_ntid_x * 65536u>;\n`;
  return { ...k, wgsl };
});

it('reports an error found only when the pipeline is created with the same text on every path', async () => {
  const ctx = await createContextWith(overflowingCompiler);
  let moduleMessage: string;
  try {
    const broken = ctx.loadModule(PTX).getFunction('broken');
    const b = ctx.malloc(64 * 4);
    broken.launch({ grid: 1, block: 64 }, [b]);
    moduleMessage = (await errorOf(ctx.synchronize())).message;
  } finally {
    ctx.destroy();
  }
  expect(moduleMessage).toMatch(/^error\[R003\]: the WGSL generated for kernel 'broken' does not compile; .*PTX input:\n  \S/);
  expect(moduleMessage).toMatch(/workgroup storage \(16777216 bytes\)/);
  const viaRun = await errorOf(runPtxWith(overflowingCompiler, PTX, [new Uint32Array(64)], { entry: 'broken', grid: 1, block: 64 }));
  expect(viaRun.message).toBe(moduleMessage);
});

describe('destroying a context', () => {
  it('removes its listeners: 20 contexts on one device raise no MaxListenersExceededWarning', async () => {
    const device = await getDefaultDevice();
    const warnings: string[] = [];
    const onWarning = (w: Error): void => { warnings.push(`${w.name}: ${w.message}`); };
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 20; i++) {
        const ctx = await createContextWith(runtimeCompiler, { device });
        const d = ctx.malloc(16);
        ctx.memset(d, 0, 16);
        await ctx.synchronize();
        ctx.destroy();
      }
      await new Promise((resolve) => setTimeout(resolve, 50)); // warnings are emitted on a later tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => /MaxListeners|listener/i.test(w))).toEqual([]);
  });
});
