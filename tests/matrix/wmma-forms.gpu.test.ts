// wmma forms beyond the recorded .row.col kernels: A and B in every pairing of .row/.col, C
// loaded and D stored column-major, operands staged through shared memory (`.shared` and
// generic addresses of it), .satfinite (kernels/wmma_forms.cu), and the stride operand left out
// or immediate (kernels/wmma_nostride.ptx). Random inputs; D must equal the JS reference
// (wmma-reference.ts) bit for bit on the `auto` and forced `emulated` warp paths.
import { afterAll, describe, expect, it } from 'vitest';
import { releaseDefaultDevice } from '../../runtime/device.js';
import { runKernel, type WarpPath } from './harness.js';
import { Random } from './reference.js';
import { BITS, SHAPES, address, packMemory, randomElements, referenceD, seedOf, unpackMemory, type WmmaType } from './wmma-reference.js';

afterAll(() => releaseDefaultDevice());

type Order = 'row' | 'col';
interface Form {
  readonly ptx: string; readonly kernel: string; readonly shape: string; readonly input: WmmaType; readonly acc: WmmaType;
  readonly a: Order; readonly b: Order; readonly c: Order; readonly d: Order; readonly satfinite: boolean;
}

const orders = (s: string): [Order, Order] => [s.slice(0, 3) as Order, s.slice(3) as Order];

/** form_<shape>_<input>_<acc>_<A><B>_<C><D>[_shared][_sat] */
function form(kernel: string): Form {
  const [, shape, input, acc, ab, cd, ...rest] = kernel.split('_') as [string, string, WmmaType, WmmaType, string, string, ...string[]];
  const [a, b] = orders(ab);
  const [c, d] = orders(cd);
  return { ptx: 'wmma_forms', kernel, shape, input, acc, a, b, c, d, satfinite: rest.includes('sat') };
}

const FORMS: Form[] = [
  ...[
    'form_m16n16k16_f16_f32_rowrow_colcol', 'form_m16n16k16_f16_f32_colcol_rowcol', 'form_m16n16k16_f16_f32_colrow_colrow_shared',
    'form_m32n8k16_f16_f16_colrow_colcol', 'form_m8n32k16_bf16_f32_colcol_rowrow_shared', 'form_m32n8k16_s8_s32_colrow_rowcol_sat',
    'form_m8n32k16_u8_s32_rowrow_colrow_shared', 'form_m16n16k8_tf32_f32_colrow_colcol', 'form_m8n8k4_f64_f64_colrow_colcol_shared',
  ].map(form),
  { ptx: 'wmma_nostride', kernel: 'wmma_nostride', shape: 'm32n8k16', input: 'f16', acc: 'f32', a: 'col', b: 'row', c: 'col', d: 'row', satfinite: false },
];

const words = (b: Uint8Array): Uint32Array => new Uint32Array(b.buffer, b.byteOffset, b.byteLength / 4);

describe.each(['auto', 'emulated'] as WarpPath[])('wmma forms, warpPath %s', (warpPath) => {
  it.each(FORMS.map((f) => [f.kernel, f] as const))('%s', async (_name, f) => {
    const [m, n, k] = SHAPES[f.shape] as [number, number, number];
    const rng = new Random(seedOf(f.kernel));
    const A = randomElements(f.input, m * k, rng);
    const B = randomElements(f.input, k * n, rng);
    const C = randomElements(f.acc, m * n, rng);
    // dense in each layout: the leading dimension is the row (.row) or column (.col) length
    const at = (o: Order, rows: number, cols: number, r: number, c: number): number => address(o, o === 'row' ? cols : rows, r, c);
    const spec = { m, n, k, input: f.input, c: f.acc, d: f.acc, satfinite: f.satfinite, bitOp: null };
    const D = referenceD(spec, (i, kk) => A[at(f.a, m, k, i, kk)] as bigint, (kk, j) => B[at(f.b, k, n, kk, j)] as bigint, (i, j) => C[at(f.c, m, n, i, j)] as bigint);
    const want = new Array<bigint>(m * n);
    D.forEach((row, i) => row.forEach((v, j) => { want[at(f.d, m, n, i, j)] = v; }));
    const run = await runKernel(f.ptx, f.kernel, { grid: 1, block: 32 }, [
      { in: words(packMemory(f.input, A)) }, { in: words(packMemory(f.input, B)) }, { in: words(packMemory(f.acc, C)) },
      { out: Math.ceil((m * n * BITS[f.acc]) / 32) },
    ], warpPath);
    const got = unpackMemory(f.acc, new Uint8Array((run.outputs[0] as Uint32Array).buffer), m * n);
    expect(got.map((v) => v.toString(16))).toEqual(want.map((v) => v.toString(16)));
  });
});
