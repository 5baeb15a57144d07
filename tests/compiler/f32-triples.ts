/**
 * Kernels over f32 triples for the float lowering tests: each thread loads (a, b, c) into %f1,
 * %f2, %f3, runs a body of PTX, and stores the named f32 registers as its output row. The runner
 * poisons the output first.
 */
import type { Context } from '../../runtime/context.js';
import type { NativeFloat } from '../../lowering/wgsl/native-float.js';

/** What an H100's float probe reports (tests/float/native-float.gpu.test.ts records the probe itself). */
export const H100_FLOAT: NativeFloat = { addMul: false, ftz: true, ftzFma: false, canonicalNaN: true, approx: ['sin', 'cos'], approxFtz: ['rsqrt', 'ex2', 'lg2', 'sin', 'cos', 'tanh'], minMax: 'exact' };

export function tripleKernel(entry: string, body: string, outputs: readonly string[]): string {
  return `.version 8.0
.target sm_80
.address_size 64
.visible .entry ${entry}(.param .u64 pin, .param .u64 pout, .param .u32 n)
{
  .reg .pred %p<4>;
  .reg .f32 %f<32>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r5, %r3, %r4, %r2;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  mul.wide.u32 %rd3, %r5, 12;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  ld.global.f32 %f2, [%rd4+4];
  ld.global.f32 %f3, [%rd4+8];
  mul.wide.u32 %rd5, %r5, ${4 * outputs.length};
  add.s64 %rd6, %rd2, %rd5;
${body.trim().split('\n').map((l) => `  ${l.trim()}`).join('\n')}
${outputs.map((f, i) => `  st.global.f32 [%rd6+${4 * i}], ${f};`).join('\n')}
DONE:
  ret;
}
`;
}

/** Runs `entry` of `ptx` over the triples `x` (3 words each); returns the output rows. */
export async function runTriples(ctx: Context, ptx: string, entry: string, x: Uint32Array, outputs: number): Promise<Uint32Array> {
  const n = x.length / 3;
  const fn = ctx.loadModule(ptx, { fileName: `${entry}.ptx` }).getFunction(entry);
  const din = ctx.malloc(x.byteLength);
  const dout = ctx.malloc(4 * outputs * n);
  try {
    ctx.memcpyHtoD(din, x);
    ctx.memset(dout, 0xab, 4 * outputs * n);
    fn.launch({ grid: [Math.ceil(n / 128), 1, 1], block: [128, 1, 1] }, [din, dout, n] as never);
    const out = new Uint32Array(outputs * n);
    await ctx.memcpyDtoH(out, dout);
    return out;
  } finally {
    ctx.free(din);
    ctx.free(dout);
  }
}
