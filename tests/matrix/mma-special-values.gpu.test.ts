// The portable mma's f16 and fp8 products are WGSL's own, unchecked (their inputs widen exactly
// and their products are never subnormal in f32: src/translate/handlers-mma.ts, the `exact`
// product of lowering/wgsl/emit-float.ts); the sums stay checked. Here the f16 forms run on
// operands the random cases avoid: infinities, NaN, signed zeros, the largest half and half
// subnormals in A and B, f32 subnormals, infinities and NaN in C, so that 0 * inf, inf - inf, a NaN
// product and sums that cancel to zero or a subnormal reach D. Bit for bit against the JS
// reference of the ISA semantics (tests/matrix/reference.ts: canonical NaN, each sum rounded),
// with the device's own float facts and with the checked sums' native arithmetic flushing
// subnormals as NVIDIA's driver does (replay mode 'flushing').
import { afterAll, describe, expect, it } from 'vitest';
import { createContext, getDefaultDevice, releaseDefaultDevice } from '../../src/index.js';
import { runtimeCompiler } from '../../src/runtime-compiler.js';
import { Context } from '../../runtime/context.js';
import { NO_NATIVE_FLOAT } from '../../lowering/wgsl/native-float.js';
import { runMatrixKernel } from './harness.js';
import { dPlace, dWords, MMA_LAUNCH, WARPS } from './mma-cases.js';
import { MMA_CASES, Random, pack, randomMatrix, referenceMma, unpack, wordsPerLane, type ElemType, type MmaCase } from './reference.js';

afterAll(() => releaseDefaultDevice());

const SPECIAL_HALVES = [0x7c00n, 0xfc00n, 0x7e00n, 0x7d01n, 0x0000n, 0x8000n, 0x0001n, 0x83ffn, 0x7bffn, 0xfbffn];
const SPECIAL_F32 = [0x00000001n, 0x80400000n, 0x7f800000n, 0xff800000n, 0x7fc00000n, 0x00000000n, 0x80000000n, 0x007fffffn];
const SPECIAL_C: Partial<Record<ElemType, readonly bigint[]>> = { f32: SPECIAL_F32, f16: SPECIAL_HALVES };

/** A random matrix with about one element in four replaced by a special value. */
function withSpecials(r: Random, rows: number, cols: number, t: ElemType, role: 'input' | 'acc'): bigint[][] {
  const specials = role === 'input' ? SPECIAL_HALVES : (SPECIAL_C[t] ?? []);
  return randomMatrix(r, rows, cols, t, role).map((row) => row.map((v) => (r.below(4) === 0 ? (specials[r.below(specials.length)] as bigint) : v)));
}

const FORMS = ['mma_m16n8k16_f32_f16', 'mma_m16n8k16_f16_f16', 'mma_m16n8k8_f32_f16'];
const CONTEXTS: Record<string, (device: GPUDevice) => Promise<Context>> = {
  'the device\'s own facts': (device) => createContext({ device }),
  'sums flushing subnormals': async (device) => new Context(device, runtimeCompiler.compileModule, { nativeFloat: NO_NATIVE_FLOAT, replayRegions: 'flushing' }),
};

describe.each(Object.keys(CONTEXTS))('portable mma on special values: %s', (context) => {
  it.each(FORMS)('%s', async (kernel) => {
    const c = MMA_CASES.find((x) => x.kernel === kernel) as MmaCase;
    const r = new Random(0x51ec1a1 ^ kernel.length);
    const A: bigint[][][] = [], B: bigint[][][] = [], C: bigint[][][] = [];
    const wa: number[] = [], wb: number[] = [], wc: number[] = [];
    for (let w = 0; w < WARPS; w++) {
      A.push(withSpecials(r, c.m, c.k, c.a, 'input'));
      B.push(withSpecials(r, c.k, c.n, c.b, 'input'));
      C.push(withSpecials(r, c.m, c.n, c.c, 'acc'));
      wa.push(...pack(A[w] as bigint[][], c.aAt, c.aCount, c.a));
      wb.push(...pack(B[w] as bigint[][], c.bAt, c.bCount, c.b));
      wc.push(...pack(C[w] as bigint[][], c.cAt, c.cCount, c.c));
    }
    const make = CONTEXTS[context] as (device: GPUDevice) => Promise<Context>;
    const run = await runMatrixKernel('mma_forms', kernel, MMA_LAUNCH, [Uint32Array.from(wa), Uint32Array.from(wb), Uint32Array.from(wc)], [dWords(c)], 'auto', [], async () => make(await getDefaultDevice()));
    const out = run.outputs[0] as Uint32Array;
    const per = 32 * wordsPerLane(c.cCount, c.d);
    const { at, rows } = dPlace(c);
    let specialsInD = 0;
    for (let w = 0; w < WARPS; w++) {
      const expected = referenceMma(c, A[w] as bigint[][], B[w] as bigint[][], C[w] as bigint[][]);
      const got = unpack(out.subarray(w * per, (w + 1) * per), rows, c.n, at, c.cCount, c.d);
      expect(got.map((row) => row.map((v) => v.toString(16))), `warp ${w}`).toEqual(expected.map((row) => row.map((v) => v.toString(16))));
      const expBits = c.d === 'f16' ? 0x7c00n : 0x7f800000n;
      specialsInD += expected.flat().filter((v) => (v & expBits) === expBits || (v & expBits) === 0n).length;
    }
    // the inputs must reach D as infinities, NaNs, zeros or subnormals, or the test proves little
    expect(specialsInD).toBeGreaterThan(WARPS * 8);
  });
});
